//! `Vec`s of adaptive values: a length, then one group.

use super::group::{adaptive_group_max_bits, write_adaptive_group};
use super::int::{AdaptiveInt, Signs};
use super::value::{bit_length, write_wide};
use crate::error::{Error, ErrorKind};
use crate::write::{BitWrite, write_atomic};
#[cfg(feature = "alloc")]
use {
    super::group::read_group_values,
    super::value::{atomically, read_wide},
    crate::reader::BitReader,
};

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
    write_atomic(writer, |writer| {
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
