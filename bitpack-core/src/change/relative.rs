//! Ranged integers coded relative to a baseline value (`#[bitpack(relative)]`).
//!
//! Wire form, low bit first: a `0` bit then `value - baseline + 4` in
//! [`NEAR_BITS`] bits when the difference lies in [`NEAR_MIN`]`..=`[`NEAR_MAX`]
//! (4 bits in all); otherwise a `1` bit then the value as
//! `write_int64(value, min, max)` (1 + `bits_required64(min, max)` bits).

use crate::bits::bits_required64;
use crate::error::{Error, ErrorKind};
use crate::reader::BitReader;
use crate::write::BitWrite;

/// Bits of a near difference.
pub const NEAR_BITS: u32 = 3;
/// The smallest difference sent as near.
pub const NEAR_MIN: i64 = -4;
/// The largest difference sent as near.
pub const NEAR_MAX: i64 = 3;

/// Bits [`write_relative_int`] writes for `value` against `baseline` in
/// `[min, max]` (the ranges are not checked here).
///
/// ```
/// use bitpack_core::change::relative_int_bits;
/// assert_eq!(relative_int_bits(102, 100, 0, 1023), 4);  // near: 1 + 3
/// assert_eq!(relative_int_bits(500, 100, 0, 1023), 11); // far: 1 + 10
/// ```
#[inline]
pub fn relative_int_bits(value: i64, baseline: i64, min: i64, max: i64) -> u32 {
    if is_near(value, baseline) { 1 + NEAR_BITS } else { 1 + bits_required64(min, max) }
}

#[inline(always)]
fn is_near(value: i64, baseline: i64) -> bool {
    let difference = i128::from(value) - i128::from(baseline);
    (i128::from(NEAR_MIN)..=i128::from(NEAR_MAX)).contains(&difference)
}

/// Writes `value` (in `[min, max]`) relative to `baseline`: 4 bits when it
/// is within -4..=+3 of it, else 1 + `bits_required64(min, max)` bits.
/// A value out of range is an `Err` and writes nothing.
///
/// ```
/// use bitpack_core::{BitReader, BitWrite, BitWriter};
/// use bitpack_core::change::{read_relative_int, write_relative_int};
///
/// let mut buf = [0u8; 4];
/// let mut writer = BitWriter::new(&mut buf);
/// write_relative_int(&mut writer, 98, 100, 0, 1023)?;
/// write_relative_int(&mut writer, 700, 100, 0, 1023)?;
/// assert_eq!(writer.bits_written(), 4 + 11);
/// writer.finish()?;
/// let mut reader = BitReader::new(&buf);
/// assert_eq!(read_relative_int(&mut reader, 100, 0, 1023)?, 98);
/// assert_eq!(read_relative_int(&mut reader, 100, 0, 1023)?, 700);
/// # Ok::<(), bitpack_core::Error>(())
/// ```
#[inline]
pub fn write_relative_int<W: BitWrite>(
    writer: &mut W,
    value: i64,
    baseline: i64,
    min: i64,
    max: i64,
) -> Result<(), Error> {
    if min > max {
        return Err(Error::new(ErrorKind::InvalidDeclaration, writer.bits_written()));
    }
    if value < min || value > max {
        return Err(Error::new(ErrorKind::OutOfRange, writer.bits_written()));
    }
    let (flag, payload, payload_bits) = if is_near(value, baseline) {
        (0, (value - baseline - NEAR_MIN) as u64, NEAR_BITS)
    } else {
        (1, (value as u64).wrapping_sub(min as u64), bits_required64(min, max))
    };
    // One reservation for flag and payload: all of it is written, or none.
    writer.reserve(1 + payload_bits as usize)?;
    writer.push(flag, 1);
    writer.push(payload, payload_bits);
    Ok(())
}

/// Reads what [`write_relative_int`] wrote against the same `baseline`,
/// `min` and `max`. A result outside `[min, max]` is an `Err`; on any
/// `Err` the reader's position is unchanged.
#[inline]
pub fn read_relative_int(
    reader: &mut BitReader<'_>,
    baseline: i64,
    min: i64,
    max: i64,
) -> Result<i64, Error> {
    let start = reader.bits_read();
    if min > max {
        return Err(Error::new(ErrorKind::InvalidDeclaration, start));
    }
    let mut staged = reader.clone();
    let value = if staged.read_bool()? {
        staged.read_int64(min, max).map_err(|error| Error::new(error.kind(), start))?
    } else {
        let offset = staged.read_bits(NEAR_BITS).map_err(|error| Error::new(error.kind(), start))?;
        let value = i128::from(baseline) + i128::from(offset) + i128::from(NEAR_MIN);
        if value < i128::from(min) || value > i128::from(max) {
            return Err(Error::new(ErrorKind::OutOfRange, start));
        }
        value as i64
    };
    *reader = staged;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counter::BitCounter;
    use crate::writer::BitWriter;

    fn round_trip(value: i64, baseline: i64, min: i64, max: i64) -> (usize, Result<i64, Error>) {
        let mut buf = [0u8; 16];
        let mut writer = BitWriter::new(&mut buf);
        if let Err(error) = write_relative_int(&mut writer, value, baseline, min, max) {
            return (0, Err(error));
        }
        let bits = writer.bits_written();
        let _ = writer.finish();
        (bits, read_relative_int(&mut BitReader::new(&buf), baseline, min, max))
    }

    #[test]
    fn exact_bit_counts() {
        for (value, baseline, bits) in
            [(100, 100, 4), (96, 100, 4), (103, 100, 4), (95, 100, 11), (104, 100, 11)]
        {
            assert_eq!(round_trip(value, baseline, 0, 1023), (bits, Ok(value)), "{value} vs {baseline}");
            assert_eq!(relative_int_bits(value, baseline, 0, 1023), bits as u32);
        }
        assert_eq!(round_trip(i64::MIN, i64::MAX, i64::MIN, i64::MAX), (65, Ok(i64::MIN)));
        assert_eq!(round_trip(i64::MAX, i64::MAX - 1, i64::MIN, i64::MAX), (4, Ok(i64::MAX)));
    }

    #[test]
    fn a_near_result_out_of_range_is_an_error() {
        // Written against baseline 2: value 0 is near (difference -2).
        let mut buf = [0u8; 2];
        let mut writer = BitWriter::new(&mut buf);
        assert!(write_relative_int(&mut writer, 0, 2, 0, 10).is_ok());
        let _ = writer.finish();
        // Read against baseline 1: 1 - 2 = -1 < min.
        let mut reader = BitReader::new(&buf);
        let error = read_relative_int(&mut reader, 1, 0, 10);
        assert_eq!(error.map_err(|e| e.kind()), Err(ErrorKind::OutOfRange));
        assert_eq!(reader.bits_read(), 0);
    }

    #[test]
    fn out_of_range_values_write_nothing() {
        let mut counter = BitCounter::new();
        assert!(write_relative_int(&mut counter, 11, 10, 0, 10).is_err());
        assert!(write_relative_int(&mut counter, 0, 0, 1, 0).is_err());
        assert_eq!(counter.bits_written(), 0);
    }

    #[test]
    fn truncated_far_value_leaves_the_reader_in_place() {
        let mut reader = BitReader::new(&[0b1]);
        assert!(read_relative_int(&mut reader, 0, 0, 1023).is_err());
        assert_eq!(reader.bits_read(), 0);
    }
}
