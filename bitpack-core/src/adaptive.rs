//! Adaptive integers: values without a known range, sent as a short length
//! prefix plus only their significant bits.
//!
//! # Wire format (LSB-first, like every other encoding here)
//!
//! **One value.** An integer type of `W` bits (8, 16, 32, 64 or 128; `usize`
//! and `isize` count as 64) has a length prefix of `P` bits (3, 4, 5, 6 or
//! 7), so that `2^P - 1 == W - 1`. A value goes on the wire as an unsigned
//! magnitude `m` (see *Sign* below) with `n` significant bits:
//!
//! | `n`            | bits, in stream order                         | total       |
//! |----------------|-----------------------------------------------|-------------|
//! | `0` (`m == 0`) | prefix `0`                                    | `P`         |
//! | `1..=W-2`      | prefix `n`, then the low `n - 1` bits of `m`  | `P + n - 1` |
//! | `W-1` or `W`   | prefix `W - 1` (the escape), one bit `n - (W - 1)`, then the low `n - 1` bits of `m` | `P + n` |
//!
//! The leading 1 of `m` is implied by `n` and never sent. The escape is
//! needed because `n` takes `W + 1` values and the prefix holds `W`; it
//! costs one bit, and only for the two longest lengths. Every value of every
//! type has exactly one encoding, `MIN` and `MAX` included.
//!
//! **Sign.** A message whose type holds adaptive signed values (nested ones
//! included) starts with one bit: 1 when any of them is negative. With 0,
//! signed values are sent as their plain (non-negative) value and no sign is
//! spent; with 1, every signed value is zig-zag coded (`0, -1, 1, -2` become
//! `0, 1, 2, 3`). Unsigned values never change. A message whose type holds
//! no adaptive signed value spends no bit. [`Signs`] is that mode; the
//! [`SignScope`] trait passes it down to nested types, and
//! [`write_scope`]/[`read_scope`] are the message entry points.
//!
//! **Shared length.** A group of `k > 0` values of one type (an array, a
//! `Vec`, a 3-vector) starts with one mode bit. With 0, each value follows
//! in the single-value form. With 1, one width `w` (the largest `n` of the
//! group) follows in the single-value prefix form (prefix `w`, or the escape
//! and one bit), then every magnitude in exactly `w` bits. The writer
//! computes both sizes exactly and takes shared width only when strictly
//! shorter. An empty group writes nothing. A `Vec` ([`write_adaptive_vec`])
//! first sends its length as `int(len, 0, max_len)`, as every `Vec` does.
//!
//! **Fixed point.** A float without a range, [`write_fixed`]`(x, res)`, is the
//! `i64` `round(x / res)` (half away from zero) as an adaptive signed value.
//! A NaN or infinite `x` is an `Err` (`NonFiniteFloat`); a quotient outside
//! `i64`, or a result that would read back as infinite, is an `Err`
//! (`OutOfRange`): never a wrap.
//!
//! # Decoding hostile input
//!
//! Readers check that a value's bits, or a group's or `Vec`'s minimum size,
//! fit in the bits that remain before reading or allocating; a length is
//! refused above its declared maximum, and a `Vec` whose `count *
//! size_of::<T>()` is past the reader's allocation budget (zeros sharing a
//! width of 0 take no bits, so only the budget bounds them). Readers refuse
//! what no writer produces (`NonCanonical`): a message's sign bit set with
//! no negative value, a group sent per value where the shared width is
//! strictly shorter, or with a shared width that is not strictly shorter or
//! not its widest value's. A failed read leaves the reader where it was, and
//! the error names the bit where the read began.
//!
//! ```
//! use bitpack_core::adaptive::{read_adaptive, write_adaptive, Signs};
//! use bitpack_core::{BitCounter, BitReader, BitWrite, BitWriter};
//!
//! let mut counter = BitCounter::new();
//! write_adaptive(&mut counter, 25i32, Signs::NonNegative)?;
//! assert_eq!(counter.bits_written(), 5 + 4); // prefix 5, then 11001 without its top 1
//!
//! let mut buf = [0u8; 2];
//! let mut writer = BitWriter::new(&mut buf);
//! write_adaptive(&mut writer, 25i32, Signs::NonNegative)?;
//! writer.finish()?;
//! let mut reader = BitReader::new(&buf);
//! assert_eq!(read_adaptive::<i32>(&mut reader, Signs::NonNegative)?, 25);
//! # Ok::<(), bitpack_core::Error>(())
//! ```

use crate::error::{Error, ErrorKind};
use crate::reader::BitReader;
use crate::write::{BitWrite, write_wide_bits};

mod sealed {
    pub trait Sealed {}
}

/// How the signed adaptive values of one message are sent: chosen once per
/// message from "is any of them negative", and passed down to nested types.
///
/// ```
/// use bitpack_core::adaptive::Signs;
/// assert_eq!(Signs::for_any_negative(false), Signs::NonNegative);
/// assert_eq!(Signs::for_any_negative(true), Signs::ZigZag);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signs {
    /// No signed value is negative: each is sent as its plain value.
    NonNegative,
    /// Some signed value is negative: each is sent zig-zag coded.
    ZigZag,
}

impl Signs {
    /// The mode for a message in which some signed value is negative (or not).
    #[inline]
    pub const fn for_any_negative(any_negative: bool) -> Self {
        if any_negative { Signs::ZigZag } else { Signs::NonNegative }
    }

    /// Writes the message's sign bit: 1 for [`Signs::ZigZag`].
    #[inline]
    pub fn write<W: BitWrite>(self, writer: &mut W) -> Result<(), Error> {
        writer.write_bool(self == Signs::ZigZag)
    }

    /// Reads the message's sign bit.
    #[inline]
    pub fn read(reader: &mut BitReader<'_>) -> Result<Self, Error> {
        Ok(Self::for_any_negative(reader.read_bool()?))
    }
}

/// An integer type that can be sent adaptively: every primitive integer.
/// Sealed; the constants describe its wire form (see the module docs).
///
/// ```
/// use bitpack_core::adaptive::AdaptiveInt;
/// assert_eq!((u8::PREFIX_BITS, u16::PREFIX_BITS, i32::PREFIX_BITS, u64::PREFIX_BITS), (3, 4, 5, 6));
/// assert_eq!(i32::MAX_BITS, 37); // i32::MIN zig-zag coded: escape, 1 bit, 31 bits
/// ```
pub trait AdaptiveInt: Copy + sealed::Sealed {
    /// Bits of the length prefix: 3, 4, 5, 6 or 7.
    const PREFIX_BITS: u32;
    /// Bits of the type on the wire (`2^PREFIX_BITS`): its longest length.
    const WIDTH: u32;
    /// Whether the type is signed (and so follows the message's [`Signs`]).
    const SIGNED: bool;
    /// The value 0.
    const ZERO: Self;
    /// The most bits one value takes: the escape, its bit, `WIDTH - 1` bits.
    const MAX_BITS: usize = (Self::PREFIX_BITS + Self::WIDTH) as usize;

    /// Whether the value is below zero (never, for unsigned types).
    fn is_negative(self) -> bool;

    /// The magnitude sent for the value under `signs`, or `None` for a
    /// negative value under [`Signs::NonNegative`].
    fn to_magnitude(self, signs: Signs) -> Option<u128>;

    /// The value a magnitude stands for under `signs`, or `None` when no
    /// value of the type has that magnitude.
    fn from_magnitude(magnitude: u128, signs: Signs) -> Option<Self>;
}

macro_rules! unsigned_adaptive {
    ($($t:ty => $prefix:expr),*) => {$(
        impl sealed::Sealed for $t {}
        impl AdaptiveInt for $t {
            const PREFIX_BITS: u32 = $prefix;
            const WIDTH: u32 = 1 << $prefix;
            const SIGNED: bool = false;
            const ZERO: Self = 0;
            #[inline]
            fn is_negative(self) -> bool {
                false
            }
            #[inline]
            fn to_magnitude(self, _signs: Signs) -> Option<u128> {
                Some(self as u128)
            }
            #[inline]
            fn from_magnitude(magnitude: u128, _signs: Signs) -> Option<Self> {
                <$t>::try_from(magnitude).ok()
            }
        }
    )*};
}

macro_rules! signed_adaptive {
    ($($t:ty, $unsigned:ty, $wide:ty => $prefix:expr),*) => {$(
        impl sealed::Sealed for $t {}
        impl AdaptiveInt for $t {
            const PREFIX_BITS: u32 = $prefix;
            const WIDTH: u32 = 1 << $prefix;
            const SIGNED: bool = true;
            const ZERO: Self = 0;
            #[inline]
            fn is_negative(self) -> bool {
                self < 0
            }
            #[inline]
            fn to_magnitude(self, signs: Signs) -> Option<u128> {
                match signs {
                    Signs::NonNegative => u128::try_from(self).ok(),
                    Signs::ZigZag => {
                        // Zig-zag in the wire width ($wide), so isize is the same on every target.
                        let value = self as $wide;
                        Some((((value << 1) ^ (value >> (<$wide>::BITS - 1))) as $unsigned) as u128)
                    }
                }
            }
            #[inline]
            fn from_magnitude(magnitude: u128, signs: Signs) -> Option<Self> {
                match signs {
                    Signs::NonNegative => <$t>::try_from(magnitude).ok(),
                    Signs::ZigZag => {
                        let coded = <$unsigned>::try_from(magnitude).ok()?;
                        let value = ((coded >> 1) as $wide) ^ -((coded & 1) as $wide);
                        <$t>::try_from(value).ok()
                    }
                }
            }
        }
    )*};
}

unsigned_adaptive!(u8 => 3, u16 => 4, u32 => 5, u64 => 6, u128 => 7, usize => 6);
signed_adaptive!(
    i8, u8, i8 => 3,
    i16, u16, i16 => 4,
    i32, u32, i32 => 5,
    i64, u64, i64 => 6,
    i128, u128, i128 => 7,
    isize, u64, i64 => 6
);

/// Number of significant bits of `value` (0 for 0).
#[inline(always)]
const fn bit_length(value: u128) -> u32 {
    128 - value.leading_zeros()
}

/// The length prefix for `length` significant bits: `(bits, count)`, the
/// escape and its bit included for the two longest lengths.
#[inline(always)]
const fn length_header<T: AdaptiveInt>(length: u32) -> (u64, u32) {
    let escape = T::WIDTH - 1;
    if length < escape {
        (length as u64, T::PREFIX_BITS)
    } else {
        ((escape as u64) | (((length - escape) as u64) << T::PREFIX_BITS), T::PREFIX_BITS + 1)
    }
}

/// Bits one magnitude takes in the single-value form.
#[inline(always)]
const fn magnitude_bits<T: AdaptiveInt>(magnitude: u128) -> usize {
    let length = bit_length(magnitude);
    let (_, header_bits) = length_header::<T>(length);
    (header_bits + length.saturating_sub(1)) as usize
}

/// The magnitude of `value`, or `OutOfRange` at the writer's position.
#[inline(always)]
fn magnitude_of<T: AdaptiveInt, W: BitWrite>(writer: &W, value: T, signs: Signs) -> Result<u128, Error> {
    value.to_magnitude(signs).ok_or_else(|| Error::new(ErrorKind::OutOfRange, writer.bits_written()))
}

/// Writes the low `bits` (0..=128) bits of `value` as one write.
#[inline(always)]
fn write_wide<W: BitWrite>(writer: &mut W, value: u128, bits: u32) -> Result<(), Error> {
    write_wide_bits(writer, value, bits)
}

/// Reads `bits` (0..=128) bits written by [`write_wide`].
#[inline(always)]
fn read_wide(reader: &mut BitReader<'_>, bits: u32) -> Result<u128, Error> {
    reader.read_wide_bits(bits)
}

/// Writes one magnitude in the single-value form.
#[inline(always)]
fn write_magnitude<T: AdaptiveInt, W: BitWrite>(writer: &mut W, magnitude: u128) -> Result<(), Error> {
    let length = bit_length(magnitude);
    let (header, header_bits) = length_header::<T>(length);
    let payload_bits = length.saturating_sub(1);
    // Clears the implied leading 1 (a no-op for 0).
    let payload = magnitude & !(1u128 << payload_bits);
    if header_bits + payload_bits <= 64 {
        // One write for the common case: prefix low, payload above it.
        writer.write_bits64(header | ((payload as u64) << header_bits), header_bits + payload_bits)
    } else {
        writer.write_bits64(header, header_bits)?;
        write_wide(writer, payload, payload_bits)
    }
}

/// Reads a length prefix (and the escape's bit); at most `T::WIDTH`.
#[inline(always)]
fn read_length<T: AdaptiveInt>(reader: &mut BitReader<'_>) -> Result<u32, Error> {
    let escape = T::WIDTH - 1;
    let prefix = reader.read_bits(T::PREFIX_BITS)?;
    if prefix < escape { Ok(prefix) } else { Ok(escape + u32::from(reader.read_bool()?)) }
}

/// Reads one magnitude in the single-value form.
#[inline(always)]
fn read_magnitude<T: AdaptiveInt>(reader: &mut BitReader<'_>) -> Result<u128, Error> {
    let length = read_length::<T>(reader)?;
    if length == 0 {
        return Ok(0);
    }
    let payload = read_wide(reader, length - 1)?;
    Ok((1u128 << (length - 1)) | payload)
}

/// The value for a read magnitude, or `OutOfRange` naming `start`.
#[inline(always)]
fn value_of<T: AdaptiveInt>(magnitude: u128, signs: Signs, start: usize) -> Result<T, Error> {
    T::from_magnitude(magnitude, signs).ok_or(Error::new(ErrorKind::OutOfRange, start))
}

/// Runs a read of several parts as one: on `Err` the reader stays where it
/// was and the error names that bit.
#[inline(always)]
fn atomically<'a, T>(
    reader: &mut BitReader<'a>,
    read: impl FnOnce(&mut BitReader<'a>, usize) -> Result<T, Error>,
) -> Result<T, Error> {
    let start = reader.bits_read();
    let mut attempt = reader.clone();
    match read(&mut attempt, start) {
        Ok(value) => {
            *reader = attempt;
            Ok(value)
        }
        Err(error) => Err(Error::new(error.kind(), start)),
    }
}

/// Writes one adaptive integer. A negative value under
/// [`Signs::NonNegative`] is `OutOfRange` (the message's pre-pass missed
/// it). On `Err` nothing is written (a value longer than 64 bits on the
/// wire goes in two parts, and the writer is put back if the second does
/// not fit).
///
/// ```
/// use bitpack_core::adaptive::{write_adaptive, Signs};
/// use bitpack_core::{BitCounter, BitWrite};
///
/// let bits = |v: i64, s| {
///     let mut c = BitCounter::new();
///     write_adaptive(&mut c, v, s).map(|()| c.bits_written())
/// };
/// assert_eq!(bits(0, Signs::NonNegative)?, 6);
/// assert_eq!(bits(123_456_789, Signs::NonNegative)?, 6 + 26);
/// assert_eq!(bits(-1, Signs::ZigZag)?, 6); // zig-zag 1: the prefix alone
/// assert!(bits(-1, Signs::NonNegative).is_err());
/// # Ok::<(), bitpack_core::Error>(())
/// ```
#[inline]
pub fn write_adaptive<T: AdaptiveInt, W: BitWrite>(
    writer: &mut W,
    value: T,
    signs: Signs,
) -> Result<(), Error> {
    let magnitude = magnitude_of(writer, value, signs)?;
    crate::private::write_atomic(writer, |writer| write_magnitude::<T, W>(writer, magnitude))
}

/// Reads one adaptive integer written by [`write_adaptive`] under the same
/// `signs`. Refuses a magnitude no value of `T` has.
///
/// ```
/// use bitpack_core::adaptive::{read_adaptive, Signs};
/// use bitpack_core::BitReader;
///
/// // Prefix 7 (binary 111) is the u8 escape: one more bit picks length 7 or 8.
/// let mut reader = BitReader::new(&[0b1111_1111, 0b111]);
/// assert_eq!(read_adaptive::<u8>(&mut reader, Signs::NonNegative)?, 255);
/// # Ok::<(), bitpack_core::Error>(())
/// ```
#[inline]
pub fn read_adaptive<T: AdaptiveInt>(reader: &mut BitReader<'_>, signs: Signs) -> Result<T, Error> {
    atomically(reader, |reader, start| value_of(read_magnitude::<T>(reader)?, signs, start))
}

/// Exact bits [`write_adaptive`] takes for `value`.
///
/// ```
/// use bitpack_core::adaptive::{adaptive_bits, Signs};
/// assert_eq!(adaptive_bits(i32::MIN, Signs::ZigZag)?, 5 + 1 + 31);
/// assert_eq!(adaptive_bits(u64::MAX, Signs::NonNegative)?, 6 + 1 + 63);
/// # Ok::<(), bitpack_core::Error>(())
/// ```
#[inline]
pub fn adaptive_bits<T: AdaptiveInt>(value: T, signs: Signs) -> Result<usize, Error> {
    let magnitude = value.to_magnitude(signs).ok_or(Error::new(ErrorKind::OutOfRange, 0))?;
    Ok(magnitude_bits::<T>(magnitude))
}

/// How a group is best sent, computed exactly: `(shared, width, bits)`
/// where `bits` excludes the mode bit.
fn plan_group<T: AdaptiveInt, W: BitWrite>(
    writer: &W,
    values: &[T],
    signs: Signs,
) -> Result<(bool, u32, usize), Error> {
    let mut per_value = 0usize;
    let mut width = 0u32;
    for &value in values {
        let magnitude = magnitude_of(writer, value, signs)?;
        per_value = per_value.saturating_add(magnitude_bits::<T>(magnitude));
        width = width.max(bit_length(magnitude));
    }
    let (_, header_bits) = length_header::<T>(width);
    let shared = values.len().saturating_mul(width as usize).saturating_add(header_bits as usize);
    Ok(if shared < per_value { (true, width, shared) } else { (false, width, per_value) })
}

/// Writes a group of values that share a length when that is strictly
/// shorter: a mode bit, then per-value lengths or one width (see the module
/// docs). An empty group writes nothing; the reader must know the count.
/// Values are checked before anything is written, and on `Err` the writer
/// is left as it was.
///
/// ```
/// use bitpack_core::adaptive::{write_adaptive_group, Signs};
/// use bitpack_core::{BitCounter, BitWrite};
///
/// let mut counter = BitCounter::new();
/// write_adaptive_group(&mut counter, &[100i32, 101, 99], Signs::NonNegative)?;
/// // Mode 1, width 7 in a 5-bit prefix, three 7-bit values; per value would be 3 * 11.
/// assert_eq!(counter.bits_written(), 1 + 5 + 3 * 7);
/// # Ok::<(), bitpack_core::Error>(())
/// ```
pub fn write_adaptive_group<T: AdaptiveInt, W: BitWrite>(
    writer: &mut W,
    values: &[T],
    signs: Signs,
) -> Result<(), Error> {
    if values.is_empty() {
        return Ok(());
    }
    let (shared, width, _) = plan_group(writer, values, signs)?;
    crate::private::write_atomic(writer, |writer| write_group(writer, values, signs, shared, width))
}

/// Writes a planned group: its mode bit, then its values in that form.
fn write_group<T: AdaptiveInt, W: BitWrite>(
    writer: &mut W,
    values: &[T],
    signs: Signs,
    shared: bool,
    width: u32,
) -> Result<(), Error> {
    writer.write_bool(shared)?;
    if shared {
        let (header, header_bits) = length_header::<T>(width);
        writer.write_bits64(header, header_bits)?;
        for &value in values {
            write_wide(writer, magnitude_of(writer, value, signs)?, width)?;
        }
    } else {
        for &value in values {
            write_magnitude::<T, W>(writer, magnitude_of(writer, value, signs)?)?;
        }
    }
    Ok(())
}

/// Exact bits [`write_adaptive_group`] takes for `values`.
///
/// ```
/// use bitpack_core::adaptive::{adaptive_group_bits, Signs};
/// assert_eq!(adaptive_group_bits(&[3u16, 1000, 1001, 1002, 998], Signs::NonNegative)?, 1 + 4 + 5 * 10);
/// assert_eq!(adaptive_group_bits::<u16>(&[], Signs::NonNegative)?, 0);
/// # Ok::<(), bitpack_core::Error>(())
/// ```
pub fn adaptive_group_bits<T: AdaptiveInt>(values: &[T], signs: Signs) -> Result<usize, Error> {
    if values.is_empty() {
        return Ok(0);
    }
    let (_, _, bits) = plan_group(&crate::BitCounter::new(), values, signs)?;
    Ok(bits.saturating_add(1))
}

/// The most bits a group of `count` values of `T` takes: the writer picks the
/// shorter form, so never more than shared width at the full type width.
///
/// ```
/// use bitpack_core::adaptive::adaptive_group_max_bits;
/// assert_eq!(adaptive_group_max_bits::<u16>(5), 1 + 5 + 5 * 16);
/// assert_eq!(adaptive_group_max_bits::<u16>(1), 1 + 4 + 16); // per value: escape, bit, 15
/// ```
pub const fn adaptive_group_max_bits<T: AdaptiveInt>(count: usize) -> usize {
    if count == 0 {
        return 0;
    }
    let per_value = count.saturating_mul(T::MAX_BITS);
    let shared = count.saturating_mul(T::WIDTH as usize).saturating_add(T::PREFIX_BITS as usize + 1);
    1 + if per_value < shared { per_value } else { shared }
}

/// Reads a group written by [`write_adaptive_group`] into `out`, whose
/// length is the group's count. Checks the group's minimum size fits in
/// what remains before reading values; on `Err` the reader has not moved
/// (and `out` may hold part of the group).
///
/// ```
/// use bitpack_core::adaptive::{read_adaptive_group, write_adaptive_group, Signs};
/// use bitpack_core::{BitReader, BitWriter};
///
/// let mut buf = [0u8; 8];
/// let mut writer = BitWriter::new(&mut buf);
/// write_adaptive_group(&mut writer, &[100i32, -101, 99], Signs::ZigZag)?;
/// writer.finish()?;
/// let mut out = [0i32; 3];
/// read_adaptive_group(&mut BitReader::new(&buf), &mut out, Signs::ZigZag)?;
/// assert_eq!(out, [100, -101, 99]);
/// # Ok::<(), bitpack_core::Error>(())
/// ```
pub fn read_adaptive_group<T: AdaptiveInt>(
    reader: &mut BitReader<'_>,
    out: &mut [T],
    signs: Signs,
) -> Result<(), Error> {
    if out.is_empty() {
        return Ok(());
    }
    atomically(reader, |reader, start| {
        let mut slots = out.iter_mut();
        read_group_values(reader, slots.len(), signs, start, |value| {
            if let Some(slot) = slots.next() {
                *slot = value;
            }
        })
    })
}

/// How a group's values follow its mode bit.
#[derive(Clone, Copy)]
enum GroupForm {
    PerValue,
    Shared(u32),
}

/// Reads a group's mode (and width), then checks `count` values of the
/// form's minimum size fit in what remains.
fn read_group_form<T: AdaptiveInt>(reader: &mut BitReader<'_>, count: usize) -> Result<GroupForm, Error> {
    let (form, min_value_bits) = if reader.read_bool()? {
        let width = read_length::<T>(reader)?;
        (GroupForm::Shared(width), width as usize)
    } else {
        (GroupForm::PerValue, T::PREFIX_BITS as usize)
    };
    if count.saturating_mul(min_value_bits) > reader.bits_remaining() {
        return Err(Error::new(ErrorKind::UnexpectedEnd, reader.bits_read()));
    }
    Ok(form)
}

/// Reads a group of `count > 0` values, handing each to `put`, and refuses
/// a form no writer picks: per value where the shared width is strictly
/// shorter, or a shared width that is not strictly shorter or not the
/// group's widest value (`NonCanonical`, naming `start`).
#[inline(always)]
fn read_group_values<T: AdaptiveInt>(
    reader: &mut BitReader<'_>,
    count: usize,
    signs: Signs,
    start: usize,
    mut put: impl FnMut(T),
) -> Result<(), Error> {
    let form = read_group_form::<T>(reader, count)?;
    let mut per_value = 0usize;
    let mut widest = 0u32;
    for _ in 0..count {
        let magnitude = match form {
            GroupForm::PerValue => read_magnitude::<T>(reader)?,
            GroupForm::Shared(width) => read_wide(reader, width)?,
        };
        per_value = per_value.saturating_add(magnitude_bits::<T>(magnitude));
        widest = widest.max(bit_length(magnitude));
        put(value_of(magnitude, signs, start)?);
    }
    let (_, header_bits) = length_header::<T>(widest);
    let shared = count.saturating_mul(widest as usize).saturating_add(header_bits as usize);
    let canonical = match form {
        GroupForm::PerValue => shared >= per_value,
        GroupForm::Shared(width) => width == widest && shared < per_value,
    };
    if canonical { Ok(()) } else { Err(Error::new(ErrorKind::NonCanonical, start)) }
}

/// Bits of a `Vec` length sent as `int(len, 0, max_len)`.
#[inline(always)]
fn count_bits(max_len: usize) -> u32 {
    bit_length(max_len as u128)
}

/// Writes a `Vec` (or slice) of at most `max_len` values: its length as
/// `int(len, 0, max_len)`, then the values as one group
/// ([`write_adaptive_group`]). A longer slice is `TooLong`.
///
/// ```
/// use bitpack_core::adaptive::{write_adaptive_vec, Signs};
/// use bitpack_core::{BitCounter, BitWrite};
///
/// let mut counter = BitCounter::new();
/// write_adaptive_vec(&mut counter, &[3u16, 1000, 1001, 1002, 998], 16, Signs::NonNegative)?;
/// assert_eq!(counter.bits_written(), 5 + 1 + 4 + 5 * 10);
/// # Ok::<(), bitpack_core::Error>(())
/// ```
pub fn write_adaptive_vec<T: AdaptiveInt, W: BitWrite>(
    writer: &mut W,
    values: &[T],
    max_len: usize,
    signs: Signs,
) -> Result<(), Error> {
    if values.len() > max_len {
        return Err(Error::new(ErrorKind::TooLong, writer.bits_written()));
    }
    crate::private::write_atomic(writer, |writer| {
        write_wide(writer, values.len() as u128, count_bits(max_len))?;
        write_adaptive_group(writer, values, signs)
    })
}

/// The most bits [`write_adaptive_vec`] takes for up to `max_len` values.
///
/// ```
/// use bitpack_core::adaptive::adaptive_vec_max_bits;
/// assert_eq!(adaptive_vec_max_bits::<u16>(16), 5 + 1 + 5 + 16 * 16);
/// ```
pub const fn adaptive_vec_max_bits<T: AdaptiveInt>(max_len: usize) -> usize {
    (bit_length(max_len as u128) as usize).saturating_add(adaptive_group_max_bits::<T>(max_len))
}

/// Reads a `Vec` written by [`write_adaptive_vec`] with the same `max_len`.
/// Refuses a length over `max_len` (`TooLong`), a count of values of the
/// group's minimum size that cannot fit in what remains (`UnexpectedEnd`),
/// and a count whose `count * size_of::<T>()` is past the reader's
/// allocation budget (`AllocationLimit`), all before allocating: so it
/// never allocates more than `max_len` values, nor past the budget (all
/// zeros in a shared width of 0 take no bits each).
///
/// ```
/// use bitpack_core::adaptive::{read_adaptive_vec, write_adaptive_vec, Signs};
/// use bitpack_core::{BitReader, BitWriter};
///
/// let mut buf = [0u8; 16];
/// let mut writer = BitWriter::new(&mut buf);
/// write_adaptive_vec(&mut writer, &[3u16, 1000, 1001], 16, Signs::NonNegative)?;
/// writer.finish()?;
/// let values: Vec<u16> = read_adaptive_vec(&mut BitReader::new(&buf), 16, Signs::NonNegative)?;
/// assert_eq!(values, [3, 1000, 1001]);
/// # Ok::<(), bitpack_core::Error>(())
/// ```
#[cfg(feature = "alloc")]
pub fn read_adaptive_vec<T: AdaptiveInt>(
    reader: &mut BitReader<'_>,
    max_len: usize,
    signs: Signs,
) -> Result<alloc::vec::Vec<T>, Error> {
    atomically(reader, |reader, start| {
        let count = read_wide(reader, count_bits(max_len))?;
        if count > max_len as u128 {
            return Err(Error::new(ErrorKind::TooLong, start));
        }
        // `count <= max_len`, so it is a usize.
        let count = count as usize;
        if count == 0 {
            return Ok(alloc::vec::Vec::new());
        }
        // Values can take no bits at all (a shared width of 0): the
        // allocation budget, not the input's size, bounds the count then.
        reader.claim_allocation::<T>(count)?;
        let mut values = alloc::vec::Vec::with_capacity(count);
        read_group_values(reader, count, signs, start, |value| values.push(value))?;
        Ok(values)
    })
}

/// Whether any signed value of a group is negative: a pre-pass helper.
///
/// ```
/// use bitpack_core::adaptive::any_negative;
/// assert!(any_negative(&[3i16, -1, 4]));
/// assert!(!any_negative(&[3u16, 1, 4]));
/// ```
#[inline]
pub fn any_negative<T: AdaptiveInt>(values: &[T]) -> bool {
    T::SIGNED && values.iter().any(|value| value.is_negative())
}

/// A type whose adaptive signed values share the sign bit of the message
/// around it. The derive implements it for types with adaptive fields;
/// their `BitPack::write_to` is [`write_scope`], and a parent that nests one
/// calls [`SignScope::write_scoped`] with its own [`Signs`] instead, so the
/// whole message spends one sign bit.
///
/// ```
/// use bitpack_core::adaptive::{self, Signs, SignScope};
/// use bitpack_core::{BitCounter, BitReader, BitWrite, Error};
///
/// struct Score { delta: i32 }
///
/// impl SignScope for Score {
///     const HAS_SIGNED: bool = true;
///     fn any_negative(&self) -> bool { self.delta < 0 }
///     fn write_scoped<W: BitWrite>(&self, w: &mut W, signs: Signs) -> Result<(), Error> {
///         adaptive::write_adaptive(w, self.delta, signs)
///     }
///     fn read_scoped(r: &mut BitReader<'_>, signs: Signs) -> Result<Self, Error> {
///         Ok(Score { delta: adaptive::read_adaptive(r, signs)? })
///     }
/// }
///
/// let mut counter = BitCounter::new();
/// adaptive::write_scope(&Score { delta: -3 }, &mut counter)?;
/// assert_eq!(counter.bits_written(), 1 + 5 + 2); // sign bit, prefix, zig-zag 5 = 101
/// # Ok::<(), Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot share a sign bit: it has no adaptive fields",
    label = "`#[bitpack(adaptive)]` on this field needs a type with adaptive fields",
    note = "derive BitPack with #[bitpack(adaptive)] fields on `{Self}`, or remove `adaptive` from this field"
)]
pub trait SignScope: Sized {
    /// Whether the type holds an adaptive signed value anywhere (nested
    /// types included): only then does a message of it spend the sign bit.
    const HAS_SIGNED: bool;

    /// Whether any adaptive signed value inside (nested included) is
    /// negative: the pre-pass that picks the message's [`Signs`].
    fn any_negative(&self) -> bool;

    /// Writes the value under `signs`, without a sign bit of its own.
    fn write_scoped<W: BitWrite>(&self, writer: &mut W, signs: Signs) -> Result<(), Error>;

    /// Reads a value written by [`SignScope::write_scoped`] under `signs`.
    fn read_scoped(reader: &mut BitReader<'_>, signs: Signs) -> Result<Self, Error>;
}

/// Writes `value` as a whole message: the sign bit (only when the type
/// holds signed adaptive values), then the value under the chosen mode; on
/// `Err` the writer is left exactly as it was.
/// This is `BitPack::write_to` of a type with adaptive fields; see
/// [`SignScope`] for an example.
#[inline]
pub fn write_scope<T: SignScope, W: BitWrite>(value: &T, writer: &mut W) -> Result<(), Error> {
    crate::private::write_atomic(writer, |writer| {
        let signs = if T::HAS_SIGNED {
            let signs = Signs::for_any_negative(value.any_negative());
            signs.write(writer)?;
            signs
        } else {
            Signs::NonNegative
        };
        value.write_scoped(writer, signs)
    })
}

/// Reads a message written by [`write_scope`]; on `Err` the reader has not
/// moved. This is `BitPack::read_from` of a type with adaptive fields.
/// Refuses a sign bit of 1 when no value decodes negative (`NonCanonical`):
/// the writer sets it only when one is.
///
/// ```
/// use bitpack_core::adaptive::{read_scope, Signs};
/// use bitpack_core::BitReader;
///
/// // An optional nested scope: presence bit 0 reads `None`, after the sign bit.
/// struct Unit;
/// # impl bitpack_core::SignScope for Unit {
/// #     const HAS_SIGNED: bool = true;
/// #     fn any_negative(&self) -> bool { false }
/// #     fn write_scoped<W: bitpack_core::BitWrite>(&self, _: &mut W, _: Signs) -> Result<(), bitpack_core::Error> { Ok(()) }
/// #     fn read_scoped(_: &mut BitReader<'_>, _: Signs) -> Result<Self, bitpack_core::Error> { Ok(Unit) }
/// # }
/// let mut reader = BitReader::new(&[0b00]);
/// assert!(read_scope::<Option<Unit>>(&mut reader)?.is_none());
/// assert_eq!(reader.bits_read(), 2);
/// # Ok::<(), bitpack_core::Error>(())
/// ```
#[inline]
pub fn read_scope<T: SignScope>(reader: &mut BitReader<'_>) -> Result<T, Error> {
    atomically(reader, |reader, start| {
        let signs = if T::HAS_SIGNED { Signs::read(reader)? } else { Signs::NonNegative };
        let value = T::read_scoped(reader, signs)?;
        // The writer sets the sign bit only for a message with a negative value.
        if signs == Signs::ZigZag && !value.any_negative() {
            return Err(Error::new(ErrorKind::NonCanonical, start));
        }
        Ok(value)
    })
}

/// A nested optional value shares the message's sign bit: a presence bit,
/// then the value.
impl<T: SignScope> SignScope for Option<T> {
    const HAS_SIGNED: bool = T::HAS_SIGNED;

    fn any_negative(&self) -> bool {
        self.as_ref().is_some_and(T::any_negative)
    }

    fn write_scoped<W: BitWrite>(&self, writer: &mut W, signs: Signs) -> Result<(), Error> {
        writer.write_bool(self.is_some())?;
        match self {
            Some(value) => value.write_scoped(writer, signs),
            None => Ok(()),
        }
    }

    fn read_scoped(reader: &mut BitReader<'_>, signs: Signs) -> Result<Self, Error> {
        if reader.read_bool()? { T::read_scoped(reader, signs).map(Some) } else { Ok(None) }
    }
}

/// The `i64` a float is sent as: `round(value / res)`, half away from zero.
/// `NonFiniteFloat` for NaN or infinity, `InvalidDeclaration` unless `res`
/// is finite and positive, `OutOfRange` when the quotient is past [`FIXED_MAX_STEPS`]
/// or the value it stands for (`q * res`) is not finite.
///
/// ```
/// use bitpack_core::adaptive::fixed_point;
/// use bitpack_core::ErrorKind;
/// assert_eq!(fixed_point(1.2345, 0.001), Ok(1235));
/// assert_eq!(fixed_point(-0.0005, 0.001), Ok(-1));
/// assert_eq!(fixed_point(f64::NAN, 0.001), Err(ErrorKind::NonFiniteFloat));
/// assert_eq!(fixed_point(1e300, 0.001), Err(ErrorKind::OutOfRange));
/// ```
pub fn fixed_point(value: f64, res: f64) -> Result<i64, ErrorKind> {
    fixed_point_within(value, res, FIXED_MAX_STEPS)
}

/// The most steps of `res` a fixed-point `f64` takes either way: up to
/// 2^50, `q * res` reads back to exactly `q` (the two roundings stay within
/// a quarter step); past it, a decoded value could re-encode one step away.
/// Writers and readers both refuse larger quotients (`OutOfRange`).
pub const FIXED_MAX_STEPS: i64 = 1 << 50;

/// [`FIXED_MAX_STEPS`] for `f32` fields: the `f32`'s own 24 bits keep
/// exactness up to 2^22 steps.
pub const FIXED_F32_MAX_STEPS: i64 = 1 << 22;

fn fixed_point_within(value: f64, res: f64, max_steps: i64) -> Result<i64, ErrorKind> {
    if !(res.is_finite() && res > 0.0) {
        return Err(ErrorKind::InvalidDeclaration);
    }
    if !value.is_finite() {
        return Err(ErrorKind::NonFiniteFloat);
    }
    let rounded = round_half_away(value / res);
    // Exact in f64: the bound is a power of two.
    if rounded.abs() > max_steps as f64 {
        return Err(ErrorKind::OutOfRange);
    }
    let quotient = rounded as i64;
    if !(quotient as f64 * res).is_finite() {
        return Err(ErrorKind::OutOfRange);
    }
    Ok(quotient)
}

/// Whether a float sent with [`write_fixed`] counts as negative in the
/// message's pre-pass: its quotient is below zero (`-0.0004` at `res =
/// 0.001` rounds to 0 and does not). A value [`fixed_point`] refuses does
/// not count: the write refuses it anyway.
///
/// ```
/// use bitpack_core::adaptive::fixed_point_is_negative;
/// assert!(fixed_point_is_negative(-0.0006, 0.001));
/// assert!(!fixed_point_is_negative(-0.0004, 0.001));
/// ```
#[inline]
pub fn fixed_point_is_negative(value: f64, res: f64) -> bool {
    fixed_point(value, res).is_ok_and(|quotient| quotient < 0)
}

/// `round` without `std`, half away from zero; non-finite input unchanged.
#[inline]
fn round_half_away(x: f64) -> f64 {
    // At or above 2^52 every f64 is an integer.
    const INTEGRAL: f64 = 4_503_599_627_370_496.0;
    if !(x > -INTEGRAL && x < INTEGRAL) {
        return x;
    }
    let truncated = (x as i64) as f64;
    // Exact: both are below 2^52 in magnitude and one ulp apart at most in scale.
    let fraction = x - truncated;
    if fraction >= 0.5 {
        truncated + 1.0
    } else if fraction <= -0.5 {
        truncated - 1.0
    } else {
        truncated
    }
}

/// Writes a float without a range as fixed point: [`fixed_point`]`(value,
/// res)` as an adaptive `i64`. Its sign counts in the message's pre-pass:
/// use [`fixed_point`]`(..)? < 0`.
///
/// ```
/// use bitpack_core::adaptive::{read_fixed, write_fixed, Signs};
/// use bitpack_core::{BitCounter, BitReader, BitWrite, BitWriter};
///
/// let mut counter = BitCounter::new();
/// write_fixed(&mut counter, 12.345, 0.001, Signs::NonNegative)?;
/// assert_eq!(counter.bits_written(), 6 + 13); // 12345 has 14 significant bits
///
/// let mut buf = [0u8; 4];
/// let mut writer = BitWriter::new(&mut buf);
/// write_fixed(&mut writer, 12.345, 0.001, Signs::NonNegative)?;
/// writer.finish()?;
/// let back = read_fixed(&mut BitReader::new(&buf), 0.001, Signs::NonNegative)?;
/// assert!((back - 12.345).abs() <= 0.0005);
/// # Ok::<(), bitpack_core::Error>(())
/// ```
pub fn write_fixed<W: BitWrite>(writer: &mut W, value: f64, res: f64, signs: Signs) -> Result<(), Error> {
    let quotient = fixed_point(value, res).map_err(|kind| Error::new(kind, writer.bits_written()))?;
    write_adaptive(writer, quotient, signs)
}

/// [`write_fixed`] for an `f32`, refusing a value whose fixed-point form
/// would read back past `f32`'s range. The quotient is computed in `f64`.
///
/// ```
/// use bitpack_core::adaptive::{read_fixed_f32, write_fixed_f32, Signs};
/// use bitpack_core::{BitReader, BitWriter, ErrorKind};
///
/// let mut buf = [0u8; 4];
/// let mut writer = BitWriter::new(&mut buf);
/// write_fixed_f32(&mut writer, -2.25, 0.25, Signs::ZigZag)?; // -9, zig-zag 17
/// assert_eq!(writer.finish()?, 2);
/// assert_eq!(read_fixed_f32(&mut BitReader::new(&buf), 0.25, Signs::ZigZag)?, -2.25);
///
/// let mut writer = BitWriter::new(&mut buf);
/// let error = write_fixed_f32(&mut writer, f32::INFINITY, 0.25, Signs::ZigZag).unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::NonFiniteFloat);
/// # Ok::<(), bitpack_core::Error>(())
/// ```
pub fn write_fixed_f32<W: BitWrite>(writer: &mut W, value: f32, res: f64, signs: Signs) -> Result<(), Error> {
    let fail = |kind| Error::new(kind, writer.bits_written());
    let quotient = fixed_point_within(f64::from(value), res, FIXED_F32_MAX_STEPS).map_err(fail)?;
    if !((quotient as f64 * res) as f32).is_finite() {
        return Err(fail(ErrorKind::OutOfRange));
    }
    write_adaptive(writer, quotient, signs)
}

/// Reads a float written by [`write_fixed`] with the same `res`: `q * res`.
/// Refuses an invalid `res` and a value that is not finite.
///
/// ```
/// use bitpack_core::adaptive::{read_fixed, Signs};
/// use bitpack_core::{BitReader, ErrorKind};
///
/// // Prefix 0 (six zero bits): the quotient 0.
/// assert_eq!(read_fixed(&mut BitReader::new(&[0]), 0.001, Signs::ZigZag)?, 0.0);
/// let error = read_fixed(&mut BitReader::new(&[0]), 0.0, Signs::ZigZag).unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::InvalidDeclaration);
/// # Ok::<(), bitpack_core::Error>(())
/// ```
pub fn read_fixed(reader: &mut BitReader<'_>, res: f64, signs: Signs) -> Result<f64, Error> {
    read_fixed_as(reader, res, signs, FIXED_MAX_STEPS, |value| Some(value).filter(|v| v.is_finite()))
}

/// Reads a float written by [`write_fixed_f32`] with the same `res`;
/// refuses a value past `f32`'s range (see [`write_fixed_f32`] for an
/// example).
pub fn read_fixed_f32(reader: &mut BitReader<'_>, res: f64, signs: Signs) -> Result<f32, Error> {
    read_fixed_as(reader, res, signs, FIXED_F32_MAX_STEPS, |value| {
        Some(value as f32).filter(|v| v.is_finite())
    })
}

fn read_fixed_as<F>(
    reader: &mut BitReader<'_>,
    res: f64,
    signs: Signs,
    max_steps: i64,
    convert: impl FnOnce(f64) -> Option<F>,
) -> Result<F, Error> {
    atomically(reader, |reader, start| {
        if !(res.is_finite() && res > 0.0) {
            return Err(Error::new(ErrorKind::InvalidDeclaration, start));
        }
        let quotient: i64 = read_adaptive(reader, signs)?;
        if quotient.unsigned_abs() > max_steps.unsigned_abs() {
            return Err(Error::new(ErrorKind::OutOfRange, start));
        }
        convert(quotient as f64 * res).ok_or(Error::new(ErrorKind::OutOfRange, start))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_half_away_from_zero() {
        assert_eq!(round_half_away(2.5), 3.0);
        assert_eq!(round_half_away(-2.5), -3.0);
        assert_eq!(round_half_away(2.4999), 2.0);
        assert_eq!(round_half_away(-0.4), 0.0);
        assert_eq!(round_half_away(1e17), 1e17);
    }

    #[test]
    fn headers_escape_only_the_two_longest_lengths() {
        assert_eq!(length_header::<u8>(6), (6, 3));
        assert_eq!(length_header::<u8>(7), (7, 4));
        assert_eq!(length_header::<u8>(8), (7 | 8, 4));
        assert_eq!(length_header::<u128>(128), (127 | 128, 8));
    }

    #[test]
    fn zigzag_matches_the_core_helpers() {
        for value in [0i32, -1, 1, i32::MIN, i32::MAX, -12345] {
            let expected = u128::from(crate::zigzag_encode32(value));
            assert_eq!(value.to_magnitude(Signs::ZigZag), Some(expected));
        }
        assert_eq!((-1isize).to_magnitude(Signs::ZigZag), Some(1));
    }
}
