//! `#[quantize(min, max, res)]` on a float: the reference's compressed
//! float (the same in f64 for an `f64`). Whether a declaration is usable is
//! the core's to say: the derive asks it (`quantize_problem`) for literals,
//! and has the compiler ask it for the rest.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::Used;
use crate::ir::consts::{Check, ConstTy, Role, Steps};
use crate::ir::encoding::{Encoding, Float};
use crate::parse::attrs::Quantize;
use crate::parse::ty::{FloatTy, Shape, written};
use crate::parse::value::{Literal, Value};
use bitpack_core::__private::quantize_problem;

pub fn plan<'a>(planner: &mut Planner<'a>, slot: &Slot<'a>, used: &mut Used) -> Option<Encoding<'a>> {
    let (ty, quantize) = (slot.ty, slot.reach.quantize?);
    let written = written(ty);
    let message = match &slot.shape {
        Shape::Float(float) => {
            used.quantize = true;
            return Some(Encoding::Float(Float {
                ty,
                float: *float,
                steps: Some(steps(planner, quantize, *float)),
            }));
        }
        Shape::Int(_) => {
            format!(
                "#[quantize] needs an `f32` or `f64` field, not `{written}`; use #[bits(min, max)] for integers"
            )
        }
        Shape::Bool | Shape::String => format!(
            "#[quantize] needs an `f32` or `f64` field, not `{written}`; make the field an `f32` or `f64` \
             (or an `Option`, array, tuple or `Vec` of them)"
        ),
        Shape::Nested => format!(
            "#[quantize] needs an `f32` or `f64` field, not `{written}`; make the field an `f32` or `f64`, \
             or quantize the float fields of `{written}` where it derives BitPack"
        ),
        // Containers pass it on to their values.
        _ => return None,
    };
    used.quantize = true;
    planner.errors.at(quantize.name.span(), message);
    None
}

fn steps<'a>(planner: &mut Planner<'a>, quantize: &'a Quantize, float: FloatTy) -> Steps {
    let min = float_value(planner, &quantize.min, "min");
    let max = float_value(planner, &quantize.max, "max");
    let res = float_value(planner, &quantize.res, "res");
    // Literals are read as f32 here: for an f64 field only the checks that
    // cannot be wrong in f32 run now, the rest at compile time.
    if let (Some(min), Some(max), FloatTy::F32) = (min, max, float) {
        if min >= max {
            planner
                .errors
                .at(quantize.min.span(), format!("`min` ({min}) must be below `max` ({max}); swap them"));
        } else if !(max - min).is_finite() {
            planner.errors.spanned(&quantize.max.expr, "`max - min` overflows f32; narrow the range");
        } else if let Some(res) = res
            && res > 0.0
            && quantize_problem(min, max, res).is_some()
        {
            // Bounds and `res` are fine, so what the core refuses is the step count.
            planner.errors.spanned(
                &quantize.res.expr,
                "this `res` makes more than 2^32 steps over the range; raise `res` or narrow the range",
            );
        }
    }
    if let Some(res) = res
        && res <= 0.0
    {
        planner
            .errors
            .spanned(&quantize.res.expr, format!("`res` ({res}) must be above 0, as in res = 0.01"));
    }
    let ty = ConstTy::Float(float);
    let steps = Steps {
        min: planner.constant(ty, &quantize.min, Role::Min),
        max: planner.constant(ty, &quantize.max, Role::Max),
        res: planner.constant(ty, &quantize.res, Role::Res),
    };
    let values = [&quantize.min, &quantize.max, &quantize.res];
    if float == FloatTy::F64 || values.iter().any(|value| value.is_opaque()) {
        planner.checks.push(Check::Quantize { float, steps, span: quantize.name.span() });
    }
    steps
}

/// A literal float value (integer literals count), checked to be finite.
fn float_value(planner: &mut Planner<'_>, value: &Value, key: &str) -> Option<f32> {
    let Some(float) = value.as_f32() else {
        if let Literal::Float(_) = value.literal {
            planner.errors.spanned(&value.expr, format!("`{key}` is not a number an f32 can hold"));
        }
        return None;
    };
    if !float.is_finite() {
        planner.errors.spanned(&value.expr, format!("`{key}` must be a finite f32"));
        return None;
    }
    Some(float)
}
