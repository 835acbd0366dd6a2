//! Which attributes reach the values inside a field, and which of them a
//! value took: a field's attributes reach every value inside it (through
//! `Option`, `Box`, tuples, arrays and `Vec`), the type's `adaptive` reaches
//! every integer without an attribute of its own. Attributes that cannot go
//! together are reported here, and so are attributes no value took.

use crate::errors::Errors;
use crate::parse::Body;
use crate::parse::attrs::{Bits, ContainerAttrs, FieldAttrs, FixedPoint, Quantize, Rotation, Setting};
use crate::parse::value::Value;
use syn::{Ident, Path};

/// The attributes that reach every value inside a field.
#[derive(Clone, Copy)]
pub struct Reach<'a> {
    pub bits: Option<&'a Bits>,
    pub quantize: Option<&'a Quantize>,
    pub max_len: Option<&'a Setting<Value>>,
    pub adaptive: Option<Mode<'a>>,
    pub fixed: Option<&'a FixedPoint>,
    pub rotation: Option<&'a Rotation>,
    /// `with` takes the whole field; the attributes beside it are mistakes.
    pub with: Option<&'a Setting<Path>>,
    /// `columns`: the outermost collection written field by field.
    pub columns: Option<Mode<'a>>,
    /// `adaptive_len`: the lengths of the sequences inside, bounded-adaptive.
    pub adaptive_len: Option<&'a Ident>,
}

/// How `adaptive` reached a field.
#[derive(Clone, Copy)]
pub enum Mode<'a> {
    /// `#[bitpack(adaptive)]` on the field: every value inside must take it.
    Explicit(&'a Ident),
    /// `#[bitpack(adaptive)]` on the type: integers take it, the rest ignore it.
    Implicit,
}

/// Which of a field's attributes some value inside it took (or was
/// already reported against), so an attribute nothing took is reported.
#[derive(Default)]
pub struct Used {
    pub bits: bool,
    pub quantize: bool,
    pub max_len: bool,
    pub adaptive: bool,
    pub fixed: bool,
    pub rotation: bool,
    pub columns: bool,
    pub adaptive_len: bool,
}

/// `#[bitpack(adaptive)]` and `adaptive(group)` on the type, and whether
/// the type's `adaptive` reached any integer.
pub struct TypeAdaptive<'a> {
    pub default: Option<&'a Ident>,
    /// The `group` of `adaptive(group)` on a struct.
    pub group: Option<&'a Ident>,
    pub reached: bool,
}

impl<'a> TypeAdaptive<'a> {
    /// The type's adaptive attributes; `adaptive(group)` on an enum is
    /// refused (which variant's fields would it group?).
    pub fn new(attrs: &'a ContainerAttrs, body: &Body<'_>, errors: &mut Errors) -> Self {
        let mut group = attrs.adaptive_group.as_ref();
        if let (Some(ident), Body::Enum(_) | Body::Union(_)) = (group, body) {
            errors.at(
                ident.span(),
                "`adaptive(group)` on an enum: mark each variant's fields with adaptive(group = name) instead",
            );
            group = None;
        }
        TypeAdaptive { default: attrs.adaptive.as_ref(), group, reached: false }
    }

    /// Reports `#[bitpack(adaptive)]` on a type whose fields hold no integer it could take.
    pub fn report_unreached(&self, errors: &mut Errors) {
        if let (Some(adaptive), false) = (self.default, self.reached) {
            errors.at(
                adaptive.span(),
                "`adaptive` on the type reaches no integer field without #[bits]; remove it",
            );
        }
    }
}

impl<'a> Reach<'a> {
    /// The attributes of a field that reach its values, after reporting
    /// those that cannot go together (neither of a clashing pair is then
    /// checked against the type: one mistake, one message).
    pub fn of(attrs: &'a FieldAttrs, adaptive: &TypeAdaptive<'a>, errors: &mut Errors) -> Self {
        let mut reach = Reach {
            bits: attrs.bits.as_ref(),
            quantize: attrs.quantize.as_ref(),
            max_len: attrs.max_len.as_ref(),
            adaptive: None,
            fixed: None,
            rotation: attrs.rotation.as_ref(),
            with: attrs.with.as_ref(),
            columns: None,
            adaptive_len: attrs.adaptive_len.as_ref(),
        };
        if let (Some(_), Some(second)) = (reach.bits, reach.quantize) {
            errors.at(second.name.span(), "#[bits] and #[quantize] on one field; keep one");
            reach.bits = None;
            reach.quantize = None;
        }
        if let (Some(_), Some(second)) = (reach.bits, reach.rotation) {
            errors.at(second.name.span(), "#[bits] and #[quantize] on one field; keep one");
            reach.bits = None;
            reach.rotation = None;
        }
        if let Some(explicit) = &attrs.adaptive {
            let span = explicit.span();
            if reach.bits.is_some() {
                errors.at(
                    span,
                    "`adaptive` and #[bits] on one field: a ranged integer already has its size; keep one",
                );
                reach.bits = None;
            } else if attrs.quantize.is_some() || attrs.rotation.is_some() {
                errors.at(span, "`adaptive` and #[quantize] on one field; keep one");
                reach.quantize = None;
                reach.rotation = None;
            } else if attrs.fixed.is_some() {
                errors.at(
                    span,
                    "#[quantize(res)] without `min`/`max` is already adaptive (fixed point); remove `adaptive`",
                );
            } else {
                reach.adaptive = Some(Mode::Explicit(explicit));
            }
        } else if adaptive.default.is_some()
            && attrs.bits.is_none()
            && attrs.quantize.is_none()
            && attrs.fixed.is_none()
        {
            reach.adaptive = Some(Mode::Implicit);
        }
        if let Some(fixed) = &attrs.fixed {
            if reach.bits.is_some() {
                errors.at(fixed.name.span(), "#[bits] and #[quantize] on one field; keep one");
                reach.bits = None;
            } else {
                reach.fixed = Some(fixed);
            }
        }
        reach
    }

    /// Reports each attribute that reached the field but no value in it.
    pub fn report_unused(&self, used: &Used, errors: &mut Errors) {
        if let (Some(Mode::Explicit(adaptive)), false) = (self.adaptive, used.adaptive) {
            errors.at(
                adaptive.span(),
                "`adaptive` needs an integer field (or a nested type with adaptive fields); remove it",
            );
        }
        if let (Some(fixed), false) = (self.fixed, used.fixed) {
            errors.at(fixed.name.span(), FLOAT_NEEDED_FIXED);
        }
        if let (Some(bits), false) = (self.bits, used.bits) {
            errors.at(bits.name.span(), "#[bits] needs an integer field (u8..u128, i8..i128); remove it");
        }
        if let (Some(quantize), false) = (self.quantize, used.quantize) {
            errors.at(quantize.name.span(), FLOAT_NEEDED);
        }
        if let (Some(rotation), false) = (self.rotation, used.rotation) {
            errors.at(rotation.name.span(), QUATERNION_NEEDED);
        }
        if let (Some(Mode::Explicit(columns)), false) = (self.columns, used.columns) {
            errors.at(columns.span(), COLUMNS_NEEDED);
        }
        if let (Some(adaptive_len), false) = (self.adaptive_len, used.adaptive_len) {
            errors.at(adaptive_len.span(), ADAPTIVE_LEN_NEEDED);
        }
        if let (Some(max_len), false) = (self.max_len, used.max_len) {
            errors.at(max_len.name.span(), COLLECTION_NEEDED);
        }
    }
}

/// `#[quantize]` on a field with no float in it.
const FLOAT_NEEDED: &str = "#[quantize] needs an `f32` or `f64` field; make the field an `f32` or `f64` \
                            (or an `Option`, array, tuple or `Vec` of them)";

/// `#[quantize(bits = N)]` on a field with no quaternion in it.
const QUATERNION_NEEDED: &str = "#[quantize(bits = N)] needs a quaternion field: glam's `Quat` or `DQuat`, \
                                 mint's `Quaternion<f32>`, `[f32; 4]` or `[f64; 4]` (or an `Option`, array \
                                 or `Vec` of them)";

/// `max_len` on a field with no collection in it.
const COLLECTION_NEEDED: &str = "`max_len` bounds a collection (`String`, `Vec`, `VecDeque`, `Box<str>`, \
                                 `Box<[T]>`, `Cow<str>`, a map or a set) and this field holds none; remove it";

/// `adaptive_len` on a field with no sequence whose length it could write.
const ADAPTIVE_LEN_NEEDED: &str = "`adaptive_len` writes the length of a `Vec`, `VecDeque` or `Box<[T]>` with \
                                   `max_len`, and this field holds none it applies to (`columns` and \
                                   `adaptive` on a `Vec` of integers write their own length); remove it";

/// `columns` on a field with no collection to write as columns.
const COLUMNS_NEEDED: &str = "`columns` writes a `Vec` or an array field by field, and this field is \
                              neither; remove it";

/// `#[quantize(res)]` on a field with no float in it.
const FLOAT_NEEDED_FIXED: &str = "#[quantize(res)] needs an `f32` or `f64` field; make the field an `f32` or \
                                  `f64` (or an `Option`, array, tuple or `Vec` of them)";
