//! Keyed collections, through the runtime's `keyed::map` or
//! `keyed::sorted_vec` (the same functions; a sorted `Vec` also passes
//! `<V as KeyField>::key`). Whole here, as `write_to` and `read_from`
//! write them; the delta, read and sent-state calls are for the change
//! groups. Every call is spanned at the entries' type, so an entry type
//! without `ChangeGroups` (or a key) is reported there.

use crate::expand::codec::Codec;
use crate::expand::names::{Access, Names};
use crate::expand::runtime;
use crate::expand::tokens::respan;
use crate::ir::Body;
use crate::ir::encoding::Encoding;
use crate::ir::keyed::{Form, Keyed};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::WhereClause;
use syn::spanned::Spanned;

impl Keyed<'_> {
    /// The runtime module, spanned at the entries' type.
    fn module(&self, names: &Names) -> TokenStream {
        respan(&runtime::keyed(&names.runtime, &self.form), self.value.span())
    }

    /// A call of the runtime's `function` with `args`: the module's, or for
    /// a map when `flat` (a sender's method of a type it may hold flat) the
    /// one `keyed::FlatProbe` finds for its entries (`flat_map`'s when they
    /// are `Send + Sync`, else `map`'s).
    fn call(&self, names: &Names, flat: bool, function: &str, args: TokenStream) -> TokenStream {
        let function = syn::Ident::new(function, self.value.span());
        match &self.form {
            Form::Map { key } if flat => {
                let (p, value) = (&names.runtime, self.value);
                quote_spanned! {value.span()=>
                    {
                        #[allow(unused_imports)]
                        use #p::keyed::{ViaFlat as _, ViaTree as _};
                        (&&#p::keyed::FlatProbe::<#key, #value>::new()).#function(#args)
                    }
                }
            }
            _ => {
                let module = self.module(names);
                quote_spanned!(self.value.span()=> #module::#function(#args))
            }
        }
    }

    /// The key type `K`.
    fn key(&self, names: &Names) -> TokenStream {
        match &self.form {
            Form::Map { key } => key.to_token_stream(),
            Form::SortedVec => {
                let (value, key_field) = (self.value, runtime::key_field(&names.runtime));
                quote_spanned!(value.span()=> <#value as #key_field>::Key)
            }
        }
    }

    /// `, <V as KeyField>::key` for a sorted `Vec`, nothing for a map.
    fn key_of(&self, names: &Names) -> TokenStream {
        match &self.form {
            Form::Map { .. } => TokenStream::new(),
            Form::SortedVec => {
                let (value, key_field) = (self.value, runtime::key_field(&names.runtime));
                quote_spanned!(value.span()=> , <#value as #key_field>::key)
            }
        }
    }

    /// What new entries are sent against: the `spawn` function, or `V::default`.
    fn spawn(&self, names: &Names) -> TokenStream {
        match self.spawn {
            Some(spawn) => spawn.to_token_stream(),
            None => {
                let (p, value) = (&names.runtime, self.value);
                quote_spanned!(value.span()=> <#value as #p::Default>::default)
            }
        }
    }

    /// Writes the collection at `access` whole, through `budget` (an
    /// `Option<&mut Budget>` expression; `flat`: see [`Keyed::module`]).
    pub fn write_whole(
        &self,
        names: &Names,
        access: &Access,
        budget: &TokenStream,
        flat: bool,
    ) -> TokenStream {
        let (writer, max_len, key_of) = (&names.writer, &self.max_len, self.key_of(names));
        let reference = access.reference();
        let call = self.call(names, flat, "write", quote!(#writer, #reference, #max_len #key_of, #budget));
        quote_spanned!(self.value.span()=> #call?;)
    }

    /// Writes the delta of the collection at `now` against `base`, through `budget`.
    pub fn write_delta(
        &self,
        names: &Names,
        now: &Access,
        base: &Access,
        budget: &TokenStream,
        flat: bool,
    ) -> TokenStream {
        let (writer, max_len) = (&names.writer, &self.max_len);
        let (spawn, key_of, now, base) =
            (self.spawn(names), self.key_of(names), now.reference(), base.reference());
        let args = quote!(#writer, #now, #base, #max_len, #spawn #key_of, #budget);
        let call = self.call(names, flat, "write_delta", args);
        quote_spanned!(self.value.span()=> #call?;)
    }

    /// Keeps the entries of the collection at `place` that `keep` (a
    /// `&mut dyn FnMut(Entry) -> bool`) answers `true` for, as collection
    /// `collection`.
    pub fn retain(
        &self,
        names: &Names,
        place: TokenStream,
        collection: &TokenStream,
        keep: &TokenStream,
    ) -> TokenStream {
        let (module, key_of) = (self.module(names), self.key_of(names));
        quote_spanned!(self.value.span()=> #module::retain(&mut #place, #collection, #keep #key_of);)
    }

    /// Calls `f` (a `&mut dyn FnMut(Entry)`) with each entry of the
    /// collection at `place`, as collection `collection`.
    pub fn each(
        &self,
        names: &Names,
        place: TokenStream,
        collection: &TokenStream,
        f: &TokenStream,
    ) -> TokenStream {
        let (module, key_of) = (self.module(names), self.key_of(names));
        quote_spanned!(self.value.span()=> #module::each(&#place, #collection, #f #key_of);)
    }

    /// Whether the collection at `place` holds `key`, and if so whether
    /// `base` (an `Option<&Collection>` expression) holds it equal.
    pub fn holds(
        &self,
        names: &Names,
        place: TokenStream,
        base: TokenStream,
        key: TokenStream,
    ) -> TokenStream {
        let (module, key_of) = (self.module(names), self.key_of(names));
        quote_spanned!(self.value.span()=> #module::holds(&#place, #base, #key #key_of))
    }

    /// The collection read as a delta against `base`.
    pub fn read_delta(&self, names: &Names, base: &Access) -> TokenStream {
        let (module, reader, max_len) = (self.module(names), &names.reader, &self.max_len);
        let (spawn, key_of, base) = (self.spawn(names), self.key_of(names), base.reference());
        quote_spanned!(self.value.span()=> #module::read_delta(#reader, #base, #max_len, #spawn #key_of)?)
    }

    /// Makes the collection at `state` (a copy of the one at `now`) what the
    /// receiver holds after the packet the budget wrote, against `base` (an
    /// `Option<&Collection>` expression).
    pub fn sent_state(
        &self,
        names: &Names,
        now: &Access,
        state: &Access,
        base: TokenStream,
        flat: bool,
    ) -> TokenStream {
        let (budget, now, state) = (&names.budget, now.reference(), state.value());
        let (p, value) = (&names.runtime, self.value);
        let (base, key_of) = match self.form {
            Form::Map { .. } => (base, TokenStream::new()),
            // The runtime takes the baseline's entries as a slice.
            Form::SortedVec => {
                let key_field = runtime::key_field(p);
                (
                    quote_spanned!(value.span()=> #p::Option::map(#base, #p::Vec::as_slice)),
                    quote_spanned!(value.span()=> <#value as #key_field>::key,),
                )
            }
        };
        let call = self.call(names, flat, "sent_state", quote!(#now, &mut #state, #base, #key_of #budget));
        quote_spanned!(value.span()=> #call?)
    }
}

/// `K: Key` (or `V: KeyField`) for each keyed collection, spanned at the
/// key's (or the entries') type: a type that cannot key is reported there,
/// once, and not at every runtime call.
pub fn bound_keys(names: &Names, body: &Body<'_>, where_clause: &mut WhereClause) {
    let p = &names.runtime;
    for encoding in body.field_lists().flat_map(|fields| fields.encodings()) {
        let Encoding::Keyed(keyed) = encoding else { continue };
        let (ty, bound) = match &keyed.form {
            Form::Map { key } => (*key, quote!(keyed::Key)),
            Form::SortedVec => (keyed.value, quote!(keyed::KeyField)),
        };
        let (p, bound) = (respan(&p.to_token_stream(), ty.span()), respan(&bound, ty.span()));
        where_clause.predicates.push(syn::parse_quote_spanned!(ty.span()=> #ty: #p::#bound));
    }
}

impl Codec for Keyed<'_> {
    fn write(&self, names: &Names, access: &Access, _: usize) -> TokenStream {
        let p = &names.runtime;
        self.write_whole(names, access, &quote!(#p::None), false)
    }

    fn read(&self, names: &Names, _: usize) -> TokenStream {
        let (module, reader, max_len, key_of) =
            (self.module(names), &names.reader, &self.max_len, self.key_of(names));
        quote_spanned!(self.value.span()=> #module::read(#reader, #max_len #key_of)?)
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        let (module, key, value, max_len) = (self.module(names), self.key(names), self.value, &self.max_len);
        quote_spanned!(value.span()=> #module::max_bits::<#key, #value>(#max_len))
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        let (module, max_len) = (self.module(names), &self.max_len);
        quote!(#module::min_bits(#max_len))
    }

    fn schema(&self, names: &Names) -> TokenStream {
        let (module, key, value, max_len) = (self.module(names), self.key(names), self.value, &self.max_len);
        quote_spanned!(value.span()=> #module::schema::<#key, #value>(#max_len))
    }
}
