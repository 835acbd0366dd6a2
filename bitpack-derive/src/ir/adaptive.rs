//! Adaptive integers (`#[bitpack(adaptive)]`) and fixed-point floats
//! (`#[quantize(res = C)]` alone), written under the message's sign mode.
//!
//! - On a field, `adaptive` reaches every integer inside it (through
//!   `Option`, `Box`, tuples, arrays and `Vec`); an array or `Vec` of
//!   integers is one shared-length group; a nested type shares the parent's
//!   sign bit (it must implement `SignScope`, as derived adaptive types do).
//! - On the type, it applies to every integer of every field without
//!   `#[bits]` or `#[quantize]`; nested types keep their own encoding.
//! - `adaptive(group = name)` on fields makes them one shared-length group
//!   (see [`FieldGroup`](crate::ir::items::FieldGroup)), written where its
//!   first field is, exactly as an array of its values would be.
//! - A type holding any of these implements `SignScope`, and its `BitPack`
//!   writes the sign bit (only if it holds signed adaptive values, nested
//!   ones included) and then its fields under that one mode.

use crate::ir::consts::ConstName;
use crate::parse::ty::{FloatTy, IntTy};
use syn::{Expr, Type};

/// An adaptive value on the wire, under the message's `Signs`.
pub enum Adaptive<'a> {
    /// One integer.
    Int(IntTy),
    /// Integers sharing one length: an array's, or a field group's.
    Group { ty: IntTy, len: GroupLen<'a> },
    /// A `Vec` of integers: its length, then one group.
    Vec { ty: IntTy, max_len: ConstName },
    /// A float as `round(x / res)`, an adaptive `i64`.
    Fixed { float: FloatTy, res: ConstName },
    /// A nested `SignScope` type, without a sign bit of its own.
    Scoped(&'a Type),
}

/// How many values a group holds.
pub enum GroupLen<'a> {
    /// An array's length, as written.
    Array(&'a Expr),
    /// A field group's number of fields.
    Fields(usize),
}
