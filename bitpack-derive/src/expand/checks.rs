//! What the compiler checks for the derive: the typed constants every
//! attribute value is declared as, the checks of values the derive could
//! not read (each family's `problem` function, failing at the attribute),
//! and `#[bitpack(max_bytes = N)]` against `MAX_BITS`.

use crate::expand::codec::{adaptive, float, int};
use crate::expand::names::Names;
use crate::expand::runtime::{primitive_float, primitive_int};
use crate::ir::consts::{Check, Const, ConstName, ConstTy};
use crate::parse::ty::FloatTy;
use crate::parse::value::Literal;
use proc_macro2::{Literal as LiteralToken, Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::Ident;

/// `const NAME: TY = VALUE;`; an integer literal for a float becomes a float literal.
pub fn constant(constant: &Const<'_>) -> TokenStream {
    let Const { name, ty, value } = constant;
    let ty_tokens = match ty {
        ConstTy::Int(int) => primitive_int(*int).to_token_stream(),
        ConstTy::Float(float) => primitive_float(*float).to_token_stream(),
        ConstTy::Usize => quote!(usize),
    };
    let value = match (&value.literal, ty) {
        (Literal::Int(int), ConstTy::Float(float)) => {
            let mut literal = match float {
                FloatTy::F32 => LiteralToken::f32_suffixed(int.magnitude as f32),
                FloatTy::F64 => LiteralToken::f64_suffixed(int.magnitude as f64),
            };
            literal.set_span(value.span());
            if int.negative { quote!(-#literal) } else { quote!(#literal) }
        }
        _ => {
            let expr = &value.expr;
            quote!(#expr)
        }
    };
    quote!(const #name: #ty_tokens = #value;)
}

/// A compile-time check of values given as paths to constants.
pub fn check(names: &Names, check: &Check) -> TokenStream {
    match check {
        Check::Range { int, range, span } => int::range_check(names, *int, range, *span),
        Check::Quantize { float, steps, span } => float::quantize_check(names, *float, steps, *span),
        Check::Fixed { res, span } => adaptive::fixed_check(names, res, *span),
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
