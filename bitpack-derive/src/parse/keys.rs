//! The keys of the helper attributes, listed once in [`BITS_KEYS`],
//! [`QUANTIZE_KEYS`] and [`BITPACK_KEYS`], and the reader that checks an
//! attribute's keys against them: unknown, misplaced, reserved and
//! duplicated keys are recorded and the rest of the attribute is still
//! read. To add a key, add a row here and a field to `FieldAttrs` or
//! `ContainerAttrs` (in `attrs`), and a line to `docs/attributes.md` (the
//! summary on the derive's page; the tests below check it lists every key).

use crate::errors::Errors;
use crate::parse::value::Value;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Ident, Path, Token};

/// Where a key may be written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Field,
    Container,
    /// On a field or on the type.
    Either,
}

/// Whether a key works yet.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Ready,
    /// Reserved for a later feature: refused with "not supported yet".
    Later,
}

/// One key of an attribute.
pub struct Key {
    pub name: &'static str,
    /// `key = value` (true) or a bare flag (false).
    pub takes_value: bool,
    pub place: Place,
    pub status: Status,
}

const fn key(name: &'static str, takes_value: bool, place: Place, status: Status) -> Key {
    Key { name, takes_value, place, status }
}

/// `#[bits(min = A, max = B)]`.
pub const BITS_KEYS: &[Key] =
    &[key("min", true, Place::Field, Status::Ready), key("max", true, Place::Field, Status::Ready)];

/// `#[quantize(min = A, max = B, res = C)]`, and `#[quantize(bits = N)]` on a quaternion.
pub const QUANTIZE_KEYS: &[Key] = &[
    key("min", true, Place::Field, Status::Ready),
    key("max", true, Place::Field, Status::Ready),
    key("res", true, Place::Field, Status::Ready),
    key("bits", true, Place::Field, Status::Ready),
];

/// `#[bitpack(...)]`, on fields and on the type.
pub const BITPACK_KEYS: &[Key] = &[
    key("max_len", true, Place::Field, Status::Ready),
    key("skip", false, Place::Field, Status::Ready),
    key("max_bytes", true, Place::Container, Status::Ready),
    key("crate", true, Place::Container, Status::Ready),
    // Change groups (issue 4) and adaptive integers (issue 5).
    key("relative", false, Place::Field, Status::Ready),
    key("adaptive", false, Place::Either, Status::Ready),
    // Foreign types through a module (issue 12).
    key("with", true, Place::Field, Status::Ready),
    // Keyed collections (issue 13).
    key("key", false, Place::Field, Status::Ready),
    key("spawn", true, Place::Field, Status::Ready),
    // Collections written field by field (issue 16).
    key("columns", false, Place::Either, Status::Ready),
    // A sequence's length in the bounded-adaptive form (issue 16).
    key("adaptive_len", false, Place::Field, Status::Ready),
];

/// What a `#[bitpack(...)]` or `#[bits(...)]` key was given.
pub enum Given {
    Flag,
    /// `adaptive(group ...)`: the group, checked for the place (`None` if mistaken).
    Group(Option<Ident>),
    /// `relative(rate = field, dt = D)`: the prediction's keys as written.
    Predict(Prediction),
    Value(Expr),
    Path(Path),
}

/// The keys found in one attribute (or several of the same name), in order.
pub type Found = Vec<(Ident, Given)>;

/// Reads one attribute's `key = value` list against `keys`, recording
/// unknown, misplaced, reserved and duplicated keys; `found` collects the
/// good ones (and spans several attributes of the same name).
pub fn parse_keys(attr: &Attribute, keys: &[Key], place: Place, found: &mut Found, errors: &mut Errors) {
    let attr_name = path_name(attr.path());
    let result = attr.parse_nested_meta(|meta| {
        let Some(ident) = meta.path.get_ident().cloned() else {
            errors
                .spanned(&meta.path, format!("expected a key of #[{attr_name}], such as `{}`", keys[0].name));
            return skip_value(&meta);
        };
        let name = ident.to_string();
        let Some(key) = keys.iter().find(|key| key.name == name) else {
            let expected: Vec<_> = keys.iter().map(|key| format!("`{}`", key.name)).collect();
            errors.at(
                ident.span(),
                format!("unknown key `{name}` in #[{attr_name}]; expected one of {}", expected.join(", ")),
            );
            return skip_value(&meta);
        };
        if key.status == Status::Later {
            errors.at(ident.span(), format!("#[{attr_name}({name})] is not supported yet; remove it"));
            return skip_value(&meta);
        }
        if key.place != place && key.place != Place::Either {
            let (here, there) = match place {
                Place::Container => ("the type", "a field"),
                Place::Field | Place::Either => ("a field", "the type (struct or enum)"),
            };
            errors.at(ident.span(), format!("`{name}` goes on {there}, not on {here}; move it"));
            return skip_value(&meta);
        }
        if found.iter().any(|(seen, _)| *seen == ident) {
            errors.at(ident.span(), format!("duplicate `{name}` in #[{attr_name}]; keep one"));
            return skip_value(&meta);
        }
        let given = if name == "adaptive" && meta.input.peek(syn::token::Paren) {
            Given::Group(adaptive_args(&meta, place, errors)?)
        } else if name == "relative" && meta.input.peek(syn::token::Paren) {
            Given::Predict(prediction_args(&meta, errors)?)
        } else if !key.takes_value {
            if !meta.input.is_empty() && !meta.input.peek(Token![,]) {
                errors.at(ident.span(), format!("`{name}` takes no value; write #[{attr_name}({name})]"));
                skip_value(&meta)?;
            }
            Given::Flag
        } else if !meta.input.peek(Token![=]) {
            errors.at(ident.span(), format!("`{name}` needs a value: #[{attr_name}({name} = ...)]"));
            return skip_value(&meta);
        } else if name == "crate" || name == "with" {
            Given::Path(meta.value()?.call(Path::parse_mod_style)?)
        } else {
            Given::Value(meta.value()?.parse::<Expr>()?)
        };
        found.push((ident, given));
        Ok(())
    });
    if let Err(error) = result {
        errors.push(error);
    }
}

/// The arguments of `adaptive(...)`: `group = name` on a field, `group` on
/// the type. Returns the name (field) or the `group` key (type).
fn adaptive_args(
    meta: &ParseNestedMeta<'_>,
    place: Place,
    errors: &mut Errors,
) -> syn::Result<Option<Ident>> {
    let mut group: Option<Ident> = None;
    meta.parse_nested_meta(|inner| {
        let Some(ident) = inner.path.get_ident().cloned().filter(|ident| ident == "group") else {
            let written = inner.path.to_token_stream().to_string().replace(' ', "");
            errors.spanned(&inner.path, format!("unknown key `{written}` in adaptive(...); expected `group`"));
            return skip_value(&inner);
        };
        if group.is_some() {
            errors.at(ident.span(), "duplicate `group` in `adaptive(...)`; keep one");
            return skip_value(&inner);
        }
        let named = if inner.input.peek(Token![=]) { Some(inner.value()?.parse::<Ident>()?) } else { None };
        group = match (place, named) {
            (Place::Container, None) => Some(ident),
            (Place::Container, Some(name)) => {
                errors.at(
                    name.span(),
                    "on the type, `group` takes no name (it groups every integer field); write adaptive(group)",
                );
                None
            }
            (Place::Field | Place::Either, Some(name)) => Some(name),
            (Place::Field | Place::Either, None) => {
                errors.at(
                    ident.span(),
                    "on a field, name the group its fields share: adaptive(group = name)",
                );
                None
            }
        };
        Ok(())
    })?;
    Ok(group)
}

/// `relative(rate = field, dt = D)` as written: each key with its name, for
/// spans. Whether both are there, and what they name, is `check`'s.
#[derive(Default)]
pub struct Prediction {
    pub rate: Option<(Ident, Ident)>,
    pub dt: Option<(Ident, Value)>,
}

/// The arguments of `relative(...)`: `rate = field` and `dt = value`.
fn prediction_args(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Prediction> {
    let mut prediction = Prediction::default();
    meta.parse_nested_meta(|inner| {
        let Some(ident) = inner.path.get_ident().cloned().filter(|ident| ident == "rate" || ident == "dt")
        else {
            let written = inner.path.to_token_stream().to_string().replace(' ', "");
            errors.spanned(
                &inner.path,
                format!("unknown key `{written}` in relative(...); expected `rate` or `dt`"),
            );
            return skip_value(&inner);
        };
        let seen = if ident == "rate" { prediction.rate.is_some() } else { prediction.dt.is_some() };
        if seen {
            errors.at(ident.span(), format!("duplicate `{ident}` in `relative(...)`; keep one"));
            return skip_value(&inner);
        }
        if !inner.input.peek(Token![=]) {
            errors.at(ident.span(), format!("`{ident}` needs a value: relative({ident} = ...)"));
            return skip_value(&inner);
        }
        if ident == "rate" {
            prediction.rate = Some((ident, inner.value()?.parse::<Ident>()?));
        } else {
            prediction.dt = Some((ident, Value::new(inner.value()?.parse::<Expr>()?)));
        }
        Ok(())
    })?;
    Ok(prediction)
}

/// Consumes whatever follows an unusable key, so the keys after it are
/// still read.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

pub fn path_name(path: &Path) -> String {
    path.get_ident().map_or_else(|| "attribute".to_owned(), Ident::to_string)
}

/// Takes `name` out of `found` as a value.
pub fn take_value(found: &mut Found, name: &str) -> Option<(Ident, Value)> {
    let index = found.iter().position(|(ident, _)| ident == name)?;
    match found.remove(index) {
        (ident, Given::Value(expr)) => Some((ident, Value::new(expr))),
        _ => None,
    }
}

/// Takes `adaptive` (plain or `adaptive(group ...)`) out of `found`: the
/// `adaptive` key and the group, if one was given.
pub fn take_adaptive(found: &mut Found) -> (Option<Ident>, Option<Ident>) {
    let Some(index) = found.iter().position(|(ident, _)| ident == "adaptive") else { return (None, None) };
    match found.remove(index) {
        (ident, Given::Group(group)) => (Some(ident), group),
        (ident, _) => (Some(ident), None),
    }
}

/// Takes `relative` (plain or `relative(rate = .., dt = ..)`) out of
/// `found`: the key, and the prediction if one was written.
pub fn take_relative(found: &mut Found) -> (Option<Ident>, Option<Prediction>) {
    let Some(index) = found.iter().position(|(ident, _)| ident == "relative") else { return (None, None) };
    match found.remove(index) {
        (ident, Given::Predict(prediction)) => (Some(ident), Some(prediction)),
        (ident, _) => (Some(ident), None),
    }
}

/// Takes the flag `name` out of `found`, as written.
pub fn take_flag(found: &mut Found, name: &str) -> Option<Ident> {
    let index = found.iter().position(|(ident, _)| ident == name)?;
    Some(found.remove(index).0)
}

/// Takes `name` out of `found` as a path (`crate = ::path`, `with = module`).
pub fn take_path(found: &mut Found, name: &str) -> Option<(Ident, Path)> {
    let index = found.iter().position(|(ident, _)| ident == name)?;
    match found.remove(index) {
        (ident, Given::Path(path)) => Some((ident, path)),
        _ => None,
    }
}

/// The attribute's name (`bits`, `quantize`...), where mistakes about the
/// whole attribute point.
pub fn attr_ident(attr: &Attribute) -> Ident {
    attr.path().get_ident().cloned().unwrap_or_else(|| Ident::new("attribute", attr.span()))
}

#[cfg(test)]
mod tests {
    use super::{BITPACK_KEYS, BITS_KEYS, Key, Place, QUANTIZE_KEYS, Status};

    /// The summary on the derive's page (`#[derive(BitPack)]`'s docs).
    const SUMMARY: &str = include_str!("../../docs/attributes.md");

    /// The attribute forms the summary lists (`#[bits(min = A, max = B)]`),
    /// each with whether it is under "On the type:".
    fn forms() -> Vec<(&'static str, Place)> {
        let mut place = Place::Field;
        let mut forms = Vec::new();
        for line in SUMMARY.lines() {
            if line.starts_with("On the type:") {
                place = Place::Container;
            }
            let Some(rest) = line.strip_prefix("- `#[") else { continue };
            let form = &rest[..rest.find("]`").expect("a form ends with ]`")];
            forms.push((form, place));
        }
        forms
    }

    /// `bits(min = A, max = B)` -> ("bits", ["min", "max"]); nested
    /// arguments (`adaptive(group = name)`) count as their outer key.
    fn attr_and_keys(form: &str) -> (&str, Vec<&str>) {
        let Some((name, args)) = form.strip_suffix(')').and_then(|form| form.split_once('(')) else {
            return (form, Vec::new());
        };
        let (mut keys, mut depth, mut start) = (Vec::new(), 0, 0);
        for (at, c) in args.char_indices().chain([(args.len(), ',')]) {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    let part = args[start..at].trim();
                    keys.push(
                        &part[..part.find(|c: char| !c.is_alphanumeric() && c != '_').unwrap_or(part.len())],
                    );
                    start = at + 1;
                }
                _ => {}
            }
        }
        (name, keys)
    }

    fn table(attr: &str) -> &'static [Key] {
        match attr {
            "bits" => BITS_KEYS,
            "quantize" => QUANTIZE_KEYS,
            "bitpack" => BITPACK_KEYS,
            other => panic!("the summary lists #[{other}], which the derive does not read"),
        }
    }

    #[test]
    fn the_summary_lists_every_key_where_it_goes() {
        let forms = forms();
        for (attr, keys) in [("bits", BITS_KEYS), ("quantize", QUANTIZE_KEYS), ("bitpack", BITPACK_KEYS)] {
            for key in keys.iter().filter(|key| key.status == Status::Ready) {
                let places: &[Place] = match key.place {
                    Place::Either => &[Place::Field, Place::Container],
                    Place::Field => &[Place::Field],
                    Place::Container => &[Place::Container],
                };
                for place in places {
                    let listed = forms.iter().any(|(form, at)| {
                        let (name, keys) = attr_and_keys(form);
                        at == place && name == attr && keys.contains(&key.name)
                    });
                    let section = if *place == Place::Field { "On fields" } else { "On the type" };
                    assert!(
                        listed,
                        "docs/attributes.md lists no #[{attr}({}...)] under \"{section}:\"",
                        key.name
                    );
                }
            }
        }
        for form in ["change_group", "change_group(name)"] {
            assert!(forms.contains(&(form, Place::Field)), "docs/attributes.md lists no #[{form}] on fields");
        }
    }

    #[test]
    fn the_summary_lists_only_keys_the_derive_reads() {
        for (form, place) in forms() {
            let (attr, keys) = attr_and_keys(form);
            if attr == "change_group" {
                assert!(place == Place::Field && keys.len() <= 1, "#[{form}] is one group name on a field");
                continue;
            }
            assert!(!keys.is_empty(), "#[{form}] names no key");
            for name in keys {
                let key = table(attr).iter().find(|key| key.name == name);
                let key = key.unwrap_or_else(|| panic!("#[{form}]: #[{attr}] has no key `{name}`"));
                assert!(key.status == Status::Ready, "#[{form}]: `{name}` is not supported yet");
                assert!(
                    key.place == place || key.place == Place::Either,
                    "#[{form}] is listed in the wrong place"
                );
            }
        }
    }
}
