//! `#[quantize(min, max, res)]` on a float: the reference's compressed
//! float (the same in f64 for an `f64`). Whether a declaration is usable is
//! the core's to say: the derive asks it (`quantize_problem`,
//! `quantize64_problem`) for literals, read in the field's type, and has
//! the compiler ask it for the rest.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::Used;
use crate::ir::consts::{Check, ConstTy, Role, Steps};
use crate::ir::encoding::{Encoding, Float};
use crate::parse::attrs::Quantize;
use crate::parse::ty::{FloatTy, Scalar, Shape, glam_vector3, written};
use crate::parse::value::{Literal, Value};
use bitpack_core::__private::{quantize_problem, quantize64_problem};

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
    if values.iter().any(|value| value.is_opaque()) {
        planner.checks.push(Check::Quantize { float, steps, span: quantize.name.span() });
    }
    steps
}

/// Checks what the derive can of one declaration's literals (`min`, `max`,
/// `res`): a scalar field's, or one axis of a vector's, read in the
/// field's own type, as the compiler and the core would read them. What it
/// cannot check (paths) the compiler does.
pub fn check_steps(planner: &mut Planner<'_>, values: [&Value; 3], float: FloatTy) {
    match float {
        FloatTy::F32 => check_literals::<f32>(planner, values),
        FloatTy::F64 => check_literals::<f64>(planner, values),
    }
}

/// `f32` or `f64`: what the literal checks need of the field's type.
trait Declared: Copy + PartialOrd + std::fmt::Display + std::ops::Sub<Output = Self> {
    const FLOAT: FloatTy;
    const NAME: &'static str;
    const ZERO: Self;
    fn of(value: &Value) -> Option<Self>;
    fn is_finite(self) -> bool;
    /// Why the core refuses the declaration, if it does.
    fn problem(min: Self, max: Self, res: Self) -> Option<&'static str>;
}

/// `Declared` for a float type: how a literal reads in it, and which core
/// function judges its declarations.
macro_rules! declared {
    ($($float:ident: $ty:ident, $of:ident, $problem:ident;)*) => {$(
        impl Declared for $float {
            const FLOAT: FloatTy = FloatTy::$ty;
            const NAME: &'static str = stringify!($float);
            const ZERO: Self = 0.0;
            fn of(value: &Value) -> Option<Self> {
                value.$of()
            }
            fn is_finite(self) -> bool {
                // The inherent method: it takes precedence over this one.
                $float::is_finite(self)
            }
            fn problem(min: Self, max: Self, res: Self) -> Option<&'static str> {
                $problem(min, max, res)
            }
        }
    )*};
}

declared! {
    f32: F32, as_f32, quantize_problem;
    f64: F64, as_f64, quantize64_problem;
}

/// The checks of a declaration's literal values, each at the value that
/// is wrong; what is left once bounds and `res` are each fine (too many
/// steps, or steps finer than the type resolves) in the core's words.
fn check_literals<F: Declared>(planner: &mut Planner<'_>, [min_value, max_value, res_value]: [&Value; 3]) {
    let min = float_value::<F>(planner, min_value, "min");
    let max = float_value::<F>(planner, max_value, "max");
    let res = float_value::<F>(planner, res_value, "res");
    if let (Some(min), Some(max)) = (min, max) {
        if min >= max {
            planner
                .errors
                .at(min_value.span(), format!("`min` ({min}) must be below `max` ({max}); swap them"));
        } else if !(max - min).is_finite() {
            let name = F::NAME;
            planner
                .errors
                .spanned(&max_value.expr, format!("`max - min` overflows {name}; narrow the range"));
        } else if let Some(res) = res
            && res > F::ZERO
            && let Some(problem) = F::problem(min, max, res)
        {
            planner.errors.spanned(&res_value.expr, problem);
        }
    }
    if let Some(res) = res
        && res <= F::ZERO
    {
        planner.errors.spanned(&res_value.expr, format!("`res` ({res}) must be above 0, as in res = 0.01"));
    }
}

/// A literal float value (integer literals count) in the field's type,
/// checked to be finite; an array (per-axis bounds) is a mistake on a scalar.
fn float_value<F: Declared>(planner: &mut Planner<'_>, value: &Value, key: &str) -> Option<F> {
    let name = F::NAME;
    let Some(float) = F::of(value) else {
        match value.literal {
            Literal::Float(_) => {
                planner.errors.spanned(&value.expr, format!("`{key}` is not a number an {name} can hold"))
            }
            Literal::Array(_) => {
                planner.errors.spanned(&value.expr, per_axis_on_scalar(key, Scalar::Float(F::FLOAT)))
            }
            Literal::Int(_) | Literal::Opaque => {}
        }
        return None;
    };
    if !float.is_finite() {
        planner.errors.spanned(&value.expr, format!("`{key}` must be a finite {name}"));
        return None;
    }
    Some(float)
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
