//! The plan: the checked wire layout of a type, as data, with pure queries
//! over it. `check` builds it, `expand` and nothing else reads it; all of it
//! is already known to be correct.
//!
//! - `encoding`: how one value goes on the wire, with explicit leaves
//!   (bools, integers, floats) and one walk over nested encodings.
//! - `adaptive`: adaptive integers and fixed-point floats.
//! - `geometry`: vectors with per-axis bounds, quaternions as smallest three.
//! - `items`: a field list's wire in order (fields, fused runs, adaptive
//!   groups) and the change groups'.
//! - `consts`: the typed constants for attribute values, and the checks the
//!   compiler runs on those the derive could not read.
//! - `keyed`: keyed collections and the `#[bitpack(key)]` field.
//! - `runtime`: the path generated code reaches the runtime by.
//! - `columns`: collections written field by field (`#[bitpack(columns)]`).

pub mod adaptive;
pub mod columns;
pub mod consts;
pub mod encoding;
pub mod geometry;
pub mod items;
pub mod keyed;
pub mod runtime;

use crate::ir::consts::{Check, Const, ConstName};
use crate::ir::encoding::Encoding;
use crate::ir::items::{Changes, Item};
use crate::ir::keyed::KeyField;
use crate::ir::runtime::Runtime;
use crate::parse::Style;
use proc_macro2::Span;
use syn::{DeriveInput, Ident, Member, Type};

pub struct Plan<'a> {
    pub input: &'a DeriveInput,
    pub runtime: Runtime,
    /// The constant holding `#[bitpack(max_bytes = N)]`, and where it was written.
    pub max_bytes: Option<(ConstName, Span)>,
    pub body: Body<'a>,
    /// Typed constants for every attribute value, declared once.
    pub consts: Vec<Const<'a>>,
    /// Compile-time checks for values the derive could not see (paths to constants).
    pub checks: Vec<Check>,
    /// The change groups, for a struct with `#[change_group]` fields.
    pub changes: Option<Changes>,
    /// `#[bitpack(key)]`: the field the type's `KeyField` impl returns.
    pub key_field: Option<KeyField<'a>>,
    /// `#[bitpack(columns)]` on the type: it also implements `Columns`.
    pub columns: bool,
}

pub enum Body<'a> {
    Struct(Fields<'a>),
    Enum(Vec<Variant<'a>>),
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub fields: Fields<'a>,
}

pub struct Fields<'a> {
    pub style: Style,
    pub fields: Vec<Field<'a>>,
    /// What goes on the wire, in order: every written field once.
    pub items: Vec<Item>,
}

pub struct Field<'a> {
    pub member: Member,
    pub ty: &'a Type,
    /// `None` for `#[bitpack(skip)]`: written as nothing, read as `Default`.
    pub encoding: Option<Encoding<'a>>,
}

impl<'a> Body<'a> {
    /// Each field list: the struct's, or every variant's.
    pub fn field_lists(&self) -> impl Iterator<Item = &Fields<'a>> {
        let (one, variants) = match self {
            Body::Struct(fields) => (Some(fields), &[][..]),
            Body::Enum(variants) => (None, variants.as_slice()),
        };
        one.into_iter().chain(variants.iter().map(|variant| &variant.fields))
    }

    pub fn field_lists_mut(&mut self) -> Vec<&mut Fields<'a>> {
        match self {
            Body::Struct(fields) => vec![fields],
            Body::Enum(variants) => variants.iter_mut().map(|variant| &mut variant.fields).collect(),
        }
    }

    /// Whether any value, however nested, is adaptive (the type is then a sign scope).
    pub fn holds_adaptive(&self) -> bool {
        self.field_lists().any(Fields::holds_adaptive)
    }
}

impl<'a> Fields<'a> {
    /// The encodings of the written fields, in field order.
    pub fn encodings(&self) -> impl Iterator<Item = &Encoding<'a>> {
        self.fields.iter().filter_map(|field| field.encoding.as_ref())
    }

    pub fn holds_adaptive(&self) -> bool {
        self.encodings().any(Encoding::holds_adaptive)
    }

    /// Whether every field is in one fused run: a small body, cheapest
    /// inlined into whatever writes or reads it.
    pub fn is_one_run(&self) -> bool {
        matches!(self.items.as_slice(), [Item::Run(positions)] if positions.len() == self.fields.len())
    }
}
