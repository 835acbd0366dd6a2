//! Patterns that bind a variant's fields to locals, and the expressions
//! that build a struct or variant back from them.

use crate::expand::names::Names;
use crate::ir::{Field, Fields};
use crate::parse::Style;
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

/// `{ a: __field0, b: _ }`, `(__field0, _)` or nothing: binds the local of
/// each field `bind` keeps, and ignores the others.
pub fn bind(
    names: &Names,
    fields: &Fields<'_>,
    mut bind: impl FnMut(usize, &Field<'_>) -> bool,
) -> TokenStream {
    let bindings: Vec<_> = fields
        .fields
        .iter()
        .enumerate()
        .map(|(position, field)| match bind(position, field) {
            true => names.field(position).into_token_stream(),
            false => quote!(_),
        })
        .collect();
    let members = fields.fields.iter().map(|field| &field.member);
    match fields.style {
        Style::Named => quote!({ #(#members: #bindings),* }),
        Style::Tuple => quote!(( #(#bindings),* )),
        Style::Unit => quote!(),
    }
}

/// `path { a: __field0, .. }` (or the tuple or unit form) from every field's local.
pub fn construct(names: &Names, path: TokenStream, fields: &Fields<'_>) -> TokenStream {
    let locals = (0..fields.fields.len()).map(|position| names.field(position));
    match fields.style {
        Style::Named => {
            let members = fields.fields.iter().map(|field| &field.member);
            quote!(#path { #(#members: #locals),* })
        }
        Style::Tuple => quote!(#path(#(#locals),*)),
        Style::Unit => path,
    }
}
