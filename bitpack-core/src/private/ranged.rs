//! `#[bits(min, max)]` on every integer type: one module per type
//! (`ranged_u8`, `ranged_i64`, ...) with the same functions, so the derive
//! names the module after the field's type and passes typed bounds.
//!
//! Each write picks the narrowest core operation the range fits
//! (`write_int`, then `write_int64`, then `write_int128`); the bounds are
//! constants in generated code, so the choice folds away after inlining.
//! All forms put `value - min` in `bits_required(min, max)` bits, so the
//! choice never changes the wire.

use super::message::Message;
use super::schema;
use crate::bits::bit_length_u128;
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::source::SourceExt;
use crate::write::{BitWrite, write_wide_bits};

#[cold]
fn out_of_range(bit: usize) -> Error {
    Error::new(ErrorKind::OutOfRange, bit)
}

/// Writes `value` in `[min, max]` (given as `i128`) with the narrowest core
/// operation the range fits.
#[inline(always)]
fn write_wide<W: BitWrite>(writer: &mut W, value: i128, min: i128, max: i128) -> Result<(), Error> {
    if let (Ok(min), Ok(max)) = (i32::try_from(min), i32::try_from(max)) {
        let value = i32::try_from(value).map_err(|_| out_of_range(writer.bits_written()))?;
        writer.write_int(value, min, max)
    } else if let (Ok(min), Ok(max)) = (i64::try_from(min), i64::try_from(max)) {
        let value = i64::try_from(value).map_err(|_| out_of_range(writer.bits_written()))?;
        writer.write_int64(value, min, max)
    } else {
        writer.write_int128(value, min, max)
    }
}

/// Reads what [`write_wide`] wrote.
#[inline(always)]
fn read_wide(reader: &mut impl BitRead, min: i128, max: i128) -> Result<i128, Error> {
    if let (Ok(min), Ok(max)) = (i32::try_from(min), i32::try_from(max)) {
        Ok(i128::from(reader.read_int(min, max)?))
    } else if let (Ok(min), Ok(max)) = (i64::try_from(min), i64::try_from(max)) {
        Ok(i128::from(reader.read_int64(min, max)?))
    } else {
        reader.read_int128(min, max)
    }
}

/// The message for `min > max` in a range given by paths to constants.
const fn reversed(min: Message, max: Message) -> Message {
    Message::new()
        .text("bits: `min` (")
        .text(min.as_str())
        .text(") is greater than `max` (")
        .text(max.as_str())
        .text("); swap them")
}

macro_rules! ranged {
    ($module:ident, $ty:ident, $wide:ident, $format:ident, $write:expr, $read:expr) => {
        #[doc = concat!("`#[bits(min, max)]` on `", stringify!($ty), "`.")]
        pub mod $module {
            use super::*;

            /// The bound's image in the wide type (lossless).
            #[inline(always)]
            #[allow(clippy::unnecessary_cast)]
            const fn wide(value: $ty) -> $wide {
                value as $wide
            }

            /// Bits the range takes: `bits_required(min, max)`.
            #[inline]
            pub const fn bits(min: $ty, max: $ty) -> usize {
                bit_length_u128(wide(max).wrapping_sub(wide(min)) as u128) as usize
            }

            /// The range's `SCHEMA` fingerprint.
            #[inline]
            pub const fn schema(min: $ty, max: $ty) -> u64 {
                schema::int(wide(min) as u128, wide(max) as u128)
            }

            /// Why the range is refused, if it is (checked at compile time).
            pub const fn problem(min: $ty, max: $ty) -> Option<Message> {
                if min > max {
                    let min = Message::new().$format(wide(min));
                    let max = Message::new().$format(wide(max));
                    return Some(reversed(min, max));
                }
                None
            }

            /// Writes `value - min` in `bits(min, max)` bits.
            #[inline(always)]
            pub fn write<W: BitWrite>(writer: &mut W, value: $ty, min: $ty, max: $ty) -> Result<(), Error> {
                ($write)(writer, value, min, max)
            }

            /// Reads a value written by [`write`] with the same range.
            #[inline(always)]
            pub fn read<R: BitRead>(reader: &mut R, min: $ty, max: $ty) -> Result<$ty, Error> {
                ($read)(reader, min, max)
            }

            /// What [`write`] puts on the wire for `value` (`value - min`),
            /// as a leaf of a fused run (ranges up to 64 bits); clears
            /// `valid` when [`write`] would refuse it.
            #[inline(always)]
            pub fn run_bits(value: $ty, min: $ty, max: $ty, valid: &mut bool) -> u64 {
                *valid &= min <= value && value <= max;
                wide(value).wrapping_sub(wide(min)) as u64
            }

            /// The value of a fused run's leaf, `min + raw`; clears `valid`
            /// when [`read`] would refuse the same bits.
            #[inline(always)]
            pub fn run_value(raw: u64, min: $ty, max: $ty, valid: &mut bool) -> $ty {
                *valid &= raw as u128 <= wide(max).wrapping_sub(wide(min)) as u128;
                wide(min).wrapping_add(raw as $wide) as $ty
            }
        }
    };
}

macro_rules! ranged_small {
    ($module:ident, $ty:ident, $wide:ident, $format:ident) => {
        ranged!(
            $module,
            $ty,
            $wide,
            $format,
            |writer: &mut W, value: $ty, min: $ty, max: $ty| writer.write_int(
                i32::from(value),
                i32::from(min),
                i32::from(max)
            ),
            |reader: &mut R, min: $ty, max: $ty| {
                let start = reader.bits_read();
                let value = reader.read_int(i32::from(min), i32::from(max))?;
                $ty::try_from(value).map_err(|_| out_of_range(start))
            }
        );
    };
}

macro_rules! ranged_wide {
    ($module:ident, $ty:ident, $wide:ident, $format:ident) => {
        ranged!(
            $module,
            $ty,
            $wide,
            $format,
            |writer: &mut W, value: $ty, min: $ty, max: $ty| write_wide(
                writer,
                value as i128,
                min as i128,
                max as i128
            ),
            |reader: &mut R, min: $ty, max: $ty| {
                let start = reader.bits_read();
                let value = read_wide(reader, min as i128, max as i128)?;
                $ty::try_from(value).map_err(|_| out_of_range(start))
            }
        );
    };
}

ranged_small!(ranged_u8, u8, u128, unsigned);
ranged_small!(ranged_u16, u16, u128, unsigned);
ranged_small!(ranged_i8, i8, i128, signed);
ranged_small!(ranged_i16, i16, i128, signed);
ranged_small!(ranged_i32, i32, i128, signed);
ranged_wide!(ranged_u32, u32, u128, unsigned);
ranged_wide!(ranged_u64, u64, u128, unsigned);
ranged_wide!(ranged_i64, i64, i128, signed);
ranged_wide!(ranged_i128, i128, i128, signed);
ranged_wide!(ranged_usize, usize, u128, unsigned);
ranged_wide!(ranged_isize, isize, i128, signed);

ranged!(
    ranged_u128,
    u128,
    u128,
    unsigned,
    |writer: &mut W, value: u128, min: u128, max: u128| write_u128_range(writer, value, min, max),
    |reader: &mut R, min: u128, max: u128| read_u128_range(reader, min, max)
);

/// `u128` ranges: `write_int128` takes `i128`, so the same wire (`value -
/// min` in `bits_required` bits, low 64 first) is written as one wide write.
#[inline(always)]
fn write_u128_range<W: BitWrite>(writer: &mut W, value: u128, min: u128, max: u128) -> Result<(), Error> {
    if min > max {
        return Err(Error::new(ErrorKind::InvalidDeclaration, writer.bits_written()));
    }
    if value < min || value > max {
        return Err(out_of_range(writer.bits_written()));
    }
    write_wide_bits(writer, value - min, bit_length_u128(max - min))
}

/// Reads what [`write_u128_range`] wrote.
#[inline(always)]
fn read_u128_range(reader: &mut impl BitRead, min: u128, max: u128) -> Result<u128, Error> {
    let start = reader.bits_read();
    if min > max {
        return Err(Error::new(ErrorKind::InvalidDeclaration, start));
    }
    let span = max - min;
    let bits = bit_length_u128(span);
    let offset = reader.read_wide_bits(bits)?;
    if offset > span {
        return Err(out_of_range(start));
    }
    Ok(min + offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::BitReader;
    use crate::{BitCounter, BitWriter};

    #[test]
    fn every_width_writes_value_minus_min() {
        let mut buf = [0u8; 64];
        let mut writer = BitWriter::new(&mut buf);
        ranged_u8::write(&mut writer, 99, 0, 99).unwrap();
        ranged_i8::write(&mut writer, -100, -128, 0).unwrap();
        ranged_u32::write(&mut writer, 4_000_000_000, 0, u32::MAX).unwrap();
        ranged_i64::write(&mut writer, -5, i64::MIN, 0).unwrap();
        ranged_u64::write(&mut writer, u64::MAX, 0, u64::MAX).unwrap();
        ranged_u128::write(&mut writer, u128::MAX - 1, u128::MAX - 1000, u128::MAX).unwrap();
        ranged_u128::write(&mut writer, u128::MAX, 0, u128::MAX).unwrap();
        ranged_i128::write(&mut writer, 7, 7, 7).unwrap();
        let used = writer.finish().unwrap();
        let mut reader = BitReader::new(&buf[..used]);
        assert_eq!(ranged_u8::read(&mut reader, 0, 99).unwrap(), 99);
        assert_eq!(ranged_i8::read(&mut reader, -128, 0).unwrap(), -100);
        assert_eq!(ranged_u32::read(&mut reader, 0, u32::MAX).unwrap(), 4_000_000_000);
        assert_eq!(ranged_i64::read(&mut reader, i64::MIN, 0).unwrap(), -5);
        assert_eq!(ranged_u64::read(&mut reader, 0, u64::MAX).unwrap(), u64::MAX);
        assert_eq!(ranged_u128::read(&mut reader, u128::MAX - 1000, u128::MAX).unwrap(), u128::MAX - 1);
        assert_eq!(ranged_u128::read(&mut reader, 0, u128::MAX).unwrap(), u128::MAX);
        assert_eq!(ranged_i128::read(&mut reader, 7, 7).unwrap(), 7);
        assert_eq!(reader.bits_read(), 7 + 8 + 32 + 64 + 64 + 10 + 128);
    }

    #[test]
    fn bits_match_the_writer() {
        assert_eq!(ranged_i32::bits(0, 1000), 10);
        assert_eq!(ranged_i8::bits(i8::MIN, i8::MAX), 8);
        assert_eq!(ranged_u128::bits(0, u128::MAX), 128);
        assert_eq!(ranged_i128::bits(i128::MIN, i128::MAX), 128);
        assert_eq!(ranged_u64::bits(5, 5), 0);
        let mut counter = BitCounter::new();
        ranged_u32::write(&mut counter, 70_000, 0, 100_000).unwrap();
        assert_eq!(counter.bits_written(), ranged_u32::bits(0, 100_000));
    }

    #[test]
    fn out_of_range_values_are_refused_both_ways() {
        let mut counter = BitCounter::new();
        let error = ranged_u32::write(&mut counter, 11, 0, 10).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::OutOfRange);
        let error = ranged_u64::write(&mut counter, u64::MAX, 0, 10).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::OutOfRange);
        let error = ranged_u128::write(&mut counter, 3, u128::MAX - 10, u128::MAX).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::OutOfRange);
        // Offset 15 over a span of 10.
        let mut reader = BitReader::new(&[0x0F]);
        assert_eq!(ranged_u8::read(&mut reader, 0, 10).unwrap_err().kind(), ErrorKind::OutOfRange);
    }

    #[test]
    fn reversed_ranges_explain_themselves() {
        assert!(ranged_i16::problem(-3, 3).is_none());
        let problem = ranged_i16::problem(3, -3).unwrap();
        assert_eq!(problem.as_str(), "bits: `min` (3) is greater than `max` (-3); swap them");
    }
}
