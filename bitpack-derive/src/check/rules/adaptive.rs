//! `#[bitpack(adaptive)]` on a field or on the type: integers, arrays and
//! `Vec`s of integers (one shared-length group), and nested sign scopes.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::{Mode, Used};
use crate::ir::adaptive::{Adaptive, GroupLen};
use crate::ir::encoding::Encoding;
use crate::parse::ty::{IntTy, Shape, shape, written};
use syn::Type;

pub fn plan<'a>(planner: &mut Planner<'a>, slot: &Slot<'a>, used: &mut Used) -> Option<Encoding<'a>> {
    let (ty, reach) = (slot.ty, slot.reach);
    let mode = reach.adaptive?;
    let adaptive = match &slot.shape {
        Shape::Int(int) => Adaptive::Int(*int),
        Shape::Array(element, len) => Adaptive::Group { ty: int_of(element)?, len: GroupLen::Array(len) },
        Shape::Vec(element) => match (int_of(element), reach.max_len) {
            (Some(int), Some(max_len)) => {
                used.max_len = true;
                Adaptive::Vec { ty: int, max_len: planner.length(max_len, "max_len") }
            }
            // The container rule reports a missing `max_len`.
            _ => return None,
        },
        // A type of the user's may be named like a glam vector.
        Shape::Nested | Shape::Vector(..) | Shape::Quaternion => match mode {
            Mode::Explicit(_) => Adaptive::Scoped(ty),
            Mode::Implicit => return None,
        },
        Shape::Bool | Shape::String | Shape::Str | Shape::Float(_) => {
            if let Mode::Explicit(adaptive) = mode {
                used.adaptive = true;
                let hint = match slot.shape {
                    Shape::Float(_) => "; for fixed point write #[quantize(res = 0.001)] instead",
                    _ => "; remove it",
                };
                planner.errors.at(
                    adaptive.span(),
                    format!("`adaptive` needs an integer field, not `{}`{hint}", written(ty)),
                );
            }
            return None;
        }
        _ => return None,
    };
    match mode {
        Mode::Explicit(_) => used.adaptive = true,
        Mode::Implicit => planner.adaptive.reached = true,
    }
    Some(Encoding::Adaptive(adaptive))
}

fn int_of(ty: &Type) -> Option<IntTy> {
    match shape(ty) {
        Shape::Int(int) => Some(int),
        _ => None,
    }
}
