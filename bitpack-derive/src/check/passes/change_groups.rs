//! Change groups: checks `#[change_group]` and `#[bitpack(relative)]`
//! against the planned fields, and lays out the groups of a struct in wire
//! order (`ir::items::Changes`). A type without `#[change_group]` fields
//! gets no `ChangeGroups` impl.

use crate::check::planner::{Draft, Planner};
use crate::errors::Errors;
use crate::ir;
use crate::ir::consts::{AxisBounds, ConstTy, Role};
use crate::ir::encoding::{Encoding, Float};
use crate::ir::geometry::Vector;
use crate::ir::items::{ChangeItem, Changes, Group, Predict};
use crate::parse::attrs::FieldAttrs;
use crate::parse::keys::Prediction;
use crate::parse::ty::{FloatTy, Scalar, Shape, shape, written};
use crate::parse::value::{Int, Literal};
use crate::parse::{Body, Input};
use syn::{Ident, Member};

const ENUM_FIELD: &str = "#[change_group] is not supported on an enum variant's fields: a variant \
                          change resends the enum; put the enum in a struct field with #[change_group(name)]";
const RELATIVE_NEEDS_GROUPS: &str = "`relative` codes against the baseline in `write_delta`, which only \
                                     structs with #[change_group] fields have; add one or remove `relative`";

pub fn run<'a>(planner: &mut Planner<'a>, input: &'a Input<'a>, draft: &mut Draft<'a>) {
    let errors = &mut planner.errors;
    draft.changes = match (&input.body, &draft.body) {
        (Body::Enum(variants), _) => {
            for field in variants.iter().flat_map(|variant| &variant.fields.fields) {
                if let Some(group) = &field.attrs.change_group {
                    errors.at(group.keyword.span(), ENUM_FIELD);
                }
                if let Some(relative) = &field.attrs.relative {
                    errors.at(relative.span(), RELATIVE_NEEDS_GROUPS);
                }
            }
            None
        }
        (Body::Struct(fields), Some(ir::Body::Struct(planned))) => {
            let attrs: Vec<_> = fields.fields.iter().map(|field| &field.attrs).collect();
            let mut plan = plan_struct(&attrs, &planned.fields, errors);
            for (position, field) in fields.fields.iter().enumerate() {
                let Some(prediction) = &field.attrs.prediction else { continue };
                let relative = plan.as_ref().and_then(|plan| plan.relative[position]);
                let predict = relative.and_then(|_| check_prediction(planner, position, prediction, planned));
                if let Some(plan) = plan.as_mut() {
                    plan.predictions[position] = predict;
                }
            }
            plan
        }
        _ => None,
    };
}

fn plan_struct(attrs: &[&FieldAttrs], fields: &[ir::Field<'_>], errors: &mut Errors) -> Option<Changes> {
    let grouped = attrs.iter().any(|attrs| attrs.change_group.is_some());
    if grouped {
        refuse_adaptive(attrs, fields, errors);
    }
    let mut plan = Changes {
        items: Vec::new(),
        relative: vec![None; fields.len()],
        predictions: (0..fields.len()).map(|_| None).collect(),
        records: 0,
    };
    let mut named: Vec<(&Ident, usize)> = Vec::new();
    let mut slots = 0;
    for (position, (attrs, field)) in attrs.iter().zip(fields).enumerate() {
        if attrs.skip.is_some() {
            let written = "a skipped field is not written; remove `skip` or";
            if let Some(group) = &attrs.change_group {
                errors.at(group.keyword.span(), format!("{written} #[change_group]"));
            }
            if let Some(relative) = &attrs.relative {
                errors.at(relative.span(), format!("{written} `relative`"));
            }
            continue;
        }
        if let Some(relative) = &attrs.relative {
            if !grouped {
                errors.at(relative.span(), RELATIVE_NEEDS_GROUPS);
            } else if check_relative(relative, attrs, field, errors) {
                plan.relative[position] = Some(relative.span());
            }
        }
        match attrs.change_group.as_ref().map(|group| &group.name) {
            None => plan.items.push(ChangeItem::Always(position)),
            Some(Some(name)) => match named.iter().find(|(seen, _)| *seen == name) {
                Some(&(_, item)) => {
                    if let Some(ChangeItem::Group(group)) = plan.items.get_mut(item) {
                        group.fields.push(position);
                    }
                }
                None => {
                    named.push((name, plan.items.len()));
                    plan.items.push(group(plan.records, position));
                    plan.records += 1;
                }
            },
            Some(None) if matches!(field.encoding, Some(Encoding::Keyed(_))) => {
                plan.items.push(ChangeItem::Keyed { record: plan.records, field: position });
                plan.records += 1;
            }
            // A named type through its own `BitPack` nests its groups (a
            // vector, a quaternion or a `with` field is a group of its own).
            Some(None)
                if matches!(shape(field.ty), Shape::Nested)
                    && matches!(field.encoding, Some(Encoding::Nested(_))) =>
            {
                plan.items.push(ChangeItem::Nested { record: plan.records, slot: slots, field: position });
                plan.records += 1;
                slots += 1;
            }
            Some(None) => {
                plan.items.push(group(plan.records, position));
                plan.records += 1;
            }
        }
    }
    grouped.then_some(plan)
}

/// A group of one field so far (the `runs` pass lays out its items).
fn group(record: usize, position: usize) -> ChangeItem {
    ChangeItem::Group(Group { record, fields: vec![position], items: Vec::new(), delta: Vec::new() })
}

/// Adaptive integers share the message's sign bit, which change-group
/// packets do not carry yet: refused, at each field's `adaptive`, or at the
/// first group when the type-level `adaptive` reaches them.
fn refuse_adaptive(attrs: &[&FieldAttrs], fields: &[ir::Field<'_>], errors: &mut Errors) {
    const MESSAGE: &str = "adaptive integers and #[change_group] in one type are not supported yet; \
                           use #[bits(min, max)], or a nested adaptive type sent as a named group";
    let mut reported = false;
    let mut reached = false;
    for (attrs, field) in attrs.iter().zip(fields) {
        if !field.encoding.as_ref().is_some_and(Encoding::holds_adaptive) {
            continue;
        }
        reached = true;
        // Field groups report their own refusal at the group name.
        if attrs.adaptive_group.is_some() {
            reported = true;
        } else if let Some(adaptive) = &attrs.adaptive {
            errors.at(adaptive.span(), MESSAGE);
            reported = true;
        }
    }
    if reached
        && !reported
        && let Some(group) = attrs.iter().find_map(|attrs| attrs.change_group.as_ref())
    {
        errors.at(group.keyword.span(), MESSAGE);
    }
}

/// Whether a `relative` field is a ranged integer or quantized float (or a
/// short array of them) whose range the core can code relatively; records
/// the mistake, with what to do, if not.
fn check_relative(relative: &Ident, attrs: &FieldAttrs, field: &ir::Field<'_>, errors: &mut Errors) -> bool {
    if field.encoding.as_ref().and_then(Encoding::relative).is_none() {
        errors.at(relative.span(), relative_advice(field));
        return false;
    }
    let fits = |literal: &Literal| match literal {
        Literal::Int(Int { negative, magnitude }) => {
            *magnitude <= if *negative { 1u128 << 63 } else { (1u128 << 63) - 1 }
        }
        _ => true,
    };
    match &attrs.bits {
        Some(bits) if !fits(&bits.min.literal) || !fits(&bits.max.literal) => {
            errors.at(
                relative.span(),
                "`relative` codes ranges within i64 and this one reaches past it; narrow it or remove `relative`",
            );
            false
        }
        _ => true,
    }
}

/// Checks `relative(rate = field, dt = D)` on the relative field at
/// `position` (already checked as relative): the field a quantized float
/// or float vector, or a short array of them, `rate` another field of the
/// same float type, axes and length, also quantized, and `dt` a finite
/// number above 0 (a path to a constant: the compiler checks its type).
/// Records each mistake at the narrowest span; the prediction, if every
/// part holds.
fn check_prediction<'a>(
    planner: &mut Planner<'a>,
    position: usize,
    prediction: &'a Prediction,
    planned: &ir::Fields<'_>,
) -> Option<Predict> {
    let fields = &planned.fields;
    let errors = &mut planner.errors;
    // What a prediction needs alike of the field and its rate: the float
    // type, the axes of a vector (`None`: a scalar) and an array's length.
    let shape_of = |field: &ir::Field<'_>| match field.encoding.as_ref().and_then(Encoding::relative) {
        Some((Encoding::Float(Float { steps: Some(_), float, .. }), len)) => Some((*float, None, len)),
        Some((Encoding::Vector(Vector { axes, bounds: AxisBounds::Quantized(float, _), .. }), len)) => {
            Some((*float, Some(*axes), len))
        }
        _ => None,
    };
    let Some((rate_key, rate)) = &prediction.rate else {
        let (dt_key, _) = prediction.dt.as_ref()?;
        errors.at(dt_key.span(), "`dt` needs the field it multiplies: relative(rate = field, dt = ..)");
        return None;
    };
    let own = shape_of(&fields[position]);
    if own.is_none() {
        errors.at(
            rate_key.span(),
            format!(
                "`rate` predicts quantized floats and float vectors (or arrays of them), not `{}`; remove \
                 `rate` and `dt`",
                written(fields[position].ty)
            ),
        );
    }
    let named = fields.iter().position(|field| matches!(&field.member, Member::Named(name) if name == rate));
    let rate_position = match named {
        None => {
            errors.at(
                rate.span(),
                format!("no field `{rate}` in this struct; `rate` names the field it moves by"),
            );
            None
        }
        Some(found) if found == position => {
            errors.at(rate.span(), "a field cannot be its own `rate`; name the field it moves by");
            None
        }
        Some(found) => match (own, shape_of(&fields[found])) {
            (_, None) => {
                errors.at(
                    rate.span(),
                    format!(
                        "`rate` must name a sent #[quantize(min, max, res)] {} (or an array of them), not `{}`",
                        if matches!(own, Some((_, Some(_), _))) { "float vector" } else { "float" },
                        written(fields[found].ty)
                    ),
                );
                None
            }
            (Some(own), Some(theirs)) if own != theirs => {
                let (rate_ty, own_ty) = (written(fields[found].ty), written(fields[position].ty));
                let message = match (own, theirs) {
                    ((_, Some(_), _), (_, None, _)) => format!(
                        "`{rate}` is `{rate_ty}`, not a vector: the rate of a vector (`{own_ty}`) is a glam or \
                         mint vector of the same float type and axes"
                    ),
                    ((_, Some(_), _), _) => format!(
                        "`{rate}` is `{rate_ty}` and this field `{own_ty}`: a rate has the field's float type, \
                         number of axes and length"
                    ),
                    _ => format!(
                        "`{rate}` is `{rate_ty}` and this field `{own_ty}`: a rate has the field's float type and \
                         length"
                    ),
                };
                errors.at(rate.span(), message);
                None
            }
            _ => Some(found),
        },
    };
    let Some((dt_key, dt)) = &prediction.dt else {
        errors.at(
            rate_key.span(),
            "`rate` needs `dt`, what one tick multiplies it by: relative(rate = field, dt = D)",
        );
        return None;
    };
    let float = own.map_or(FloatTy::F32, |(float, _, _)| float);
    if let Some(value) = dt.as_f64()
        && !(value.is_finite() && value > 0.0)
    {
        errors.spanned(
            &dt.expr,
            format!("`dt` ({value}) must be a finite number above 0, as in dt = 1.0 / 30.0"),
        );
        return None;
    }
    if dt.entries().is_some() {
        errors.at(dt_key.span(), "`dt` is one number for every element, not an array");
        return None;
    }
    let rate = rate_position?;
    own?;
    let dt = planner.constant(ConstTy::Float(float), dt, Role::Dt);
    Some(Predict { rate, dt })
}

/// What a `relative` field that cannot code against its baseline needs.
fn relative_advice(field: &ir::Field<'_>) -> String {
    let scalar = |shape: &Shape<'_>| match shape {
        Shape::Int(_) | Shape::Vector(Scalar::Int(_), _) => {
            Some("`relative` needs a range: add #[bits(min = .., max = ..)]")
        }
        Shape::Float(_) | Shape::Vector(Scalar::Float(_), _) => {
            Some("`relative` needs steps: add #[quantize(min = .., max = .., res = ..)]")
        }
        Shape::Quaternion => Some("`relative` needs smallest three: add #[quantize(bits = N)]"),
        _ => None,
    };
    let ty = written(field.ty);
    let unsupported = || {
        format!(
            "`relative` needs an integer with #[bits(min, max)], a float with #[quantize(min, max, res)] (or a \
             glam or mint vector of them), a quaternion with #[quantize(bits = N)] or an array of up to 16 \
             of them (literal length), not `{ty}`; remove it"
        )
    };
    match (&field.encoding, shape(field.ty)) {
        (Some(Encoding::Array(array)), Shape::Array(element, _)) => match scalar(&shape(element)) {
            Some(advice) if array.literal_len().is_some_and(|len| len > 0) => {
                format!("{advice}, to code each element of `{ty}`")
            }
            Some(_) => format!(
                "`relative` codes arrays of up to 16 elements with a literal length, not `{ty}`; \
                 shorten it or remove `relative`"
            ),
            None => unsupported(),
        },
        (_, shape) => scalar(&shape).map_or_else(unsupported, str::to_owned),
    }
}
