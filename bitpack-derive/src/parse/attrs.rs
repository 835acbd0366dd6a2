//! The helper attributes of a field and of the type, parsed into typed
//! values that remember their spans: `#[bits(min, max)]`,
//! `#[quantize(min, max, res)]`, `#[quantize(bits = N)]`, `#[bitpack(...)]`
//! and `#[change_group]`.
//! Parsing never stops at the first mistake: each one is recorded and the
//! rest of the attribute is still read.

use crate::errors::Errors;
use crate::parse::change_group::{self, GroupAttr};
use crate::parse::keys::{
    BITPACK_KEYS, BITS_KEYS, Found, Place, Prediction, QUANTIZE_KEYS, attr_ident, parse_keys, path_name,
    take_adaptive, take_flag, take_path, take_relative, take_value,
};
use crate::parse::value::Value;
use syn::{Attribute, Ident, Path};

/// `#[bits(min = A, max = B)]`.
pub struct Bits {
    /// The `bits` in `#[bits(...)]`, where mistakes about the whole attribute point.
    pub name: Ident,
    pub min: Value,
    pub max: Value,
}

/// `#[quantize(min = A, max = B, res = C)]`.
pub struct Quantize {
    pub name: Ident,
    pub min: Value,
    pub max: Value,
    pub res: Value,
}

/// `#[quantize(bits = N)]` on a quaternion: smallest three, `N` bits per component.
pub struct Rotation {
    pub name: Ident,
    pub bits: Value,
}

/// A key of `#[bitpack(...)]` with the name as written, for spans.
pub struct Setting<T> {
    pub name: Ident,
    pub value: T,
}

/// `#[quantize(res = C)]` without `min`/`max`: fixed point, `round(x / res)`
/// as an adaptive integer.
pub struct FixedPoint {
    pub name: Ident,
    pub res: Value,
}

/// The helper attributes of one field.
#[derive(Default)]
pub struct FieldAttrs {
    pub bits: Option<Bits>,
    pub quantize: Option<Quantize>,
    pub fixed: Option<FixedPoint>,
    pub rotation: Option<Rotation>,
    pub max_len: Option<Setting<Value>>,
    /// `#[bitpack(with = module)]`: the field through a module's `write`/`read`.
    pub with: Option<Setting<Path>>,
    pub skip: Option<Ident>,
    pub adaptive: Option<Ident>,
    /// `adaptive(group = name)`: the group's name (with `adaptive` above set).
    pub adaptive_group: Option<Ident>,
    /// `#[bitpack(relative)]`: coded against the baseline in deltas.
    pub relative: Option<Ident>,
    /// `relative(rate = field, dt = D)`: coded against the baseline moved
    /// by its `rate` field times `D` (with `relative` above set).
    pub prediction: Option<Prediction>,
    /// `#[change_group]` / `#[change_group(name)]`.
    pub change_group: Option<GroupAttr>,
    /// `#[bitpack(key)]` and `#[bitpack(spawn = path)]`: see `check::keyed`.
    pub keyed: KeyedAttrs,
    /// `#[bitpack(columns)]`: the collection written field by field.
    pub columns: Option<Ident>,
    /// `#[bitpack(adaptive_len)]`: a sequence's length in the bounded-adaptive form.
    pub adaptive_len: Option<Ident>,
}

/// The keys of keyed collections on a field.
#[derive(Default)]
pub struct KeyedAttrs {
    /// `#[bitpack(key)]`: the field a sorted `Vec` of the type is keyed by.
    pub key: Option<Ident>,
    /// `#[bitpack(spawn = path)]`: what new entries are sent against.
    pub spawn: Option<Setting<Value>>,
}

/// The helper attributes of the type itself.
#[derive(Default)]
pub struct ContainerAttrs {
    pub max_bytes: Option<Setting<Value>>,
    pub krate: Option<Setting<Path>>,
    pub adaptive: Option<Ident>,
    /// The `group` of `adaptive(group)`: every plain integer field in one group.
    pub adaptive_group: Option<Ident>,
    /// `#[bitpack(columns)]`: every collection field written field by field,
    /// and the type written as columns inside others.
    pub columns: Option<Ident>,
}

impl ContainerAttrs {
    /// The path to the `bitpack` crate, if `#[bitpack(crate = ...)]` gave one.
    pub fn krate(&self) -> Option<&Path> {
        self.krate.as_ref().map(|setting| &setting.value)
    }
}

/// `res` alone in #[quantize]: fixed point.
fn take_fixed_point(name: &Ident, found: &mut Found) -> Option<FixedPoint> {
    let only_res = found.len() == 1 && found[0].0 == "res";
    let (_, res) = if only_res { take_value(found, "res")? } else { return None };
    Some(FixedPoint { name: name.clone(), res })
}

/// The helper attributes on a field.
pub fn field_attrs(attrs: &[Attribute], errors: &mut Errors) -> FieldAttrs {
    let mut parsed = FieldAttrs::default();
    let mut bitpack = Found::new();
    for attr in attrs {
        let path = attr.path();
        if path.is_ident("bits") {
            let name = attr_ident(attr);
            let mut found = Found::new();
            parse_keys(attr, BITS_KEYS, Place::Field, &mut found, errors);
            let bits = build_bits(name, found, errors);
            if parsed.bits.is_some() {
                errors.spanned(attr, "duplicate #[bits] on one field; keep one");
            } else {
                parsed.bits = bits;
            }
        } else if path.is_ident("quantize") {
            let name = attr_ident(attr);
            let mut found = Found::new();
            parse_keys(attr, QUANTIZE_KEYS, Place::Field, &mut found, errors);
            if parsed.quantize.is_some() || parsed.fixed.is_some() || parsed.rotation.is_some() {
                errors.spanned(attr, "duplicate #[quantize] on one field; keep one");
            } else if let Some(fixed) = take_fixed_point(&name, &mut found) {
                parsed.fixed = Some(fixed);
            } else if found.iter().any(|(key, _)| key == "bits") {
                parsed.rotation = build_rotation(name, found, errors);
            } else {
                parsed.quantize = build_quantize(name, found, errors);
            }
        } else if path.is_ident("bitpack") {
            parse_keys(attr, BITPACK_KEYS, Place::Field, &mut bitpack, errors);
        } else if path.is_ident("change_group") {
            change_group::parse(attr, &mut parsed.change_group, errors);
        }
    }
    (parsed.relative, parsed.prediction) = take_relative(&mut bitpack);
    parsed.max_len = take_value(&mut bitpack, "max_len").map(|(name, value)| Setting { name, value });
    parsed.with = take_path(&mut bitpack, "with").map(|(name, value)| Setting { name, value });
    (parsed.adaptive, parsed.adaptive_group) = take_adaptive(&mut bitpack);
    parsed.skip = take_flag(&mut bitpack, "skip");
    parsed.keyed.key = take_flag(&mut bitpack, "key");
    parsed.keyed.spawn = take_value(&mut bitpack, "spawn").map(|(name, value)| Setting { name, value });
    parsed.columns = take_flag(&mut bitpack, "columns");
    parsed.adaptive_len = take_flag(&mut bitpack, "adaptive_len");
    parsed
}

/// The helper attributes on the type.
pub fn container_attrs(attrs: &[Attribute], errors: &mut Errors) -> ContainerAttrs {
    let mut parsed = ContainerAttrs::default();
    let mut bitpack = Found::new();
    for attr in attrs {
        let path = attr.path();
        if path.is_ident("bitpack") {
            parse_keys(attr, BITPACK_KEYS, Place::Container, &mut bitpack, errors);
        } else if path.is_ident("bits") || path.is_ident("quantize") {
            errors.spanned(path, format!("#[{}] goes on a field, not on the type; move it", path_name(path)));
        } else if path.is_ident("change_group") {
            change_group::misplaced(attr, "the type", errors);
        }
    }
    parsed.max_bytes = take_value(&mut bitpack, "max_bytes").map(|(name, value)| Setting { name, value });
    (parsed.adaptive, parsed.adaptive_group) = take_adaptive(&mut bitpack);
    parsed.krate = take_path(&mut bitpack, "crate").map(|(name, value)| Setting { name, value });
    parsed.columns = take_flag(&mut bitpack, "columns");
    parsed
}

/// Enum variants take no helper attributes yet.
pub fn variant_attrs(attrs: &[Attribute], errors: &mut Errors) {
    for attr in attrs {
        let path = attr.path();
        if path.is_ident("bitpack") || path.is_ident("bits") || path.is_ident("quantize") {
            errors.spanned(
                path,
                format!(
                    "#[{}] does not apply to an enum variant; put it on the variant's fields",
                    path_name(path)
                ),
            );
        } else if path.is_ident("change_group") {
            change_group::misplaced(attr, "an enum variant", errors);
        }
    }
}

fn build_bits(name: Ident, mut found: Found, errors: &mut Errors) -> Option<Bits> {
    let min = take_value(&mut found, "min");
    let max = take_value(&mut found, "max");
    match (min, max) {
        (Some((_, min)), Some((_, max))) => Some(Bits { name, min, max }),
        (min, max) => {
            let missing = missing(&[("min", min.is_none()), ("max", max.is_none())]);
            errors.at(name.span(), format!("#[bits] needs {missing}, as in #[bits(min = 0, max = 100)]"));
            None
        }
    }
}

fn build_quantize(name: Ident, mut found: Found, errors: &mut Errors) -> Option<Quantize> {
    let min = take_value(&mut found, "min");
    let max = take_value(&mut found, "max");
    let res = take_value(&mut found, "res");
    match (min, max, res) {
        (Some((_, min)), Some((_, max)), Some((_, res))) => Some(Quantize { name, min, max, res }),
        (min, max, res) => {
            let missing = missing(&[("min", min.is_none()), ("max", max.is_none()), ("res", res.is_none())]);
            errors.at(
                name.span(),
                format!("#[quantize] needs {missing}, as in #[quantize(min = -1.0, max = 1.0, res = 0.01)]"),
            );
            None
        }
    }
}

/// `bits` alone: a quaternion's smallest three; with `min`, `max` or `res`
/// (a float's steps) it is a mistake.
fn build_rotation(name: Ident, mut found: Found, errors: &mut Errors) -> Option<Rotation> {
    let (_, bits) = take_value(&mut found, "bits")?;
    if let Some((other, _)) = found.first() {
        errors.at(
            other.span(),
            format!(
                "`{other}` does not go with `bits`: #[quantize(bits = N)] sends a quaternion as smallest three, \
                 #[quantize(min, max, res)] a float in steps; keep one"
            ),
        );
        return None;
    }
    Some(Rotation { name, bits })
}

fn missing(keys: &[(&str, bool)]) -> String {
    let names: Vec<_> =
        keys.iter().filter(|(_, absent)| *absent).map(|(name, _)| format!("`{name}`")).collect();
    names.join(" and ")
}
