//! What derived `ChangeGroups` impls call: the group flags, and
//! `#[bitpack(relative)]` on every integer type (`relative_u8`,
//! `relative_i64`, ...), all with the same functions so the derive names the
//! module after the field's type.

use crate::change::{BitFingerprint, Fingerprint, GroupRecord, write_delta_flag, write_tracked_flag};
use crate::error::Error;
use crate::write::BitWrite;

/// Writes a tracked group's flag, fingerprinting what `group` writes where
/// the group's data would start; returns whether the data must follow.
#[inline(always)]
pub fn tracked_group<W: BitWrite>(
    writer: &mut W,
    confirmed: &GroupRecord,
    latest: &mut GroupRecord,
    group: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
) -> Result<bool, Error> {
    let current = Fingerprint::of(writer.bits_written().saturating_add(1), group)?;
    write_tracked_flag(writer, current, confirmed, latest)
}

/// Writes a delta group's flag, judged on the bits `now` and `then` (the
/// baseline) write; returns whether the group's data must follow.
#[inline(always)]
pub fn delta_group<W: BitWrite>(
    writer: &mut W,
    now: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
    then: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
) -> Result<bool, Error> {
    let start = writer.bits_written().saturating_add(1);
    write_delta_flag(writer, Fingerprint::of(start, now)?, Fingerprint::of(start, then)?)
}

/// The message for a relative range the core cannot code (outside i64).
const OUTSIDE_I64: &str = "relative: the range must lie within i64; narrow `min` and `max`";

macro_rules! relative {
    ($module:ident, $ty:ident, $to_i64:expr, |$min:ident, $max:ident| $problem:expr) => {
        #[doc = concat!("`#[bitpack(relative)]` on `", stringify!($ty), "`.")]
        pub mod $module {
            use super::OUTSIDE_I64;
            use crate::change::{read_relative_int, write_relative_int};
            use crate::error::{Error, ErrorKind};
            use crate::reader::BitReader;
            use crate::write::BitWrite;

            #[inline(always)]
            fn to_i64(value: $ty) -> Option<i64> {
                ($to_i64)(value)
            }

            /// Why the range cannot be coded relatively, if it cannot
            /// (checked at compile time).
            #[allow(clippy::absurd_extreme_comparisons, unused_comparisons)]
            pub const fn problem($min: $ty, $max: $ty) -> Option<&'static str> {
                if $problem { Some(OUTSIDE_I64) } else { None }
            }

            /// Writes `value` relative to `baseline` (see
            /// [`write_relative_int`]).
            #[inline(always)]
            pub fn write<W: BitWrite>(
                writer: &mut W,
                value: $ty,
                baseline: $ty,
                min: $ty,
                max: $ty,
            ) -> Result<(), Error> {
                match (to_i64(value), to_i64(baseline), to_i64(min), to_i64(max)) {
                    (Some(value), Some(baseline), Some(min), Some(max)) => {
                        write_relative_int(writer, value, baseline, min, max)
                    }
                    _ => Err(Error::new(ErrorKind::OutOfRange, writer.bits_written())),
                }
            }

            /// Reads what [`write`] wrote against the same baseline and range.
            #[inline(always)]
            pub fn read(reader: &mut BitReader<'_>, baseline: $ty, min: $ty, max: $ty) -> Result<$ty, Error> {
                let start = reader.bits_read();
                let (Some(baseline), Some(min), Some(max)) = (to_i64(baseline), to_i64(min), to_i64(max))
                else {
                    return Err(Error::new(ErrorKind::OutOfRange, start));
                };
                let mut staged = reader.clone();
                let value = read_relative_int(&mut staged, baseline, min, max)?;
                let value = $ty::try_from(value).map_err(|_| Error::new(ErrorKind::OutOfRange, start))?;
                *reader = staged;
                Ok(value)
            }
        }
    };
}

relative!(relative_u8, u8, |v| Some(i64::from(v)), |_min, _max| false);
relative!(relative_u16, u16, |v| Some(i64::from(v)), |_min, _max| false);
relative!(relative_u32, u32, |v| Some(i64::from(v)), |_min, _max| false);
relative!(relative_i8, i8, |v| Some(i64::from(v)), |_min, _max| false);
relative!(relative_i16, i16, |v| Some(i64::from(v)), |_min, _max| false);
relative!(relative_i32, i32, |v| Some(i64::from(v)), |_min, _max| false);
relative!(relative_i64, i64, Some, |_min, _max| false);
relative!(relative_u64, u64, |v| i64::try_from(v).ok(), |_min, max| max > i64::MAX as u64);
relative!(relative_usize, usize, |v| i64::try_from(v).ok(), |_min, max| max as u128 > i64::MAX as u128);
relative!(relative_u128, u128, |v| i64::try_from(v).ok(), |_min, max| max > i64::MAX as u128);
relative!(relative_i128, i128, |v| i64::try_from(v).ok(), |min, max| min < i64::MIN as i128
    || max > i64::MAX as i128);
relative!(relative_isize, isize, |v| i64::try_from(v).ok(), |min, max| (min as i128) < i64::MIN as i128
    || max as i128 > i64::MAX as i128);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counter::BitCounter;
    use crate::reader::BitReader;
    use crate::writer::BitWriter;

    #[test]
    fn relative_round_trips_on_each_width() {
        let mut buf = [0u8; 16];
        let mut writer = BitWriter::new(&mut buf);
        relative_u16::write(&mut writer, 358, 359, 0, 359).unwrap();
        relative_i128::write(&mut writer, -5, 100, -1000, 1000).unwrap();
        relative_u64::write(&mut writer, 7, 5, 0, 1 << 40).unwrap();
        assert_eq!(writer.bits_written(), 4 + 12 + 4);
        writer.finish().unwrap();
        let mut reader = BitReader::new(&buf);
        assert_eq!(relative_u16::read(&mut reader, 359, 0, 359).unwrap(), 358);
        assert_eq!(relative_i128::read(&mut reader, 100, -1000, 1000).unwrap(), -5);
        assert_eq!(relative_u64::read(&mut reader, 5, 0, 1 << 40).unwrap(), 7);
    }

    #[test]
    fn ranges_past_i64_are_refused() {
        assert!(relative_u64::problem(0, u64::MAX).is_some());
        assert!(relative_u64::problem(0, i64::MAX as u64).is_none());
        assert!(relative_i128::problem(i128::MIN, 0).is_some());
        assert!(relative_u128::problem(0, u128::MAX).is_some());
        assert!(relative_u8::problem(0, 255).is_none());
        let mut counter = BitCounter::new();
        assert!(relative_u128::write(&mut counter, 1, 1, 0, u128::MAX).is_err());
        assert_eq!(counter.bits_written(), 0);
    }

    #[test]
    fn an_empty_group_costs_its_flag() {
        let mut counter = BitCounter::new();
        let mut latest = GroupRecord::default();
        assert!(tracked_group(&mut counter, &GroupRecord::default(), &mut latest, |_| Ok(())).unwrap());
        assert!(!delta_group(&mut counter, |_| Ok(()), |_| Ok(())).unwrap());
        assert_eq!(counter.bits_written(), 2);
    }
}
