//! `#[derive(BitPack)]` for the `bitpack` crate. Use it through `bitpack`,
//! which re-exports it and documents the attributes.
//!
//! The derive runs in three phases, in layers whose imports only point
//! down: `lib` -> `check`, `expand`, `fallback` -> `ir` -> `parse` -> `errors`.
//! `parse` reads the input into typed structs and attributes, `check`
//! checks everything and plans the wire layout (`ir`), reporting every
//! mistake at once, and `expand` turns the plan into code and cannot fail.
//! On mistakes, `fallback` emits them with a stub impl.
//!
//! ```text
//! src/
//! ├── lib.rs                      the entry point: parse, check, then expand or fall back
//! ├── errors.rs                   collects every mistake, each once
//! ├── fallback.rs                 on mistakes: the errors and a stub impl
//! ├── parse/                      the input as written, knowing no encodings
//! │   ├── mod.rs                  the input: fields, variants, their attributes
//! │   ├── keys.rs                 the keys table of each attribute, and its reader
//! │   ├── value.rs                attribute values; the one literal parser
//! │   ├── attrs.rs                #[bits], #[quantize], #[bitpack] on fields, variants, the type
//! │   ├── change_group.rs         #[change_group] and #[change_group(name)]
//! │   └── ty.rs                   what a field's type is (IntTy, FloatTy, Scalar, Shape), by name
//! ├── ir/                         the plan as data, with pure queries
//! │   ├── mod.rs                  Plan, Body, Fields, Field
//! │   ├── encoding.rs             how a value goes on the wire (collections, `with` too); walk, run leaves, relative
//! │   ├── adaptive.rs             adaptive integers, groups, fixed point
//! │   ├── geometry.rs             vectors with per-axis bounds, smallest-three quaternions
//! │   ├── items.rs                wire order: fields, fused runs, adaptive groups, change groups
//! │   ├── consts.rs               typed constants and compile-time checks
//! │   ├── keyed.rs                keyed collections and the #[bitpack(key)] field
//! │   ├── columns.rs              #[bitpack(columns)]: which column an encoding becomes
//! │   └── runtime.rs              the path to <crate>::__private
//! ├── check/                      plans each field by rules, then runs passes
//! │   ├── mod.rs                  the driver: fields through the rules, then the passes
//! │   ├── planner.rs              plans a field: reach, rules in order, unused attributes
//! │   ├── reach.rs                which attributes reach a value; clashes and leftovers
//! │   ├── keyed.rs                keyed collections, planned before the rules
//! │   ├── rules/                  one rule per encoding, tried in order
//! │   │   ├── mod.rs              the order of the rules
//! │   │   ├── with.rs             #[bitpack(with = module)]: the whole field
//! │   │   ├── columns.rs          #[bitpack(columns)]: the outermost Vec or array
//! │   │   ├── fixed.rs            #[quantize(res)] alone: fixed point
//! │   │   ├── adaptive.rs         #[bitpack(adaptive)]
//! │   │   ├── rotation.rs         #[quantize(bits = N)] on a quaternion
//! │   │   ├── vector.rs           per-axis #[quantize] and #[bits] on glam and mint vectors
//! │   │   ├── ranged.rs           #[bits(min, max)]
//! │   │   ├── quantized.rs        #[quantize(min, max, res)], checked by the core
//! │   │   ├── text.rs             String with max_len
//! │   │   ├── collections.rs      Box<str> and the like, VecDeque, boxed slices, maps, sets
//! │   │   ├── containers.rs       Vec, Option, Box, arrays, tuples
//! │   │   └── plain.rs            bool, integers, floats, nested types, the unsupported
//! │   └── passes/                 checks and layout across fields
//! │       ├── mod.rs              each field list beside its plan
//! │       ├── adaptive_groups.rs  adaptive(group) into one item
//! │       ├── change_groups.rs    #[change_group] and relative into Changes
//! │       ├── columns.rs          #[bitpack(columns)] on the type: every field a column
//! │       ├── keyed.rs            #[bitpack(key)] and spawn
//! │       ├── recursion.rs        a type that holds itself, refused at the field
//! │       └── runs.rs             fixed-width fields fused into runs
//! └── expand/                     the impls; cannot fail
//!     ├── mod.rs                  the BitPack impl around the parts
//!     ├── atomic.rs               bodies that fail whole (write_atomic, read_atomic)
//!     ├── names.rs                every generated name, and Access
//!     ├── runtime.rs              the runtime items per integer and float type
//!     ├── codec/                  one file per encoding family, all its views
//!     │   ├── mod.rs              the Codec trait and the one match over Encoding
//!     │   ├── bool.rs             bool
//!     │   ├── int.rs              integers, plain and ranged
//!     │   ├── float.rs            floats, plain and quantized
//!     │   ├── text.rs             String
//!     │   ├── containers.rs       Vec, Option, Box, arrays, tuples
//!     │   ├── nested.rs           through a type's own BitPack
//!     │   ├── adaptive.rs         adaptive values and their signs
//!     │   ├── geometry.rs         vectors and quaternions: fields, run parts, relative
//!     │   ├── collections.rs      the collections beyond String and Vec
//!     │   ├── with.rs             a field through a `with` module
//!     │   ├── columns.rs          a collection as columns, and each column's views
//!     │   └── keyed.rs            keyed collections: whole, delta, sent state
//!     ├── body.rs                 a struct's and an enum's sizes, write_to and read_from
//!     ├── items.rs                the code of wire items, shared with change groups
//!     ├── run.rs                  fused runs through RunWriter and RunReader
//!     ├── change_groups.rs        the ChangeGroups impl
//!     │   ├── within.rs           what a Sender calls: the *_within methods, sent_state
//!     │   └── cached.rs           what a Sender keeps: PRINTS, write_delta_cached, group_prints
//!     ├── key_field.rs            the KeyField impl of #[bitpack(key)]
//!     ├── columns.rs              the Columns impl of #[bitpack(columns)] types
//!     ├── sign_scope.rs           the SignScope impl of adaptive types
//!     ├── checks.rs               constants, compile-time checks, max_bytes
//!     ├── problem.rs              a compile-time check failing at the attribute
//!     ├── generics.rs             the impls' bounds
//!     ├── pattern.rs              variant patterns and constructors
//!     └── tokens.rs               small token helpers
//! ```
//!
//! A new encoding is a variant in `ir::encoding`, a rule in `check::rules`
//! and a codec in `expand::codec` (plus its runtime items in
//! `expand::runtime`).

mod check;
mod errors;
mod expand;
mod fallback;
mod ir;
mod parse;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

#[doc = include_str!("../docs/attributes.md")]
#[proc_macro_derive(BitPack, attributes(bitpack, bits, quantize, change_group))]
pub fn derive_bitpack(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let mut errors = errors::Errors::default();
    let parsed = parse::Input::from_syn(&input, &mut errors);
    match check::plan(&parsed, errors) {
        Ok(plan) => expand::expand(&plan),
        Err(errors) => fallback::expand(&parsed, errors),
    }
    .into()
}
