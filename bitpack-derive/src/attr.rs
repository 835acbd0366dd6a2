//! The helper attributes, parsed into typed values that remember their
//! spans: `#[bits(min, max)]`, `#[quantize(min, max, res)]` and
//! `#[bitpack(...)]`. Parsing never stops at the first mistake: each one is
//! recorded and the rest of the attribute is still read.
//!
//! Every key is listed once, in [`BITS_KEYS`], [`QUANTIZE_KEYS`] and
//! [`BITPACK_KEYS`]: to add a key, add a row there and a field to
//! [`FieldAttrs`] or [`ContainerAttrs`].

use crate::errors::Errors;
use proc_macro2::Span;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, ExprUnary, Ident, Lit, Path, Token, UnOp};

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

/// `#[quantize(min = A, max = B, res = C)]`.
pub const QUANTIZE_KEYS: &[Key] = &[
    key("min", true, Place::Field, Status::Ready),
    key("max", true, Place::Field, Status::Ready),
    key("res", true, Place::Field, Status::Ready),
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
];

/// A number as written: a literal the derive checks itself, or any other
/// expression (a path to a constant), checked by the compiler.
pub struct Value {
    pub expr: Expr,
    pub literal: Literal,
}

/// What the derive knows of a value's number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    Int(Int),
    /// A float literal, as the f32 nearest to it (`None` if it does not parse).
    Float(Option<f32>),
    /// Not a literal: left to the compiler.
    Opaque,
}

/// An integer literal of any width and sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Int {
    pub negative: bool,
    pub magnitude: u128,
}

impl Int {
    pub fn new(negative: bool, magnitude: u128) -> Self {
        Int { negative: negative && magnitude != 0, magnitude }
    }

    pub fn less_than(self, other: Int) -> bool {
        match (self.negative, other.negative) {
            (true, false) => true,
            (false, true) => false,
            (false, false) => self.magnitude < other.magnitude,
            (true, true) => self.magnitude > other.magnitude,
        }
    }
}

impl std::fmt::Display for Int {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.negative {
            write!(f, "-")?;
        }
        write!(f, "{}", self.magnitude)
    }
}

impl Value {
    fn new(expr: Expr) -> Self {
        let literal = literal_of(&expr);
        Value { expr, literal }
    }

    pub fn span(&self) -> Span {
        self.expr.span()
    }

    /// The value as an f32, if it is a literal number.
    pub fn as_f32(&self) -> Option<f32> {
        match self.literal {
            Literal::Int(int) => {
                let magnitude = int.magnitude as f32;
                Some(if int.negative { -magnitude } else { magnitude })
            }
            Literal::Float(float) => float,
            Literal::Opaque => None,
        }
    }
}

fn literal_of(expr: &Expr) -> Literal {
    match expr {
        Expr::Lit(ExprLit { lit, .. }) => literal_number(lit, false),
        Expr::Unary(ExprUnary { op: UnOp::Neg(_), expr, .. }) => match &**expr {
            Expr::Lit(ExprLit { lit, .. }) => literal_number(lit, true),
            _ => Literal::Opaque,
        },
        Expr::Group(group) => literal_of(&group.expr),
        Expr::Paren(paren) => literal_of(&paren.expr),
        _ => Literal::Opaque,
    }
}

fn literal_number(lit: &Lit, negative: bool) -> Literal {
    match lit {
        Lit::Int(int) => match int.base10_parse::<u128>() {
            Ok(magnitude) => Literal::Int(Int::new(negative, magnitude)),
            Err(_) => Literal::Opaque,
        },
        Lit::Float(float) => {
            let value = float.base10_parse::<f32>().ok().map(|v| if negative { -v } else { v });
            Literal::Float(value)
        }
        _ => Literal::Opaque,
    }
}

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
    pub max_len: Option<Setting<Value>>,
    pub skip: Option<Ident>,
    pub adaptive: Option<Ident>,
    /// `adaptive(group = name)`: the group's name (with `adaptive` above set).
    pub adaptive_group: Option<Ident>,
    /// `#[bitpack(relative)]`: coded against the baseline in deltas.
    pub relative: Option<Ident>,
    /// `#[change_group]` / `#[change_group(name)]`.
    pub change_group: Option<crate::change::GroupAttr>,
}

/// The helper attributes of the type itself.
#[derive(Default)]
pub struct ContainerAttrs {
    pub max_bytes: Option<Setting<Value>>,
    pub krate: Option<Setting<Path>>,
    pub adaptive: Option<Ident>,
    /// The `group` of `adaptive(group)`: every plain integer field in one group.
    pub adaptive_group: Option<Ident>,
}

/// What a `#[bitpack(...)]` or `#[bits(...)]` key was given.
enum Given {
    Flag,
    /// `adaptive(group ...)`: the group, checked for the place (`None` if mistaken).
    Group(Option<Ident>),
    Value(Expr),
    Path(Path),
}

/// The keys found in one attribute (or several of the same name), in order.
type Found = Vec<(Ident, Given)>;

/// Reads one attribute's `key = value` list against `keys`, recording
/// unknown, misplaced, reserved and duplicated keys; `found` collects the
/// good ones (and spans several attributes of the same name).
fn parse_keys(attr: &Attribute, keys: &[Key], place: Place, found: &mut Found, errors: &mut Errors) {
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
        } else if !key.takes_value {
            if !meta.input.is_empty() && !meta.input.peek(Token![,]) {
                errors.at(ident.span(), format!("`{name}` takes no value; write #[{attr_name}({name})]"));
                skip_value(&meta)?;
            }
            Given::Flag
        } else if !meta.input.peek(Token![=]) {
            errors.at(ident.span(), format!("`{name}` needs a value: #[{attr_name}({name} = ...)]"));
            return skip_value(&meta);
        } else if name == "crate" {
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

fn path_name(path: &Path) -> String {
    path.get_ident().map_or_else(|| "attribute".to_owned(), Ident::to_string)
}

/// Takes `name` out of `found` as a value.
fn take_value(found: &mut Found, name: &str) -> Option<(Ident, Value)> {
    let index = found.iter().position(|(ident, _)| ident == name)?;
    match found.remove(index) {
        (ident, Given::Value(expr)) => Some((ident, Value::new(expr))),
        _ => None,
    }
}

/// Takes `adaptive` (plain or `adaptive(group ...)`) out of `found`: the
/// `adaptive` key and the group, if one was given.
fn take_adaptive(found: &mut Found) -> (Option<Ident>, Option<Ident>) {
    let Some(index) = found.iter().position(|(ident, _)| ident == "adaptive") else { return (None, None) };
    match found.remove(index) {
        (ident, Given::Group(group)) => (Some(ident), group),
        (ident, _) => (Some(ident), None),
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
            if parsed.quantize.is_some() || parsed.fixed.is_some() {
                errors.spanned(attr, "duplicate #[quantize] on one field; keep one");
            } else if let Some(fixed) = take_fixed_point(&name, &mut found) {
                parsed.fixed = Some(fixed);
            } else {
                parsed.quantize = build_quantize(name, found, errors);
            }
        } else if path.is_ident("bitpack") {
            parse_keys(attr, BITPACK_KEYS, Place::Field, &mut bitpack, errors);
        } else if path.is_ident("change_group") {
            crate::change::field_attr(attr, &mut parsed.change_group, errors);
        }
    }
    parsed.relative = bitpack.iter().find(|(ident, _)| ident == "relative").map(|(ident, _)| ident.clone());
    parsed.max_len = take_value(&mut bitpack, "max_len").map(|(name, value)| Setting { name, value });
    (parsed.adaptive, parsed.adaptive_group) = take_adaptive(&mut bitpack);
    parsed.skip = bitpack.into_iter().find(|(ident, _)| ident == "skip").map(|(ident, _)| ident);
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
            crate::change::misplaced(attr, "the type", errors);
        }
    }
    parsed.max_bytes = take_value(&mut bitpack, "max_bytes").map(|(name, value)| Setting { name, value });
    (parsed.adaptive, parsed.adaptive_group) = take_adaptive(&mut bitpack);
    if let Some(index) = bitpack.iter().position(|(ident, _)| ident == "crate")
        && let (name, Given::Path(path)) = bitpack.remove(index)
    {
        parsed.krate = Some(Setting { name, value: path });
    }
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
            crate::change::misplaced(attr, "an enum variant", errors);
        }
    }
}

fn attr_ident(attr: &Attribute) -> Ident {
    attr.path().get_ident().cloned().unwrap_or_else(|| Ident::new("attribute", attr.span()))
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

fn missing(keys: &[(&str, bool)]) -> String {
    let names: Vec<_> =
        keys.iter().filter(|(_, absent)| *absent).map(|(name, _)| format!("`{name}`")).collect();
    names.join(" and ")
}
