//! Floats without a range, sent as fixed point: an adaptive `i64` of steps.

use super::int::Signs;
use super::value::{atomically, read_adaptive, write_adaptive};
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::write::BitWrite;

/// The `i64` a float is sent as: `round(value / res)`, half away from zero.
/// `NonFiniteFloat` for NaN or infinity, `InvalidDeclaration` unless `res`
/// is finite and positive, `OutOfRange` when the quotient is past [`FIXED_MAX_STEPS`]
/// or the value it stands for (`q * res`) is not finite.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::fixed_point;
/// use bitpack::ErrorKind;
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
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::fixed_point_is_negative;
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
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::{read_fixed, write_fixed, Signs};
/// use bitpack::{BitCounter, BitRead, BitReader, BitWrite, BitWriter};
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
/// # Ok::<(), bitpack::Error>(())
/// ```
pub fn write_fixed<W: BitWrite>(writer: &mut W, value: f64, res: f64, signs: Signs) -> Result<(), Error> {
    let quotient = fixed_point(value, res).map_err(|kind| Error::new(kind, writer.bits_written()))?;
    write_adaptive(writer, quotient, signs)
}

/// [`write_fixed`] for an `f32`, refusing a value whose fixed-point form
/// would read back past `f32`'s range. The quotient is computed in `f64`.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::{read_fixed_f32, write_fixed_f32, Signs};
/// use bitpack::{BitRead, BitReader, BitWriter, ErrorKind};
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
/// # Ok::<(), bitpack::Error>(())
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
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::{read_fixed, Signs};
/// use bitpack::{BitRead, BitReader, ErrorKind};
///
/// // Prefix 0 (six zero bits): the quotient 0.
/// assert_eq!(read_fixed(&mut BitReader::new(&[0]), 0.001, Signs::ZigZag)?, 0.0);
/// let error = read_fixed(&mut BitReader::new(&[0]), 0.0, Signs::ZigZag).unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::InvalidDeclaration);
/// # Ok::<(), bitpack::Error>(())
/// ```
pub fn read_fixed(reader: &mut impl BitRead, res: f64, signs: Signs) -> Result<f64, Error> {
    read_fixed_as(reader, res, signs, FIXED_MAX_STEPS, |value| Some(value).filter(|v| v.is_finite()))
}

/// Reads a float written by [`write_fixed_f32`] with the same `res`;
/// refuses a value past `f32`'s range (see [`write_fixed_f32`] for an
/// example).
pub fn read_fixed_f32(reader: &mut impl BitRead, res: f64, signs: Signs) -> Result<f32, Error> {
    read_fixed_as(reader, res, signs, FIXED_F32_MAX_STEPS, |value| {
        Some(value as f32).filter(|v| v.is_finite())
    })
}

fn read_fixed_as<F>(
    reader: &mut impl BitRead,
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
}
