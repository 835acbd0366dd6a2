//! Groups of values that share one length when that is shorter: alone (an
//! array), or after a length (a `Vec`).

use super::int::{AdaptiveInt, Signs};
use super::value::{
    atomically, bit_length, length_header, magnitude_bits, magnitude_of, read_length, read_magnitude,
    read_wide, value_of, write_magnitude, write_wide,
};
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::sink::counter::BitCounter;
use crate::write::{BitWrite, write_atomic};

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
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::{write_adaptive_group, Signs};
/// use bitpack::{BitCounter, BitWrite};
///
/// let mut counter = BitCounter::new();
/// write_adaptive_group(&mut counter, &[100i32, 101, 99], Signs::NonNegative)?;
/// // Mode 1, width 7 in a 5-bit prefix, three 7-bit values; per value would be 3 * 11.
/// assert_eq!(counter.bits_written(), 1 + 5 + 3 * 7);
/// # Ok::<(), bitpack::Error>(())
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
    write_atomic(writer, |writer| write_group(writer, values, signs, shared, width))
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
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::{adaptive_group_bits, Signs};
/// assert_eq!(adaptive_group_bits(&[3u16, 1000, 1001, 1002, 998], Signs::NonNegative)?, 1 + 4 + 5 * 10);
/// assert_eq!(adaptive_group_bits::<u16>(&[], Signs::NonNegative)?, 0);
/// # Ok::<(), bitpack::Error>(())
/// ```
pub fn adaptive_group_bits<T: AdaptiveInt>(values: &[T], signs: Signs) -> Result<usize, Error> {
    if values.is_empty() {
        return Ok(0);
    }
    let (_, _, bits) = plan_group(&BitCounter::new(), values, signs)?;
    Ok(bits.saturating_add(1))
}

/// The most bits a group of `count` values of `T` takes: the writer picks the
/// shorter form, so never more than shared width at the full type width.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::adaptive_group_max_bits;
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
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::{read_adaptive_group, write_adaptive_group, Signs};
/// use bitpack::{BitRead, BitReader, BitWriter};
///
/// let mut buf = [0u8; 8];
/// let mut writer = BitWriter::new(&mut buf);
/// write_adaptive_group(&mut writer, &[100i32, -101, 99], Signs::ZigZag)?;
/// writer.finish()?;
/// let mut out = [0i32; 3];
/// read_adaptive_group(&mut BitReader::new(&buf), &mut out, Signs::ZigZag)?;
/// assert_eq!(out, [100, -101, 99]);
/// # Ok::<(), bitpack::Error>(())
/// ```
pub fn read_adaptive_group<T: AdaptiveInt>(
    reader: &mut impl BitRead,
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
fn read_group_form<T: AdaptiveInt>(reader: &mut impl BitRead, count: usize) -> Result<GroupForm, Error> {
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
    reader: &mut impl BitRead,
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
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::{write_adaptive_vec, Signs};
/// use bitpack::{BitCounter, BitWrite};
///
/// let mut counter = BitCounter::new();
/// write_adaptive_vec(&mut counter, &[3u16, 1000, 1001, 1002, 998], 16, Signs::NonNegative)?;
/// assert_eq!(counter.bits_written(), 5 + 1 + 4 + 5 * 10);
/// # Ok::<(), bitpack::Error>(())
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
    write_atomic(writer, |writer| {
        write_wide(writer, values.len() as u128, count_bits(max_len))?;
        write_adaptive_group(writer, values, signs)
    })
}

/// The most bits [`write_adaptive_vec`] takes for up to `max_len` values.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::adaptive_vec_max_bits;
/// assert_eq!(adaptive_vec_max_bits::<u16>(16), 5 + 1 + 5 + 16 * 16);
/// ```
pub const fn adaptive_vec_max_bits<T: AdaptiveInt>(max_len: usize) -> usize {
    (bit_length(max_len as u128) as usize).saturating_add(adaptive_group_max_bits::<T>(max_len))
}

/// Reads a `Vec` written by [`write_adaptive_vec`] with the same `max_len`.
/// Refuses a length over `max_len` (`TooLong`), a count of values of the
/// group's minimum size that cannot fit in what remains (`UnexpectedEnd`),
/// and a count whose `count * size_of::<T>()` (at least 16 bytes) is past
/// the reader's allocation budget (`AllocationLimit`), all before
/// allocating: so it never allocates more than `max_len` values, nor past
/// the budget (all zeros in a shared width of 0 take no bits each).
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::{read_adaptive_vec, write_adaptive_vec, Signs};
/// use bitpack::{BitRead, BitReader, BitWriter};
///
/// let mut buf = [0u8; 16];
/// let mut writer = BitWriter::new(&mut buf);
/// write_adaptive_vec(&mut writer, &[3u16, 1000, 1001], 16, Signs::NonNegative)?;
/// writer.finish()?;
/// let values: Vec<u16> = read_adaptive_vec(&mut BitReader::new(&buf), 16, Signs::NonNegative)?;
/// assert_eq!(values, [3, 1000, 1001]);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[cfg(feature = "alloc")]
pub fn read_adaptive_vec<T: AdaptiveInt>(
    reader: &mut impl BitRead,
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
