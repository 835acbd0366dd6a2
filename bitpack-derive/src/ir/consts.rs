//! The typed constants every attribute value is declared as (once, so the
//! compiler checks each value against its type), and the checks the
//! compiler runs on values the derive could not read (paths to constants).

use crate::parse::ty::{FloatTy, IntTy, Scalar};
use crate::parse::value::Value;
use proc_macro2::Span;
use syn::Path;

/// `const NAME: TY = VALUE;`
pub struct Const<'a> {
    pub name: ConstName,
    pub ty: ConstTy,
    pub value: &'a Value,
}

/// The name of a declared constant: its number and what it holds (the
/// identifier itself is made where generated names are).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ConstName {
    pub index: usize,
    pub role: Role,
}

/// The constants of `#[bits(min, max)]`.
#[derive(Clone, Copy)]
pub struct Range {
    pub min: ConstName,
    pub max: ConstName,
}

/// The constants of `#[quantize(min, max, res)]`.
#[derive(Clone, Copy)]
pub struct Steps {
    pub min: ConstName,
    pub max: ConstName,
    pub res: ConstName,
}

/// The constants of a vector's per-axis bounds (each an array, one entry
/// per axis), and the component type they are in.
#[derive(Clone, Copy)]
pub enum AxisBounds {
    /// `#[quantize(min, max, res)]` on a float vector.
    Quantized(FloatTy, Steps),
    /// `#[bits(min, max)]` on an integer vector.
    Ranged(IntTy, Range),
}

/// What a constant holds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Min,
    Max,
    Res,
    Len,
    /// A quaternion's bits per component.
    Bits,
    /// The `dt` of `relative(rate = field, dt = D)`.
    Dt,
}

/// The type a constant is declared as.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ConstTy {
    Int(IntTy),
    Float(FloatTy),
    /// A length (`max_len`, `max_bytes`).
    Usize,
    /// One bound per axis: `[T; axes]`.
    Axes(Scalar, usize),
}

/// A check the compiler runs on constants the derive could not read,
/// failing at `span` (the attribute that declared them).
pub enum Check {
    Range {
        int: IntTy,
        range: Range,
        span: Span,
    },
    Quantize {
        float: FloatTy,
        steps: Steps,
        span: Span,
    },
    /// A fixed-point `res` (`#[quantize(res = C)]` alone).
    Fixed {
        res: ConstName,
        span: Span,
    },
    /// A vector's bounds, axis by axis (always checked: arrays mix literals and paths).
    Axes {
        bounds: AxisBounds,
        span: Span,
    },
    /// A quaternion's bits per component given as a path.
    Rotation {
        bits: ConstName,
        span: Span,
    },
    /// A `with` module's `MIN_BITS` against its `MAX_BITS`, failing at the path.
    With {
        path: Path,
    },
}
