//! `#[quantize(bits = N)]` on a quaternion: smallest three, `2 + 3 x N`
//! bits. glam's `Quat`/`DQuat`, mint's `Quaternion` and `[f32; 4]`/`[f64; 4]`
//! are quaternions, and so is any named type implementing the core's
//! `smallest_three::Quaternion` (the compiler checks that bound, with a
//! message saying what to do). `N` from 2 to 30: checked here for a
//! literal, by the compiler for a path.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::Used;
use crate::ir::consts::{Check, ConstTy, Role};
use crate::ir::encoding::Encoding;
use crate::ir::geometry::Rotation;
use crate::parse::ty::{IntTy, Shape, shape, written};
use crate::parse::value::Literal;
use bitpack_core::__private::smallest_three_problem;
use syn::{Expr, ExprLit, Lit};

pub fn plan<'a>(planner: &mut Planner<'a>, slot: &Slot<'a>, used: &mut Used) -> Option<Encoding<'a>> {
    let (ty, rotation) = (slot.ty, slot.reach.rotation?);
    let advice = match &slot.shape {
        Shape::Quaternion | Shape::Nested => None,
        Shape::Array(element, len) => match (shape(element), literal_len(len)) {
            // A length given as a path is the compiler's to check (`[F; 4]` is a quaternion).
            (Shape::Float(_), Some(4) | None) => None,
            (Shape::Float(_), Some(_)) => {
                Some("smallest three takes four components (x, y, z, w): `[f32; 4]` or `[f64; 4]`")
            }
            // An array of quaternions: each element takes it.
            _ => return None,
        },
        Shape::Float(_) => Some("for a float write #[quantize(min = .., max = .., res = ..)]"),
        Shape::Vector(..) => Some("for a vector write #[quantize(min = .., max = .., res = ..)] (per axis)"),
        Shape::Int(_) => Some("for an integer write #[bits(min = .., max = ..)]"),
        Shape::Bool | Shape::String | Shape::Str => Some("remove it"),
        // Containers pass it on to their values.
        _ => return None,
    };
    used.rotation = true;
    if let Some(advice) = advice {
        planner.errors.at(
            rotation.name.span(),
            format!(
                "#[quantize(bits = N)] sends a quaternion as smallest three, and `{}` is not one; {advice}",
                written(ty)
            ),
        );
        return None;
    }
    match &rotation.bits.literal {
        Literal::Int(int) => match u32::try_from(int.magnitude).ok().filter(|_| !int.negative) {
            Some(bits) => {
                if let Some(problem) = smallest_three_problem(bits) {
                    planner.errors.spanned(&rotation.bits.expr, problem.as_str());
                }
            }
            None => planner.errors.spanned(&rotation.bits.expr, BITS_NEEDED),
        },
        Literal::Opaque => {}
        Literal::Float(_) | Literal::Array(_) => planner.errors.spanned(&rotation.bits.expr, BITS_NEEDED),
    }
    let bits = planner.constant(ConstTy::Int(IntTy::U32), &rotation.bits, Role::Bits);
    if rotation.bits.is_opaque() {
        planner.checks.push(Check::Rotation { bits, span: rotation.name.span() });
    }
    Some(Encoding::Rotation(Rotation { ty, bits }))
}

const BITS_NEEDED: &str = "`bits` is a whole number of bits per component, from 2 to 30, as in bits = 9";

fn literal_len(len: &Expr) -> Option<usize> {
    match len {
        Expr::Lit(ExprLit { lit: Lit::Int(int), .. }) => int.base10_parse().ok(),
        _ => None,
    }
}
