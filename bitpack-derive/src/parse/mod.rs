//! The parse layer: the derive input as typed structs borrowing from syn,
//! with each helper attribute already parsed into typed values. It knows
//! the attributes and the field types as written, and no encodings.
//!
//! - `keys`: the table of each attribute's keys and the reader that checks them.
//! - `value`: attribute values, and the one place literals are read.
//! - `attrs`: the helper attributes of a field, a variant and the type.
//! - `change_group`: `#[change_group]` and `#[change_group(name)]`.
//! - `ty`: what a field's type is (integer, float, `Vec`, nested...).

pub mod attrs;
pub mod change_group;
pub mod keys;
pub mod ty;
pub mod value;

use crate::errors::Errors;
use crate::parse::attrs::{ContainerAttrs, FieldAttrs};
use syn::{Data, DeriveInput, Fields, Member, Type};

pub struct Input<'a> {
    pub original: &'a DeriveInput,
    pub attrs: ContainerAttrs,
    pub body: Body<'a>,
}

pub enum Body<'a> {
    Struct(FieldList<'a>),
    Enum(Vec<Variant<'a>>),
    /// Unions are refused: which field to send cannot be known.
    Union(&'a syn::token::Union),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Named,
    Tuple,
    Unit,
}

pub struct FieldList<'a> {
    pub style: Style,
    pub fields: Vec<Field<'a>>,
}

pub struct Variant<'a> {
    pub original: &'a syn::Variant,
    pub fields: FieldList<'a>,
}

pub struct Field<'a> {
    pub member: Member,
    pub ty: &'a Type,
    pub attrs: FieldAttrs,
}

impl<'a> Input<'a> {
    pub fn from_syn(node: &'a DeriveInput, errors: &mut Errors) -> Self {
        let attrs = attrs::container_attrs(&node.attrs, errors);
        let body = match &node.data {
            Data::Struct(data) => Body::Struct(FieldList::from_syn(&data.fields, errors)),
            Data::Enum(data) => Body::Enum(
                data.variants
                    .iter()
                    .map(|variant| {
                        attrs::variant_attrs(&variant.attrs, errors);
                        Variant { original: variant, fields: FieldList::from_syn(&variant.fields, errors) }
                    })
                    .collect(),
            ),
            Data::Union(data) => Body::Union(&data.union_token),
        };
        Input { original: node, attrs, body }
    }
}

impl<'a> FieldList<'a> {
    fn from_syn(fields: &'a Fields, errors: &mut Errors) -> Self {
        let style = match fields {
            Fields::Named(_) => Style::Named,
            Fields::Unnamed(_) => Style::Tuple,
            Fields::Unit => Style::Unit,
        };
        let fields = fields
            .iter()
            .enumerate()
            .map(|(index, field)| Field {
                member: match &field.ident {
                    Some(ident) => Member::Named(ident.clone()),
                    None => Member::Unnamed(index.into()),
                },
                ty: &field.ty,
                attrs: attrs::field_attrs(&field.attrs, errors),
            })
            .collect();
        FieldList { style, fields }
    }
}
