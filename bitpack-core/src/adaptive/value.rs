//! One adaptive value: its length prefix, then its significant bits.

use super::int::{AdaptiveInt, Signs};
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::source::SourceExt;
use crate::write::{BitWrite, write_atomic, write_wide_bits};

/// Number of significant bits of `value` (0 for 0).
#[inline(always)]
pub(super) const fn bit_length(value: u128) -> u32 {
    128 - value.leading_zeros()
}

/// The length prefix for `length` significant bits: `(bits, count)`, the
/// escape and its bit included for the two longest lengths.
#[inline(always)]
pub(super) const fn length_header<T: AdaptiveInt>(length: u32) -> (u64, u32) {
    let escape = T::WIDTH - 1;
    if length < escape {
        (length as u64, T::PREFIX_BITS)
    } else {
        ((escape as u64) | (((length - escape) as u64) << T::PREFIX_BITS), T::PREFIX_BITS + 1)
    }
}

/// Bits one magnitude takes in the single-value form.
#[inline(always)]
pub(super) const fn magnitude_bits<T: AdaptiveInt>(magnitude: u128) -> usize {
    let length = bit_length(magnitude);
    let (_, header_bits) = length_header::<T>(length);
    (header_bits + length.saturating_sub(1)) as usize
}

/// The magnitude of `value`, or `OutOfRange` at the writer's position.
#[inline(always)]
pub(super) fn magnitude_of<T: AdaptiveInt, W: BitWrite>(
    writer: &W,
    value: T,
    signs: Signs,
) -> Result<u128, Error> {
    value.to_magnitude(signs).ok_or_else(|| Error::new(ErrorKind::OutOfRange, writer.bits_written()))
}

/// Writes the low `bits` (0..=128) bits of `value` as one write.
#[inline(always)]
pub(super) fn write_wide<W: BitWrite>(writer: &mut W, value: u128, bits: u32) -> Result<(), Error> {
    write_wide_bits(writer, value, bits)
}

/// Reads `bits` (0..=128) bits written by [`write_wide`].
#[inline(always)]
pub(super) fn read_wide(reader: &mut impl BitRead, bits: u32) -> Result<u128, Error> {
    reader.read_wide_bits(bits)
}

/// Writes one magnitude in the single-value form.
#[inline(always)]
pub(super) fn write_magnitude<T: AdaptiveInt, W: BitWrite>(
    writer: &mut W,
    magnitude: u128,
) -> Result<(), Error> {
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
pub(super) fn read_length<T: AdaptiveInt>(reader: &mut impl BitRead) -> Result<u32, Error> {
    let escape = T::WIDTH - 1;
    let prefix = reader.read_bits(T::PREFIX_BITS)?;
    if prefix < escape { Ok(prefix) } else { Ok(escape + u32::from(reader.read_bool()?)) }
}

/// Reads one magnitude in the single-value form.
#[inline(always)]
pub(super) fn read_magnitude<T: AdaptiveInt>(reader: &mut impl BitRead) -> Result<u128, Error> {
    let length = read_length::<T>(reader)?;
    if length == 0 {
        return Ok(0);
    }
    let payload = read_wide(reader, length - 1)?;
    Ok((1u128 << (length - 1)) | payload)
}

/// The value for a read magnitude, or `OutOfRange` naming `start`.
#[inline(always)]
pub(super) fn value_of<T: AdaptiveInt>(magnitude: u128, signs: Signs, start: usize) -> Result<T, Error> {
    T::from_magnitude(magnitude, signs).ok_or(Error::new(ErrorKind::OutOfRange, start))
}

/// Runs a read of several parts as one: on `Err` the reader stays where it
/// was and the error names that bit.
#[inline(always)]
pub(super) fn atomically<R: BitRead, T>(
    reader: &mut R,
    read: impl FnOnce(&mut R, usize) -> Result<T, Error>,
) -> Result<T, Error> {
    let start = reader.bits_read();
    reader.rolled_back(|attempt| read(attempt, start)).map_err(|error| Error::new(error.kind(), start))
}

/// Writes one adaptive integer. A negative value under
/// [`Signs::NonNegative`] is `OutOfRange` (the message's pre-pass missed
/// it). On `Err` nothing is written (a value longer than 64 bits on the
/// wire goes in two parts, and the writer is put back if the second does
/// not fit).
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::{write_adaptive, Signs};
/// use bitpack::{BitCounter, BitWrite};
///
/// let bits = |v: i64, s| {
///     let mut c = BitCounter::new();
///     write_adaptive(&mut c, v, s).map(|()| c.bits_written())
/// };
/// assert_eq!(bits(0, Signs::NonNegative)?, 6);
/// assert_eq!(bits(123_456_789, Signs::NonNegative)?, 6 + 26);
/// assert_eq!(bits(-1, Signs::ZigZag)?, 6); // zig-zag 1: the prefix alone
/// assert!(bits(-1, Signs::NonNegative).is_err());
/// # Ok::<(), bitpack::Error>(())
/// ```
#[inline]
pub fn write_adaptive<T: AdaptiveInt, W: BitWrite>(
    writer: &mut W,
    value: T,
    signs: Signs,
) -> Result<(), Error> {
    let magnitude = magnitude_of(writer, value, signs)?;
    write_magnitude_atomic::<T, W>(writer, magnitude)
}

/// [`write_magnitude`], nothing written on `Err`: up to 64 bits as one
/// write (refused before it pushes anything: nothing to put back), only a
/// longer value in two parts under `write_atomic`. A saved state and its
/// rewind around every value kept the state live across the push (the
/// rewind cannot fold away past the cold path's mark): a keyed
/// collection's whole encode paid about 6 instructions an entry for it.
#[inline(always)]
fn write_magnitude_atomic<T: AdaptiveInt, W: BitWrite>(writer: &mut W, magnitude: u128) -> Result<(), Error> {
    let length = bit_length(magnitude);
    let (_, header_bits) = length_header::<T>(length);
    if header_bits + length.saturating_sub(1) <= 64 {
        write_magnitude::<T, W>(writer, magnitude)
    } else {
        write_atomic(writer, |writer| write_magnitude::<T, W>(writer, magnitude))
    }
}

/// Reads one adaptive integer written by [`write_adaptive`] under the same
/// `signs`. Refuses a magnitude no value of `T` has.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::{read_adaptive, Signs};
/// use bitpack::{BitRead, BitReader};
///
/// // Prefix 7 (binary 111) is the u8 escape: one more bit picks length 7 or 8.
/// let mut reader = BitReader::new(&[0b1111_1111, 0b111]);
/// assert_eq!(read_adaptive::<u8>(&mut reader, Signs::NonNegative)?, 255);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[inline]
pub fn read_adaptive<T: AdaptiveInt>(reader: &mut impl BitRead, signs: Signs) -> Result<T, Error> {
    atomically(reader, |reader, start| value_of(read_magnitude::<T>(reader)?, signs, start))
}

/// Exact bits [`write_adaptive`] takes for `value`.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::{adaptive_bits, Signs};
/// assert_eq!(adaptive_bits(i32::MIN, Signs::ZigZag)?, 5 + 1 + 31);
/// assert_eq!(adaptive_bits(u64::MAX, Signs::NonNegative)?, 6 + 1 + 63);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[inline]
pub fn adaptive_bits<T: AdaptiveInt>(value: T, signs: Signs) -> Result<usize, Error> {
    let magnitude = value.to_magnitude(signs).ok_or(Error::new(ErrorKind::OutOfRange, 0))?;
    Ok(magnitude_bits::<T>(magnitude))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_escape_only_the_two_longest_lengths() {
        assert_eq!(length_header::<u8>(6), (6, 3));
        assert_eq!(length_header::<u8>(7), (7, 4));
        assert_eq!(length_header::<u8>(8), (7 | 8, 4));
        assert_eq!(length_header::<u128>(128), (127 | 128, 8));
    }

    /// Every length of a u128, either side of the one write (prefix and
    /// payload up to 64 bits) and the two parts past it: with room it lands
    /// as the value reads back; a bit short it is refused as `BufferFull`
    /// with nothing written (a value in two parts has its first part taken
    /// back).
    #[test]
    fn a_value_one_bit_short_of_room_writes_nothing_at_every_length() {
        use crate::{BitReader, BitWriter, ErrorKind};
        for length in 0..=128u32 {
            let value = if length == 0 { 0 } else { 1u128 << (length - 1) | 1 };
            let bits = magnitude_bits::<u128>(value);
            // A lead that leaves the value's last bit alone in a byte.
            let lead = (8 - bits % 8) % 8 + 1;
            let bytes = (lead + bits).div_ceil(8);
            // A bit short: a byte fewer (room for the lead with it needs a
            // value of 8 bits or more).
            if bits >= 8 {
                let mut buf = [0u8; 32];
                let mut writer = BitWriter::new(&mut buf[..bytes - 1]);
                writer.write_bits(0, lead as u32).unwrap();
                let error = write_adaptive(&mut writer, value, Signs::NonNegative).unwrap_err();
                // Refused at the part that did not fit: the value's start
                // for one write, its payload's for two.
                let part = if bits <= 64 { lead } else { lead + length_header::<u128>(length).1 as usize };
                assert_eq!((error.kind(), error.bit()), (ErrorKind::BufferFull, part), "length {length}");
                assert_eq!(writer.bits_written(), lead, "length {length}");
                assert_eq!(writer.finish().unwrap(), lead.div_ceil(8), "length {length}");
            }

            let mut buf = [0u8; 32];
            let mut writer = BitWriter::new(&mut buf[..bytes]);
            writer.write_bits(0, lead as u32).unwrap();
            write_adaptive(&mut writer, value, Signs::NonNegative).unwrap();
            assert_eq!(writer.bits_written(), lead + bits, "length {length}");
            let used = writer.finish().unwrap();
            let mut reader = BitReader::new(&buf[..used]);
            reader.read_bits(lead as u32).unwrap();
            assert_eq!(
                read_adaptive::<u128>(&mut reader, Signs::NonNegative).unwrap(),
                value,
                "length {length}"
            );
        }
    }
}
