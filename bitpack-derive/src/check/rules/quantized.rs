//! `#[quantize(min, max, res)]` on a float: the reference's compressed
//! float (the same in f64 for an `f64`). Whether a declaration is usable is
//! the core's to say: the derive asks it (`quantize_problem`) for literals,
//! and has the compiler ask it for the rest.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::Used;
use crate::ir::consts::{Check, ConstTy, Role, Steps};
use crate::ir::encoding::{Encoding, Float};
use crate::parse::attrs::Quantize;
use crate::parse::ty::{FloatTy, Scalar, Shape, glam_vector3, written};
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
        Shape::Bool | Shape::String | Shape::Str => format!(
            "#[quantize] needs an `f32` or `f64` field, not `{written}`; make the field an `f32` or `f64` \
             (or an `Option`, array, tuple or `Vec` of them)"
        ),
        Shape::Quaternion => format!(
            "a quaternion (`{written}`) takes #[quantize(bits = N)], its smallest three at N bits per \
             component (as in bits = 9), not `min`, `max` and `res`"
        ),
        Shape::Nested => format!(
            "#[quantize] needs an `f32` or `f64` field, not `{written}`; quantize the float fields of \
             `{written}` where it derives BitPack, or send it with #[bitpack(with = module)]"
        ),
        // Containers pass it on to their values.
        _ => return None,
    };
    used.quantize = true;
    planner.errors.at(quantize.name.span(), message);
    None
}

fn steps<'a>(planner: &mut Planner<'a>, quantize: &'a Quantize, float: FloatTy) -> Steps {
    check_steps(planner, [&quantize.min, &quantize.max, &quantize.res], float);
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

/// Checks what the derive can of one declaration's literals (`min`, `max`,
/// `res`): a scalar field's, or one axis of a vector's. What it cannot
/// check (paths, and for an `f64` what f32 cannot tell) the compiler does.
pub fn check_steps(
    planner: &mut Planner<'_>,
    [min_value, max_value, res_value]: [&Value; 3],
    float: FloatTy,
) {
    let min = float_value(planner, min_value, "min", float);
    let max = float_value(planner, max_value, "max", float);
    let res = float_value(planner, res_value, "res", float);
    // Literals are read as f32 here: for an f64 field only the checks that
    // cannot be wrong in f32 run now, the rest at compile time.
    if let (Some(min), Some(max), FloatTy::F32) = (min, max, float) {
        if min >= max {
            planner
                .errors
                .at(min_value.span(), format!("`min` ({min}) must be below `max` ({max}); swap them"));
        } else if !(max - min).is_finite() {
            planner.errors.spanned(&max_value.expr, "`max - min` overflows f32; narrow the range");
        } else if let Some(res) = res
            && res > 0.0
            && quantize_problem(min, max, res).is_some()
        {
            // Bounds and `res` are fine, so what the core refuses is the step count.
            planner.errors.spanned(
                &res_value.expr,
                "this `res` makes more than 2^32 steps over the range; raise `res` or narrow the range",
            );
        }
    }
    if let Some(res) = res
        && res <= 0.0
    {
        planner.errors.spanned(&res_value.expr, format!("`res` ({res}) must be above 0, as in res = 0.01"));
    }
}

/// A literal float value (integer literals count), checked to be finite;
/// an array (per-axis bounds) is a mistake on a scalar.
fn float_value(planner: &mut Planner<'_>, value: &Value, key: &str, float: FloatTy) -> Option<f32> {
    let Some(number) = value.as_f32() else {
        match value.literal {
            Literal::Float(_) => {
                planner.errors.spanned(&value.expr, format!("`{key}` is not a number an f32 can hold"))
            }
            Literal::Array(_) => {
                planner.errors.spanned(&value.expr, per_axis_on_scalar(key, Scalar::Float(float)))
            }
            Literal::Int(_) | Literal::Opaque => {}
        }
        return None;
    };
    if !number.is_finite() {
        planner.errors.spanned(&value.expr, format!("`{key}` must be a finite f32"));
        return None;
    }
    Some(number)
}

/// An array bound (one per axis) on a scalar field of type `scalar`.
pub fn per_axis_on_scalar(key: &str, scalar: Scalar) -> String {
    let name = match scalar {
        Scalar::Int(int) => int.name(),
        Scalar::Float(float) => float.name(),
    };
    format!(
        "`{key}` gives one bound per axis, but `{name}` is one value; give one number, or make the field \
         a vector (glam's `{}`, mint's `Vector3<{name}>`...)",
        glam_vector3(scalar)
    )
}
