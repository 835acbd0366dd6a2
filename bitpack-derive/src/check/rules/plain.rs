//! Values without an attribute of their own: `bool`, integers and floats
//! through their own `BitPack` (the whole range, the IEEE bits), any other
//! named type (glam's and mint's vectors and quaternions included: their
//! raw components) as a nested `BitPack`, and the types that cannot be sent.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::Used;
use crate::ir::encoding::{Bool, Encoding, Float, Int, Nested};
use crate::parse::ty::Shape;

pub fn plan<'a>(planner: &mut Planner<'a>, slot: &Slot<'a>, _: &mut Used) -> Option<Encoding<'a>> {
    let ty = slot.ty;
    Some(match &slot.shape {
        Shape::Bool => Encoding::Bool(Bool { ty }),
        Shape::Int(int) => {
            if int.platform_sized() {
                planner.errors.spanned(
                    ty,
                    format!(
                        "`{}` has a width that depends on the target; add #[bits(min = .., max = ..)]",
                        int.name()
                    ),
                );
            }
            Encoding::Int(Int { ty, int: *int, range: None })
        }
        Shape::Float(float) => Encoding::Float(Float { ty, float: *float, steps: None }),
        Shape::Unsupported(reason) => {
            planner.errors.spanned(ty, reason);
            Encoding::Nested(Nested { ty })
        }
        Shape::Nested
        | Shape::Vector(..)
        | Shape::Quaternion
        | Shape::String
        | Shape::Str
        | Shape::Sequence(..)
        | Shape::Map(..)
        | Shape::Set(_)
        | Shape::Vec(_)
        | Shape::Option(_)
        | Shape::Box(_)
        | Shape::Array(..)
        | Shape::Tuple(_) => Encoding::Nested(Nested { ty }),
    })
}
