//! Keyed collections: a bare `#[change_group]` on a `BTreeMap<K, V>`, or on
//! a `Vec<V>` of a named type (kept sorted by `V`'s `#[bitpack(key)]`
//! field), with `#[bitpack(max_len = N)]`. Planned before the rules, which
//! would take the field as a plain map or `Vec`; the attributes of the
//! entries go on `V`'s fields, so none of the value attributes apply here.

use crate::check::planner::Planner;
use crate::ir::encoding::{Encoding, Nested};
use crate::ir::keyed::{Form, Keyed};
use crate::parse::Field;
use crate::parse::ty::{Shape, shape, written};
use syn::{Expr, GenericArgument, PathArguments, Type};

/// What the runtime's keys are (`keyed::Key`).
pub const UNSIGNED: &str = "u8, u16, u32, u64, u128 or usize";

/// The keyed collection `field` is, if it is one (having reported its mistakes).
pub fn plan<'a>(planner: &mut Planner<'a>, field: &'a Field<'a>) -> Option<Encoding<'a>> {
    let group = field.attrs.change_group.as_ref()?;
    if group.name.is_some() {
        return None;
    }
    let (form, value) = form(field.ty)?;
    let attrs = &field.attrs;
    let errors = &mut planner.errors;
    let ty = written(field.ty);
    let misplaced = [
        attrs.bits.as_ref().map(|bits| (bits.name.span(), "#[bits]")),
        attrs.quantize.as_ref().map(|quantize| (quantize.name.span(), "#[quantize]")),
        attrs.fixed.as_ref().map(|fixed| (fixed.name.span(), "#[quantize]")),
        attrs.adaptive.as_ref().map(|adaptive| (adaptive.span(), "`adaptive`")),
    ];
    for (span, name) in misplaced.into_iter().flatten() {
        errors.at(
            span,
            format!(
                "{name} does not apply to the keyed collection `{ty}`: put the entries' attributes on the \
                 fields of `{}`",
                written(value)
            ),
        );
    }
    if let Form::Map { key } = form {
        check_key(key, errors);
    }
    let spawn = attrs.keyed.spawn.as_ref().and_then(|spawn| match &spawn.value.expr {
        expr @ (Expr::Path(_) | Expr::Closure(_)) => Some(expr),
        expr => {
            errors.spanned(expr, "`spawn` takes a function, as in spawn = Unit::spawn");
            None
        }
    });
    let Some(max_len) = &attrs.max_len else {
        errors.spanned(
            field.ty,
            "a keyed collection needs a maximum length: add #[bitpack(max_len = N)] (the most entries it holds)",
        );
        return Some(Encoding::Nested(Nested { ty: field.ty }));
    };
    let max_len = planner.length(max_len, "max_len");
    Some(Encoding::Keyed(Keyed { form, value, max_len, spawn }))
}

/// `BTreeMap<K, V>` (the key, the value) or `Vec<V>` of a named `V`.
fn form(ty: &Type) -> Option<(Form<'_>, &Type)> {
    if let Shape::Vec(value) = shape(ty) {
        return matches!(shape(value), Shape::Nested).then_some((Form::SortedVec, value));
    }
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last().filter(|last| last.ident == "BTreeMap")?;
    let PathArguments::AngleBracketed(args) = &last.arguments else { return None };
    let mut types = args.args.iter().filter_map(|arg| match arg {
        GenericArgument::Type(ty) => Some(ty),
        _ => None,
    });
    match (types.next(), types.next(), types.next()) {
        (Some(key), Some(value), None) => Some((Form::Map { key }, value)),
        _ => None,
    }
}

/// Reports a key type that cannot be a key: a primitive other than an
/// unsigned integer (a named type is left to the `Key` bound).
pub fn check_key(key: &Type, errors: &mut crate::errors::Errors) {
    let fine = match shape(key) {
        Shape::Int(int) => !int.signed(),
        Shape::Nested => true,
        _ => false,
    };
    if !fine {
        errors.spanned(key, format!("keys are unsigned integers ({UNSIGNED}), not `{}`", written(key)));
    }
}
