//! The runtime behind `#[derive(BitPack)]`. Not public API: generated code
//! reaches everything it needs through this module (as
//! `::bitpack::__private`), so it never leans on the user's prelude, and the
//! public API can stay small and change freely behind it.

// Every name below is listed by who calls it (no globs), so that what the
// derive relies on is in one place; `uses.rs` (a test) calls each name
// generated code calls, the way the derive emits it, so that renaming one
// fails the core's own tests. The derive names them in
// `bitpack-derive/src/expand/runtime.rs` (per integer and float type) and in
// its `quote!`s (`#p::...`).

// Generated code today: the core's traits and types, and the standard items
// it spells by path (it never leans on the prelude).
pub use crate::change::{BitFingerprint, ChangeGroups, GroupTracker};
pub use crate::error::Error;
pub use crate::pack::BitPack;
pub use crate::read::BitRead;
pub use crate::write::BitWrite;
#[cfg(feature = "alloc")]
pub use alloc::{boxed::Box, string::String, vec::Vec};
pub use core::clone::Clone;
pub use core::default::Default;
pub use core::ops::FnMut;
pub use core::option::Option::{self, None, Some};
pub use core::result::Result::{self, Err, Ok};
// ... a `#[bits(min, max)]` integer, and `#[bitpack(relative)]` on integers
// and quantized floats, one module per type;
pub use change::{
    relative_f32, relative_f64, relative_i8, relative_i16, relative_i32, relative_i64, relative_i128,
    relative_isize, relative_u8, relative_u16, relative_u32, relative_u64, relative_u128, relative_usize,
};
pub use ranged::{
    ranged_i8, ranged_i16, ranged_i32, ranged_i64, ranged_i128, ranged_isize, ranged_u8, ranged_u16,
    ranged_u32, ranged_u64, ranged_u128, ranged_usize,
};
// ... an `Option` of an enum of fixed-width fields in one push;
pub(crate) use variant::write_some;
pub use variant::{Gathered, write_option};
// ... fused runs;
pub use run::{
    NOT_A_LEAF, RunReader, RunWriter, bool_bits, bool_value, f32_bits, f32_value, f64_bits, f64_value,
    is_leaf, leaf_bits, leaf_get, leaf_offset, leaf_put, leaf_width, nested_leaf, quantized_bits,
    quantized_value, quantized64_bits, quantized64_value, run_bits, run_fits, run_remains, spread_bools,
    unread_run,
};
// ... `Vec`s of derived types through `BitPack::__write_items` /
// `__read_items`, blocks of quantized floats lane by lane;
pub use batch::{
    BLOCK, LaneSums, RowSums, dequantized_lanes, dequantized_row, dequantized64_lanes, lane_steps,
    lane_steps64, quantized_lanes, quantized_row, quantized64_lanes, write_blocks, write_items,
};
#[cfg(feature = "alloc")]
pub use batch::{BlockSlots, block_slots, read_blocks, read_items};
// ... a block's elements read through a window of the input;
pub use window::{Window, close_window, fits_window, read_window};
// ... change groups (`cached_group` and `group_print` in the
// `write_delta_cached` and `group_prints` a `Sender` calls, and the
// `wide` prints of a group of relative floats quantized once there
// (`wide_print`, `held_wide`, `cached_wide`, `held_bits`, `steps_at`,
// `wide_group_print`), `kept_group`, `SameBits` and `same_leaf` for a group
// of plain fields and leaves the baseline's bit for bit, and `if_alloc` around those methods,
// which exist only with `alloc`);
pub use change::{
    SameBits, cached_group, cached_wide, delta_group, delta_group_sent, group_print, held_bits, held_wide,
    if_alloc, kept_group, same_leaf, steps_at, tracked_group, wide_group_print, wide_print,
};
// ... every body as one write or read (rolled back on `Err`), and the
// reads that allocate, within the reader's budget;
#[cfg(feature = "alloc")]
pub use crate::boxed::{read_box, read_boxed_array};
pub use crate::write::write_atomic;
// ... glam and mint vectors, axis by axis (`Bound` makes a const path's
// bound per axis; `Axes` is named in the impl's where clause);
pub use axes::{
    Axes, Bound, quantized_axes_f32, quantized_axes_f64, ranged_axes_i8, ranged_axes_i16, ranged_axes_i32,
    ranged_axes_i64, ranged_axes_i128, ranged_axes_isize, ranged_axes_u8, ranged_axes_u16, ranged_axes_u32,
    ranged_axes_u64, ranged_axes_u128, ranged_axes_usize,
};
// ... smallest-three quaternions (the module, and their run views);
pub use crate::smallest_three;
pub use rotation::{
    smallest_three_problem, smallest_three_run_bits, smallest_three_run_value, smallest_three_schema,
    smallest_three_widths,
};
// ... `#[bitpack(with = module)]`;
pub use crate::with::with_bits_problem;
// ... the std collections with `max_len` (`ReadMap` and `ReadSet` are the
// bounds of `read_map` and `read_set`);
#[cfg(feature = "alloc")]
pub use collections::{
    ReadMap, ReadSet, adaptive_len_vec_max_bits, read_adaptive_len_sequence, read_map, read_sequence,
    read_set, read_text, write_adaptive_len_sequence, write_map, write_sequence, write_set, write_text,
};
// ... sequences and arrays of bools and of full-width integers, the same
// wire as `write_len` and `read_vec` (or `read_array`) with their
// elements, up to 64 bits at a time (`Lane` and `Halves` are their bounds);
pub use bulk::{
    Halves, Lane, Prefix, read_bool_array, read_int_array, write_bool_array, write_bools, write_bools_after,
    write_int_array, write_ints, write_ints_after,
};
#[cfg(feature = "alloc")]
pub use bulk::{read_bools, read_ints};
// ... `#[bitpack(columns)]`: collections written field by field;
#[cfg(feature = "alloc")]
pub use crate::columns::{
    COLUMN_BOOL_SCHEMA, ColumnInt, Columns, claim_column, column_array_schema, column_enum_schema,
    column_fields_schema, column_int_schema, column_len_max_bits, column_len_min_bits, column_next,
    column_option_schema, column_rows_schema, column_text_schema, column_values, column_vec_schema,
    columns_field_schema, columns_max_bits, count_present, flat_count, int_column_bits, into_array,
    length_column_max_bits, read_bool_column, read_column_len, read_int_column, read_length_column,
    read_rows, read_tag_column, read_text_column, split_arrays, split_copy_arrays, split_copy_vecs,
    split_vecs, text_column_max_bits, write_bool_column, write_column_len, write_int_column,
    write_int_slices, write_length_column, write_tag_column, write_text_column, zip_options,
};
#[cfg(feature = "alloc")]
pub use core::iter::{IntoIterator, Iterator};
// ... keyed collections (`keyed::map`, `keyed::sorted_vec`, `KeyField`,
// `Budget`, `nested_sent`);
#[cfg(feature = "alloc")]
pub mod keyed;
// ... and the items defined below: sizes (`sum`, `max`, `min`, `times`,
// `len_bits`, `tag_bits`, `str_max_bits`, `vec_max_bits`), `reserve`,
// `read_atomic`, enum tags, `write_len`, `read_vec`, `write_rust_string`,
// `read_rust_string`, `read_array`, the quantize checks and
// `max_bytes_problem`; and the modules `adaptive` and `schema` (and
// `message`, whose `Message` the `problem` checks return).
pub mod adaptive;
pub mod message;
pub mod schema;

// Called by no generated code, kept so that no `__private` path breaks: the
// widths (public at the crate root), `GroupTracker`'s records, the error
// kinds (public at the root); below, `F32_RESOLVED_STEPS` (the derive asks
// `quantize_problem` instead), and `read_len` and `read_string`, which
// generated code called before `read_vec` and `read_rust_string` (tests and
// the keyed collections still do).
pub use crate::bits::{bits_required, bits_required64, bits_required128};
pub use crate::change::GroupRecord;
pub use crate::error::ErrorKind;
// Tests and the fuzz checks, to forge fragments whose check holds (a
// fragment's header and part, its first 4 bytes overwritten).
#[cfg(feature = "alloc")]
pub use crate::sync::fragments::seal as seal_fragment;

mod axes;
mod batch;
mod bulk;
mod change;
#[cfg(feature = "alloc")]
mod collections;
mod ranged;
mod rotation;
mod run;
#[cfg(all(test, feature = "alloc"))]
mod uses;
mod variant;
mod window;

#[cfg(feature = "alloc")]
use crate::read::{checked_text, short_owned_text, text_start};
use crate::sink::Reserve;
use crate::source::SourceExt;
use crate::write as sinks;

use crate::bits::{Nul, bit_length_u128};
use crate::quantize::{MAX_STEPS, MAX_STEPS_F64, Quantizer, Quantizer64};

/// Saturating sum of bit counts (a `MAX_BITS` never overflows to a lie).
#[inline]
pub const fn sum(bits: &[usize]) -> usize {
    let mut total = 0usize;
    let mut index = 0;
    while index < bits.len() {
        total = total.saturating_add(bits[index]);
        index += 1;
    }
    total
}

/// The largest of `bits`, `0` for none.
#[inline]
pub const fn max(bits: &[usize]) -> usize {
    let mut largest = 0usize;
    let mut index = 0;
    while index < bits.len() {
        if bits[index] > largest {
            largest = bits[index];
        }
        index += 1;
    }
    largest
}

/// The smallest of `bits`, `0` for none.
#[inline]
pub const fn min(bits: &[usize]) -> usize {
    if bits.is_empty() {
        return 0;
    }
    let mut smallest = usize::MAX;
    let mut index = 0;
    while index < bits.len() {
        if bits[index] < smallest {
            smallest = bits[index];
        }
        index += 1;
    }
    smallest
}

/// `a * b`, saturating.
#[inline]
pub const fn times(count: usize, bits: usize) -> usize {
    count.saturating_mul(bits)
}

/// Bits of a length sent as `int(len, 0, max_len)`.
#[inline]
pub const fn len_bits(max_len: usize) -> usize {
    bit_length_u128(max_len as u128) as usize
}

/// Bits of an enum tag, `int(index, 0, variants - 1)`: none for one variant.
#[inline]
pub const fn tag_bits(variants: u32) -> usize {
    bit_length_u128(variants.saturating_sub(1) as u128) as usize
}

/// The most bits `write_str(s, max_len)` takes: the length, up to 7 bits of
/// alignment, then the bytes.
#[inline]
pub const fn str_max_bits(max_len: usize) -> usize {
    sum(&[len_bits(max_len), 7, times(max_len, 8)])
}

/// The most bits a `Vec` of at most `max_len` elements of at most
/// `element_bits` bits takes.
#[inline]
pub const fn vec_max_bits(max_len: usize, element_bits: usize) -> usize {
    len_bits(max_len).saturating_add(times(max_len, element_bits))
}

/// The writer with room for `bits` more bits checked once, so the writes
/// through it skip their own room checks (values are still checked), or
/// `None` when they may not fit: a derived `write_to` then writes through
/// the checked writer, which fails at the same write either way.
#[inline(always)]
pub fn reserve<W: BitWrite>(writer: &mut W, bits: usize) -> Option<<W as Reserve>::Reserved<'_>> {
    writer.reserve_all(bits)
}

/// Runs `write` as one write of a value through the writer detached
/// (`Reserve::detached`): a writer's copy by value, its state put back only
/// on `Ok`, so that on `Err` it is as it was with no saved state to put
/// back; any other sink rewound as [`write_atomic`] does. The same bits
/// and errors as `write_atomic`.
///
/// Generated code: the body of `write_delta_cached` as
/// `#p::write_detached(__writer, |__writer| { BODY })`.
#[inline(always)]
pub fn write_detached<'w, W: BitWrite, R>(
    writer: &'w mut W,
    write: impl FnOnce(&mut <W as Reserve>::Detached<'w>) -> Result<R, Error>,
) -> Result<R, Error> {
    let mut detached = writer.detached();
    let result = write(&mut detached);
    W::close_detached(detached, result.is_ok());
    result
}

/// The writer moved into a local for a stretch of writes (a derived
/// block's elements), moved back when the local is dropped: the same bits
/// and checks, its state kept in registers meanwhile.
#[inline(always)]
pub fn local<W: BitWrite>(writer: &mut W) -> <W as Reserve>::Local<'_> {
    writer.local()
}

/// The writer moved into a local whose stores go into a fixed window of its
/// buffer with `bits` reserved (a derived block's elements), or `None`
/// (nothing changed) when the room or the window is not there.
#[inline(always)]
pub fn write_window<W: BitWrite>(writer: &mut W, bits: usize) -> Option<<W as Reserve>::Window<'_>> {
    writer.window(bits)
}

/// Whether a window's writes went past it (a `MAX_BITS` that understates):
/// then the block is written again element by element from its start.
#[inline(always)]
pub fn overran<W: BitWrite>(writer: &W) -> bool {
    writer.overran()
}

/// Writes an enum's variant index as `int(index, 0, variants - 1)`.
#[inline(always)]
pub fn write_tag<W: BitWrite>(writer: &mut W, index: u32, variants: u32) -> Result<(), Error> {
    if variants <= 1 {
        return Ok(());
    }
    let max = variants - 1;
    if let (Ok(index), Ok(max)) = (i32::try_from(index), i32::try_from(max)) {
        writer.write_int(index, 0, max)
    } else {
        writer.write_int64(i64::from(index), 0, i64::from(max))
    }
}

/// Reads a variant index written by [`write_tag`].
#[inline(always)]
pub fn read_tag(reader: &mut impl BitRead, variants: u32) -> Result<u32, Error> {
    if variants <= 1 {
        return Ok(0);
    }
    let start = reader.bits_read();
    let tag = reader.read_int64(0, i64::from(variants - 1))?;
    u32::try_from(tag).map_err(|_| Error::new(ErrorKind::InvalidTag, start))
}

/// The error for a tag that names no variant (a reader of an enum without
/// variants meets only these).
#[cold]
pub fn invalid_tag<R: BitRead>(reader: &R) -> Error {
    Error::new(ErrorKind::InvalidTag, reader.bits_read())
}

/// Writes a collection length as `int(len, 0, max_len)`; a length over
/// `max_len` is [`ErrorKind::TooLong`].
#[inline(always)]
pub fn write_len<W: BitWrite>(writer: &mut W, len: usize, max_len: usize) -> Result<(), Error> {
    if len > max_len {
        return Err(Error::new(ErrorKind::TooLong, writer.bits_written()));
    }
    match (i32::try_from(len), i32::try_from(max_len)) {
        (Ok(len), Ok(max_len)) => writer.write_int(len, 0, max_len),
        _ => writer.write_int128(len as i128, 0, max_len as i128),
    }
}

/// Reads a length written by [`write_len`], and refuses it unless `len`
/// elements of at least `min_element_bits` bits each can still be in the
/// input. It claims nothing from the reader's allocation budget (it does
/// not know the elements' size): a caller that allocates `len` elements
/// claims them first ([`BitRead::claim_allocation`]), as [`read_vec`]
/// does.
#[inline(always)]
pub fn read_len(reader: &mut impl BitRead, max_len: usize, min_element_bits: usize) -> Result<usize, Error> {
    let start = reader.bits_read();
    let len = match i32::try_from(max_len) {
        Ok(max) => reader.read_int(0, max)? as usize,
        Err(_) => {
            let len = reader.read_int128(0, max_len as i128)?;
            usize::try_from(len).map_err(|_| Error::new(ErrorKind::TooLong, start))?
        }
    };
    if len.saturating_mul(min_element_bits) > reader.bits_remaining() {
        return Err(Error::new(ErrorKind::UnexpectedEnd, start));
    }
    Ok(len)
}

/// Reads a `Vec` written as [`write_len`] then its elements: the length
/// (refused unless `len` elements of `min_element_bits` can still be in
/// the input), then `len` `T`s claimed from the reader's allocation budget
/// before allocating ([`BitRead::claim_allocation`]: `len * size_of::<T>()`,
/// at least a byte each and 16 in all), then the elements. On `Err` the
/// reader is back where it was.
///
/// Generated code: `#p::read_vec(__reader, MAX_LEN, MIN_ELEMENT_BITS,
/// |__reader| #p::Ok(READ_ELEMENT))?`.
#[cfg(feature = "alloc")]
#[inline]
pub fn read_vec<R: BitRead, T>(
    reader: &mut R,
    max_len: usize,
    min_element_bits: usize,
    read_element: impl FnMut(&mut R) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    read_counted(reader, |reader| read_claimed_len::<T>(reader, max_len, min_element_bits), read_element)
}

/// A length (checked against the input and claimed from the allocation
/// budget by `read_length`), then that many elements into a `Vec`; on
/// `Err` the reader is back where it was. What [`read_vec`] and the
/// adaptive-length sequences share.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn read_counted<R: BitRead, T>(
    reader: &mut R,
    read_length: impl FnOnce(&mut R) -> Result<usize, Error>,
    mut read_element: impl FnMut(&mut R) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    reader.rolled_back(|reader| {
        let len = read_length(reader)?;
        let mut elements = Vec::with_capacity(len);
        for _ in 0..len {
            elements.push(read_element(reader)?);
        }
        Ok(elements)
    })
}

/// [`read_len`], then `len` `T`s claimed from the allocation budget
/// (`BitRead::claim_allocation`; refused at the length's bit): what every
/// `Vec` read does before it allocates.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn read_claimed_len<T>(
    reader: &mut impl BitRead,
    max_len: usize,
    min_element_bits: usize,
) -> Result<usize, Error> {
    let start = reader.bits_read();
    let len = read_len(reader, max_len, min_element_bits)?;
    reader.claim_allocation::<T>(len).map_err(|error| Error::new(error.kind(), start))?;
    Ok(len)
}

/// Reads a string written by `write_str(s, max_len)` into an owned `String`
/// (at most `max_len` bytes, and never more than the input holds), its
/// bytes claimed from the reader's allocation budget first. Refuses a NUL,
/// as `read_str` does; derived `String` fields read [`read_rust_string`].
#[cfg(feature = "alloc")]
#[inline]
pub fn read_string(reader: &mut impl BitRead, max_len: usize) -> Result<String, Error> {
    owned_text(reader, max_len, Nul::Refused)
}

/// Writes a Rust string: `write_str`'s wire (length as `int(len, 0,
/// max_len)`, align, the bytes) without its refusal of NUL. For derived
/// `String` fields, which only bitpack peers read: the wire is length
/// prefixed, so a NUL is a byte like any other. (`write_str` and `read_str`
/// keep refusing NUL: they are the reference's `serialize_string`, whose C++
/// reader reads the bytes into a C string that ends at the first NUL.)
///
/// Generated code: `#p::write_rust_string(__writer, &self.field, MAX_LEN)?;`
#[inline]
pub fn write_rust_string<W: BitWrite>(writer: &mut W, value: &str, max_len: usize) -> Result<(), Error> {
    sinks::write_text(writer, value, max_len, Nul::Allowed)
}

/// Reads what [`write_rust_string`] wrote: a length up to `max_len`, then
/// valid UTF-8, NUL allowed; the bytes claimed from the allocation budget
/// first.
///
/// Generated code: `#p::read_rust_string(__reader, MAX_LEN)?`.
#[cfg(feature = "alloc")]
#[inline(always)]
pub fn read_rust_string(reader: &mut impl BitRead, max_len: usize) -> Result<String, Error> {
    owned_text(reader, max_len, Nul::Allowed)
}

/// A string read into an owned `String`: its length read and checked
/// first, then its bytes claimed from the budget, then taken and checked.
/// On `Err` the reader is back at the length, its budget too.
#[cfg(feature = "alloc")]
#[inline(always)]
fn owned_text<R: BitRead>(reader: &mut R, max_len: usize, nul: Nul) -> Result<String, Error> {
    // Put back by hand rather than through `rolled_back`'s closure, which
    // the compiler kept out of line (a call, and `max_len` not folded).
    let checkpoint = reader.checkpoint();
    let text = owned_text_parts(reader, max_len, nul);
    if text.is_err() {
        rewind_reader(reader, checkpoint);
    }
    text
}

/// [`owned_text`] without the rollback.
#[cfg(feature = "alloc")]
#[inline(always)]
fn owned_text_parts<R: BitRead>(reader: &mut R, max_len: usize, nul: Nul) -> Result<String, Error> {
    if let Some(text) = short_owned_text(reader, max_len, nul) {
        return Ok(text);
    }
    let start = text_start(reader, max_len)?;
    let position = start.position;
    reader.claim_allocation::<u8>(start.len).map_err(|error| Error::new(error.kind(), position))?;
    reader.take_bytes(start.len, position, |bytes| checked_text(bytes, nul)).map(String::from)
}

#[cfg(feature = "alloc")]
#[cold]
fn rewind_reader<R: BitRead>(reader: &mut R, checkpoint: R::Checkpoint) {
    reader.rewind(checkpoint);
}

/// Arrays whose `[Option<T>; N]` slots take at most this many bytes are
/// read in one pass through them; larger ones in two passes that hold only
/// the `[T; N]` itself on the stack.
const ARRAY_SLOTS_ON_STACK: usize = 4096;

/// Reads `N` elements with `read_element` into an array, stopping at the
/// first error; on `Err` the reader is back where it was. Allocates
/// nothing: arrays of positions are hot. Up to `ARRAY_SLOTS_ON_STACK` (4096)
/// bytes of slots it reads each element once; a larger array is read once
/// to check it and again to build it, so the stack holds the array alone
/// (a read is a function of the bits and the budget, both put back between
/// the passes, so the second pass cannot fail).
#[inline]
pub fn read_array<R: BitRead, T, const N: usize>(
    reader: &mut R,
    read_element: impl FnMut(&mut R) -> Result<T, Error>,
) -> Result<[T; N], Error> {
    // Two functions, so that an unoptimized build does not reserve stack
    // for the slots of the path it does not take.
    if size_of::<[Option<T>; N]>() <= ARRAY_SLOTS_ON_STACK {
        reader.rolled_back(|reader| read_array_through_slots(reader, read_element))
    } else {
        read_array_twice(reader, read_element)
    }
}

/// [`read_array`] in one pass through `Option` slots.
#[inline]
fn read_array_through_slots<R: BitRead, T, const N: usize>(
    reader: &mut R,
    mut read_element: impl FnMut(&mut R) -> Result<T, Error>,
) -> Result<[T; N], Error> {
    let mut failure = None;
    let slots: [Option<T>; N] = core::array::from_fn(|_| {
        if failure.is_some() {
            return None;
        }
        read_element(reader).map_err(|error| failure = Some(error)).ok()
    });
    if let Some(error) = failure {
        return Err(error);
    }
    // Stable Rust has no `try_from_fn`: without a failure every slot is
    // `Some`, so this `expect` cannot fire whatever the input.
    Ok(slots.map(|slot| slot.expect("no read failed, so every slot is filled")))
}

/// [`read_array`] in a checking pass, then a building pass (the array is
/// built straight in the return value: no closure layer to copy it through
/// in an unoptimized build).
#[inline(never)]
fn read_array_twice<R: BitRead, T, const N: usize>(
    reader: &mut R,
    mut read_element: impl FnMut(&mut R) -> Result<T, Error>,
) -> Result<[T; N], Error> {
    let start = reader.checkpoint();
    for _ in 0..N {
        if let Err(error) = read_element(reader) {
            reader.rewind(start);
            return Err(error);
        }
    }
    reader.rewind(start);
    Ok(core::array::from_fn(|_| {
        read_element(reader).expect("the first pass read these same bits with this same budget")
    }))
}

/// Runs `read` as one read of a value: on `Err` the reader is put back
/// where it was (position and allocation budget); the error keeps the bit
/// of the part that failed.
///
/// Generated code: the body of `read_from` (and of `read_delta`) as
/// `#p::read_atomic(__reader, |__reader| { BODY })`.
#[inline(always)]
pub fn read_atomic<R: BitRead, T>(
    reader: &mut R,
    read: impl FnOnce(&mut R) -> Result<T, Error>,
) -> Result<T, Error> {
    reader.rolled_back(read)
}

/// `quantize_bits` / `quantize_problem` for one float type; `$resolution`
/// checks what the float's arithmetic resolves, once the declaration is
/// otherwise valid.
macro_rules! quantize_checks {
    ($float:ident, $quantizer:ident, $max_steps:expr, $write:literal, $bits:ident, $problem:ident,
     $overflow:literal, $too_many:literal, $resolution:expr) => {
        #[doc = concat!("Bits of `", $write, "(_, min, max, res)`, computed as the writer does;")]
        /// `0` for a declaration the writer refuses.
        #[inline]
        pub const fn $bits(min: $float, max: $float, res: $float) -> usize {
            match $quantizer::new(min, max, res) {
                Some(quantizer) => quantizer.bits as usize,
                None => 0,
            }
        }

        #[doc = concat!("Why a `#[quantize(min, max, res)]` declaration on an `", stringify!($float), "` is")]
        /// refused, if it is: one the writer refuses, or (for `f32`) one f32
        /// arithmetic does not resolve. The derive calls it on literal
        /// declarations (read in the field's type) and prints its message,
        /// and checks it at compile time for values given as paths to
        /// constants.
        pub const fn $problem(min: $float, max: $float, res: $float) -> Option<&'static str> {
            if !(min.is_finite() && max.is_finite() && res.is_finite()) {
                return Some("quantize: `min`, `max` and `res` must be finite numbers");
            }
            if min >= max {
                return Some("quantize: `min` must be below `max`; swap them");
            }
            if res <= 0.0 {
                return Some("quantize: `res` must be above 0");
            }
            let delta = max - min;
            if !delta.is_finite() {
                return Some($overflow);
            }
            if delta / res > $max_steps {
                return Some($too_many);
            }
            $resolution(min, max, res)
        }
    };
}

/// The most steps an `f32` declaration may have: 2^23. Past it f32's
/// 24-bit significand no longer holds `(value - min) / (max - min)` to a
/// step, and decoded values land well over `res / 2` away (2.4 `res` for
/// `[-4096, 4096]` at 0.0005, 16,383,999 steps; see the quantize module).
pub const F32_RESOLVED_STEPS: u32 = crate::quantize::F32_RESOLVED_STEPS;

/// Whether f32 resolves a declaration that is otherwise valid: at most
/// [`F32_RESOLVED_STEPS`] steps, and a step no finer than f32 can hold at
/// `min` and `max` (`|bound| / step` at most 2^23), so that every step has
/// its own f32 and reads back to itself.
const fn f32_resolution_problem(min: f32, max: f32, res: f32) -> Option<&'static str> {
    let quantizer = match Quantizer::new(min, max, res) {
        Some(quantizer) => quantizer,
        None => return None,
    };
    if quantizer.resolves_every_step() {
        None
    } else if quantizer.max_integer() > F32_RESOLVED_STEPS {
        Some(
            "quantize: more than 2^23 steps of `res`, more than f32 arithmetic resolves (values \
             would decode several `res` away); use an `f64` field or a coarser `res`",
        )
    } else {
        Some(
            "quantize: `res` is finer than f32 can hold at `min` or `max` (a bound more than 2^23 \
             steps from zero); use an `f64` field or a coarser `res`",
        )
    }
}

/// `f64` declarations: the 2^53 steps the writer takes are the bound.
const fn f64_resolution_problem(_min: f64, _max: f64, _res: f64) -> Option<&'static str> {
    None
}

quantize_checks!(
    f32,
    Quantizer,
    MAX_STEPS,
    "write_compressed_float",
    quantize_bits,
    quantize_problem,
    "quantize: `max - min` overflows f32; narrow the range",
    "quantize: the range has more than 2^32 steps of `res`; raise `res` or narrow the range",
    f32_resolution_problem
);

quantize_checks!(
    f64,
    Quantizer64,
    MAX_STEPS_F64,
    "write_compressed_double",
    quantize64_bits,
    quantize64_problem,
    "quantize: `max - min` overflows f64; narrow the range",
    "quantize: the range has more than 2^53 steps of `res`; raise `res` or narrow the range",
    f64_resolution_problem
);

/// Why a `#[bitpack(max_bytes = N)]` is exceeded, if it is: names the
/// type and its `MAX_BITS`.
pub const fn max_bytes_problem(
    type_name: &str,
    max_bits: usize,
    max_bytes: usize,
) -> Option<message::Message> {
    if max_bits.div_ceil(8) <= max_bytes {
        return None;
    }
    Some(
        message::Message::new()
            .text("`")
            .text(type_name)
            .text("` can take up to MAX_BITS = ")
            .unsigned(max_bits as u128)
            .text(" bits (")
            .unsigned(max_bits.div_ceil(8) as u128)
            .text(" bytes), over max_bytes = ")
            .unsigned(max_bytes as u128)
            .text("; raise max_bytes or narrow ranges and lengths"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BitCounter;
    use crate::reader::BitReader;

    #[test]
    fn quantize_bits_match_what_the_writer_counts() {
        let declarations =
            [(0.0, 10.0, 0.01), (-1024.0, 1024.0, 0.01), (-1.0, 1.0, 0.5), (0.0, 1.0, 2.0), (-1e9, 1e9, 0.5)];
        for (min, max, res) in declarations {
            let mut counter = BitCounter::new();
            counter.write_compressed_float(min, min, max, res).unwrap();
            assert_eq!(quantize_bits(min, max, res), counter.bits_written(), "{min} {max} {res}");
        }
        assert_eq!(quantize_bits(-1024.0, 1024.0, 0.01), 18);
    }

    #[test]
    fn quantize_problems_are_named() {
        assert!(quantize_problem(0.0, 1.0, 0.1).is_none());
        assert!(quantize_problem(1.0, 0.0, 0.1).unwrap().contains("swap"));
        assert!(quantize_problem(0.0, 1.0, 0.0).unwrap().contains("above 0"));
        assert!(quantize_problem(0.0, 1e10, 0.1).unwrap().contains("2^32"));
        // What f32 arithmetic cannot resolve: over 2^23 steps, or a `res`
        // finer than f32 holds at the bounds.
        for (min, max, res) in [(-4096.0, 4096.0, 0.0005), (0.0, 16_777_215.0, 1.0), (0.0, 8_388_609.0, 1.0)]
        {
            let problem = quantize_problem(min, max, res).unwrap();
            assert!(problem.contains("2^23") && problem.contains("f64"), "{problem}");
        }
        let problem = quantize_problem(1000.0, 1100.0, 0.00002).unwrap();
        assert!(problem.contains("finer than f32") && problem.contains("f64"), "{problem}");
        for (min, max, res) in
            [(-1024.0, 1024.0, 0.01), (0.0, 8_388_608.0, 1.0), (0.0, 1.0, 1.0 / 8_388_608.0)]
        {
            assert_eq!(quantize_problem(min, max, res), None, "{min} {max} {res}");
        }
        // f64 declarations of the same range are fine.
        assert_eq!(quantize64_problem(-4096.0, 4096.0, 0.0005), None);
    }

    #[test]
    fn quantize64_bits_and_problems() {
        let mut counter = BitCounter::new();
        counter.write_compressed_double(0.5, -1.0e6, 1.0e6, 0.001).unwrap();
        assert_eq!(quantize64_bits(-1.0e6, 1.0e6, 0.001), counter.bits_written());
        assert_eq!(quantize64_bits(-1.0e6, 1.0e6, 0.001), 31);
        assert_eq!(quantize64_bits(1.0, 0.0, 0.1), 0);
        assert!(quantize64_problem(-1.0e6, 1.0e6, 0.001).is_none());
        assert!(quantize64_problem(1.0, 0.0, 0.1).unwrap().contains("swap"));
        assert!(quantize64_problem(0.0, 1.0, 0.0).unwrap().contains("above 0"));
        assert!(quantize64_problem(0.0, 1.0e9, 1.0e-9).unwrap().contains("2^53"));
        assert!(quantize64_problem(-f64::MAX, f64::MAX, 1.0).unwrap().contains("overflows"));
    }

    #[test]
    fn tags_take_the_bits_of_their_count() {
        assert_eq!(tag_bits(0), 0);
        assert_eq!(tag_bits(1), 0);
        assert_eq!(tag_bits(2), 1);
        assert_eq!(tag_bits(5), 3);
        let mut counter = BitCounter::new();
        write_tag(&mut counter, 4, 5).unwrap();
        assert_eq!(counter.bits_written(), 3);
        assert!(write_tag(&mut counter, 5, 5).is_err());
    }

    #[test]
    fn read_len_refuses_lengths_the_input_cannot_hold() {
        // Length 15 of max 15 (4 bits), elements of 8 bits, 4 bits left.
        let bytes = [0x0F];
        let mut reader = BitReader::new(&bytes);
        let error = read_len(&mut reader, 15, 8).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::UnexpectedEnd);
        assert_eq!(reader.bits_read(), 4);
        let mut reader = BitReader::new(&bytes);
        assert_eq!(read_len(&mut reader, 15, 0).unwrap(), 15);
    }

    #[test]
    fn max_bytes_problem_names_max_bits() {
        assert!(max_bytes_problem("Player", 64, 8).is_none());
        let problem = max_bytes_problem("Player", 65, 8).unwrap();
        assert_eq!(
            problem.as_str(),
            "`Player` can take up to MAX_BITS = 65 bits (9 bytes), over max_bytes = 8; \
             raise max_bytes or narrow ranges and lengths"
        );
    }
}
