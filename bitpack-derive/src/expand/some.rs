//! `BitPack::__gathered_some` of an enum whose variants' fields are all
//! fixed-width scalars (those a fused run holds): `Some` of it, its
//! presence bit, tag and fields gathered into one word (each variant's
//! width a constant), which `__write_some` pushes at once where they were
//! a push each, and a counter counts as one value (`__private::write_option`).
//! A value refused, a variant past 64 bits or a buffer without room goes
//! the old way (the bit, then `write_to`). Every other type keeps the
//! default (nothing gathered).

use crate::expand::codec::codec;
use crate::expand::names::{Access, Names};
use crate::expand::pattern;
use crate::ir::items::Item;
use crate::ir::{Body, Variant};
use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote};

/// The override, if the body is such an enum (and not inside a sign scope).
pub fn expand(names: &Names, body: &Body<'_>, atomic: bool) -> TokenStream {
    match body {
        Body::Enum(variants) if atomic && !variants.is_empty() => enumeration(names, variants),
        _ => TokenStream::new(),
    }
}

fn enumeration(names: &Names, variants: &[Variant<'_>]) -> TokenStream {
    let (p, valid) = (&names.runtime, &names.valid);
    let count = Literal::u32_unsuffixed(variants.len() as u32);
    let mut arms = Vec::new();
    let mut any_field = false;
    for (index, variant) in variants.iter().enumerate() {
        let Some(puts) = puts(names, variant) else { return TokenStream::new() };
        any_field |= !puts.is_empty();
        let (ident, index) = (variant.ident, Literal::u32_unsuffixed(index as u32));
        let pattern = pattern::bind(names, &variant.fields, |_, field| field.encoding.is_some());
        arms.push(quote! {
            Self::#ident #pattern => #p::Gathered::some(#index, #p::tag_bits(#count) as ::core::primitive::u32)
                #(#puts)*,
        });
    }
    // Without fields nothing is refused.
    let binding = if any_field { quote!(let mut #valid = true;) } else { quote!(let #valid = true;) };
    quote! {
        #[inline(always)]
        fn __gathered_some(&self) -> #p::Option<#p::Gathered> {
            #binding
            let __gathered = match self {
                #(#arms)*
            };
            __gathered.accepted(#valid)
        }
    }
}

/// `.put(bits, width)` of each field of `variant` in wire order, or `None`
/// if one is not a scalar of a fused run.
fn puts(names: &Names, variant: &Variant<'_>) -> Option<Vec<TokenStream>> {
    let fields = &variant.fields;
    let mut puts = Vec::new();
    for item in &fields.items {
        let positions = match item {
            Item::Field(position) => std::slice::from_ref(position),
            Item::Run(positions) => positions.as_slice(),
            Item::AdaptiveGroup(_) => return None,
        };
        for &position in positions {
            let leaf = codec(fields.fields[position].encoding.as_ref()?).run_leaf()?;
            let access = Access::Ref(names.field(position).to_token_stream());
            let (bits, width) = (leaf.bits(names, access.value()), leaf.width(names));
            puts.push(quote!(.put(#bits, #width)));
        }
    }
    Some(puts)
}
