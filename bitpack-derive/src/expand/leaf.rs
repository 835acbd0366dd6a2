//! A type whose whole wire is one fixed-width scalar of at most 64 bits,
//! as one leaf of a parent's fused run (`BitPack::__LEAF_BITS`, `__leaf`,
//! `__from_leaf`): an enum whose variants have no fields (its tag) and a
//! struct whose fields are one run. A block of a parent's elements
//! (`expand::batch`) then takes the nested value with its neighbours in one
//! run rather than through the value's own `write_to` / `read_from`. Every
//! other type keeps the trait's defaults (no leaf).

use crate::expand::names::{Access, Names};
use crate::expand::{pattern, run};
use crate::ir::{Body, Variant};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// The leaf items of the impl, if the body is a leaf (and not inside a sign
/// scope, which is never one run).
pub fn expand(names: &Names, body: &Body<'_>, atomic: bool) -> TokenStream {
    match body {
        _ if !atomic => TokenStream::new(),
        Body::Enum(variants) => enumeration(names, variants),
        Body::Struct(fields) if fields.is_one_run() => {
            let written: Vec<_> = fields
                .fields
                .iter()
                .filter_map(|field| {
                    let member = &field.member;
                    Some((Access::Place(quote!(self.#member)), field.encoding.as_ref()?))
                })
                .collect();
            let read: Vec<_> = fields
                .fields
                .iter()
                .enumerate()
                .filter_map(|(position, field)| Some((field.encoding.as_ref()?, names.field(position))))
                .collect();
            let construct = pattern::construct(names, quote!(Self), fields);
            run::as_leaf(names, &written, &read, construct)
        }
        Body::Struct(_) => TokenStream::new(),
    }
}

/// An enum of variants without fields: its tag (`write_tag` / `read_tag`,
/// `tag_bits` of the variant count), refused past the last variant.
fn enumeration(names: &Names, variants: &[Variant<'_>]) -> TokenStream {
    if variants.is_empty() || variants.iter().any(|variant| !variant.fields.fields.is_empty()) {
        return TokenStream::new();
    }
    let (p, word) = (&names.runtime, &names.run);
    let count = Literal::u32_unsuffixed(variants.len() as u32);
    let (mut tags, mut builds) = (Vec::new(), Vec::new());
    for (index, variant) in variants.iter().enumerate() {
        let ident = variant.ident;
        let index = Literal::u64_unsuffixed(index as u64);
        let construct = pattern::construct(names, quote!(Self::#ident), &variant.fields);
        tags.push(quote!(Self::#ident { .. } => #index,));
        builds.push(quote!(#index => #p::Some(#construct),));
    }
    quote! {
        const __LEAF_BITS: ::core::primitive::u32 = #p::tag_bits(#count) as ::core::primitive::u32;

        #[inline(always)]
        fn __leaf(&self) -> #p::Option<::core::primitive::u64> {
            #p::Some(match self {
                #(#tags)*
            })
        }

        #[inline(always)]
        fn __from_leaf(#word: ::core::primitive::u64) -> #p::Option<Self> {
            match #word {
                #(#builds)*
                _ => #p::None,
            }
        }
    }
}
