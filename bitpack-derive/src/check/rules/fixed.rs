//! `#[quantize(res = C)]` alone on a float: fixed point, `round(x / res)`
//! as an adaptive `i64`.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::Used;
use crate::ir::adaptive::Adaptive;
use crate::ir::consts::{Check, ConstName, ConstTy, Role};
use crate::ir::encoding::Encoding;
use crate::parse::attrs::FixedPoint;
use crate::parse::ty::{Shape, written};

pub fn plan<'a>(planner: &mut Planner<'a>, slot: &Slot<'a>, used: &mut Used) -> Option<Encoding<'a>> {
    let fixed = slot.reach.fixed?;
    let float = match &slot.shape {
        Shape::Float(float) => *float,
        Shape::Int(_)
        | Shape::Bool
        | Shape::String
        | Shape::Str
        | Shape::Nested
        | Shape::Vector(..)
        | Shape::Quaternion => {
            let advice = match slot.shape {
                Shape::Int(_) => "an integer is already whole steps: write #[bitpack(adaptive)] instead",
                Shape::Vector(..) => {
                    "for a vector give every axis bounds: #[quantize(min = .., max = .., res = ..)]"
                }
                Shape::Quaternion => "for a quaternion write #[quantize(bits = N)] (smallest three)",
                _ => "make the field an `f32` or `f64`",
            };
            used.fixed = true;
            planner.errors.at(
                fixed.name.span(),
                format!(
                    "#[quantize(res)] (fixed point) needs an `f32` or `f64` field, not `{}`; {advice}",
                    written(slot.ty)
                ),
            );
            return None;
        }
        // Containers pass it on to their values.
        _ => return None,
    };
    used.fixed = true;
    let res = res(planner, fixed);
    Some(Encoding::Adaptive(Adaptive::Fixed { float, res }))
}

/// The constant holding a fixed-point `res`, checked: here for a literal,
/// at compile time for a path to a constant.
fn res<'a>(planner: &mut Planner<'a>, fixed: &'a FixedPoint) -> ConstName {
    let res = planner.constant(ConstTy::Float(crate::parse::ty::FloatTy::F64), &fixed.res, Role::Res);
    match fixed.res.as_f64() {
        Some(value) if value.is_finite() && value > 0.0 => {}
        Some(value) => planner.errors.spanned(
            &fixed.res.expr,
            format!("`res` ({value}) must be a finite number above 0, as in res = 0.001"),
        ),
        None if fixed.res.is_opaque() => planner.checks.push(Check::Fixed { res, span: fixed.name.span() }),
        None => planner.errors.spanned(&fixed.res.expr, "`res` must be a number, as in res = 0.001"),
    }
    res
}
