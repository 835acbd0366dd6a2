//! What the compiler checks for the derive: the typed constants every
//! attribute value is declared as, the checks of values the derive could
//! not read (each family's `problem` function, failing at the attribute),
//! and `#[bitpack(max_bytes = N)]` against `MAX_BITS`.

use crate::expand::codec::{adaptive, float, geometry, int, with};
use crate::expand::names::Names;
use crate::expand::runtime::{primitive_float, primitive_int};
use crate::expand::tokens::respan;
use crate::ir::consts::{Check, Const, ConstName, ConstTy};
use crate::parse::ty::{FloatTy, Scalar};
use crate::parse::value::{Literal, Value};
use proc_macro2::{Literal as LiteralToken, Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::Ident;

/// `const NAME: TY = VALUE;`; an integer literal for a float becomes a
/// float literal. Per-axis bounds are arrays: one number becomes `[value;
/// N]`, an array literal stays one (entry by entry), and a path goes through
/// `Bound(PATH).per_axis()`, which takes a scalar or an array constant (an
/// array of the wrong length is a type error at the path).
pub fn constant(names: &Names, constant: &Const<'_>) -> TokenStream {
    let Const { name, ty, value } = constant;
    let (ty_tokens, value) = match ty {
        ConstTy::Int(int) => (primitive_int(*int).to_token_stream(), scalar_value(value, Some(*ty))),
        ConstTy::Float(float) => (primitive_float(*float).to_token_stream(), scalar_value(value, Some(*ty))),
        ConstTy::Usize => (quote!(usize), scalar_value(value, None)),
        ConstTy::Axes(scalar, axes) => {
            let (element, element_ty) = match scalar {
                Scalar::Int(int) => (ConstTy::Int(*int), primitive_int(*int).to_token_stream()),
                Scalar::Float(float) => (ConstTy::Float(*float), primitive_float(*float).to_token_stream()),
            };
            let count = LiteralToken::usize_unsuffixed(*axes);
            let value = match &value.literal {
                Literal::Array(entries) => {
                    let entries = entries.iter().map(|entry| scalar_value(entry, Some(element)));
                    quote!([#(#entries),*])
                }
                Literal::Opaque => {
                    let (p, expr) = (&names.runtime, &value.expr);
                    respan(&quote!(#p::Bound(#expr).per_axis()), value.span())
                }
                Literal::Int(_) | Literal::Float(_) => {
                    let one = scalar_value(value, Some(element));
                    quote!([#one; #count])
                }
            };
            (quote!([#element_ty; #count]), value)
        }
    };
    quote!(const #name: #ty_tokens = #value;)
}

/// A value as written, an integer literal for a float `ty` as a float literal.
fn scalar_value(value: &Value, ty: Option<ConstTy>) -> TokenStream {
    match (&value.literal, ty) {
        (Literal::Int(int), Some(ConstTy::Float(float))) => {
            let mut literal = match float {
                FloatTy::F32 => LiteralToken::f32_suffixed(int.magnitude as f32),
                FloatTy::F64 => LiteralToken::f64_suffixed(int.magnitude as f64),
            };
            literal.set_span(value.span());
            if int.negative { quote!(-#literal) } else { quote!(#literal) }
        }
        _ => value.expr.to_token_stream(),
    }
}

/// A compile-time check of values given as paths to constants.
pub fn check(names: &Names, check: &Check) -> TokenStream {
    match check {
        Check::Range { int, range, span } => int::range_check(names, *int, range, *span),
        Check::Quantize { float, steps, span } => float::quantize_check(names, *float, steps, *span),
        Check::Fixed { res, span } => adaptive::fixed_check(names, res, *span),
        Check::Axes { bounds, span } => geometry::axes_check(names, bounds, *span),
        Check::Rotation { bits, span } => geometry::rotation_check(names, bits, *span),
        Check::With { path } => with::with_check(names, path),
    }
}

/// `MAX_BITS` checked against `#[bitpack(max_bytes = N)]` where it is
/// computed, and a check that forces that computation for a type without
/// generics (a generic type is checked where its `MAX_BITS` is used).
pub fn max_bytes(
    names: &Names,
    name: &Ident,
    has_generics: bool,
    max_bits: TokenStream,
    (max_bytes, span): &(ConstName, Span),
) -> (TokenStream, Option<TokenStream>) {
    let (p, local, problem) = (&names.runtime, &names.max_bits, &names.problem);
    let type_name = name.to_string();
    let max_bits = quote_spanned! {*span=>
        {
            let #local: usize = #max_bits;
            if let #p::Some(#problem) = #p::max_bytes_problem(#type_name, #local, #max_bytes) {
                ::core::panic!("{}", #problem.as_str())
            }
            #local
        }
    };
    let force =
        (!has_generics).then(|| quote_spanned!(*span=> const _: usize = <#name as #p::BitPack>::MAX_BITS;));
    (max_bits, force)
}
