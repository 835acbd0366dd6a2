//! The code of a field list's items (`ir::items::Item`), in wire order: a
//! field by its codec, a fused run as one, an adaptive field group as an
//! array of its fields' values. Shared by `write_to`/`read_from` and by the
//! change groups.

use crate::expand::codec::codec;
use crate::expand::names::{Access, Names};
use crate::expand::run;
use crate::ir::Field;
use crate::ir::encoding::Encoding;
use crate::ir::items::Item;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// Writes `item` of `fields`, each field at `access(position)`.
pub fn write(
    names: &Names,
    fields: &[Field<'_>],
    item: &Item,
    access: &dyn Fn(usize) -> Access,
) -> TokenStream {
    match item {
        Item::Field(position) => match &fields[*position].encoding {
            Some(encoding) => codec(encoding).write(names, &access(*position), 0),
            None => TokenStream::new(),
        },
        Item::Run(positions) => {
            let written: Vec<(Access, &Encoding<'_>)> = positions
                .iter()
                .filter_map(|&position| Some((access(position), fields[position].encoding.as_ref()?)))
                .collect();
            run::write(names, &written)
        }
        Item::AdaptiveGroup(group) => {
            let values = group.positions.iter().map(|&position| access(position).value());
            codec(&group.encoding()).write(names, &Access::Ref(quote!(&[#(#values),*])), 0)
        }
    }
}

/// Statements binding the local of each field of `item` (`names.field`).
pub fn read(names: &Names, fields: &[Field<'_>], item: &Item) -> TokenStream {
    match item {
        Item::Field(position) => {
            let (local, read) = (names.field(*position), read_field(names, &fields[*position]));
            quote!(let #local = #read;)
        }
        Item::Run(positions) => {
            let read: Vec<_> = positions
                .iter()
                .filter_map(|&position| Some((fields[position].encoding.as_ref()?, names.field(position))))
                .collect();
            run::read(names, &read)
        }
        Item::AdaptiveGroup(group) => {
            let locals = group.positions.iter().map(|&position| names.field(position));
            let read = codec(&group.encoding()).read(names, 0);
            quote!(let [#(#locals),*] = #read;)
        }
    }
}

/// A field's value as it is read; a skipped field's `Default`.
pub fn read_field(names: &Names, field: &Field<'_>) -> TokenStream {
    match &field.encoding {
        Some(encoding) => codec(encoding).read(names, 0),
        None => {
            let (p, ty) = (&names.runtime, field.ty);
            quote_spanned!(ty.span()=> <#ty as #p::Default>::default())
        }
    }
}

/// The MAX_BITS terms, the MIN_BITS terms and the SCHEMA parts of `items`, in order.
pub fn sizes(
    names: &Names,
    fields: &[Field<'_>],
    items: &[Item],
) -> (Vec<TokenStream>, Vec<TokenStream>, Vec<TokenStream>) {
    let (mut max_bits, mut min_bits, mut schemas) = (Vec::new(), Vec::new(), Vec::new());
    let mut add = |encoding: &Encoding<'_>| {
        let codec = codec(encoding);
        max_bits.push(codec.max_bits(names));
        min_bits.push(codec.min_bits(names));
        schemas.push(codec.schema(names));
    };
    for item in items {
        match item {
            Item::Field(position) => fields[*position].encoding.iter().for_each(&mut add),
            Item::Run(positions) => {
                positions.iter().filter_map(|&position| fields[position].encoding.as_ref()).for_each(&mut add)
            }
            Item::AdaptiveGroup(group) => add(&group.encoding()),
        }
    }
    (max_bits, min_bits, schemas)
}
