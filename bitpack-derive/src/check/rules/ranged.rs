//! `#[bits(min, max)]` on an integer: `value - min` in
//! `bits_required(min, max)` bits.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::Used;
use crate::ir::consts::{Check, ConstTy, Range, Role};
use crate::ir::encoding::{Encoding, Int};
use crate::parse::attrs::Bits;
use crate::parse::ty::{IntTy, Shape, written};
use crate::parse::value::{self, Literal, Value};

pub fn plan<'a>(planner: &mut Planner<'a>, slot: &Slot<'a>, used: &mut Used) -> Option<Encoding<'a>> {
    let (ty, bits) = (slot.ty, slot.reach.bits?);
    let message = match &slot.shape {
        Shape::Int(int) => {
            used.bits = true;
            return Some(Encoding::Int(Int { ty, int: *int, range: Some(range(planner, *int, bits)) }));
        }
        Shape::Float(_) => {
            format!(
                "#[bits] needs an integer field, not `{}`; use #[quantize(min, max, res)] for floats",
                written(ty)
            )
        }
        Shape::Bool | Shape::String | Shape::Nested => format!(
            "#[bits] needs an integer type written out (u8..u128, i8..i128), not `{}`; remove it",
            written(ty)
        ),
        // Containers pass it on to their values.
        _ => return None,
    };
    used.bits = true;
    planner.errors.at(bits.name.span(), message);
    None
}

/// What the derive could learn of an integer attribute value.
enum Known {
    Literal(value::Int),
    Opaque,
    Mistaken,
}

fn range<'a>(planner: &mut Planner<'a>, int: IntTy, bits: &'a Bits) -> Range {
    let min = int_value(planner, int, &bits.min, "min");
    let max = int_value(planner, int, &bits.max, "max");
    if let (Known::Literal(min), Known::Literal(max)) = (&min, &max)
        && max.less_than(*min)
    {
        planner
            .errors
            .spanned(&bits.min.expr, format!("`min` ({min}) is greater than `max` ({max}); swap them"));
    }
    let range = Range {
        min: planner.constant(ConstTy::Int(int), &bits.min, Role::Min),
        max: planner.constant(ConstTy::Int(int), &bits.max, Role::Max),
    };
    if matches!(min, Known::Opaque) || matches!(max, Known::Opaque) {
        planner.checks.push(Check::Range { int, range, span: bits.name.span() });
    }
    range
}

fn int_value(planner: &mut Planner<'_>, int: IntTy, value: &Value, key: &str) -> Known {
    match &value.literal {
        Literal::Int(literal) if int.holds(*literal) => Known::Literal(*literal),
        Literal::Int(literal) => {
            planner.errors.spanned(
                &value.expr,
                format!(
                    "`{key}` = {literal} does not fit in `{}` ({}..={}); change it or widen the field type",
                    int.name(),
                    int.min(),
                    int.max()
                ),
            );
            Known::Mistaken
        }
        Literal::Float(_) => {
            planner.errors.spanned(&value.expr, format!("`{key}` must be an integer, as in {key} = 100"));
            Known::Mistaken
        }
        Literal::Opaque => Known::Opaque,
    }
}
