//! Plans each field: the attributes that reach it, then its values one by
//! one through the rules (the first rule that takes a value decides its
//! encoding), then the attributes no value took. Also declares the typed
//! constants the plan refers to.

use crate::check::reach::{Mode, Reach, TypeAdaptive, Used};
use crate::errors::Errors;
use crate::ir;
use crate::ir::consts::{Check, Const, ConstName, ConstTy, Role};
use crate::ir::encoding::{Encoding, Nested};
use crate::ir::items::{Changes, Item};
use crate::ir::keyed::KeyField;
use crate::parse::attrs::Setting;
use crate::parse::ty::{Shape, shape};
use crate::parse::value::{Literal, Value};
use crate::parse::{self, FieldList};
use proc_macro2::Span;
use syn::{Ident, Type};

/// One way to encode a value: `Some` when it takes the value (having
/// reported anything wrong with it), `None` to leave it to the next rule.
/// `used` records the attributes it took.
pub type Rule = for<'a> fn(&mut Planner<'a>, &Slot<'a>, &mut Used) -> Option<Encoding<'a>>;

/// A way to plan a whole field before the rules see its values (keyed
/// collections): `Some` when it takes the field.
pub type FieldRule = for<'a> fn(&mut Planner<'a>, &'a parse::Field<'a>) -> Option<Encoding<'a>>;

/// A value to encode: its type, what that type is, and the attributes that reach it.
pub struct Slot<'a> {
    pub ty: &'a Type,
    pub shape: Shape<'a>,
    pub reach: Reach<'a>,
}

/// A check or layout step over the whole body, once every field is planned.
pub type Pass = for<'a> fn(&mut Planner<'a>, &'a parse::Input<'a>, &mut Draft<'a>);

/// The plan while the passes run.
pub struct Draft<'a> {
    /// `None` for a union (refused).
    pub body: Option<ir::Body<'a>>,
    pub max_bytes: Option<(ConstName, Span)>,
    pub changes: Option<Changes>,
    pub key_field: Option<KeyField<'a>>,
}

pub struct Planner<'a> {
    pub errors: Errors,
    consts: Vec<Const<'a>>,
    pub checks: Vec<Check>,
    /// The type's `adaptive`, and whether it reached an integer.
    pub adaptive: TypeAdaptive<'a>,
    rules: &'static [Rule],
    field_rules: &'static [FieldRule],
    /// `#[bitpack(columns)]` on the type: it reaches every collection field.
    pub columns: Option<&'a Ident>,
}

impl<'a> Planner<'a> {
    pub fn new(
        errors: Errors,
        adaptive: TypeAdaptive<'a>,
        field_rules: &'static [FieldRule],
        rules: &'static [Rule],
    ) -> Self {
        Planner {
            errors,
            consts: Vec::new(),
            checks: Vec::new(),
            adaptive,
            rules,
            field_rules,
            columns: None,
        }
    }

    /// Plans a struct's or a variant's fields; every written field is an item.
    pub fn fields(&mut self, list: &'a FieldList<'a>) -> ir::Fields<'a> {
        let fields: Vec<_> = list
            .fields
            .iter()
            .map(|field| ir::Field {
                member: field.member.clone(),
                ty: field.ty,
                encoding: self.field(field),
            })
            .collect();
        let items =
            (0..fields.len()).filter(|&position| fields[position].encoding.is_some()).map(Item::Field);
        ir::Fields { style: list.style, items: items.collect(), fields }
    }

    fn field(&mut self, field: &'a parse::Field<'a>) -> Option<Encoding<'a>> {
        let attrs = &field.attrs;
        if let Some(skip) = &attrs.skip {
            let adaptive = attrs.adaptive.is_some() || attrs.fixed.is_some();
            let other = attrs.rotation.is_some() || attrs.with.is_some();
            if attrs.bits.is_some()
                || attrs.quantize.is_some()
                || attrs.max_len.is_some()
                || adaptive
                || other
            {
                self.errors
                    .at(skip.span(), "a skipped field is not written; remove `skip` or its other attributes");
            }
            return None;
        }
        let field_rules = self.field_rules;
        if let Some(encoding) = field_rules.iter().find_map(|rule| rule(self, field)) {
            return Some(encoding);
        }
        let mut reach = Reach::of(attrs, &self.adaptive, &mut self.errors);
        reach.columns = match (&attrs.columns, self.columns) {
            (Some(columns), _) => Some(Mode::Explicit(columns)),
            (None, Some(_)) => Some(Mode::Implicit),
            (None, None) => None,
        };
        let mut used = Used::default();
        let encoding = self.encode(field.ty, reach, &mut used);
        reach.report_unused(&used, &mut self.errors);
        Some(encoding)
    }

    /// The encoding of a value of type `ty` under the field's attributes:
    /// the first rule that takes it.
    pub fn encode(&mut self, ty: &'a Type, reach: Reach<'a>, used: &mut Used) -> Encoding<'a> {
        let slot = Slot { ty, shape: shape(ty), reach };
        let rules = self.rules;
        for rule in rules {
            if let Some(encoding) = rule(self, &slot, used) {
                return encoding;
            }
        }
        Encoding::Nested(Nested { ty })
    }

    /// A `max_len` or `max_bytes`: a `usize`.
    pub fn length(&mut self, setting: &'a Setting<Value>, key: &str) -> ConstName {
        let fits = match &setting.value.literal {
            Literal::Int(literal) => !literal.negative && u64::try_from(literal.magnitude).is_ok(),
            Literal::Float(_) | Literal::Array(_) => false,
            Literal::Opaque => true,
        };
        if !fits {
            self.errors.at(
                setting.value.span(),
                format!("`{key}` must be a whole number (0 or more), as in {key} = 16"),
            );
        }
        self.constant(ConstTy::Usize, &setting.value, Role::Len)
    }

    /// Declares `value` as a constant of type `ty`.
    pub fn constant(&mut self, ty: ConstTy, value: &'a Value, role: Role) -> ConstName {
        let name = ConstName { index: self.consts.len(), role };
        self.consts.push(Const { name, ty, value });
        name
    }

    /// The mistakes, the constants and the checks.
    pub fn finish(self) -> (Errors, Vec<Const<'a>>, Vec<Check>) {
        (self.errors, self.consts, self.checks)
    }
}
