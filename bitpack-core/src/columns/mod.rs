//! Columns: a collection of values written field by field, each field of
//! every element together, `#[bitpack(columns)]`'s wire (the derive's
//! runtime, reached through `__private`; not public API).
//!
//! # Wire format
//!
//! A collection with `columns` writes its length (see
//! [`write_column_len`]), then one column per leaf of its element type, in
//! field order (nested types flatten into their fields' columns):
//!
//! - **Integer** (no `#[bits]`): a header, then the values. The header is a
//!   2-bit mode, then for a signed type in modes 0 and 1 one bit, 1 when
//!   magnitudes are zig-zag coded (exactly when some value is negative).
//!   Mode 0, shared width: the width `w` (`P` bits, where `2^P` is the
//!   type's width; widths `W - 1` and `W` as `W - 1` and one more bit),
//!   then every magnitude in `w` bits. Mode 1, per value: every magnitude
//!   in the adaptive single-value form (prefix `n`, then its low `n - 1`
//!   bits). Mode 2, offset: the smallest value (zig-zag coded for signed
//!   types) in the single-value form, a width `w`, then each value's
//!   distance from it in `w` bits. The writer computes all three exactly
//!   and takes the shortest (ties: shared, per value, offset); a reader
//!   refuses any other header (`NonCanonical`).
//! - **Declared** (`#[bits]`, `#[quantize]`), floats and the other types
//!   a row writes by itself: every value as it is written alone, one after
//!   another; no header.
//! - **`bool`**: one bit each.
//! - **`Option<T>`**: a `bool` column of presence, then `T`'s columns over
//!   the present values.
//! - **`Vec<T>`, arrays, `String`** inside an element: a column of lengths
//!   (a `usize` integer column; none for arrays), then the columns of all
//!   their elements (a `String`'s bytes as one `u8` column).
//! - **Enums**: a column of tags (`int(tag, 0, variants - 1)`, fixed
//!   width), then each variant's columns over its values, variant by
//!   variant.
//!
//! A column of no values writes nothing.

mod assemble;
mod bools;
mod int;
mod lengths;

pub use assemble::{
    claim_column, column_next, column_values, flat_count, into_array, read_rows, read_tag_column,
    split_arrays, split_copy_arrays, split_copy_vecs, split_vecs, write_tag_column, zip_options,
};
pub use bools::{count_present, read_bool_column, write_bool_column};
pub use int::{ColumnInt, int_column_bits, read_int_column, write_int_column, write_int_slices};
pub use lengths::{
    column_len_max_bits, column_len_min_bits, length_column_max_bits, read_column_len, read_length_column,
    read_text_column, text_column_max_bits, write_column_len, write_length_column, write_text_column,
};

use crate::error::Error;
use crate::private::schema;
use crate::read::BitRead;
use crate::write::BitWrite;
use alloc::vec::Vec;

/// A type whose values a collection can write as columns: derived with
/// `#[bitpack(columns)]` on the type, or an integer or `bool`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written as columns",
    note = "derive it with #[bitpack(columns)] on the type, as in #[derive(BitPack)] #[bitpack(columns)] struct \
            Contact {{ ... }}"
)]
pub trait Columns: Sized {
    /// The most bits the columns' headers take, whatever the count.
    const HEADER_MAX_BITS: usize;
    /// The most bits one value adds to its columns.
    const ITEM_MAX_BITS: usize;
    /// The fingerprint of the columns' layout.
    const COLUMNS_SCHEMA: u64;

    /// Writes the columns of `items` (the reader is told their count).
    fn write_columns<'a, W: BitWrite>(
        items: impl Iterator<Item = &'a Self> + Clone,
        writer: &mut W,
    ) -> Result<(), Error>
    where
        Self: 'a;

    /// Reads the columns of `count` values.
    fn read_columns<R: BitRead>(count: usize, reader: &mut R) -> Result<Vec<Self>, Error>;
}

/// The most bits a column of `count` values of `T` takes.
#[inline]
pub const fn columns_max_bits(header: usize, item: usize, count: usize) -> usize {
    header.saturating_add(item.saturating_mul(count))
}

macro_rules! int_columns {
    ($($t:ty),*) => {$(
        impl Columns for $t {
            const HEADER_MAX_BITS: usize = <$t as ColumnInt>::HEADER_MAX_BITS;
            const ITEM_MAX_BITS: usize = <$t as ColumnInt>::WIDTH as usize;
            const COLUMNS_SCHEMA: u64 = column_int_schema(<$t as ColumnInt>::WIDTH, <$t as ColumnInt>::SIGNED);

            #[inline]
            fn write_columns<'a, W: BitWrite>(
                items: impl Iterator<Item = &'a Self> + Clone,
                writer: &mut W,
            ) -> Result<(), Error> {
                write_int_column(writer, items.copied())
            }

            #[inline]
            fn read_columns<R: BitRead>(count: usize, reader: &mut R) -> Result<Vec<Self>, Error> {
                read_int_column(reader, count)
            }
        }
    )*};
}

int_columns!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

impl Columns for bool {
    const HEADER_MAX_BITS: usize = 0;
    const ITEM_MAX_BITS: usize = 1;
    const COLUMNS_SCHEMA: u64 = schema::node(COLUMN, &[schema::BOOL]);

    #[inline]
    fn write_columns<'a, W: BitWrite>(
        items: impl Iterator<Item = &'a Self> + Clone,
        writer: &mut W,
    ) -> Result<(), Error> {
        write_bool_column(writer, items.copied())
    }

    #[inline]
    fn read_columns<R: BitRead>(count: usize, reader: &mut R) -> Result<Vec<Self>, Error> {
        read_bool_column(reader, count)
    }
}

/// The kind code of column fingerprints (beside those of `schema`).
const COLUMN: u64 = 0xC0_1000;

/// An integer column's fingerprint.
#[inline]
pub const fn column_int_schema(width: u32, signed: bool) -> u64 {
    schema::node(COLUMN, &[schema::ADAPTIVE, width as u64, signed as u64])
}

/// A column of values each written as alone (`value` is their fingerprint).
#[inline]
pub const fn column_rows_schema(value: u64) -> u64 {
    schema::node(COLUMN, &[schema::SEQUENCE, value])
}

/// A bool column's fingerprint.
pub const COLUMN_BOOL_SCHEMA: u64 = schema::node(COLUMN, &[schema::BOOL]);

/// An `Option` column's fingerprint.
#[inline]
pub const fn column_option_schema(value: u64) -> u64 {
    schema::node(COLUMN, &[schema::OPTION, value])
}

/// A column of `Vec`s' fingerprint.
#[inline]
pub const fn column_vec_schema(max_len: usize, element: u64) -> u64 {
    schema::node(COLUMN, &[schema::VEC, max_len as u64, element])
}

/// A column of arrays' fingerprint.
#[inline]
pub const fn column_array_schema(len: usize, element: u64) -> u64 {
    schema::node(COLUMN, &[schema::ARRAY, len as u64, element])
}

/// A column of strings' fingerprint.
#[inline]
pub const fn column_text_schema(max_len: usize) -> u64 {
    schema::node(COLUMN, &[schema::STR, max_len as u64])
}

/// A struct's columns' fingerprint: its fields' columns.
#[inline]
pub const fn column_fields_schema(fields: &[u64]) -> u64 {
    schema::node(COLUMN, &[schema::SEQUENCE, schema::sequence(fields)])
}

/// An enum's columns' fingerprint: its variants' columns.
#[inline]
pub const fn column_enum_schema(variants: &[u64]) -> u64 {
    schema::node(COLUMN, &[schema::ENUM, schema::enumeration(variants)])
}

/// A field written as columns: `Vec` (its `max_len`) or array (its length).
#[inline]
pub const fn columns_field_schema(len: usize, fixed: bool, element: u64) -> u64 {
    schema::node(COLUMN, &[schema::VEC, len as u64, fixed as u64, element])
}
