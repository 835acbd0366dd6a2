//! What derived `ChangeGroups` impls call: the group flags, and
//! `#[bitpack(relative)]` on every integer type (`relative_u8`,
//! `relative_i64`, ...), all with the same functions so the derive names the
//! module after the field's type.

use crate::bits::low_mask;
use crate::change::{
    BitFingerprint, EXACT_BITS, Fingerprint, GroupRecord, write_delta_flag, write_tracked_flag,
};
use crate::error::{Error, ErrorKind};
use crate::pack::BitPack;
use crate::sink::BitSink;
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

/// [`delta_group`] in `write_delta_cached`: the group's print (the digest
/// of the bits `now` writes, from bit 0, which decides as the bits from
/// the flag's position do) goes into `prints[record]`, and is compared with
/// `baseline_prints[record]`, or with the print of what `then` writes when
/// the baseline's is not known. Returns whether the group's data must follow.
#[inline(always)]
pub fn cached_group<W: BitWrite>(
    writer: &mut W,
    record: usize,
    baseline_prints: &[u64],
    prints: &mut [u64],
    now: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
    then: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
) -> Result<bool, Error> {
    let print = Fingerprint::of(0, now)?.digest();
    let baseline = match baseline_prints.get(record) {
        Some(&baseline) => baseline,
        None => Fingerprint::of(0, then)?.digest(),
    };
    record_print(prints, record, &[print]);
    let sent = print != baseline;
    writer.write_bool(sent)?;
    Ok(sent)
}

/// The print of a group of relative floats in `write_delta_cached` (two
/// words, from a [`Fingerprint`] of its bits): the bits themselves when
/// they fit in [`EXACT_BITS`], so that a later delta against this value
/// reads its steps from them instead of quantizing it again
/// ([`held_bits`]); else the digest, and 0. The group's width is fixed, so
/// equal prints are equal bits (or digests).
#[inline(always)]
fn wide(fingerprint: Fingerprint) -> [u64; 2] {
    if fingerprint.len() <= EXACT_BITS as u64 {
        let bits = fingerprint.exact_bits();
        [bits as u64, (bits >> 64) as u64]
    } else {
        [fingerprint.digest(), 0]
    }
}

/// The print (see `wide`: the bits themselves when they fit in 128, else
/// the digest) of a group of relative floats whose bits are `leaves` (each
/// one's steps and width, as `write_compressed_float` pushes them),
/// quantized once for it and for their relative codes.
#[inline(always)]
pub fn wide_print<const N: usize>(leaves: [(u64, u32); N]) -> [u64; 2] {
    let mut sink = BitFingerprint::starting_at(0);
    for (steps, bits) in leaves {
        sink.push(steps, bits);
    }
    wide(sink.finish())
}

/// The baseline's print of a group of relative floats (two words at
/// `slot` of `baseline_prints`), if known.
#[inline(always)]
pub fn held_wide(baseline_prints: &[u64], slot: usize) -> Option<[u64; 2]> {
    Some([*baseline_prints.get(slot)?, *baseline_prints.get(slot + 1)?])
}

/// [`cached_group`] for a group of relative floats: its print `print`
/// (from [`wide_print`]) recorded at `slot` and judged against the
/// baseline's (`held`, or the print of what `then` writes when not known).
/// Returns whether the group's data must follow.
#[inline(always)]
pub fn cached_wide<W: BitWrite>(
    writer: &mut W,
    slot: usize,
    held: Option<[u64; 2]>,
    prints: &mut [u64],
    print: [u64; 2],
    then: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
) -> Result<bool, Error> {
    let baseline = match held {
        Some(held) => held,
        None => wide(Fingerprint::of(0, then)?),
    };
    record_print(prints, slot, &print);
    let sent = print != baseline;
    writer.write_bool(sent)?;
    Ok(sent)
}

/// The bits of the baseline's print `held` of a group of relative floats
/// `total` bits wide, when they are its bits (at most [`EXACT_BITS`]).
#[inline(always)]
pub fn held_bits(held: Option<[u64; 2]>, total: u32) -> Option<u128> {
    held.filter(|_| total as usize <= EXACT_BITS).map(|[low, high]| u128::from(low) | u128::from(high) << 64)
}

/// The steps of the leaf `width` bits wide at `offset` of a group's bits
/// (from [`held_bits`]).
#[inline(always)]
pub fn steps_at(bits: Option<u128>, offset: u32, width: u32) -> Option<u64> {
    let bits = bits?.checked_shr(offset)?;
    Some(bits as u64 & low_mask(width))
}

/// `group_prints` of a group of relative floats: its print (see
/// [`wide_print`]) in the two words at `slot`.
#[inline(always)]
pub fn wide_group_print(
    slot: usize,
    prints: &mut [u64],
    group: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
) -> Result<(), Error> {
    record_print(prints, slot, &wide(Fingerprint::of(0, group)?));
    Ok(())
}

/// A field type whose value alone gives its bits, compared bit for bit
/// (floats by their bits, not `==`): what `write_delta_cached` checks
/// before fingerprinting a group of such fields ([`kept_group`]).
pub trait SameBits {
    /// Whether `self` and `other` are the same bits.
    fn same_bits(&self, other: &Self) -> bool;
}

macro_rules! same_bits_eq {
    ($($ty:ty),*) => {$(
        impl SameBits for $ty {
            #[inline(always)]
            fn same_bits(&self, other: &Self) -> bool {
                self == other
            }
        }
    )*};
}

same_bits_eq!(bool, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl SameBits for f32 {
    #[inline(always)]
    fn same_bits(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

impl SameBits for f64 {
    #[inline(always)]
    fn same_bits(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

impl<T: SameBits, const N: usize> SameBits for [T; N] {
    #[inline(always)]
    fn same_bits(&self, other: &Self) -> bool {
        self.iter().zip(other).all(|(a, b)| a.same_bits(b))
    }
}

impl<T: SameBits> SameBits for Option<T> {
    #[inline(always)]
    fn same_bits(&self, other: &Self) -> bool {
        match (self, other) {
            (Some(a), Some(b)) => a.same_bits(b),
            (None, None) => true,
            _ => false,
        }
    }
}

/// [`SameBits`] of a field of a nested type in `write_delta_cached`'s
/// [`kept_group`]: whether both values are leaves of the same bits
/// (`BitPack::__leaf`: a field-less derived enum's tag, a derived struct
/// that is one fused run), which `write_to` writes alike. `false` for a
/// type that is no leaf (a constant: its group is then fingerprinted).
#[inline(always)]
pub fn same_leaf<T: BitPack>(now: &T, then: &T) -> bool {
    crate::private::is_leaf(T::__LEAF_BITS)
        && matches!((now.__leaf(), then.__leaf()), (Some(now), Some(then)) if now == then)
}

/// `write_delta_cached`, before a group of [`SameBits`] fields: when they
/// are the baseline's bit for bit (`same`) and the baseline's print is
/// known (`slots` words from `slot`), that is this group's print too;
/// records it and writes the 0 flag
/// without fingerprinting anything. Returns whether it did (else the
/// group's usual code follows). The baseline's print was taken from values
/// the sender wrote, so the same values write without an `Err`.
#[inline(always)]
pub fn kept_group<W: BitWrite>(
    writer: &mut W,
    (slot, slots): (usize, usize),
    baseline_prints: &[u64],
    prints: &mut [u64],
    same: bool,
) -> Result<bool, Error> {
    let Some(held) = baseline_prints.get(slot..slot + slots).filter(|_| same) else { return Ok(false) };
    record_print(prints, slot, held);
    writer.write_bool(false)?;
    Ok(true)
}

/// Records `print` at `slot` of `prints` (nothing when `prints` is empty:
/// a value whose prints are not kept).
#[inline(always)]
fn record_print(prints: &mut [u64], slot: usize, print: &[u64]) {
    if let Some(mine) = prints.get_mut(slot..slot + print.len()) {
        mine.copy_from_slice(print);
    }
}

/// `group_prints`: the print [`cached_group`] records for a group.
#[inline(always)]
pub fn group_print(
    record: usize,
    prints: &mut [u64],
    group: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
) -> Result<(), Error> {
    record_print(prints, record, &[Fingerprint::of(0, group)?.digest()]);
    Ok(())
}

/// After a delta group flagged as sent has been read: refuses it when its
/// bits equal the baseline's (`NonCanonical`, naming the flag's bit), since
/// [`delta_group`] sends a group only when they differ. `now` writes the
/// decoded group as `delta_group`'s `now` does (absolute, relative fields
/// included), `then` the baseline's; both fingerprinted from the bit after
/// the flag, as the writer did.
///
/// Generated `read_delta`, for a group (and a nested group alike): take
/// `let __flag = #p::BitReader::bits_read(__reader);` before reading the
/// flag, and after reading the sent fields into their locals call
/// `#p::delta_group_sent(__flag, |__writer: &mut #p::BitFingerprint| {
/// WRITES OF THE LOCALS; #p::Ok(()) }, |__writer: &mut #p::BitFingerprint| {
/// WRITES OF THE BASELINE'S FIELDS; #p::Ok(()) })?;`.
#[inline]
pub fn delta_group_sent(
    flag_bit: usize,
    now: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
    then: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
) -> Result<(), Error> {
    let start = flag_bit.saturating_add(1);
    if Fingerprint::of(start, now)? == Fingerprint::of(start, then)? {
        return Err(Error::new(ErrorKind::NonCanonical, flag_bit));
    }
    Ok(())
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
            use crate::read::BitRead;
            use crate::source::SourceExt;
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
            pub fn read(reader: &mut impl BitRead, baseline: $ty, min: $ty, max: $ty) -> Result<$ty, Error> {
                let start = reader.bits_read();
                let (Some(baseline), Some(min), Some(max)) = (to_i64(baseline), to_i64(min), to_i64(max))
                else {
                    return Err(Error::new(ErrorKind::OutOfRange, start));
                };
                reader.rolled_back(|staged| {
                    let value = read_relative_int(staged, baseline, min, max)?;
                    $ty::try_from(value).map_err(|_| Error::new(ErrorKind::OutOfRange, start))
                })
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

/// `#[bitpack(relative)]` on a `#[quantize(min, max, res)]` float: its
/// steps coded against the baseline's ([`crate::change::write_relative_steps`]).
macro_rules! relative_float {
    ($module:ident, $float:ident, $quantizer:ident, $int:ident, $write:literal, $read:literal) => {
        #[doc = concat!("`#[bitpack(relative)]` on a `#[quantize(min, max, res)]` `", stringify!($float), "`.")]
        pub mod $module {
            pub use crate::change::relative::StepCodes;
            use crate::change::relative::write_quantized_steps;
            use crate::change::relative::{StepsBaseline, read_steps};
            use crate::error::{Error, ErrorKind};
            use crate::quantize::$quantizer;
            use crate::read::BitRead;

            use crate::write::BitWrite;

            /// The baseline's steps, when both sides are sure to agree on them: a
            /// receiver may hold the baseline itself or only what it decoded of it
            /// (`dequantize(steps)`), and quantizing the latter gives the same
            /// steps back almost always, but not for every declaration and value.
            /// Where it does not, `None`: the value goes in the far tier, which
            /// does not depend on the baseline.
            #[inline(always)]
            fn agreed_steps(quantizer: &$quantizer, baseline: $float) -> Option<u64> {
                agreed_of(quantizer, u64::from(quantizer.quantize(baseline)))
            }

            /// [`agreed_steps`] of a baseline that quantizes to `steps`.
            #[inline(always)]
            fn agreed_of(quantizer: &$quantizer, steps: u64) -> Option<u64> {
                if steps > u64::from(quantizer.max_integer()) {
                    return None;
                }
                // Every step decodes to a value that quantizes back to it:
                // no need to try (a constant for a constant declaration).
                if quantizer.resolves_every_step() {
                    return Some(steps);
                }
                // Lossless: at most the maximum.
                let decoded = quantizer.dequantize(steps as $int)?;
                (u64::from(quantizer.quantize(decoded)) == steps).then_some(steps)
            }

            /// What the reader knows of the steps the writer coded against,
            /// holding `baseline` (the writer's, or what was decoded of it).
            /// Near and mid values are written only against agreed steps, and
            /// the agreed steps of both are the same, so with none agreed only a
            /// far value is canonical. Where every step reads back to itself
            /// the writer always agrees, so a far value is canonical only for a
            /// difference no tier holds, unless `baseline` is also what a
            /// neighbouring step decodes to (then the writer may have held a
            /// baseline of that step and sent far: accept it).
            #[inline(always)]
            fn writers_baseline(quantizer: &$quantizer, baseline: $float) -> StepsBaseline {
                let Some(steps) = agreed_steps(quantizer, baseline) else { return StepsBaseline::None };
                let step = quantizer.quantize(baseline);
                let decodes_to_baseline = |neighbour: Option<_>| {
                    neighbour.and_then(|neighbour| quantizer.dequantize(neighbour)) == Some(baseline)
                };
                let ambiguous =
                    decodes_to_baseline(step.checked_sub(1)) || decodes_to_baseline(step.checked_add(1));
                if quantizer.resolves_every_step() && !ambiguous {
                    StepsBaseline::Known(steps)
                } else {
                    StepsBaseline::Maybe(steps)
                }
            }

            /// The steps a prediction lands on: the baseline's agreed steps moved by
            /// what the baseline's rate field (its agreed steps `rate`, as decoded)
            /// covers in `dt`, in steps rounded to the nearest and clamped to the
            /// range. Both sides compute it from the same steps with the same
            /// arithmetic. `None` when either is not agreed: only the far tier then.
            #[inline(always)]
            fn predicted_steps(
                quantizer: &$quantizer,
                base: Option<u64>,
                rate_quantizer: &$quantizer,
                rate: Option<u64>,
                dt: $float,
            ) -> Option<u64> {
                let (base, rate) = (base?, rate?.try_into().ok()?);
                // A non-finite move (a huge `dt`) predicts no move: the same on both sides.
                let moved = quantizer.steps_moved(rate_quantizer, rate, dt).unwrap_or(0);
                let max = i64::try_from(quantizer.max_integer()).ok()?;
                Some(i64::try_from(base).ok()?.saturating_add(moved).clamp(0, max) as u64)
            }

            /// The baseline's steps where both sides agree on them (see
            /// `agreed_steps`), from its steps when known (`steps`, read from
            /// its print), else from its value; `None` also for a declaration
            /// `quantized_bits` refuses. For `write_delta_cached`, which
            /// quantizes a group's floats once.
            #[inline(always)]
            pub fn agreed(
                steps: Option<u64>,
                baseline: $float,
                min: $float,
                max: $float,
                res: $float,
            ) -> Option<u64> {
                let quantizer = $quantizer::new(min, max, res)?;
                match steps {
                    // Steps from the baseline's print, which holds what
                    // the sender quantized (at most the maximum): where
                    // every step reads back to itself, agreed as they are,
                    // with no range check (a constant test for a derived
                    // declaration).
                    Some(steps) if quantizer.resolves_every_step() => {
                        <$int>::try_from(steps).ok().map(u64::from)
                    }
                    Some(steps) => agreed_of(&quantizer, steps.try_into().ok()?),
                    None => agreed_steps(&quantizer, baseline),
                }
            }

            /// [`write`] of a value quantized already: its `steps` (at most the
            /// declaration's maximum: not checked again) against the
            /// baseline's agreed steps `base` (see [`agreed`]).
            #[inline(always)]
            pub fn write_steps<W: BitWrite>(
                writer: &mut W,
                steps: u64,
                base: Option<u64>,
                min: $float,
                max: $float,
                res: $float,
            ) -> Result<(), Error> {
                let invalid = Error::new(ErrorKind::InvalidDeclaration, writer.bits_written());
                let quantizer = $quantizer::new(min, max, res).ok_or(invalid)?;
                write_quantized_steps(writer, steps, base, u64::from(quantizer.max_integer()))
            }

            /// [`write_predicted`] of a value quantized already, as
            /// [`write_steps`] is [`write`]: `rate` the baseline's rate's agreed steps.
            #[inline(always)]
            pub fn write_predicted_steps<W: BitWrite>(
                writer: &mut W,
                steps: u64,
                base: Option<u64>,
                (rate, rate_min, rate_max, rate_res, dt): (Option<u64>, $float, $float, $float, $float),
                min: $float,
                max: $float,
                res: $float,
            ) -> Result<(), Error> {
                let invalid = Error::new(ErrorKind::InvalidDeclaration, writer.bits_written());
                let quantizer = $quantizer::new(min, max, res).ok_or(invalid)?;
                let rate_quantizer = $quantizer::new(rate_min, rate_max, rate_res).ok_or(invalid)?;
                let base = predicted_steps(&quantizer, base, &rate_quantizer, rate, dt);
                write_quantized_steps(writer, steps, base, u64::from(quantizer.max_integer()))
            }

            /// [`write_steps`]'s code, before those gathered in `codes` (see [`StepCodes`]);
            /// a declaration it would refuse leaves `codes` full.
            #[inline(always)]
            pub fn code_steps(
                codes: &mut StepCodes,
                steps: u64,
                base: Option<u64>,
                min: $float,
                max: $float,
                res: $float,
            ) {
                match $quantizer::new(min, max, res) {
                    Some(quantizer) => codes.add_before(steps, base, u64::from(quantizer.max_integer())),
                    None => codes.refuse(),
                }
            }

            /// [`write_predicted_steps`]'s code gathered into `codes`, as
            /// [`code_steps`].
            #[inline(always)]
            pub fn code_predicted_steps(
                codes: &mut StepCodes,
                steps: u64,
                base: Option<u64>,
                (rate, rate_min, rate_max, rate_res, dt): (Option<u64>, $float, $float, $float, $float),
                min: $float,
                max: $float,
                res: $float,
            ) {
                match ($quantizer::new(min, max, res), $quantizer::new(rate_min, rate_max, rate_res)) {
                    (Some(quantizer), Some(rate_quantizer)) => {
                        let base = predicted_steps(&quantizer, base, &rate_quantizer, rate, dt);
                        codes.add_before(steps, base, u64::from(quantizer.max_integer()))
                    }
                    _ => codes.refuse(),
                }
            }

            /// `#[bitpack(relative(rate = field, dt = D))]`: [`write`], coded against
            /// the baseline moved by the baseline's rate times `dt`; `predict` is the
            /// baseline's rate, its declaration (`min`, `max`, `res`) and `dt`.
            #[inline(always)]
            pub fn write_predicted<W: BitWrite>(
                writer: &mut W,
                value: $float,
                baseline: $float,
                predict: ($float, $float, $float, $float, $float),
                min: $float,
                max: $float,
                res: $float,
            ) -> Result<(), Error> {
                let at = writer.bits_written();
                let (rate, rate_min, rate_max, rate_res, dt) = predict;
                let invalid = Error::new(ErrorKind::InvalidDeclaration, at);
                let quantizer = $quantizer::new(min, max, res).ok_or(invalid)?;
                let rate_quantizer = $quantizer::new(rate_min, rate_max, rate_res).ok_or(invalid)?;
                if !value.is_finite() {
                    return Err(Error::new(ErrorKind::NonFiniteFloat, at));
                }
                let (steps, base) =
                    (u64::from(quantizer.quantize(value)), agreed_steps(&quantizer, baseline));
                let rate = agreed_steps(&rate_quantizer, rate);
                write_predicted_steps(
                    writer,
                    steps,
                    base,
                    (rate, rate_min, rate_max, rate_res, dt),
                    min,
                    max,
                    res,
                )
            }

            /// Reads what [`write_predicted`] wrote against the same baseline (or
            /// what was decoded of it), rate and declarations.
            #[inline(always)]
            pub fn read_predicted(
                reader: &mut impl BitRead,
                baseline: $float,
                predict: ($float, $float, $float, $float, $float),
                min: $float,
                max: $float,
                res: $float,
            ) -> Result<$float, Error> {
                let at = reader.bits_read();
                let (rate, rate_min, rate_max, rate_res, dt) = predict;
                let invalid = Error::new(ErrorKind::InvalidDeclaration, at);
                let quantizer = $quantizer::new(min, max, res).ok_or(invalid)?;
                let rate_quantizer = $quantizer::new(rate_min, rate_max, rate_res).ok_or(invalid)?;
                // What the writer's baseline was, moved as the writer moved it.
                // A rate the writer may not have agreed on leaves it only the far
                // tier, so then far values stay canonical whatever they are.
                let rate = agreed_steps(&rate_quantizer, rate);
                let predict = |base: u64| predicted_steps(&quantizer, Some(base), &rate_quantizer, rate, dt);
                let rate_known = rate_quantizer.resolves_every_step();
                let writers = match writers_baseline(&quantizer, baseline) {
                    StepsBaseline::Known(base) if rate_known => predict(base).map(StepsBaseline::Known),
                    StepsBaseline::Known(base) | StepsBaseline::Maybe(base) => {
                        predict(base).map(StepsBaseline::Maybe)
                    }
                    StepsBaseline::None => None,
                };
                let steps = read_steps(
                    reader,
                    writers.unwrap_or(StepsBaseline::None),
                    u64::from(quantizer.max_integer()),
                )?;
                // Cannot fail: the steps are at most the maximum, which fits.
                let steps = steps.try_into().unwrap_or(quantizer.max_integer());
                Ok(quantizer.dequantize(steps).unwrap_or(0.0))
            }

            #[doc = concat!("Writes `value` as `", $write, "` would refuse or quantize it, coded")]
            /// against `baseline`'s steps.
            #[inline(always)]
            pub fn write<W: BitWrite>(
                writer: &mut W,
                value: $float,
                baseline: $float,
                min: $float,
                max: $float,
                res: $float,
            ) -> Result<(), Error> {
                let at = writer.bits_written();
                let quantizer =
                    $quantizer::new(min, max, res).ok_or(Error::new(ErrorKind::InvalidDeclaration, at))?;
                if !value.is_finite() {
                    return Err(Error::new(ErrorKind::NonFiniteFloat, at));
                }
                let (steps, base) =
                    (u64::from(quantizer.quantize(value)), agreed_steps(&quantizer, baseline));
                write_steps(writer, steps, base, min, max, res)
            }

            /// Reads what [`write`] wrote, against the baseline or what was decoded
            #[doc = concat!("of it; the value `", $read, "` gives for those steps.")]
            #[inline(always)]
            pub fn read(
                reader: &mut impl BitRead,
                baseline: $float,
                min: $float,
                max: $float,
                res: $float,
            ) -> Result<$float, Error> {
                let at = reader.bits_read();
                let quantizer =
                    $quantizer::new(min, max, res).ok_or(Error::new(ErrorKind::InvalidDeclaration, at))?;
                let steps = read_steps(
                    reader,
                    writers_baseline(&quantizer, baseline),
                    u64::from(quantizer.max_integer()),
                )?;
                // Cannot fail: the steps are at most the maximum, which fits.
                let steps = steps.try_into().unwrap_or(quantizer.max_integer());
                Ok(quantizer.dequantize(steps).unwrap_or(0.0))
            }
        }
    };
}

relative_float!(relative_f32, f32, Quantizer, u32, "write_compressed_float", "read_compressed_float");
relative_float!(relative_f64, f64, Quantizer64, u64, "write_compressed_double", "read_compressed_double");

/// Expands to its items when the core has `alloc`, else to nothing: the
/// `ChangeGroups` methods a `Sender` calls (`write_to_within` and the
/// others) exist only with `alloc`, and a derived impl that overrides them
/// must build without it too.
#[cfg(feature = "alloc")]
#[doc(hidden)]
#[macro_export]
macro_rules! __bitpack_if_alloc {
    ($($items:tt)*) => { $($items)* };
}

/// See the `alloc` form.
#[cfg(not(feature = "alloc"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __bitpack_if_alloc {
    ($($items:tt)*) => {};
}

pub use crate::__bitpack_if_alloc as if_alloc;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantize::Quantizer;
    use crate::read::BitRead;
    use crate::reader::BitReader;
    use crate::sink::counter::BitCounter;
    use crate::sink::writer::BitWriter;

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
    fn relative_floats_decode_as_absolute_ones_do() {
        let (min, max, res) = (-1024.0, 1024.0, 0.01);
        let absolute = |value: f32| {
            let mut buf = [0u8; 4];
            let mut writer = BitWriter::new(&mut buf);
            writer.write_compressed_float(value, min, max, res).unwrap();
            writer.finish().unwrap();
            BitReader::new(&buf).read_compressed_float(min, max, res).unwrap()
        };
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let baseline = ((seed & 0xFFFF_FFFF) as f32 / u32::MAX as f32) * 2100.0 - 1050.0;
            let step = ((seed >> 32) % 2001) as f32 - 1000.0;
            let value = baseline + step * [0.0001, 0.01, 1.0][(seed % 3) as usize];
            // The receiver holds what it decoded of the baseline.
            let received = absolute(baseline);
            let mut buf = [0u8; 8];
            let mut writer = BitWriter::new(&mut buf);
            relative_f32::write(&mut writer, value, baseline, min, max, res).unwrap();
            writer.finish().unwrap();
            // The receiver may hold what it decoded of the baseline, or the baseline itself.
            for held in [received, baseline] {
                let decoded = relative_f32::read(&mut BitReader::new(&buf), held, min, max, res).unwrap();
                assert_eq!(decoded.to_bits(), absolute(value).to_bits(), "{value} against {baseline}");
            }
        }
        let mut counter = BitCounter::new();
        assert!(relative_f32::write(&mut counter, f32::NAN, 0.0, min, max, res).is_err());
        assert_eq!(counter.bits_written(), 0);
    }

    #[test]
    fn relative_floats_go_absolute_where_the_sides_could_disagree() {
        // At 0.0001 over [-1024, 1024], quantizing the decoded value of step
        // 2_129_515 gives 2_129_516: a receiver holding the decoded baseline
        // and one holding the original would disagree on the baseline's steps.
        let (min, max, res) = (-1024.0, 1024.0, 0.0001);
        let quantizer = Quantizer::new(min, max, res).unwrap();
        let steps = 2_129_515;
        let decoded = quantizer.dequantize(steps).unwrap();
        assert_eq!(quantizer.quantize(decoded), steps + 1);
        // An original baseline that quantizes to `steps`, just above the decoded value.
        let mut original = decoded;
        while quantizer.quantize(original) != steps {
            original = f32::from_bits(original.to_bits() + 1);
        }
        let value = quantizer.dequantize(steps + 2).unwrap();
        let mut buf = [0u8; 8];
        let mut writer = BitWriter::new(&mut buf);
        relative_f32::write(&mut writer, value, original, min, max, res).unwrap();
        // Absolute: 2 bits of tier and 25 of steps, not the 4 of a near step.
        assert_eq!(writer.bits_written(), 2 + 25);
        writer.finish().unwrap();
        for held in [original, decoded] {
            let read = relative_f32::read(&mut BitReader::new(&buf), held, min, max, res).unwrap();
            assert_eq!(read.to_bits(), value.to_bits());
        }
        // Where the sides agree, the same move is near.
        let agreed = quantizer.dequantize(steps - 10).unwrap();
        assert_eq!(quantizer.quantize(agreed), steps - 10);
        let mut counter = BitCounter::new();
        relative_f32::write(&mut counter, quantizer.dequantize(steps - 8).unwrap(), agreed, min, max, res)
            .unwrap();
        assert_eq!(counter.bits_written(), 4);
    }

    #[test]
    fn relative_steps_of_the_top_of_the_range_stay_in_range() {
        // Odd step counts in [2^23, 2^24) (and [2^52, 2^53) for f64): the
        // maximum quantizes to itself, not one past it.
        for max in [8_388_609.0f32, 16_777_215.0] {
            let mut buf = [0u8; 8];
            let mut writer = BitWriter::new(&mut buf);
            relative_f32::write(&mut writer, max, 0.0, 0.0, max, 1.0).unwrap();
            relative_f32::write(&mut writer, max, max - 1.0, 0.0, max, 1.0).unwrap();
            writer.finish().unwrap();
            let mut reader = BitReader::new(&buf);
            assert_eq!(relative_f32::read(&mut reader, 0.0, 0.0, max, 1.0).unwrap(), max);
            assert_eq!(relative_f32::read(&mut reader, max - 1.0, 0.0, max, 1.0).unwrap(), max);
        }
        let max = 9_007_199_254_740_991.0f64;
        let mut buf = [0u8; 16];
        let mut writer = BitWriter::new(&mut buf);
        relative_f64::write(&mut writer, max, 0.0, 0.0, max, 1.0).unwrap();
        writer.finish().unwrap();
        assert_eq!(relative_f64::read(&mut BitReader::new(&buf), 0.0, 0.0, max, 1.0).unwrap(), max);
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
