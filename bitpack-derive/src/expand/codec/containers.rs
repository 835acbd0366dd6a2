//! `Vec` (its length, then the elements), `Option` (a bool, then the
//! value), `Box` (what it holds), arrays (`len` values) and tuples (the
//! elements in order): each view made of its values' views.

use crate::expand::codec::{Codec, codec};
use crate::expand::names::{Access, Names};
use crate::expand::runtime;
use crate::expand::tokens::or;
use crate::ir::encoding::{Array, Boxed, Encoding, Int, Optional, Sequence, Tuple};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// Whether any element at `item` (bound by iterating `access`) holds a
/// negative adaptive value.
pub fn any_negative(
    names: &Names,
    element: &Encoding<'_>,
    access: &Access,
    depth: usize,
) -> Option<TokenStream> {
    let item = names.element(depth);
    let inner = codec(element).negative(names, &Access::Ref(quote!(#item)), depth + 1)?;
    let (a, reference) = (runtime::adaptive(&names.runtime), access.reference());
    Some(quote!(#a::Iterator::any(&mut #a::IntoIterator::into_iter(#reference), |#item| #inner)))
}

/// `|__reader| READ` as a closure returning `Result`: the read bound to a
/// local first (`Ok(READ?)` is what clippy calls a needless `?`).
fn read_closure(names: &Names, read: TokenStream, depth: usize) -> TokenStream {
    let (p, reader, item) = (&names.runtime, &names.reader, names.element(depth));
    quote! {
        |#reader| {
            let #item = #read;
            #p::Ok(#item)
        }
    }
}

/// The runtime's bulk paths for a sequence or array of this element, if
/// it has them (bools, and integers at full width): the same wire as the
/// element-by-element code, up to 64 bits a push or take.
pub struct Bulk {
    /// `write_bools` or `write_ints`: the length, then the elements.
    pub write: TokenStream,
    /// `read_bools` or `read_ints`, whose last type parameter is the
    /// collection made from the `Vec`.
    pub read: TokenStream,
    /// The type parameters `read` takes before the collection's.
    pub read_params: TokenStream,
    /// `write_bool_array` or `write_int_array`: the elements alone.
    pub write_array: TokenStream,
    /// `read_bool_array` or `read_int_array`.
    pub read_array: TokenStream,
}

/// [`Bulk`] for `element`, if it has a bulk path.
pub fn bulk(element: &Encoding<'_>) -> Option<Bulk> {
    match element {
        Encoding::Bool(_) => Some(Bulk {
            write: quote!(write_bools),
            read: quote!(read_bools),
            read_params: quote!(_),
            write_array: quote!(write_bool_array),
            read_array: quote!(read_bool_array),
        }),
        Encoding::Int(int @ Int { range: None, .. }) if int.fits_run() => Some(Bulk {
            write: quote!(write_ints),
            read: quote!(read_ints),
            read_params: quote!(_, _),
            write_array: quote!(write_int_array),
            read_array: quote!(read_int_array),
        }),
        _ => None,
    }
}

/// A derived (or any named) element type: its `Vec` goes through the
/// runtime's `write_items` / `read_items` and its array through
/// `__write_items`, so that a struct with quantized fused runs writes (and
/// in a `Vec` reads) them a block at a time (`expand::batch`).
fn items_of<'e>(element: &'e Encoding<'_>) -> Option<&'e syn::Type> {
    match element {
        Encoding::Nested(nested) => Some(nested.ty),
        _ => None,
    }
}

impl Codec for Sequence<'_> {
    fn write(&self, names: &Names, access: &Access, depth: usize) -> TokenStream {
        let (p, writer, reference, max_len) =
            (&names.runtime, &names.writer, access.reference(), &self.max_len);
        if let Some(Bulk { write, .. }) = bulk(&self.element) {
            return quote!(#p::#write(#writer, #reference, #max_len)?;);
        }
        if let Some(ty) = items_of(&self.element) {
            return quote_spanned!(ty.span()=> #p::write_items::<_, #ty>(#writer, #reference, #max_len)?;);
        }
        let item = names.element(depth);
        let write_element = codec(&self.element).write(names, &Access::Ref(quote!(#item)), depth + 1);
        quote! {
            #p::write_len(#writer, #p::Vec::len(#reference), #max_len)?;
            for #item in #reference {
                #write_element
            }
        }
    }

    /// Through `read_vec`: the length refused unless its elements can be in
    /// the input, then `len` `T`s claimed from the budget.
    fn read(&self, names: &Names, depth: usize) -> TokenStream {
        let (p, reader, max_len) = (&names.runtime, &names.reader, &self.max_len);
        if let Some(Bulk { read, .. }) = bulk(&self.element) {
            return quote!(#p::#read(#reader, #max_len)?);
        }
        if let Some(ty) = items_of(&self.element) {
            return quote_spanned!(ty.span()=> #p::read_items::<_, #ty>(#reader, #max_len)?);
        }
        let element = codec(&self.element);
        let min_element_bits = element.min_bits(names);
        let read_element = read_closure(names, element.read(names, depth + 1), depth);
        quote!(#p::read_vec(#reader, #max_len, #min_element_bits, #read_element)?)
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        let (p, max_len, element) = (&names.runtime, &self.max_len, codec(&self.element).max_bits(names));
        quote!(#p::vec_max_bits(#max_len, #element))
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        let (p, max_len) = (&names.runtime, &self.max_len);
        quote!(#p::len_bits(#max_len))
    }

    fn schema(&self, names: &Names) -> TokenStream {
        let (p, max_len, element) = (&names.runtime, &self.max_len, codec(&self.element).schema(names));
        quote!(#p::schema::vec(#max_len, #element))
    }

    fn negative(&self, names: &Names, access: &Access, depth: usize) -> Option<TokenStream> {
        any_negative(names, &self.element, access, depth)
    }
}

impl Codec for Optional<'_> {
    fn write(&self, names: &Names, access: &Access, depth: usize) -> TokenStream {
        let (p, writer, reference) = (&names.runtime, &names.writer, access.reference());
        let item = names.value(depth);
        // A type of its own writes `Some` of itself (`BitPack::__write_some`:
        // a derived enum of fixed-width fields, with its presence bit, in one
        // push; `__private::write_option`).
        if let (Encoding::Nested(_), Some(ty)) = (&*self.inner, codec(&self.inner).own_impl()) {
            return quote! {
                #p::write_option::<_, #ty>(#writer, #p::Option::as_ref(#reference))?;
            };
        }
        let write_inner = codec(&self.inner).write(names, &Access::Ref(quote!(#item)), depth + 1);
        quote! {
            match #reference {
                #p::Some(#item) => {
                    #p::BitWrite::write_bool(#writer, true)?;
                    #write_inner
                }
                #p::None => #p::BitWrite::write_bool(#writer, false)?,
            }
        }
    }

    fn read(&self, names: &Names, depth: usize) -> TokenStream {
        let (p, reader) = (&names.runtime, &names.reader);
        let read_inner = codec(&self.inner).read(names, depth + 1);
        quote! {
            if #p::BitRead::read_bool(#reader)? {
                #p::Some(#read_inner)
            } else {
                #p::None
            }
        }
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        let (p, inner) = (&names.runtime, codec(&self.inner).max_bits(names));
        quote!(#p::sum(&[1, #inner]))
    }

    fn min_bits(&self, _: &Names) -> TokenStream {
        quote!(1)
    }

    fn schema(&self, names: &Names) -> TokenStream {
        let (p, inner) = (&names.runtime, codec(&self.inner).schema(names));
        quote!(#p::schema::option(#inner))
    }

    fn negative(&self, names: &Names, access: &Access, depth: usize) -> Option<TokenStream> {
        let item = names.value(depth);
        let inner = codec(&self.inner).negative(names, &Access::Ref(quote!(#item)), depth + 1)?;
        let (p, reference) = (&names.runtime, access.reference());
        Some(quote!(match #reference { #p::Some(#item) => #inner, #p::None => false }))
    }
}

impl Codec for Boxed<'_> {
    fn write(&self, names: &Names, access: &Access, depth: usize) -> TokenStream {
        codec(&self.inner).write(names, &access.unboxed(), depth)
    }

    /// On the heap, its size claimed from the budget first: an array element
    /// by element (`read_boxed_array`, never on the stack whole), a type
    /// through its own `read_boxed`, anything else read then moved in.
    fn read(&self, names: &Names, depth: usize) -> TokenStream {
        let (p, reader) = (&names.runtime, &names.reader);
        match &*self.inner {
            Encoding::Array(array) => {
                let read_element = read_closure(names, codec(&array.element).read(names, depth + 1), depth);
                quote!(#p::read_boxed_array(#reader, #read_element)?)
            }
            Encoding::Nested(nested) => {
                let ty = nested.ty;
                quote_spanned!(ty.span()=> <#ty as #p::BitPack>::read_boxed(#reader)?)
            }
            inner => {
                let read_inner = read_closure(names, codec(inner).read(names, depth), depth);
                quote!(#p::read_box(#reader, #read_inner)?)
            }
        }
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        codec(&self.inner).max_bits(names)
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        codec(&self.inner).min_bits(names)
    }

    fn schema(&self, names: &Names) -> TokenStream {
        codec(&self.inner).schema(names)
    }

    fn negative(&self, names: &Names, access: &Access, depth: usize) -> Option<TokenStream> {
        codec(&self.inner).negative(names, &access.unboxed(), depth)
    }
}

impl Array<'_> {
    /// Its bulk path: for a length the derive does not unroll (a short
    /// literal one is unrolled, or joins a fused run).
    fn bulk(&self) -> Option<Bulk> {
        self.literal_len().is_none().then(|| bulk(&self.element)).flatten()
    }
}

impl Codec for Array<'_> {
    fn write(&self, names: &Names, access: &Access, depth: usize) -> TokenStream {
        let (p, writer, reference) = (&names.runtime, &names.writer, access.reference());
        if let Some(Bulk { write_array, .. }) = self.bulk() {
            return quote!(#p::#write_array(#writer, #reference)?;);
        }
        if let Some(ty) = items_of(&self.element) {
            return quote_spanned!(ty.span()=> <#ty as #p::BitPack>::__write_items(#reference, #writer)?;);
        }
        let item = names.element(depth);
        let write_element = codec(&self.element).write(names, &Access::Ref(quote!(#item)), depth + 1);
        quote! {
            for #item in #reference {
                #write_element
            }
        }
    }

    fn read(&self, names: &Names, depth: usize) -> TokenStream {
        let (p, reader, element) = (&names.runtime, &names.reader, codec(&self.element));
        if let Some(count) = self.literal_len() {
            // A short array read element by element in one array
            // expression: no `Option` per slot to fill and unwrap.
            let reads = (0..count).map(|_| element.read(names, depth + 1));
            return quote!([#(#reads),*]);
        }
        if let Some(Bulk { read_array, .. }) = self.bulk() {
            return quote!(#p::#read_array(#reader)?);
        }
        if let Some(ty) = element.own_impl() {
            return quote_spanned!(ty.span()=> #p::read_array(#reader, <#ty as #p::BitPack>::read_from)?);
        }
        let read_element = read_closure(names, element.read(names, depth + 1), depth);
        quote!(#p::read_array(#reader, #read_element)?)
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        let (p, len, element) = (&names.runtime, self.len, codec(&self.element).max_bits(names));
        quote!(#p::times(#len, #element))
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        let (p, len, element) = (&names.runtime, self.len, codec(&self.element).min_bits(names));
        quote!(#p::times(#len, #element))
    }

    fn schema(&self, names: &Names) -> TokenStream {
        let (p, len, element) = (&names.runtime, self.len, codec(&self.element).schema(names));
        quote!(#p::schema::array(#len, #element))
    }

    fn negative(&self, names: &Names, access: &Access, depth: usize) -> Option<TokenStream> {
        any_negative(names, &self.element, access, depth)
    }
}

impl Codec for Tuple<'_> {
    fn write(&self, names: &Names, access: &Access, depth: usize) -> TokenStream {
        let writes = self
            .elements
            .iter()
            .enumerate()
            .map(|(index, element)| codec(element).write(names, &access.element(index), depth));
        quote!(#(#writes)*)
    }

    fn read(&self, names: &Names, depth: usize) -> TokenStream {
        let reads = self.elements.iter().map(|element| codec(element).read(names, depth));
        quote!((#(#reads,)*))
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        let (p, elements) =
            (&names.runtime, self.elements.iter().map(|element| codec(element).max_bits(names)));
        quote!(#p::sum(&[#(#elements),*]))
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        let (p, elements) =
            (&names.runtime, self.elements.iter().map(|element| codec(element).min_bits(names)));
        quote!(#p::sum(&[#(#elements),*]))
    }

    fn schema(&self, names: &Names) -> TokenStream {
        let (p, elements) =
            (&names.runtime, self.elements.iter().map(|element| codec(element).schema(names)));
        quote!(#p::schema::sequence(&[#(#elements),*]))
    }

    fn negative(&self, names: &Names, access: &Access, depth: usize) -> Option<TokenStream> {
        let terms: Vec<_> = self
            .elements
            .iter()
            .enumerate()
            .filter_map(|(index, element)| codec(element).negative(names, &access.element(index), depth))
            .collect();
        (!terms.is_empty()).then(|| or(terms))
    }
}
