//! `#[bitpack(columns)]`: a collection whose elements go on the wire field
//! by field, one column per leaf. [`column_of`] is the one place that says
//! which column an element's encoding becomes: `check` refuses the ones it
//! cannot, `expand` writes the rest.

use crate::ir::adaptive::{Adaptive, GroupLen};
use crate::ir::consts::ConstName;
use crate::ir::encoding::{Array, Encoding, Int, Nested, Optional, Sequence, Text};
use crate::parse::ty::IntTy;
use syn::{Expr, Type};

/// A field written as columns: its container, and its element's encoding.
pub struct ColumnsField<'a> {
    pub container: Container<'a>,
    pub element: Box<Encoding<'a>>,
}

/// What holds the elements.
pub enum Container<'a> {
    /// A `Vec`: its length first, at most `max_len`.
    Vec(ConstName),
    /// An array: no length.
    Array(&'a Expr),
}

/// The column an encoding becomes.
pub enum Column<'e, 'a> {
    /// An integer without a range: one header, then the values.
    Int(IntTy),
    /// One bit each.
    Bool,
    /// Presence, then the present values' columns.
    Option(&'e Encoding<'a>),
    /// Lengths, then the elements' columns.
    Vec { max_len: ConstName, element: ColumnElement<'e, 'a> },
    /// The elements' columns, `len` per value.
    Array { len: &'e Expr, element: ColumnElement<'e, 'a> },
    /// Lengths, then the bytes as one `u8` column.
    Text(ConstName),
    /// Through the type's own `Columns` impl (its fields' columns).
    Nested(&'a Type),
    /// Each value as it is written alone (declared ranges, floats, the rest).
    Rows(&'e Encoding<'a>),
    /// What a column cannot hold yet, and why.
    Unsupported(&'static str),
}

/// An array's or adaptive `Vec`'s element: an encoding, or an integer
/// column of an adaptive group's type.
#[derive(Clone, Copy)]
pub enum ColumnElement<'e, 'a> {
    Encoding(&'e Encoding<'a>),
    Int(IntTy),
}

/// The integers a column takes with a header: up to 64 bits.
fn column_int(int: IntTy) -> bool {
    !matches!(int, IntTy::U128 | IntTy::I128)
}

const SIGNS: &str = "a value under the message's sign bit (a fixed-point float, a nested `adaptive` field, \
                     128-bit adaptive integers)";

/// The column `encoding` becomes.
pub fn column_of<'e, 'a>(encoding: &'e Encoding<'a>) -> Column<'e, 'a> {
    match encoding {
        Encoding::Int(Int { int, range: None, .. }) if column_int(*int) => Column::Int(*int),
        Encoding::Adaptive(Adaptive::Int(int)) if column_int(*int) => Column::Int(*int),
        Encoding::Adaptive(Adaptive::Group { ty, len: GroupLen::Array(len) }) if column_int(*ty) => {
            Column::Array { len, element: ColumnElement::Int(*ty) }
        }
        Encoding::Adaptive(Adaptive::Vec { ty, max_len }) if column_int(*ty) => {
            Column::Vec { max_len: *max_len, element: ColumnElement::Int(*ty) }
        }
        Encoding::Adaptive(_) => Column::Unsupported(SIGNS),
        Encoding::Bool(_) => Column::Bool,
        Encoding::Option(Optional { inner }) => Column::Option(inner),
        Encoding::Vec(Sequence { max_len, element }) => {
            Column::Vec { max_len: *max_len, element: ColumnElement::Encoding(element) }
        }
        Encoding::Array(Array { len, element }) => {
            Column::Array { len, element: ColumnElement::Encoding(element) }
        }
        Encoding::Text(Text { max_len }) => Column::Text(*max_len),
        Encoding::Nested(Nested { ty }) => Column::Nested(ty),
        Encoding::Columns(ColumnsField { container: Container::Array(len), element }) => {
            Column::Array { len, element: ColumnElement::Encoding(element) }
        }
        Encoding::Columns(ColumnsField { container: Container::Vec(max_len), element }) => {
            Column::Vec { max_len: *max_len, element: ColumnElement::Encoding(element) }
        }
        other if other.holds_adaptive() => Column::Unsupported(SIGNS),
        other => Column::Rows(other),
    }
}

/// The first thing inside `encoding` a column cannot hold, if any.
pub fn unsupported(encoding: &Encoding<'_>) -> Option<&'static str> {
    match column_of(encoding) {
        Column::Unsupported(why) => Some(why),
        Column::Option(inner) => unsupported(inner),
        Column::Vec { element: ColumnElement::Encoding(element), .. }
        | Column::Array { element: ColumnElement::Encoding(element), .. } => unsupported(element),
        Column::Int(_)
        | Column::Bool
        | Column::Vec { element: ColumnElement::Int(_), .. }
        | Column::Array { element: ColumnElement::Int(_), .. }
        | Column::Text(_)
        | Column::Nested(_)
        | Column::Rows(_) => None,
    }
}
