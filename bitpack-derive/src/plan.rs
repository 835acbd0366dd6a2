//! The checked wire layout of a type: what `valid` produces and `expand`
//! turns into code. Everything here is already known to be correct.

use crate::ast::Style;
use crate::attr::Value;
use crate::ty::IntTy;
use proc_macro2::{Span, TokenStream};
use syn::{DeriveInput, Expr, Ident, Member, Type};

pub struct Plan<'a> {
    pub input: &'a DeriveInput,
    /// The path to the `bitpack` crate (`::bitpack` unless overridden).
    pub krate: TokenStream,
    /// The constant holding `#[bitpack(max_bytes = N)]`, and where it was written.
    pub max_bytes: Option<(Ident, Span)>,
    pub body: Body<'a>,
    /// Typed constants for every attribute value, declared once.
    pub consts: Vec<Const<'a>>,
    /// Compile-time checks for values the derive could not see (paths to constants).
    pub checks: Vec<Check>,
    /// The change groups, for a struct with `#[change_group]` fields.
    pub changes: Option<crate::change::ChangePlan>,
}

pub enum Body<'a> {
    Struct(Fields<'a>),
    Enum(Vec<Variant<'a>>),
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub fields: Fields<'a>,
}

pub struct Fields<'a> {
    pub style: Style,
    pub fields: Vec<Field<'a>>,
}

pub struct Field<'a> {
    pub member: Member,
    pub ty: &'a Type,
    /// `None` for `#[bitpack(skip)]`: written as nothing, read as `Default`.
    pub encoding: Option<Encoding<'a>>,
}

/// How one value goes on the wire.
pub enum Encoding<'a> {
    /// Through the type's own `BitPack` impl.
    Nested(&'a Type),
    /// `value - min` in `bits_required(min, max)` bits.
    Ranged { ty: IntTy, min: Ident, max: Ident },
    /// The reference's compressed float; `double`: an `f64` field, the same
    /// in f64 (`write_compressed_double`).
    Quantized { min: Ident, max: Ident, res: Ident, double: bool },
    /// `write_str(s, max_len)`.
    Str { max_len: Ident },
    /// `int(len, 0, max_len)`, then the elements.
    Vec { max_len: Ident, element: Box<Encoding<'a>> },
    /// A bool, then the value.
    Option(Box<Encoding<'a>>),
    /// What the box holds.
    Boxed(Box<Encoding<'a>>),
    /// `len` values.
    Array { len: &'a Expr, element: Box<Encoding<'a>> },
    /// The elements in order.
    Tuple(Vec<Encoding<'a>>),
    /// Under the message's sign mode: see [`crate::adaptive`].
    Adaptive(crate::adaptive::Adaptive<'a>),
}

/// `const NAME: TY = VALUE;`
pub struct Const<'a> {
    pub name: Ident,
    pub ty: TokenStream,
    pub value: &'a Value,
}

/// A check the compiler runs on constants the derive could not read.
pub enum Check {
    Range {
        ty: IntTy,
        min: Ident,
        max: Ident,
        span: Span,
    },
    Quantize {
        min: Ident,
        max: Ident,
        res: Ident,
        double: bool,
        span: Span,
    },
    /// A fixed-point `res` (`#[quantize(res = C)]` alone).
    Fixed {
        res: Ident,
        span: Span,
    },
}
