//! Ranged integers coded relative to a baseline value (`#[bitpack(relative)]`).
//!
//! Wire form, low bit first: a `0` bit then `value - baseline + 4` in
//! [`NEAR_BITS`] bits when the difference lies in [`NEAR_MIN`]`..=`[`NEAR_MAX`]
//! (4 bits in all); otherwise a `1` bit then the value as
//! `write_int64(value, min, max)` (1 + `bits_required64(min, max)` bits).

use crate::bits::{bit_length_u128, bits_required64, low_mask};
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::source::SourceExt;
use crate::write::BitWrite;

/// Bits of a near difference.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::change::{NEAR_BITS, NEAR_MAX, NEAR_MIN, relative_int_bits};
///
/// assert_eq!(NEAR_MAX - NEAR_MIN + 1, 1 << NEAR_BITS);
/// assert_eq!(relative_int_bits(100 + NEAR_MAX, 100, 0, 1023), 1 + NEAR_BITS);
/// assert_eq!(relative_int_bits(100 + NEAR_MAX + 1, 100, 0, 1023), 1 + 10);
/// assert_eq!(relative_int_bits(100 + NEAR_MIN, 100, 0, 1023), 1 + NEAR_BITS);
/// ```
pub const NEAR_BITS: u32 = 3;
/// The smallest difference sent as near.
pub const NEAR_MIN: i64 = -4;
/// The largest difference sent as near.
pub const NEAR_MAX: i64 = 3;

/// Bits [`write_relative_int`] writes for `value` against `baseline` in
/// `[min, max]` (the ranges are not checked here).
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::change::relative_int_bits;
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
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitRead, BitReader, BitWrite, BitWriter};
/// use bitpack::change::{read_relative_int, write_relative_int};
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
/// # Ok::<(), bitpack::Error>(())
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
/// `min` and `max`. A result outside `[min, max]` is an `Err`, and so is a
/// far value within -4..=+3 of the baseline (`NonCanonical`: the writer
/// sends those near); on any `Err` the reader's position is unchanged.
#[inline]
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitRead, BitReader, BitWriter, ErrorKind};
/// use bitpack::change::{read_relative_int, write_relative_int};
///
/// // 101 written far (against 500), read against 100: the writer sends it near.
/// let mut buf = [0u8; 4];
/// let mut writer = BitWriter::new(&mut buf);
/// write_relative_int(&mut writer, 101, 500, 0, 1023)?;
/// writer.finish()?;
/// let mut reader = BitReader::new(&buf);
/// let error = read_relative_int(&mut reader, 100, 0, 1023).unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::NonCanonical);
/// assert_eq!(reader.bits_read(), 0);
/// assert_eq!(read_relative_int(&mut reader, 500, 0, 1023)?, 101);
/// # Ok::<(), bitpack::Error>(())
/// ```
pub fn read_relative_int(reader: &mut impl BitRead, baseline: i64, min: i64, max: i64) -> Result<i64, Error> {
    let start = reader.bits_read();
    if min > max {
        return Err(Error::new(ErrorKind::InvalidDeclaration, start));
    }
    reader.rolled_back(|staged| {
        if staged.read_bool()? {
            let value = staged.read_int64(min, max).map_err(|error| Error::new(error.kind(), start))?;
            if is_near(value, baseline) {
                return Err(Error::new(ErrorKind::NonCanonical, start));
            }
            Ok(value)
        } else {
            let offset = staged.read_bits(NEAR_BITS).map_err(|error| Error::new(error.kind(), start))?;
            let value = i128::from(baseline) + i128::from(offset) + i128::from(NEAR_MIN);
            if value < i128::from(min) || value > i128::from(max) {
                return Err(Error::new(ErrorKind::OutOfRange, start));
            }
            Ok(value as i64)
        }
    })
}

/// Bits of the middle tier of [`write_relative_steps`] for steps of
/// `bits` bits: about half of them, so a value that moved a little costs
/// about half its absolute size.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::change::{mid_bits, relative_steps_bits};
///
/// // 18-bit steps (a position in [-1024, 1024] at 0.01): 10-bit differences,
/// // -512..=511 steps, sent in 2 + 10 bits.
/// assert_eq!(mid_bits(18), 10);
/// assert_eq!(relative_steps_bits(100_511, 100_000, 204_800), 2 + mid_bits(18));
/// assert_eq!(relative_steps_bits(100_512, 100_000, 204_800), 2 + 18);
/// ```
#[inline]
pub const fn mid_bits(bits: u32) -> u32 {
    bits / 2 + 1
}

/// Which tier of [`write_relative_steps`] holds `difference`: 0 near, 1 mid, 2 far.
#[inline(always)]
fn steps_tier(difference: i128, bits: u32) -> u32 {
    let half = 1i128 << (mid_bits(bits) - 1);
    if (i128::from(NEAR_MIN)..=i128::from(NEAR_MAX)).contains(&difference) {
        0
    } else if (-half..half).contains(&difference) {
        1
    } else {
        2
    }
}

/// Bits [`write_relative_steps`] writes for `steps` against `baseline`
/// with at most `max_steps` (the range is not checked here).
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::change::relative_steps_bits;
/// // 18-bit steps (a position in [-1024, 1024] at 0.01):
/// assert_eq!(relative_steps_bits(100_003, 100_000, 204_800), 4); // near: 1 + 3
/// assert_eq!(relative_steps_bits(100_300, 100_000, 204_800), 12); // mid: 2 + 10
/// assert_eq!(relative_steps_bits(150_000, 100_000, 204_800), 20); // far: 2 + 18
/// ```
#[inline]
pub fn relative_steps_bits(steps: u64, baseline: u64, max_steps: u64) -> u32 {
    let bits = bit_length_u128(u128::from(max_steps));
    match steps_tier(i128::from(steps) - i128::from(baseline), bits) {
        0 => 1 + NEAR_BITS,
        1 => 2 + mid_bits(bits),
        _ => 2 + bits,
    }
}

/// Writes the integer steps of a quantized float (at most `max_steps`)
/// relative to the baseline's steps, in the smallest of three tiers: `0`
/// then the difference in -4..=+3 in 3 bits; `10` then a difference in
/// [`mid_bits`] bits (two's complement, offset); or `11` then the steps in
/// `bits_required(0, max_steps)` bits. Moving things move by a few steps a
/// tick, so most values take the first two. With no `baseline` (steps the
/// two sides might not agree on) the far tier is used. Steps above
/// `max_steps` are an `Err` and write nothing.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitRead, BitReader, BitWrite, BitWriter};
/// use bitpack::change::{read_relative_steps, write_relative_steps};
///
/// let mut buf = [0u8; 8];
/// let mut writer = BitWriter::new(&mut buf);
/// write_relative_steps(&mut writer, 100_000, Some(100_000), 204_800)?; // unchanged
/// write_relative_steps(&mut writer, 99_700, Some(100_000), 204_800)?; // moved 300 steps
/// write_relative_steps(&mut writer, 99_700, None, 204_800)?; // no agreed baseline
/// assert_eq!(writer.bits_written(), 4 + 12 + 20);
/// writer.finish()?;
/// let mut reader = BitReader::new(&buf);
/// assert_eq!(read_relative_steps(&mut reader, 100_000, 204_800)?, 100_000);
/// assert_eq!(read_relative_steps(&mut reader, 100_000, 204_800)?, 99_700);
/// assert_eq!(read_relative_steps(&mut reader, 100_000, 204_800)?, 99_700);
/// # Ok::<(), bitpack::Error>(())
/// ```
// Always inline: with a constant `max_steps` (a derived declaration) the
// tiers' widths fold away; out of line this was a seventh of a delta's cost.
#[inline(always)]
pub fn write_relative_steps<W: BitWrite>(
    writer: &mut W,
    steps: u64,
    baseline: Option<u64>,
    max_steps: u64,
) -> Result<(), Error> {
    if steps > max_steps {
        return Err(Error::new(ErrorKind::OutOfRange, writer.bits_written()));
    }
    write_quantized_steps(writer, steps, baseline, max_steps)
}

/// [`write_relative_steps`] of steps at most `max_steps` by construction
/// (a float quantized by the same declaration: the derived groups'), with
/// no range check. Steps above it would be cut to the far tier's width: a
/// wrong value, never a wrong stream.
#[inline(always)]
pub(crate) fn write_quantized_steps<W: BitWrite>(
    writer: &mut W,
    steps: u64,
    baseline: Option<u64>,
    max_steps: u64,
) -> Result<(), Error> {
    let (prefix, prefix_bits, payload, payload_bits) = steps_code(steps, baseline, max_steps);
    // One reservation and one push for prefix and payload (at most 2 + 64
    // bits: split only past 64): all of it is written, or none.
    writer.reserve((prefix_bits + payload_bits) as usize)?;
    if prefix_bits + payload_bits <= 64 {
        writer.push(prefix | payload << prefix_bits, prefix_bits + payload_bits);
    } else {
        writer.push(prefix, prefix_bits);
        writer.push(payload, payload_bits);
    }
    Ok(())
}

/// The code [`write_quantized_steps`] writes: its prefix and payload, and
/// their widths.
#[inline(always)]
fn steps_code(steps: u64, baseline: Option<u64>, max_steps: u64) -> (u64, u32, u64, u32) {
    let bits = bit_length_u128(u128::from(max_steps));
    // The difference in i64: below 2^62 steps (every quantized float has at
    // most 2^53) a subtraction, cheaper than i128 (a constant test for a
    // derived declaration). One that does not fit is far.
    let difference = match baseline {
        Some(base) if max_steps < 1 << 62 && base < 1 << 62 => Some(steps as i64 - base as i64),
        Some(base) => i64::try_from(i128::from(steps) - i128::from(base)).ok(),
        None => None,
    };
    let mid = mid_bits(bits);
    let half = 1i64 << (mid - 1);
    match difference {
        Some(difference) if (NEAR_MIN..=NEAR_MAX).contains(&difference) => {
            (0, 1, (difference - NEAR_MIN) as u64, NEAR_BITS)
        }
        Some(difference) if (-half..half).contains(&difference) => (0b01, 2, (difference + half) as u64, mid),
        _ => (0b11, 2, steps & low_mask(bits), bits),
    }
}

/// The codes of a group's quantized steps, as `write_quantized_steps`
/// writes them one after the other, gathered for one reservation and at
/// most two pushes: a writer's push tests whether its word filled, which
/// codes of varying widths make hard to predict. The codes are added last
/// first, each shifting the others up (a funnel shift: no test of which
/// word a code lands in). Holds up to 128 bits; past that, or with a code
/// of 64 bits or more, it writes nothing (the group is then written code by
/// code).
#[derive(Clone, Copy, Debug, Default)]
pub struct StepCodes {
    low: u64,
    high: u64,
    len: u32,
    full: bool,
}

impl StepCodes {
    /// No codes yet.
    #[inline(always)]
    pub fn new() -> Self {
        Self::default()
    }

    /// The code of `steps` against `baseline` (see `write_quantized_steps`),
    /// before the codes added so far.
    #[inline(always)]
    pub(crate) fn add_before(&mut self, steps: u64, baseline: Option<u64>, max_steps: u64) {
        let (prefix, prefix_bits, payload, payload_bits) = steps_code(steps, baseline, max_steps);
        let width = prefix_bits + payload_bits;
        // A constant test for a derived declaration (an `f32`'s codes are
        // at most 34 bits).
        if width >= 64 {
            self.full = true;
        }
        // No test per code for the 128 bits: past them the length says so
        // (`write` refuses), whatever the words hold.
        let shift = width % 64;
        self.high = (((u128::from(self.high) << 64 | u128::from(self.low)) << shift) >> 64) as u64;
        self.low = self.low << shift | (prefix | payload << prefix_bits);
        self.len = self.len.saturating_add(width);
    }

    /// A code that cannot be gathered (a declaration refused): the group
    /// is written code by code, where it fails as it should.
    #[inline(always)]
    pub(crate) fn refuse(&mut self) {
        self.full = true;
    }

    /// Writes the codes gathered, all of them (`true`) or, when they are
    /// not all held or do not all fit, none (`false`).
    #[inline(always)]
    pub fn write<W: BitWrite>(self, writer: &mut W) -> bool {
        if self.full || self.len > 128 || writer.reserve(self.len as usize).is_err() {
            return false;
        }
        if self.len > 64 {
            writer.push(self.low, 64);
            writer.push(self.high, self.len - 64);
        } else if self.len > 0 {
            writer.push(self.low, self.len);
        }
        true
    }
}

/// Reads what [`write_relative_steps`] wrote against the same `baseline`
/// and `max_steps`. Steps outside `0..=max_steps` are an `Err`, and so is a
/// middle-tier difference the near tier holds (`NonCanonical`: the writer
/// sends those near). A far value is always accepted: the writer sends one
/// whatever the difference when it has no baseline. On any `Err` the
/// reader's position is unchanged.
#[inline(always)]
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitRead, BitReader, BitWriter, ErrorKind};
/// use bitpack::change::{read_relative_steps, write_relative_steps};
///
/// let mut buf = [0u8; 8];
/// let mut writer = BitWriter::new(&mut buf);
/// write_relative_steps(&mut writer, 5_000, Some(4_990), 204_800)?; // mid tier: 2 + 10 bits
/// writer.finish()?;
/// let mut reader = BitReader::new(&buf);
/// assert_eq!(read_relative_steps(&mut reader, 4_990, 204_800)?, 5_000);
/// // The same bits against another baseline: 10 steps past `max_steps`,
/// // refused, and the reader stays where it was.
/// let mut reader = BitReader::new(&buf);
/// let error = read_relative_steps(&mut reader, 204_800, 204_800).unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::OutOfRange);
/// assert_eq!(reader.bits_read(), 0);
/// # Ok::<(), bitpack::Error>(())
/// ```
pub fn read_relative_steps(reader: &mut impl BitRead, baseline: u64, max_steps: u64) -> Result<u64, Error> {
    read_steps(reader, StepsBaseline::Maybe(baseline), max_steps)
}

/// What a reader of relative steps knows of the writer's baseline.
#[derive(Clone, Copy, Debug)]
pub(crate) enum StepsBaseline {
    /// The writer had this baseline or none: tiers relative to it, and a
    /// far value whatever it is.
    Maybe(u64),
    /// The writer had this baseline: a far value only for a difference no
    /// tier holds.
    Known(u64),
    /// The writer had none: only a far value.
    None,
}

/// [`read_relative_steps`], refusing every form the writer would not pick
/// given what `baseline` says of its baseline.
#[inline(always)]
pub(crate) fn read_steps(
    reader: &mut impl BitRead,
    baseline: StepsBaseline,
    max_steps: u64,
) -> Result<u64, Error> {
    let start = reader.bits_read();
    let bits = bit_length_u128(u128::from(max_steps));
    let steps = read_tiers(reader, baseline, bits);
    match steps.map(|steps| steps.map(u64::try_from)) {
        Ok(Some(Ok(steps))) if steps <= max_steps => Ok(steps),
        Ok(Some(_)) => reader.fail(start, ErrorKind::OutOfRange),
        Ok(None) => reader.fail(start, ErrorKind::NonCanonical),
        Err(error) => reader.fail(start, error.kind()),
    }
}

/// The steps a tiered value names (unchecked), or `None` for a tier the
/// writer would not have picked; the reader moves past it.
#[inline(always)]
fn read_tiers(reader: &mut impl BitRead, baseline: StepsBaseline, bits: u32) -> Result<Option<i128>, Error> {
    let base = match baseline {
        StepsBaseline::Maybe(base) | StepsBaseline::Known(base) => Some(i128::from(base)),
        StepsBaseline::None => None,
    };
    if reader.take(1)? == 0 {
        let offset = reader.take(NEAR_BITS)?;
        return Ok(base.map(|base| base + i128::from(offset) + i128::from(NEAR_MIN)));
    }
    if reader.take(1)? == 0 {
        let mid = mid_bits(bits);
        let difference = i128::from(reader.take(mid)?) - (1i128 << (mid - 1));
        // The writer sends a difference the near tier holds near.
        return Ok(base.filter(|_| steps_tier(difference, bits) == 1).map(|base| base + difference));
    }
    let steps = i128::from(reader.take(bits)?);
    // Knowing the writer's baseline, a far value is one no tier holds.
    if let StepsBaseline::Known(base) = baseline
        && steps_tier(steps - i128::from(base), bits) != 2
    {
        return Ok(None);
    }
    Ok(Some(steps))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::BitReader;
    use crate::sink::counter::BitCounter;
    use crate::sink::writer::BitWriter;

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

    fn steps_round_trip(steps: u64, baseline: u64, max: u64) -> (usize, Result<u64, Error>) {
        let mut buf = [0u8; 16];
        let mut writer = BitWriter::new(&mut buf);
        if let Err(error) = write_relative_steps(&mut writer, steps, Some(baseline), max) {
            return (0, Err(error));
        }
        let bits = writer.bits_written();
        let _ = writer.finish();
        assert_eq!(bits as u32, relative_steps_bits(steps, baseline, max), "{steps} vs {baseline}");
        (bits, read_relative_steps(&mut BitReader::new(&buf), baseline, max))
    }

    #[test]
    fn steps_take_the_smallest_tier() {
        // 18-bit steps: mid tier 10 bits, -512..=511.
        for (steps, baseline, bits) in [
            (1000, 1000, 4),
            (996, 1000, 4),
            (1003, 1000, 4),
            (995, 1000, 12),
            (1004, 1000, 12),
            (488, 1000, 12),
            (1511, 1000, 12),
            (487, 1000, 20),
            (1512, 1000, 20),
            (0, 204_800, 20),
            (204_800, 0, 20),
        ] {
            assert_eq!(
                steps_round_trip(steps, baseline, 204_800),
                (bits, Ok(steps)),
                "{steps} vs {baseline}"
            );
        }
        // 2^53 steps (a compressed double, 54 bits): mid tier 28 bits.
        let max = 1u64 << 53;
        assert_eq!(steps_round_trip(max - 5, max - 1, max), (4, Ok(max - 5)));
        assert_eq!(steps_round_trip(1 << 40, (1 << 40) + 60_000_000, max), (2 + 28, Ok(1 << 40)));
        assert_eq!(steps_round_trip(max, 0, max), (2 + 54, Ok(max)));
        assert_eq!(steps_round_trip(u64::MAX, 0, u64::MAX), (2 + 64, Ok(u64::MAX)));
        // Tiny ranges: one step, no steps.
        assert_eq!(steps_round_trip(1, 0, 1), (4, Ok(1)));
        assert_eq!(steps_round_trip(0, 0, 0), (4, Ok(0)));
        // Every pair in a small range round-trips.
        for baseline in 0..=40 {
            for steps in 0..=40 {
                assert_eq!(steps_round_trip(steps, baseline, 40).1, Ok(steps));
            }
        }
    }

    #[test]
    fn the_writers_i64_tiers_match_the_i128_ones() {
        // The writer's tiers (in i64 below 2^62 steps, else checked) against
        // `relative_steps_bits` (i128), on both sides of 2^62 and near each
        // tier's edges; every value round-trips.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for max in [40, 204_800, 1 << 53, (1 << 62) - 1, 1 << 62, u64::MAX - 3, u64::MAX] {
            for _ in 0..2_000 {
                let baseline = next() % max.saturating_add(1).max(1);
                let span = [8, 1 << 12, 1 << 34, u64::MAX][(next() % 4) as usize];
                let moved = next() % span;
                let steps = if next() % 2 == 0 {
                    baseline.saturating_add(moved)
                } else {
                    baseline.saturating_sub(moved)
                };
                let steps = steps.min(max);
                // `steps_round_trip` checks the bits against `relative_steps_bits`.
                assert_eq!(
                    steps_round_trip(steps, baseline, max).1,
                    Ok(steps),
                    "{steps} vs {baseline} of {max}"
                );
            }
        }
    }

    #[test]
    fn steps_out_of_range_are_errors_that_move_nothing() {
        let mut counter = BitCounter::new();
        assert!(write_relative_steps(&mut counter, 41, Some(0), 40).is_err());
        assert_eq!(counter.bits_written(), 0);
        // Written against baseline 2, read against 0: 0 - 3 < 0.
        let mut buf = [0u8; 2];
        let mut writer = BitWriter::new(&mut buf);
        write_relative_steps(&mut writer, 0, Some(3), 40).unwrap();
        let _ = writer.finish();
        let mut reader = BitReader::new(&buf);
        assert_eq!(read_relative_steps(&mut reader, 0, 40).map_err(|e| e.kind()), Err(ErrorKind::OutOfRange));
        assert_eq!(reader.bits_read(), 0);
        // A far value above the maximum.
        let mut reader = BitReader::new(&[0xFF, 0xFF, 0xFF]);
        assert_eq!(read_relative_steps(&mut reader, 0, 40).map_err(|e| e.kind()), Err(ErrorKind::OutOfRange));
        assert_eq!(reader.bits_read(), 0);
        // Truncated.
        let mut reader = BitReader::new(&[0b11]);
        assert!(read_relative_steps(&mut reader, 0, 204_800).is_err());
        assert_eq!(reader.bits_read(), 0);
    }

    #[test]
    fn quantized_steps_write_what_the_checked_write_does_and_never_spill() {
        // In range: the same bits as `write_relative_steps`, every tier.
        for (steps, baseline) in [(20, Some(21)), (30, Some(2)), (40, None), (0, Some(40))] {
            let (mut checked, mut unchecked) = ([0u8; 4], [0u8; 4]);
            let mut writer = BitWriter::new(&mut checked);
            write_relative_steps(&mut writer, steps, baseline, 40).unwrap();
            let bits = writer.bits_written();
            let mut other = BitWriter::new(&mut unchecked);
            write_quantized_steps(&mut other, steps, baseline, 40).unwrap();
            assert_eq!(other.bits_written(), bits);
            let (_, _) = (writer.finish(), other.finish());
            assert_eq!(checked, unchecked);
        }
        // Above the maximum (a bug upstream): cut to the far tier's width,
        // so the bits after it stay where they belong.
        let mut buf = [0u8; 4];
        let mut writer = BitWriter::new(&mut buf);
        write_quantized_steps(&mut writer, 0xFF_FFFF, None, 40).unwrap();
        writer.write_bits(0b101, 3).unwrap();
        writer.finish().unwrap();
        let mut reader = BitReader::new(&buf);
        let _ = reader.read_bits(2 + 6).unwrap();
        assert_eq!(reader.read_bits(3).unwrap(), 0b101);
    }

    /// `StepCodes` writes the bits `write_quantized_steps` writes code by
    /// code, or nothing: past 128 bits, with a code of 64 bits or more, or
    /// when the codes do not all fit the buffer (where code by code fails).
    #[test]
    fn gathered_codes_write_what_the_codes_one_by_one_do_or_nothing() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let widths = [40, 204_800, 12_800, (1 << 32) - 1, 1 << 41, 1 << 53, 1 << 62, u64::MAX];
        let (mut gathered, mut refused) = (0, 0);
        for case in 0..20_000 {
            let count = 1 + next() % 8;
            let lead = (next() % 40) as u32;
            let codes: [(u64, Option<u64>, u64); 8] = core::array::from_fn(|_| {
                let max_steps = widths[(next() % widths.len() as u64) as usize];
                let steps = next() % max_steps.saturating_add(1).max(1);
                let baseline = match next() % 4 {
                    0 => None,
                    1 => Some(steps.saturating_add(next() % 8).saturating_sub(4)),
                    2 => Some(steps.saturating_add(next() % 2000).saturating_sub(1000)),
                    _ => Some(next() % max_steps.saturating_add(1).max(1)),
                };
                (steps, baseline, max_steps)
            });
            let codes = &codes[..count as usize];
            // Room for everything, or cut anywhere in the codes.
            let bytes = if case % 3 == 0 { (next() % 64) as usize } else { 64 };
            let mut one_by_one = [0u8; 64];
            let mut writer = BitWriter::new(&mut one_by_one[..bytes]);
            let fits = writer.write_bits(0, lead.max(1)).is_ok()
                && codes.iter().all(|&(steps, baseline, max)| {
                    write_quantized_steps(&mut writer, steps, baseline, max).is_ok()
                });
            let (expected_bits, _) = (writer.bits_written(), writer.finish());
            let mut all = StepCodes::new();
            for &(steps, baseline, max) in codes.iter().rev() {
                all.add_before(steps, baseline, max);
            }
            let mut at_once = [0u8; 64];
            let mut writer = BitWriter::new(&mut at_once[..bytes]);
            if writer.write_bits(0, lead.max(1)).is_err() {
                continue;
            }
            let before = writer.bits_written();
            if all.write(&mut writer) {
                gathered += 1;
                assert!(fits, "{codes:?} in {bytes} bytes");
                assert_eq!(writer.bits_written(), expected_bits);
                let _ = writer.finish();
                assert_eq!(at_once, one_by_one, "{codes:?}");
            } else {
                refused += 1;
                assert_eq!(writer.bits_written(), before);
                // Refused only when code by code fails, holds more than
                // 128 bits, or has a code of 64 bits or more.
                let wide = expected_bits - before > 128
                    || codes.iter().any(|&(steps, baseline, max)| {
                        let (_, prefix, _, payload) = steps_code(steps, baseline, max);
                        prefix + payload >= 64
                    });
                assert!(!fits || wide, "{codes:?} in {bytes} bytes refused");
            }
        }
        // Both ways taken, often.
        assert!(gathered > 5_000 && refused > 1_000, "{gathered} gathered, {refused} refused");
    }

    #[test]
    fn truncated_far_value_leaves_the_reader_in_place() {
        let mut reader = BitReader::new(&[0b1]);
        assert!(read_relative_int(&mut reader, 0, 0, 1023).is_err());
        assert_eq!(reader.bits_read(), 0);
    }
}
