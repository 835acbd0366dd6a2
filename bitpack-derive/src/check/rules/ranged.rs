//! `#[bits(min, max)]` on an integer: `value - min` in
//! `bits_required(min, max)` bits.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::Used;
use crate::check::rules::quantized::per_axis_on_scalar;
use crate::ir::consts::{Check, ConstTy, Range, Role};
use crate::ir::encoding::{Encoding, Int};
use crate::parse::attrs::Bits;
use crate::parse::ty::{IntTy, Scalar, Shape, written};
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
        Shape::Bool | Shape::String | Shape::Str => format!(
            "#[bits] needs an integer type written out (u8..u128, i8..i128), not `{}`; remove it",
            written(ty)
        ),
        Shape::Quaternion => format!(
            "#[bits] needs an integer field, not the quaternion `{}`; send it as smallest three with \
             #[quantize(bits = N)]",
            written(ty)
        ),
        Shape::Nested => format!(
            "#[bits] needs an integer type written out (u8..u128, i8..i128), not `{ty}`; range the integer \
             fields of `{ty}` where it derives BitPack, or send it with #[bitpack(with = module)]",
            ty = written(ty)
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
    let opaque = check_range(planner, int, [&bits.min, &bits.max]);
    let range = Range {
        min: planner.constant(ConstTy::Int(int), &bits.min, Role::Min),
        max: planner.constant(ConstTy::Int(int), &bits.max, Role::Max),
    };
    if opaque {
        planner.checks.push(Check::Range { int, range, span: bits.name.span() });
    }
    range
}

/// Checks what the derive can of one range's literals (a scalar field's,
/// or one axis of a vector's): each fits `int`, `min` is not above `max`.
/// Whether a value was left to the compiler.
pub fn check_range(planner: &mut Planner<'_>, int: IntTy, [min_value, max_value]: [&Value; 2]) -> bool {
    let min = int_value(planner, int, min_value, "min");
    let max = int_value(planner, int, max_value, "max");
    if let (Known::Literal(min), Known::Literal(max)) = (&min, &max)
        && max.less_than(*min)
    {
        planner
            .errors
            .spanned(&min_value.expr, format!("`min` ({min}) is greater than `max` ({max}); swap them"));
    }
    matches!(min, Known::Opaque) || matches!(max, Known::Opaque)
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
        Literal::Array(_) => {
            planner.errors.spanned(&value.expr, per_axis_on_scalar(key, Scalar::Int(int)));
            Known::Mistaken
        }
        Literal::Opaque => Known::Opaque,
    }
}
