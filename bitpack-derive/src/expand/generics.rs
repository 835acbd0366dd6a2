//! The generics of the generated impls: every type parameter is
//! `BitPack`, and a field type that names one gets the bounds its
//! encoding needs (`SignScope` for a nested sign scope, `Clone` and
//! `ChangeGroups` in change groups), spanned at the field's type so an
//! unmet bound is reported there. Concrete types are checked where used,
//! but for the vectors and quaternions (`Axes`, `Quaternion`) and nested
//! change groups, bound once at the field instead of at every call.

use crate::expand::names::Names;
use crate::expand::runtime::{primitive_float, primitive_int};
use crate::expand::tokens::respan;
use crate::ir::adaptive::Adaptive;
use crate::ir::consts::AxisBounds;
use crate::ir::encoding::Encoding;
use crate::ir::geometry::{Rotation, Vector};
use crate::ir::items::{ChangeItem, Changes};
use crate::ir::{Body, Field};
use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{GenericParam, Generics, Ident, WhereClause};

/// The input's generics with `T: BitPack` on every type parameter, and
/// those parameters' names.
pub fn bitpack_bounded(names: &Names, generics: &Generics) -> (Generics, Vec<Ident>) {
    let p = &names.runtime;
    let mut generics = generics.clone();
    let params: Vec<Ident> = generics
        .params
        .iter()
        .filter_map(|param| match param {
            GenericParam::Type(param) => Some(param.ident.clone()),
            _ => None,
        })
        .collect();
    let where_clause = generics.make_where_clause();
    for ident in &params {
        where_clause.predicates.push(syn::parse_quote!(#ident: #p::BitPack));
    }
    (generics, params)
}

/// Whether `tokens` name any of `params`.
pub fn mentions(tokens: TokenStream, params: &[Ident]) -> bool {
    tokens.into_iter().any(|token| match token {
        TokenTree::Ident(ident) => params.contains(&ident),
        TokenTree::Group(group) => mentions(group.stream(), params),
        _ => false,
    })
}

/// `Type: SignScope` for each nested sign scope that names a type parameter.
pub fn bound_scoped(names: &Names, body: &Body<'_>, params: &[Ident], where_clause: &mut WhereClause) {
    let a = crate::expand::runtime::adaptive(&names.runtime);
    let scoped =
        body.field_lists().flat_map(|fields| fields.encodings()).flat_map(Encoding::walk).filter_map(
            |encoding| match encoding {
                Encoding::Adaptive(Adaptive::Scoped(ty)) => Some(*ty),
                _ => None,
            },
        );
    for ty in scoped {
        if mentions(ty.to_token_stream(), params) {
            where_clause.predicates.push(syn::parse_quote!(#ty: #a::SignScope));
        }
    }
}

/// `Type: Axes<T, N>` for each vector with bounds and `Type: Quaternion`
/// for each quaternion, spanned at the type: a type that is neither (one
/// of the user's named like glam's, or glam's without the `glam` feature)
/// fails that one bound, with its message, instead of every call.
pub fn bound_geometry<'e>(
    names: &Names,
    encodings: impl Iterator<Item = &'e Encoding<'e>>,
    where_clause: &mut WhereClause,
) {
    let mut bounded = std::collections::HashSet::new();
    for encoding in encodings.flat_map(Encoding::walk) {
        let (ty, bound) = match encoding {
            Encoding::Vector(Vector { ty, axes, bounds }) => {
                let scalar = match bounds {
                    AxisBounds::Quantized(float, _) => primitive_float(*float),
                    AxisBounds::Ranged(int, _) => primitive_int(*int),
                };
                let axes = proc_macro2::Literal::usize_unsuffixed(*axes);
                (ty, quote::quote!(Axes<#scalar, #axes>))
            }
            Encoding::Rotation(Rotation { ty, .. }) => (ty, quote::quote!(smallest_three::Quaternion)),
            _ => continue,
        };
        // One bound per type and trait, however many fields need it.
        if bounded.insert(format!("{} {bound}", ty.to_token_stream())) {
            let p = respan(&names.runtime.to_token_stream(), ty.span());
            let bound = respan(&bound, ty.span());
            where_clause.predicates.push(syn::parse_quote_spanned!(ty.span()=> #ty: #p::#bound));
        }
    }
}

/// The bounds of the `ChangeGroups` impl, each spanned at its field's
/// type: a grouped field whose type names a type parameter must be `Clone`
/// (`read_delta` keeps the baseline's), and every nested field's type
/// `ChangeGroups`, concrete ones too: a type without groups then fails
/// that one bound, at the field, instead of every use in the impl as well.
pub fn bound_changes(
    names: &Names,
    changes: &Changes,
    fields: &[Field<'_>],
    params: &[Ident],
    where_clause: &mut WhereClause,
) {
    for item in &changes.items {
        let (positions, nested) = match item {
            ChangeItem::Always(_) | ChangeItem::Keyed { .. } => continue,
            ChangeItem::Group(group) => (group.fields.as_slice(), false),
            ChangeItem::Nested { field, .. } => (std::slice::from_ref(field), true),
        };
        for ty in positions.iter().map(|position| fields[*position].ty) {
            let p = respan(&names.runtime.to_token_stream(), ty.span());
            if mentions(ty.to_token_stream(), params) {
                where_clause.predicates.push(syn::parse_quote_spanned!(ty.span()=> #ty: #p::Clone));
            }
            if nested {
                where_clause.predicates.push(syn::parse_quote_spanned!(ty.span()=> #ty: #p::ChangeGroups));
            }
        }
    }
}
