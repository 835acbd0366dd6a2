//! Smallest-three quaternions: a rotation in `2 + 3 x N` bits.
//!
//! A unit quaternion's largest component (in magnitude) is at least 1/2 and
//! the other three lie in `[-1/sqrt(2), 1/sqrt(2)]`: the wire is the index of
//! the largest (2 bits), then the other three, in index order, quantized at
//! `N` bits each over that range. The sender negates the quaternion so the
//! largest is positive (`q` and `-q` are the same rotation); the receiver
//! rebuilds it as `sqrt(1 - a² - b² - c²)`, which makes the quaternion unit
//! by construction.
//!
//! - `N` is 2 to 30 ([`MIN_COMPONENT_BITS`], [`MAX_COMPONENT_BITS`]). An `f32`
//!   holds about 24 bits of a component of that range, so past 24 an `f32`
//!   quaternion gains nothing; 30 bits (92 in all) is already an error of
//!   about 4e-9 radians, finer than a game sends even in `f64`.
//! - Writes normalise a finite quaternion that is not unit (one within
//!   rounding of unit is taken as it is); a NaN or infinite component is
//!   [`ErrorKind::NonFiniteFloat`], a zero-length quaternion
//!   [`ErrorKind::OutOfRange`], `N` outside 2..=30
//!   [`ErrorKind::InvalidDeclaration`]. On `Err` nothing is written.
//! - Decoding is canonical: a read value writes back to the very bits it was
//!   read from. Bits no writer produces (a rebuilt component that would not be
//!   the largest, or two bit patterns for one `f32` value past 24 bits) are
//!   [`ErrorKind::OutOfRange`]. Writers produce only such fixed points: near a
//!   tie for the largest component, a writer may move the component that
//!   would outgrow the rebuilt one a step towards zero.
//!
//! Arithmetic is f64 for both `f32` and `f64` quaternions, with a correctly
//! rounded `sqrt`, so every platform writes and reads the same bits.
//!
//! # Accuracy
//!
//! With `s = sqrt(2) / (2^N - 1)` the grid step, each sent component is off
//! by at most `s / 2`, and the rebuilt one by at most
//! `Δ = (3s/2 + 3s²/4) / (1/2 + sqrt(1/4 - 3s/2 - 3s²/4))` (the worst case
//! is the largest component at its smallest, 1/2, with the three others at
//! 1/2 and their errors aligned). The worst angle between the rotation sent
//! and the one read is then `4 asin(d / 2)` with `d = sqrt(3s²/4 + Δ²)`,
//! about `2 sqrt(6) / 2^N` ([`max_angle_error`]); a step moved at a tie
//! stays within the same bound, and an `f32` adds its own rounding (under
//! 1e-6 radians). Over 100,000 random rotations (the `types_quaternion`
//! test):
//!
//! | N | bits | bound (rad) | measured worst (rad) |
//! |---|------|-------------|----------------------|
//! | 9 | 29 | 9.63e-3 (0.552°) | 8.30e-3 (0.476°) |
//! | 11 | 35 | 2.40e-3 (0.137°) | 2.02e-3 (0.116°) |
//! | 15 | 47 | 1.50e-4 (0.0086°) | 1.21e-4 (0.0069°) |
//!
//! ```
//! # extern crate bitpack_core as bitpack;
//! use bitpack::{BitRead, BitReader, BitWrite, BitWriter, smallest_three};
//!
//! let rotation = [0.0f32, 0.38268343, 0.0, 0.9238795]; // 45° about y, (x, y, z, w)
//! let mut buf = [0u8; 4];
//! let mut writer = BitWriter::new(&mut buf);
//! smallest_three::write(&mut writer, &rotation, 9)?;
//! assert_eq!(writer.bits_written(), smallest_three::bits(9)); // 2 + 3 x 9 = 29
//! writer.finish()?;
//! let back: [f32; 4] = smallest_three::read(&mut BitReader::new(&buf), 9)?;
//! let dot: f64 = rotation.into_iter().zip(back).map(|(a, b)| f64::from(a) * f64::from(b)).sum();
//! let angle = 2.0 * dot.abs().min(1.0).acos();
//! assert!(angle <= smallest_three::max_angle_error(9) + 1e-4); // 0.55° at 9 bits
//! # Ok::<(), bitpack::Error>(())
//! ```

use crate::change::{read_relative_steps, relative_steps_bits, write_relative_steps};
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::source::SourceExt;
use crate::write::BitWrite;

/// The fewest bits per component.
pub const MIN_COMPONENT_BITS: u32 = 2;
/// The most bits per component.
pub const MAX_COMPONENT_BITS: u32 = 30;

/// `1 / sqrt(2)`: the largest a component other than the largest can be.
const HALF_RANGE: f64 = core::f64::consts::FRAC_1_SQRT_2;

/// Rounds a writer may spend settling on a fixed point: steps moved at a
/// tie (at most 3 at 2 bits) and re-encodings (the tests never see more
/// than 4 in all, 3 of them steps at 2 bits).
const SETTLE_ROUNDS: usize = 32;

/// Bits of a quaternion at `component_bits` per component: `2 + 3 x N`.
#[inline]
pub const fn bits(component_bits: u32) -> usize {
    2 + 3 * component_bits as usize
}

/// The worst angle (radians) between a rotation written at `component_bits`
/// per component and the one read back, before the float's own rounding
/// (see the module docs); `NaN` outside 2..=30.
pub fn max_angle_error(component_bits: u32) -> f64 {
    if !(MIN_COMPONENT_BITS..=MAX_COMPONENT_BITS).contains(&component_bits) {
        return f64::NAN;
    }
    let s = 2.0 * HALF_RANGE / steps(component_bits) as f64;
    let floor = libm::sqrt((0.25 - 1.5 * s - 0.75 * s * s).max(0.0));
    let rebuilt = (1.5 * s + 0.75 * s * s) / (0.5 + floor);
    let distance = libm::sqrt(0.75 * s * s + rebuilt * rebuilt);
    4.0 * libm::asin((distance / 2.0).min(1.0))
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// A quaternion component type: `f32` or `f64`.
pub trait Component: sealed::Sealed + Copy {
    /// The component's value in f64 (exact).
    #[doc(hidden)]
    fn to_f64(self) -> f64;
    /// The nearest component to `value`.
    #[doc(hidden)]
    fn from_f64(value: f64) -> Self;
    /// The value of this type next to `value` (one of this type) towards zero.
    #[doc(hidden)]
    fn toward_zero(value: f64) -> f64;
    /// How far from 1 a squared length may be for the quaternion to be taken
    /// as unit: twice and more what rounding a unit quaternion's components to
    /// this type can do, so every decoded quaternion is taken as it is.
    #[doc(hidden)]
    const NEAR_UNIT: f64;
    /// The `SCHEMA` kind of the component.
    #[doc(hidden)]
    const KIND: u64;
}

impl Component for f32 {
    #[inline(always)]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    #[inline(always)]
    fn from_f64(value: f64) -> Self {
        value as f32
    }
    #[inline(always)]
    fn toward_zero(value: f64) -> f64 {
        let value = value as f32;
        if value == 0.0 { 0.0 } else { f64::from(f32::from_bits(value.to_bits() - 1)) }
    }
    // Rounding to f32 moves a unit quaternion's squared length by at most 2^-23.
    const NEAR_UNIT: f64 = 1.0 / (1u64 << 21) as f64;
    const KIND: u64 = crate::private::schema::F32;
}

impl Component for f64 {
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
    #[inline(always)]
    fn from_f64(value: f64) -> Self {
        value
    }
    #[inline(always)]
    fn toward_zero(value: f64) -> f64 {
        if value == 0.0 { 0.0 } else { f64::from_bits(value.to_bits() - 1) }
    }
    // The decoder's rounding moves the squared length by a few 2^-53.
    const NEAR_UNIT: f64 = 1.0 / (1u64 << 40) as f64;
    const KIND: u64 = crate::private::schema::F64;
}

/// A quaternion as its four components `(x, y, z, w)`, `w` the scalar part:
/// implemented for `[f32; 4]` and `[f64; 4]`, glam's `Quat` and `DQuat` and
/// mint's `Quaternion<f32>` and `Quaternion<f64>` (with the `glam` and
/// `mint` features), and for any rotation type of yours.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a quaternion bitpack can send as smallest three",
    label = "`#[quantize(bits = N)]` takes a quaternion",
    note = "use glam's `Quat`/`DQuat`, mint's `Quaternion<f32>`/`Quaternion<f64>` (with the `glam` and `mint` \
            features of `bitpack`), `[f32; 4]` or `[f64; 4]` (x, y, z, w), or implement \
            `bitpack::smallest_three::Quaternion` for your type"
)]
pub trait Quaternion: Sized {
    /// `f32` or `f64`.
    type Scalar: Component;
    /// The components `(x, y, z, w)`.
    fn to_xyzw(&self) -> [Self::Scalar; 4];
    /// The quaternion with components `(x, y, z, w)` (unit when read).
    fn from_xyzw(xyzw: [Self::Scalar; 4]) -> Self;
}

impl<F: Component> Quaternion for [F; 4] {
    type Scalar = F;
    #[inline(always)]
    fn to_xyzw(&self) -> [F; 4] {
        *self
    }
    #[inline(always)]
    fn from_xyzw(xyzw: [F; 4]) -> Self {
        xyzw
    }
}

/// A quaternion's bits: the index of the largest component and the other
/// three's steps, in index order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Code {
    pub(crate) largest: u32,
    pub(crate) parts: [u32; 3],
}

/// Steps of a component: `2^N - 1` (odd, so no step is exactly zero).
#[inline(always)]
const fn steps(component_bits: u32) -> u32 {
    (1u32 << component_bits) - 1
}

/// `Err(InvalidDeclaration)` unless `component_bits` is 2..=30.
#[inline(always)]
fn check_bits(component_bits: u32, at: usize) -> Result<(), Error> {
    if (MIN_COMPONENT_BITS..=MAX_COMPONENT_BITS).contains(&component_bits) {
        Ok(())
    } else {
        Err(Error::new(ErrorKind::InvalidDeclaration, at))
    }
}

/// The indexes other than `largest`, ascending.
#[inline(always)]
fn others(largest: u32) -> [usize; 3] {
    match largest {
        0 => [1, 2, 3],
        1 => [0, 2, 3],
        2 => [0, 1, 3],
        _ => [0, 1, 2],
    }
}

/// The step nearest `value` in `[-1/sqrt(2), 1/sqrt(2)]` (clamped into it).
#[inline(always)]
fn quantize(value: f64, component_bits: u32) -> u32 {
    let steps = steps(component_bits);
    // Clamped before scaling, so the sum is at most `steps + 0.5` and the
    // truncating cast (a floor: the sum is non-negative) at most `steps`.
    let normalized = ((value + HALF_RANGE) / (2.0 * HALF_RANGE)).clamp(0.0, 1.0);
    (normalized * f64::from(steps) + 0.5) as u32
}

/// The component a step stands for.
#[inline(always)]
fn dequantize(step: u32, component_bits: u32) -> f64 {
    f64::from(step) / f64::from(steps(component_bits)) * (2.0 * HALF_RANGE) - HALF_RANGE
}

/// The code of a quaternion, with no settling: what a first write would
/// send. `Err` for a non-finite or zero-length quaternion.
fn encode(xyzw: [f64; 4], component_bits: u32, near_unit: f64) -> Result<Code, ErrorKind> {
    if xyzw.iter().any(|c| !c.is_finite()) {
        return Err(ErrorKind::NonFiniteFloat);
    }
    // The first of equal magnitudes: decoded values compare the same way.
    let mut largest = 0;
    for index in 1..4 {
        if xyzw[index].abs() > xyzw[largest].abs() {
            largest = index;
        }
    }
    let magnitude = xyzw[largest].abs();
    if magnitude == 0.0 {
        return Err(ErrorKind::OutOfRange);
    }
    let sign = if xyzw[largest] < 0.0 { -1.0 } else { 1.0 };
    let length_squared: f64 = xyzw.iter().map(|c| c * c).sum();
    // Within rounding of unit: taken as it is, so a decoded quaternion
    // (unit up to its own rounding) re-encodes to its own steps. Otherwise
    // divided by the largest first, so a huge or tiny one cannot overflow.
    let (divisor, scale) = if (length_squared - 1.0).abs() <= near_unit {
        (1.0, sign)
    } else {
        let scaled: f64 = xyzw.iter().map(|c| (c / magnitude) * (c / magnitude)).sum();
        (magnitude, sign / libm::sqrt(scaled))
    };
    let mut parts = [0; 3];
    for (part, index) in parts.iter_mut().zip(others(largest as u32)) {
        *part = quantize(xyzw[index] / divisor * scale, component_bits);
    }
    Ok(Code { largest: largest as u32, parts })
}

/// The quaternion a code stands for, in f64: the three sent components and
/// the largest rebuilt (0 where hostile bits make `1 - a² - b² - c²`
/// negative).
fn decode(code: Code, component_bits: u32) -> [f64; 4] {
    let mut xyzw = [0.0; 4];
    let mut sum = 0.0;
    for (part, index) in code.parts.into_iter().zip(others(code.largest)) {
        let value = dequantize(part, component_bits);
        xyzw[index] = value;
        sum += value * value;
    }
    xyzw[code.largest as usize] = libm::sqrt((1.0 - sum).max(0.0));
    xyzw
}

/// [`decode`] rounded to the component type, and back in f64.
#[inline(always)]
fn decode_as<F: Component>(code: Code, component_bits: u32) -> [f64; 4] {
    decode(code, component_bits).map(|c| F::from_f64(c).to_f64())
}

/// The sent component a decoded quaternion would take as its largest
/// instead of the rebuilt one (ties go to the lower index), if any: the
/// largest such.
fn outgrown(decoded: [f64; 4], largest: u32) -> Option<usize> {
    let rebuilt = decoded[largest as usize];
    let mut found: Option<(usize, f64)> = None;
    for (part, index) in others(largest).into_iter().enumerate() {
        let other = decoded[index].abs();
        let outgrows = other > rebuilt || (other == rebuilt && index < largest as usize);
        if outgrows && found.is_none_or(|(_, most)| other > most) {
            found = Some((part, other));
        }
    }
    found.map(|(part, _)| part)
}

/// The code a writer sends for `xyzw`: a fixed point of decoding and
/// encoding again, so that every value read re-encodes to its bits.
fn canonical<F: Component>(xyzw: [F; 4], component_bits: u32) -> Result<Code, ErrorKind> {
    let mut code = encode(xyzw.map(F::to_f64), component_bits, F::NEAR_UNIT)?;
    for _ in 0..SETTLE_ROUNDS {
        let decoded = decode_as::<F>(code, component_bits);
        if let Some(part) = outgrown(decoded, code.largest) {
            // Near a tie the rebuilt component came out below a sent one:
            // move the largest such towards zero, to the step of the next
            // value of `F` (past 24 bits an f32 holds several steps), and
            // at least one step. It cannot be the step nearest zero (the
            // rebuilt one would then be larger), so its sign stays.
            let value = decoded[others(code.largest)[part]];
            let step = &mut code.parts[part];
            let moved = quantize(F::toward_zero(value), component_bits);
            *step = match moved {
                moved if moved != *step => moved,
                _ if value > 0.0 => *step - 1,
                _ => *step + 1,
            };
            continue;
        }
        // Cannot fail: the decoded quaternion is finite and unit.
        let again = encode(decoded, component_bits, F::NEAR_UNIT)?;
        if again == code {
            return Ok(code);
        }
        code = again;
    }
    Err(ErrorKind::OutOfRange)
}

/// The quaternion of a code read from the wire, or `Err(OutOfRange)` when it
/// would not encode back to the same code (no writer sends it).
fn accept<F: Component>(code: Code, component_bits: u32) -> Result<[F; 4], ErrorKind> {
    let decoded = decode_as::<F>(code, component_bits);
    match encode(decoded, component_bits, F::NEAR_UNIT) {
        Ok(again) if again == code => Ok(decoded.map(F::from_f64)),
        _ => Err(ErrorKind::OutOfRange),
    }
}

/// The code [`write`](fn@write) sends for `value`; `Err` as [`write`](fn@write) refuses.
#[inline]
pub(crate) fn code_of<Q: Quaternion>(value: &Q, component_bits: u32, at: usize) -> Result<Code, Error> {
    check_bits(component_bits, at)?;
    canonical(value.to_xyzw(), component_bits).map_err(|kind| Error::new(kind, at))
}

/// The quaternion of a code, or `Err(OutOfRange)` for a code no writer sends.
#[inline]
pub(crate) fn value_of<Q: Quaternion>(code: Code, component_bits: u32, at: usize) -> Result<Q, Error> {
    check_bits(component_bits, at)?;
    // Only a fused run's leaves (a derive bug) could be wider than their bits.
    if code.largest > 3 || code.parts.iter().any(|&part| part > steps(component_bits)) {
        return Err(Error::new(ErrorKind::OutOfRange, at));
    }
    accept(code, component_bits).map(Q::from_xyzw).map_err(|kind| Error::new(kind, at))
}

/// Pushes a code's `2 + 3 x N` bits (room reserved by the caller).
#[inline(always)]
fn push_code<W: BitWrite>(writer: &mut W, code: Code, component_bits: u32) {
    writer.push(u64::from(code.largest), 2);
    for part in code.parts {
        writer.push(u64::from(part), component_bits);
    }
}

/// Takes a code's `2 + 3 x N` bits.
#[inline(always)]
fn take_code(reader: &mut impl BitRead, component_bits: u32) -> Result<Code, Error> {
    let largest = reader.take(2)? as u32;
    let mut parts = [0; 3];
    for part in &mut parts {
        *part = reader.take(component_bits)? as u32;
    }
    Ok(Code { largest, parts })
}

/// Writes `value` in `2 + 3 x component_bits` bits (see the module docs).
#[inline]
pub fn write<W: BitWrite, Q: Quaternion>(
    writer: &mut W,
    value: &Q,
    component_bits: u32,
) -> Result<(), Error> {
    let code = code_of(value, component_bits, writer.bits_written())?;
    writer.reserve(bits(component_bits))?;
    push_code(writer, code, component_bits);
    Ok(())
}

/// Reads a quaternion written by [`write`](fn@write) at the same `component_bits`.
/// On `Err` the reader has not moved.
#[inline]
pub fn read<Q: Quaternion>(reader: &mut impl BitRead, component_bits: u32) -> Result<Q, Error> {
    let start = reader.bits_read();
    check_bits(component_bits, start)?;
    let code = match take_code(reader, component_bits) {
        Ok(code) => code,
        Err(error) => return reader.fail(start, error.kind()),
    };
    match value_of(code, component_bits, start) {
        Ok(value) => Ok(value),
        Err(error) => reader.fail(start, error.kind()),
    }
}

/// The baseline's code, when it has one (a zero or non-finite baseline has
/// none: values are then sent absolute).
#[inline(always)]
fn baseline_code<Q: Quaternion>(baseline: &Q, component_bits: u32) -> Option<Code> {
    canonical(baseline.to_xyzw(), component_bits).ok()
}

/// Writes `value` against `baseline` (a delta): when the largest component
/// is the baseline's, a `0` bit then each sent component's steps against
/// the baseline's ([`write_relative_steps`]: 4 bits for a step of -4..=+3,
/// about `N / 2 + 3` for a small move); otherwise a `1` bit and the
/// quaternion as [`write`](fn@write) sends it. The receiver may hold the baseline or
/// what it decoded of it: both have the same steps.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitCounter, BitWrite, smallest_three};
///
/// let baseline = [0.0f32, 0.38268343, 0.0, 0.9238795];
/// let mut counter = BitCounter::new();
/// smallest_three::write_relative(&mut counter, &baseline, &baseline, 11)?;
/// assert_eq!(counter.bits_written(), 1 + 3 * 4); // unchanged: 13 bits, not 35
/// # Ok::<(), bitpack::Error>(())
/// ```
pub fn write_relative<W: BitWrite, Q: Quaternion>(
    writer: &mut W,
    value: &Q,
    baseline: &Q,
    component_bits: u32,
) -> Result<(), Error> {
    let code = code_of(value, component_bits, writer.bits_written())?;
    let max_steps = u64::from(steps(component_bits));
    match baseline_code(baseline, component_bits) {
        Some(base) if base.largest == code.largest => {
            let total: u32 = (0..3)
                .map(|j| relative_steps_bits(u64::from(code.parts[j]), u64::from(base.parts[j]), max_steps))
                .sum();
            writer.reserve(1 + total as usize)?;
            writer.push(0, 1);
            for (part, base) in code.parts.into_iter().zip(base.parts) {
                write_relative_steps(writer, u64::from(part), Some(u64::from(base)), max_steps)?;
            }
        }
        _ => {
            writer.reserve(1 + bits(component_bits))?;
            writer.push(1, 1);
            push_code(writer, code, component_bits);
        }
    }
    Ok(())
}

/// Reads what [`write_relative`] wrote against the same baseline (or what
/// was decoded of it). Bits no writer sends against that baseline are an
/// `Err`; on `Err` the reader has not moved.
pub fn read_relative<Q: Quaternion>(
    reader: &mut impl BitRead,
    baseline: &Q,
    component_bits: u32,
) -> Result<Q, Error> {
    let start = reader.bits_read();
    check_bits(component_bits, start)?;
    match read_relative_code(reader, baseline, component_bits) {
        Ok(code) => match value_of(code, component_bits, start) {
            Ok(value) => Ok(value),
            Err(error) => reader.fail(start, error.kind()),
        },
        Err(kind) => reader.fail(start, kind),
    }
}

/// The code [`write_relative`] sent; `Err` for bits it never sends.
fn read_relative_code<Q: Quaternion>(
    reader: &mut impl BitRead,
    baseline: &Q,
    component_bits: u32,
) -> Result<Code, ErrorKind> {
    let base = baseline_code(baseline, component_bits);
    if reader.take(1).map_err(|e| e.kind())? == 1 {
        let code = take_code(reader, component_bits).map_err(|e| e.kind())?;
        // A writer sends the same largest index relative, never absolute.
        return match base {
            Some(base) if base.largest == code.largest => Err(ErrorKind::OutOfRange),
            _ => Ok(code),
        };
    }
    let base = base.ok_or(ErrorKind::OutOfRange)?;
    let max_steps = u64::from(steps(component_bits));
    let mut parts = [0; 3];
    for (part, base) in parts.iter_mut().zip(base.parts) {
        let at = reader.bits_read();
        let steps = read_relative_steps(reader, u64::from(base), max_steps).map_err(|e| e.kind())?;
        // Each difference in the smallest tier that holds it, as written.
        if (reader.bits_read() - at) as u32 != relative_steps_bits(steps, u64::from(base), max_steps) {
            return Err(ErrorKind::OutOfRange);
        }
        *part = steps as u32;
    }
    Ok(Code { largest: base.largest, parts })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::BitReader;
    use crate::{BitCounter, BitWriter};

    fn round_trip(xyzw: [f32; 4], component_bits: u32) -> [f32; 4] {
        let mut buf = [0u8; 16];
        let mut writer = BitWriter::new(&mut buf);
        write(&mut writer, &xyzw, component_bits).unwrap();
        assert_eq!(writer.bits_written(), bits(component_bits));
        writer.finish().unwrap();
        read(&mut BitReader::new(&buf), component_bits).unwrap()
    }

    #[test]
    fn the_largest_goes_positive_and_is_rebuilt() {
        let back = round_trip([0.0, 0.0, 0.0, -1.0], 9);
        assert!(back[3] > 0.9999, "{back:?}");
        let back = round_trip([-0.5, 0.5, -0.5, 0.5], 9);
        // Ties go to the first: x is the largest, made positive (so all flip).
        let expected = [0.5, -0.5, 0.5, -0.5];
        assert!(back.iter().zip(expected).all(|(b, e)| (b - e).abs() < 0.01), "{back:?}");
    }

    #[test]
    fn refusals_write_nothing() {
        let mut counter = BitCounter::new();
        let error = write(&mut counter, &[f32::NAN, 0.0, 0.0, 1.0], 9).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::NonFiniteFloat);
        let error = write(&mut counter, &[0.0f64; 4], 9).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::OutOfRange);
        for component_bits in [0, 1, 31, 32] {
            let error = write(&mut counter, &[0.0f32, 0.0, 0.0, 1.0], component_bits).unwrap_err();
            assert_eq!(error.kind(), ErrorKind::InvalidDeclaration);
        }
        assert_eq!(counter.bits_written(), 0);
    }

    #[test]
    fn steps_cover_the_range_symmetrically() {
        for component_bits in [2, 9, 30] {
            let top = steps(component_bits);
            assert_eq!(quantize(HALF_RANGE, component_bits), top);
            assert_eq!(quantize(-HALF_RANGE, component_bits), 0);
            assert_eq!(quantize(2.0, component_bits), top);
            assert_eq!(quantize(f64::NAN, component_bits), 0);
            for step in [0, 1, top / 2, top / 2 + 1, top - 1, top] {
                assert_eq!(quantize(dequantize(step, component_bits), component_bits), step);
            }
        }
    }

    #[test]
    fn bound_formula_matches_its_first_order_form() {
        for component_bits in [9, 11, 15, 30] {
            let first_order = 2.0 * libm::sqrt(6.0) / f64::from(steps(component_bits));
            let bound = max_angle_error(component_bits);
            assert!(bound > first_order && bound < first_order * 1.01, "{component_bits}: {bound}");
        }
        assert!(max_angle_error(1).is_nan());
    }
}
