//! The collections beyond `String` and `Vec`, through the runtime's
//! `write_text`/`read_text` (`Box<str>`, `Cow<str>`, `Rc<str>`, `Arc<str>`),
//! `write_sequence`/`read_sequence` (`VecDeque`, `Box<[T]>`, `Rc<[T]>`,
//! `Arc<[T]>`), `write_map`/`read_map` and `write_set`/`read_set`: each
//! element's code inline in a closure, as a `Vec`'s is in its loop.

use crate::expand::codec::containers::{Bulk, any_negative, bulk};
use crate::expand::codec::{Codec, codec};
use crate::expand::names::{Access, Names};
use crate::expand::runtime;
use crate::ir::encoding::{Collection, Encoding};
use crate::parse::ty::SequenceTy;
use proc_macro2::TokenStream;
use quote::quote;

impl Collection<'_> {
    /// The values of a sequence as something to iterate: the `VecDeque`
    /// itself, a slice through its pointer.
    fn items(kind: SequenceTy, reference: TokenStream) -> TokenStream {
        match kind {
            SequenceTy::Vec | SequenceTy::Deque => reference,
            SequenceTy::Slice => quote!(&**#reference),
        }
    }
}

/// `|writer, element| { WRITE; Ok(()) }`: writes one value, `depth` containers down.
fn write_closure(names: &Names, encoding: &Encoding<'_>, local: TokenStream, depth: usize) -> TokenStream {
    let (p, writer) = (&names.runtime, &names.writer);
    let write = codec(encoding).write(names, &Access::Ref(local.clone()), depth + 1);
    quote!(|#writer, #local| {
        #write
        #p::Ok(())
    })
}

/// `|reader| { let value = READ; Ok(value) }`: reads one value, `depth`
/// containers down (`READ` ends in `?`: not `Ok(READ)`, which lints).
fn read_closure(names: &Names, encoding: &Encoding<'_>, depth: usize) -> TokenStream {
    let (p, reader, read) = (&names.runtime, &names.reader, codec(encoding).read(names, depth + 1));
    let value = names.element(depth);
    quote!(|#reader| {
        let #value = #read;
        #p::Ok(#value)
    })
}

impl Codec for Collection<'_> {
    fn write(&self, names: &Names, access: &Access, depth: usize) -> TokenStream {
        let (p, writer, reference) = (&names.runtime, &names.writer, access.reference());
        let element = names.element(depth);
        match self {
            Collection::Text { max_len, .. } => quote!(#p::write_text(#writer, #reference, #max_len)?;),
            Collection::Sequence { kind, max_len, element: encoding, adaptive_len: true, .. } => {
                let (items, write) =
                    (Self::items(*kind, reference), write_closure(names, encoding, quote!(#element), depth));
                quote!(#p::write_adaptive_len_sequence(#writer, #items, #max_len, #write)?;)
            }
            Collection::Sequence { kind, max_len, element: encoding, .. } => {
                if let Some(Bulk { write, .. }) = bulk(encoding) {
                    let items = Self::items(*kind, reference);
                    return quote!(#p::#write(#writer, #items, #max_len)?;);
                }
                let (items, write) =
                    (Self::items(*kind, reference), write_closure(names, encoding, quote!(#element), depth));
                quote!(#p::write_sequence(#writer, #items, #max_len, #write)?;)
            }
            Collection::Map { max_len, entry, .. } => {
                let value = names.value(depth);
                let write_key = write_closure(names, &entry[0], quote!(#element), depth);
                let write_value = write_closure(names, &entry[1], quote!(#value), depth);
                quote!(#p::write_map(#writer, #reference, #max_len, #write_key, #write_value)?;)
            }
            Collection::Set { max_len, element: encoding, .. } => {
                let write = write_closure(names, encoding, quote!(#element), depth);
                quote!(#p::write_set(#writer, #reference, #max_len, #write)?;)
            }
        }
    }

    fn read(&self, names: &Names, depth: usize) -> TokenStream {
        let (p, reader) = (&names.runtime, &names.reader);
        match self {
            Collection::Text { ty, max_len } => quote!(#p::read_text::<#ty>(#reader, #max_len)?),
            Collection::Sequence { ty, max_len, element, adaptive_len: true, .. } => {
                let (min_bits, read) = (codec(element).min_bits(names), read_closure(names, element, depth));
                quote!(#p::read_adaptive_len_sequence::<_, #ty, _>(#reader, #max_len, #min_bits, #read)?)
            }
            Collection::Sequence { ty, max_len, element, .. } => {
                if let Some(Bulk { read, read_params, .. }) = bulk(element) {
                    return quote!(#p::#read::<#read_params, #ty>(#reader, #max_len)?);
                }
                let (min_bits, read) = (codec(element).min_bits(names), read_closure(names, element, depth));
                quote!(#p::read_sequence::<_, #ty, _>(#reader, #max_len, #min_bits, #read)?)
            }
            Collection::Map { ty, max_len, entry } => {
                let (key, value) = (codec(&entry[0]), codec(&entry[1]));
                let min_bits = (key.min_bits(names), value.min_bits(names));
                let (read_key, read_value) =
                    (read_closure(names, &entry[0], depth), read_closure(names, &entry[1], depth));
                let (key_bits, value_bits) = min_bits;
                quote! {
                    #p::read_map::<_, #ty, _, _>(
                        #reader,
                        #max_len,
                        #p::sum(&[#key_bits, #value_bits]),
                        #read_key,
                        #read_value,
                    )?
                }
            }
            Collection::Set { ty, max_len, element } => {
                let (min_bits, read) = (codec(element).min_bits(names), read_closure(names, element, depth));
                quote!(#p::read_set::<_, #ty, _>(#reader, #max_len, #min_bits, #read)?)
            }
        }
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        let p = &names.runtime;
        match self {
            Collection::Text { max_len, .. } => quote!(#p::str_max_bits(#max_len)),
            Collection::Sequence { max_len, element, adaptive_len: true, .. } => {
                let element = codec(element).max_bits(names);
                quote!(#p::adaptive_len_vec_max_bits(#max_len, #element))
            }
            Collection::Sequence { max_len, element, .. } | Collection::Set { max_len, element, .. } => {
                let element = codec(element).max_bits(names);
                quote!(#p::vec_max_bits(#max_len, #element))
            }
            Collection::Map { max_len, entry, .. } => {
                let (key, value) = (codec(&entry[0]).max_bits(names), codec(&entry[1]).max_bits(names));
                quote!(#p::vec_max_bits(#max_len, #p::sum(&[#key, #value])))
            }
        }
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        let p = &names.runtime;
        if let Collection::Sequence { max_len, adaptive_len: true, .. } = self {
            return quote!(#p::column_len_min_bits(#max_len));
        }
        let (Collection::Text { max_len, .. }
        | Collection::Sequence { max_len, .. }
        | Collection::Map { max_len, .. }
        | Collection::Set { max_len, .. }) = self;
        quote!(#p::len_bits(#max_len))
    }

    fn schema(&self, names: &Names) -> TokenStream {
        let p = &names.runtime;
        match self {
            Collection::Text { max_len, .. } => quote!(#p::schema::string(#max_len)),
            Collection::Sequence { max_len, element, adaptive_len: true, .. } => {
                let element = codec(element).schema(names);
                quote!(#p::schema::adaptive_len_vec(#max_len, #element))
            }
            Collection::Sequence { max_len, element, .. } => {
                let element = codec(element).schema(names);
                quote!(#p::schema::vec(#max_len, #element))
            }
            Collection::Map { max_len, entry, .. } => {
                let (key, value) = (codec(&entry[0]).schema(names), codec(&entry[1]).schema(names));
                quote!(#p::schema::map(#max_len, #key, #value))
            }
            Collection::Set { max_len, element, .. } => {
                let element = codec(element).schema(names);
                quote!(#p::schema::set(#max_len, #element))
            }
        }
    }

    fn negative(&self, names: &Names, access: &Access, depth: usize) -> Option<TokenStream> {
        match self {
            Collection::Text { .. } => None,
            Collection::Sequence { kind, element, .. } => {
                let items = Self::items(*kind, access.reference());
                any_negative(names, element, &Access::Ref(items), depth)
            }
            Collection::Set { element, .. } => any_negative(names, element, access, depth),
            Collection::Map { entry, .. } => {
                let (key, value) = (names.element(depth), names.value(depth));
                let terms: Vec<_> = [
                    codec(&entry[0]).negative(names, &Access::Ref(quote!(#key)), depth + 1),
                    codec(&entry[1]).negative(names, &Access::Ref(quote!(#value)), depth + 1),
                ]
                .into_iter()
                .flatten()
                .collect();
                if terms.is_empty() {
                    return None;
                }
                let (a, reference) = (runtime::adaptive(&names.runtime), access.reference());
                Some(quote! {
                    #a::Iterator::any(&mut #a::IntoIterator::into_iter(#reference), |(#key, #value)| #((#terms))||*)
                })
            }
        }
    }
}
