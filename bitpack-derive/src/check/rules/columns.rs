//! `#[bitpack(columns)]` (on the field, or on the type for every
//! collection field): the outermost `Vec` or array of the field is written
//! field by field. Its element is planned through the other rules, under the
//! same attributes, then checked to be something a column holds.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::{Mode, Used};
use crate::ir::columns::{ColumnsField, Container, unsupported};
use crate::ir::encoding::{Encoding, Nested};
use crate::parse::ty::Shape;
use syn::Type;

pub fn plan<'a>(planner: &mut Planner<'a>, slot: &Slot<'a>, used: &mut Used) -> Option<Encoding<'a>> {
    let mode = slot.reach.columns?;
    let (element, container) = match &slot.shape {
        Shape::Vec(element) => (*element, None),
        Shape::Array(element, len) => (*element, Some(*len)),
        _ => return None,
    };
    used.columns = true;
    // Only the outermost collection: what is inside is the element's columns.
    let mut reach = slot.reach;
    reach.columns = None;
    if matches!(mode, Mode::Explicit(_)) && matches!(reach.adaptive, Some(Mode::Explicit(_))) {
        // `adaptive` beside `columns`: integer columns are adaptive already.
        used.adaptive = true;
        reach.adaptive = Some(Mode::Implicit);
    }
    let container = match container {
        Some(len) => Container::Array(len),
        None => match reach.max_len {
            Some(max_len) => {
                used.max_len = true;
                Container::Vec(planner.length(max_len, "max_len"))
            }
            None => {
                planner.errors.spanned(slot.ty, "`Vec` needs a maximum length: add #[bitpack(max_len = N)]");
                return Some(Encoding::Nested(Nested { ty: slot.ty }));
            }
        },
    };
    let element = planner.encode(element, reach, used);
    report_unsupported(planner, element_ty(slot), &element);
    Some(Encoding::Columns(ColumnsField { container, element: Box::new(element) }))
}

/// The element type, where a mistake inside it points.
fn element_ty<'a>(slot: &Slot<'a>) -> &'a Type {
    match &slot.shape {
        Shape::Vec(element) | Shape::Array(element, _) => element,
        _ => slot.ty,
    }
}

/// Reports what a column cannot hold inside `encoding`, at `ty`.
pub fn report_unsupported(planner: &mut Planner<'_>, ty: &Type, encoding: &Encoding<'_>) {
    if let Some(why) = unsupported(encoding) {
        planner
            .errors
            .spanned(ty, format!("a column cannot hold {why} yet; leave this field out of `columns`"));
    }
}
