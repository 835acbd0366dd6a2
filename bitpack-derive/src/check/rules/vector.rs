//! `#[quantize(min, max, res)]` on a float vector and `#[bits(min, max)]` on
//! an integer vector (glam's and mint's, recognised by name): each axis with
//! its own bounds. A bound is one number for every axis, an array literal
//! with one per axis, or a path to a constant of either kind; each axis is
//! checked here as the scalar field would be, and the whole declaration
//! again by the compiler (for paths, and the axis the core refuses).

use crate::check::planner::{Planner, Slot};
use crate::check::reach::Used;
use crate::check::rules::quantized::check_steps;
use crate::check::rules::ranged::check_range;
use crate::ir::consts::{AxisBounds, Check, ConstName, ConstTy, Range, Role, Steps};
use crate::ir::encoding::Encoding;
use crate::ir::geometry::Vector;
use crate::parse::ty::{Scalar, Shape, written};
use crate::parse::value::Value;
use syn::Type;

pub fn plan<'a>(planner: &mut Planner<'a>, slot: &Slot<'a>, used: &mut Used) -> Option<Encoding<'a>> {
    let Shape::Vector(scalar, axes) = slot.shape else { return None };
    let (ty, reach) = (slot.ty, slot.reach);
    let (name, bounds) = match (scalar, reach.quantize, reach.bits) {
        (Scalar::Float(float), Some(quantize), _) => {
            used.quantize = true;
            let values = [&quantize.min, &quantize.max, &quantize.res];
            let per_axis = per_axis(planner, ty, axes, values)?;
            for axis in &per_axis {
                check_steps(planner, *axis, float);
            }
            let [min, max, res] = declare(planner, scalar, axes, values);
            (&quantize.name, AxisBounds::Quantized(float, Steps { min, max, res }))
        }
        (Scalar::Int(int), _, Some(bits)) => {
            used.bits = true;
            let values = [&bits.min, &bits.max];
            let per_axis = per_axis(planner, ty, axes, values)?;
            for axis in &per_axis {
                check_range(planner, int, *axis);
            }
            let [min, max] = declare(planner, scalar, axes, values);
            (&bits.name, AxisBounds::Ranged(int, Range { min, max }))
        }
        (Scalar::Int(_), Some(quantize), _) => {
            used.quantize = true;
            planner.errors.at(
                quantize.name.span(),
                format!(
                    "#[quantize] needs a float vector, not `{}` (integer components); use #[bits(min, max)] \
                     for integer vectors",
                    written(ty)
                ),
            );
            return None;
        }
        (Scalar::Float(_), _, Some(bits)) => {
            used.bits = true;
            planner.errors.at(
                bits.name.span(),
                format!(
                    "#[bits] needs an integer vector, not `{}` (float components); use \
                     #[quantize(min, max, res)] for float vectors",
                    written(ty)
                ),
            );
            return None;
        }
        // No attribute: the vector's own `BitPack`, its raw components.
        _ => return None,
    };
    planner.checks.push(Check::Axes { bounds, span: name.span() });
    Some(Encoding::Vector(Vector { ty, axes, bounds }))
}

/// The values of each axis, `x` first: an array literal's entries, or the
/// one value for every axis. `None` after reporting an array of the wrong length.
fn per_axis<'v, const K: usize>(
    planner: &mut Planner<'_>,
    ty: &Type,
    axes: usize,
    values: [&'v Value; K],
) -> Option<Vec<[&'v Value; K]>> {
    let mut fits = true;
    for value in values {
        if let Some(entries) = value.entries()
            && entries.len() != axes
        {
            fits = false;
            planner.errors.spanned(
                &value.expr,
                format!(
                    "`{}` has {} axes, and this gives {}; give one bound per axis ({}), or one number for all",
                    written(ty),
                    axes,
                    entries.len(),
                    ["x", "y", "z", "w"].iter().take(axes).copied().collect::<Vec<_>>().join(", ")
                ),
            );
        }
    }
    fits.then(|| {
        (0..axes)
            .map(|axis| values.map(|value| value.entries().map_or(value, |entries| &entries[axis])))
            .collect()
    })
}

/// Declares each bound as a constant array, one entry per axis.
fn declare<'a, const K: usize>(
    planner: &mut Planner<'a>,
    scalar: Scalar,
    axes: usize,
    values: [&'a Value; K],
) -> [ConstName; K] {
    const ROLES: [Role; 3] = [Role::Min, Role::Max, Role::Res];
    let mut index = 0;
    values.map(|value| {
        let name = planner.constant(ConstTy::Axes(scalar, axes), value, ROLES[index]);
        index += 1;
        name
    })
}
