//! glam's and mint's vectors with per-axis bounds, and quaternions as
//! smallest three: leaves of their own on the wire (a vector is its axes, a
//! quaternion its largest component's index and three components), which
//! join fused runs and code against a baseline in deltas.

use crate::ir::consts::{AxisBounds, ConstName};
use crate::parse::ty::IntTy;
use syn::Type;

/// A vector under `#[quantize(min, max, res)]` or `#[bits(min, max)]`: each
/// axis with its own bounds, through the runtime's `quantized_axes_<float>`
/// or `ranged_axes_<int>`.
pub struct Vector<'a> {
    pub ty: &'a Type,
    pub axes: usize,
    pub bounds: AxisBounds,
}

/// A quaternion under `#[quantize(bits = N)]`: `2 + 3 x N` bits.
pub struct Rotation<'a> {
    pub ty: &'a Type,
    pub bits: ConstName,
}

impl Vector<'_> {
    /// Its leaves in a fused run: one per axis, unless an axis may be wider than 64 bits.
    pub fn run_leaves(&self) -> Option<usize> {
        match self.bounds {
            AxisBounds::Ranged(IntTy::U128 | IntTy::I128, _) => None,
            _ => Some(self.axes),
        }
    }
}
