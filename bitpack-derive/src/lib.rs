//! `#[derive(BitPack)]` for the `bitpack` crate. Use it through `bitpack`,
//! which re-exports it and documents the attributes.
//!
//! The derive runs in phases, each in its own module: `ast` reads the
//! input into typed structs (with `attr` parsing the helper attributes),
//! `valid` checks everything and plans the wire layout (`plan`),
//! reporting every mistake at once, and `expand` turns a plan into code
//! and cannot fail. On mistakes, `fallback` emits them with a stub impl.
//! Adaptive integers (`adaptive`) and change groups (`change`) hook into
//! `valid` and `expand`; `run` fuses consecutive fixed-width fields.

mod adaptive;
mod ast;
mod attr;
mod change;
mod errors;
mod expand;
mod fallback;
mod plan;
mod run;
mod ty;
mod valid;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `bitpack::BitPack`. See the `bitpack` crate documentation for the attributes.
#[proc_macro_derive(BitPack, attributes(bitpack, bits, quantize, change_group))]
pub fn derive_bitpack(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let mut errors = errors::Errors::default();
    let ast = ast::Input::from_syn(&input, &mut errors);
    match valid::plan(&ast, errors) {
        Ok(plan) => expand::expand(&plan),
        Err(errors) => fallback::expand(&input, errors),
    }
    .into()
}
