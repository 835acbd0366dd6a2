//! A `String` with `#[bitpack(max_len = N)]`.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::Used;
use crate::ir::encoding::{Encoding, Nested, Text};
use crate::parse::ty::Shape;

pub fn plan<'a>(planner: &mut Planner<'a>, slot: &Slot<'a>, used: &mut Used) -> Option<Encoding<'a>> {
    let Shape::String = slot.shape else { return None };
    let ty = slot.ty;
    Some(match slot.reach.max_len {
        Some(max_len) => {
            used.max_len = true;
            Encoding::Text(Text { max_len: planner.length(max_len, "max_len") })
        }
        None => {
            planner.errors.spanned(ty, "`String` needs a maximum length: add #[bitpack(max_len = N)]");
            Encoding::Nested(Nested { ty })
        }
    })
}
