//! A `String` with `#[bitpack(max_len = N)]`.

use crate::check::planner::Planner;
use crate::check::reach::{Reach, Used};
use crate::ir::encoding::{Encoding, Nested, Text};
use crate::parse::ty::Shape;
use syn::Type;

pub fn plan<'a>(
    planner: &mut Planner<'a>,
    ty: &'a Type,
    shape: &Shape<'a>,
    reach: Reach<'a>,
    used: &mut Used,
) -> Option<Encoding<'a>> {
    let Shape::String = shape else { return None };
    Some(match reach.max_len {
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
