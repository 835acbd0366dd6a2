//! The reference's compressed-float arithmetic, in f32 step by step, and
//! the same arithmetic in f64 for `f64` fields (bitpack's own extension:
//! the reference has no compressed double).
//!
//! Every step is rounded to the float type and nothing is fused, exactly as
//! the reference compiles with `-ffp-contract=off`: Rust never contracts
//! float operations, so plain arithmetic here matches it bit for bit.
//!
//! The error bound this arithmetic keeps, f32 rounding included, is
//! documented (and tested here) on `BitWrite::write_compressed_float`: with
//! `N` steps of `h`, `M = max(|min|, |max|)` and `u` the unit roundoff
//! (2^-24, or 2^-53 for f64), `h / 2 + u * (6 * N + M / h + 1) * h`. Half a
//! step comes from the floor, about `4uN` steps from the write's
//! subtraction, division, product and sum, `2uN + uM/h` from the read's.

use crate::bits::bits_required64;

/// The largest step count the reference allows: the largest f32 below 2^32.
pub(crate) const MAX_STEPS: f32 = 4_294_967_040.0;

/// The largest step count of an f64 declaration: 2^53, below which every
/// integer is an exact f64 (so steps convert back and forth exactly).
pub(crate) const MAX_STEPS_F64: f64 = 9_007_199_254_740_992.0;

/// The most steps f32 arithmetic resolves ([`Quantizer::resolves_every_step`]).
pub(crate) const F32_RESOLVED_STEPS: u32 = 1 << 23;

/// [`F32_RESOLVED_STEPS`] for f64.
const F64_RESOLVED_STEPS: u64 = 1 << 52;

/// Below this many steps [`Quantizer::quantize`] takes the signed cast:
/// `scaled` is at most `max_integer + 0.5`, far below 2^31.
const SIGNED_CAST_STEPS: u32 = 1 << 30;

/// A quantizer for one float type: `$float` arithmetic, `$int` steps,
/// `$signed` the signed cast below `$signed_steps` steps (branch-free on
/// x86 where the unsigned one branches), `$ceil` a const ceiling.
macro_rules! quantizer {
    ($(#[$doc:meta])* $name:ident, $float:ident, $int:ident, $signed:ident, $max_steps:expr, $signed_steps:expr, $ceil:ident, $resolved:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct $name {
            min: $float,
            delta: $float,
            /// The largest integer on the wire: `ceil((max - min) / res)`.
            max_integer: $int,
            /// `bits_required(0, max_integer)`.
            pub(crate) bits: u32,
        }

        impl $name {
            /// `None` when the declaration is unusable: a non-finite bound or
            /// resolution, `min >= max`, `res <= 0`, or a span that overflows.
            #[inline]
            pub(crate) const fn new(min: $float, max: $float, res: $float) -> Option<Self> {
                if !(min.is_finite() && max.is_finite() && res.is_finite()) || min >= max || res <= 0.0 {
                    return None;
                }
                let delta = max - min;
                if !delta.is_finite() {
                    return None;
                }
                let values = delta / res;
                // NaN cannot reach here (finite / positive), but the reference maps it to 1.
                let values = if values.is_nan() { 1.0 } else { values.clamp(1.0, $max_steps) };
                // `ceil` of a float in [1, max steps] is an exact integer.
                let max_integer = $ceil(values) as $int;
                Some($name { min, delta, max_integer, bits: bits_required64(0, max_integer as i64) })
            }

            /// How many of this declaration's steps a value moves in `dt` at the
            /// rate that `rate`'s step `rate_steps` decodes to, rounded to the
            /// nearest: `(rate min + rate_steps x rate step) x dt / step`, as
            /// `offset + rate_steps x scale` (both constants for constant
            /// declarations and `dt`). `None` when that is not finite; clamped
            /// to `+-max_integer`.
            #[inline(always)]
            pub(crate) fn steps_moved(&self, rate: &Self, rate_steps: $int, dt: $float) -> Option<i64> {
                let step = self.delta / self.max_integer as $float;
                let rate_step = rate.delta / rate.max_integer as $float;
                let scale = rate_step * dt / step;
                let offset = rate.min * dt / step;
                let moved = offset + rate_steps as $float * scale;
                // `|moved|` is at most `|offset| + largest rate x |scale|`
                // (rounding is monotone), so when that is finite so is
                // `moved`: a constant test for constant declarations and
                // `dt`, which folds the test on `moved` away.
                let bound = offset.abs() + <$int>::MAX as $float * scale.abs();
                if !bound.is_finite() && !moved.is_finite() {
                    return None;
                }
                let limit = self.max_integer as $float;
                #[allow(clippy::manual_clamp)]
                let half_up = moved.max(-limit).min(limit) + 0.5;
                // `floor(half_up)`. Under `p - 1` bits of steps (a constant
                // test), `|half_up| < 2^(p - 1)` (p = 23, 52): adding
                // `1.5 x 2^p` rounds it to an integer `r` (in
                // `(2^p, 2^(p + 1))`, where the spacing is 1; the sum less
                // `1.5 x 2^p` is `r` exactly, and its bits less those of
                // `1.5 x 2^p` are `r` as an integer), less one where
                // `r > half_up`: no saturating casts.
                if self.max_integer < $resolved / 2 {
                    let magic = $resolved as $float * 1.5;
                    let biased = half_up + magic;
                    let rounded = biased.to_bits().wrapping_sub(magic.to_bits()) as $signed as i64;
                    return Some(rounded - i64::from(biased - magic > half_up));
                }
                // The cast truncates toward zero.
                let truncated = half_up as i64;
                Some(if (truncated as $float) > half_up { truncated - 1 } else { truncated })
            }

            /// The largest integer on the wire.
            #[inline]
            pub(crate) const fn max_integer(&self) -> $int {
                self.max_integer
            }

            /// Whether the float's arithmetic resolves every step: at most
            #[doc = concat!("`", stringify!($resolved), "` steps, and a step no finer than the float's spacing")]
            /// at `min` and `max` (`max(|min|, |max|) / step` within the same
            /// bound). Then every step decodes to a value of its own that
            /// quantizes back to it (checked exhaustively on declarations up
            /// to that many steps); past it, several steps can decode alike
            /// and the error bound grows with the step count.
            #[inline]
            pub(crate) const fn resolves_every_step(&self) -> bool {
                let max = self.min + self.delta;
                let magnitude = if self.min.abs() > max.abs() { self.min.abs() } else { max.abs() };
                let steps = self.max_integer as $float;
                self.max_integer <= $resolved && magnitude / self.delta * steps <= $resolved as $float
            }

            /// The integer the reference writes for a finite `value` (clamped into
            /// range), at most [`Self::max_integer`].
            #[inline]
            pub(crate) fn quantize(&self, value: $float) -> $int {
                // `max(0.0)` turns a NaN into 0, which is what the reference's clamp
                // ends in (writes refuse NaN before this anyway).
                #[allow(clippy::manual_clamp)]
                let normalized = ((value - self.min) / self.delta).max(0.0).min(1.0);
                // The reference's normative clamp of `floor(scaled)` to
                // `max_integer`, done before the floor: `max_integer` is a whole
                // number, so `floor(min(x, m)) == min(floor(x), m)`, and a float
                // select is one instruction where an integer `min` after the
                // cast measured four more per float. For an odd `max_integer`
                // in [2^(p-1), 2^p) (p the significand's bits: 24, 53)
                // `max_integer + 0.5` is a tie that rounds to the even
                // `max_integer + 1`: the reader would refuse it, and at `2^p - 1`
                // it would take one bit more than the field has. Nowhere else
                // does the clamp change a result.
                let top = self.max_integer as $float;
                let scaled = normalized * top + 0.5;
                // A compare and select, one `minss` on x86: `min` would also
                // handle a NaN, which `normalized` already turned into 0.
                let scaled = if scaled < top { scaled } else { top };
                // The sum is non-negative, where the truncating cast is the
                // reference's `floor` (a separate floor measured ~2 compares more
                // per float).
                if self.max_integer < $signed_steps {
                    // The same truncation, branch-free on x86 where the unsigned
                    // cast branches (5% of a snapshot encode); `max_integer` is a
                    // constant for a declared field, so this test folds away.
                    scaled as $signed as $int
                } else {
                    scaled as $int
                }
            }

            /// The value the reference reads back for `integer`, or `None` when the
            /// integer is above the declared maximum.
            #[inline]
            pub(crate) fn dequantize(&self, integer: $int) -> Option<$float> {
                if integer > self.max_integer {
                    return None;
                }
                let normalized = integer as $float / self.max_integer as $float;
                Some(normalized * self.delta + self.min)
            }

            /// [`Self::quantize`] for lanes of a block (`__private::quantized_lanes`):
            /// the same steps, but below 2^23 steps (2^52 for f64) the
            /// truncating cast is done in float arithmetic, which vectorises
            /// (the saturating cast does not: one compare-and-select chain a
            /// lane). For a sum `0 <= s < 2^p` (p = 23, 52: where the float's
            /// spacing is 1), `r = (s + 2^p) - 2^p` is `s` rounded to an
            /// integer, `r - (r > s)` its floor (the cast of a non-negative
            /// value); `s + 2^p`'s bits less `2^p`'s are `r` as an integer.
            #[inline(always)]
            pub(crate) fn quantize_lane(&self, value: $float) -> $int {
                if self.max_integer >= $resolved {
                    return self.quantize(value);
                }
                // No `min(1.0)`: above 1, `normalized * top + 0.5` is at least
                // `top + 0.5` (rounding is monotone, and `top + 0.5` exact below
                // 2^p), so the clamp to `top` below gives `top`, as from 1.
                let normalized = ((value - self.min) / self.delta).max(0.0);
                let top = self.max_integer as $float;
                let scaled = normalized * top + 0.5;
                let scaled = if scaled < top { scaled } else { top };
                let magic = $resolved as $float;
                let biased = scaled + magic;
                // `biased`'s bits less `2^p`'s are `r`; less one where `r > s`.
                let rounded = biased.to_bits().wrapping_sub(magic.to_bits());
                rounded.wrapping_sub((biased - magic > scaled) as _) as $int
            }

            /// [`Self::dequantize`] for an `integer` already checked to be at
            /// most [`Self::max_integer`], with no branch, for lanes of a block
            /// (`__private::dequantized_lanes`). Below 2^30 steps (2^62 for
            /// f64) the integer converts through the signed type, the same value
            /// (one vector instruction where the unsigned conversion is several).
            #[inline(always)]
            pub(crate) fn dequantize_unchecked(&self, integer: $int) -> $float {
                let integer = if self.max_integer < $signed_steps {
                    integer as $signed as $float
                } else {
                    integer as $float
                };
                let normalized = integer / self.max_integer as $float;
                normalized * self.delta + self.min
            }
        }
    };
}

quantizer!(
    /// A validated `(min, max, res)` declaration and what follows from it.
    Quantizer, f32, u32, i32, MAX_STEPS, SIGNED_CAST_STEPS, ceil_f32, F32_RESOLVED_STEPS
);

impl Quantizer {
    /// `quantize_lane`'s constants for lanes computed four at a time
    /// (`__private::quantized_row`): `min`, `delta` and `max_integer` as a
    /// float; `None` at or above 2^23 steps (the lane then takes `quantize`).
    #[cfg_attr(not(all(target_arch = "x86_64", target_feature = "sse2")), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn row_constants(&self) -> Option<(f32, f32, f32)> {
        (self.max_integer < F32_RESOLVED_STEPS).then_some((self.min, self.delta, self.max_integer as f32))
    }
}

quantizer!(
    /// [`Quantizer`] for `f64` fields: the same steps in f64 arithmetic, up
    /// to 2^53 of them.
    Quantizer64, f64, u64, i64, MAX_STEPS_F64, 1 << 62, ceil_f64, F64_RESOLVED_STEPS
);

/// Ceiling for positive finite values, without `std`.
#[inline(always)]
const fn ceil_f32(x: f32) -> f32 {
    if x >= 8_388_608.0 {
        return x;
    }
    let truncated = (x as u32) as f32;
    if truncated < x { truncated + 1.0 } else { truncated }
}

/// Ceiling for positive finite values, without `std`.
#[inline(always)]
const fn ceil_f64(x: f64) -> f64 {
    if x >= 4_503_599_627_370_496.0 {
        return x;
    }
    let truncated = (x as u64) as f64;
    if truncated < x { truncated + 1.0 } else { truncated }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn telling_cases_round_in_f32() {
        let q = Quantizer::new(0.0, 10.0, 0.01).unwrap();
        assert_eq!(q.bits, 10);
        assert_eq!(q.quantize(0.005), 1);
        assert_eq!(q.quantize(0.025), 3);
        assert_eq!(q.quantize(0.105), 11);
        assert_eq!(q.quantize(9.995), 1000);
        let q = Quantizer::new(-100.0, 100.0, 0.01).unwrap();
        let back = q.dequantize(q.quantize(-33.34)).unwrap();
        assert_eq!(back.to_bits(), 0xC205_5C2A);
    }

    /// The reference's quantization step by step: NaN to 0, clamp, then
    /// an explicit floor before the cast.
    fn reference_quantize(q: &Quantizer, value: f32) -> u32 {
        let normalized = (value - q.min) / q.delta;
        let normalized = if normalized.is_nan() { 0.0 } else { normalized.clamp(0.0, 1.0) };
        let scaled = normalized * q.max_integer as f32 + 0.5;
        // Every f32 at or above 2^23 is already an integer.
        let floor = if scaled >= 8_388_608.0 { scaled } else { (scaled as u32) as f32 };
        // The normative clamp after the floor (the reference's fix, after 1.11.0).
        (floor as u32).min(q.max_integer)
    }

    #[test]
    fn the_top_of_the_range_never_quantizes_past_max_integer() {
        // The two witnesses: an odd step count in [2^23, 2^24), where
        // `max_integer + 0.5` rounds to `max_integer + 1` in f32.
        for (max, bits) in [(8_388_609.0f32, 24), (16_777_215.0, 24)] {
            let q = Quantizer::new(0.0, max, 1.0).unwrap();
            assert_eq!((q.max_integer, q.bits), (max as u32, bits));
            for value in [max, max + 1.0, max * 2.0, f32::MAX] {
                assert_eq!(q.quantize(value), q.max_integer, "{value} in [0, {max}]");
            }
            // Without the clamp: one past the maximum, which the reader refuses.
            let scaled = 1.0f32 * q.max_integer as f32 + 0.5;
            assert_eq!(scaled as u32, q.max_integer + 1);
        }
    }

    #[test]
    fn every_odd_step_count_of_the_band_stays_in_its_bits() {
        // f32: every odd step count in [2^23, 2^24), at the maximum and just
        // below it, over [0, N] and [-N/2, N/2] by 1.
        for steps in (8_388_609u32..16_777_216).step_by(2) {
            let half = (steps / 2) as f32;
            for (min, max) in [(0.0, steps as f32), (-half, steps as f32 - half)] {
                let q = Quantizer::new(min, max, 1.0).unwrap();
                assert_eq!(q.max_integer, steps);
                let top = q.quantize(max);
                assert!(top <= q.max_integer && u64::from(top) >> q.bits == 0, "{steps}: {top}");
                assert!(q.dequantize(top).is_some());
            }
        }
        // f64: odd step counts across [2^52, 2^53).
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..100_000 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let steps = (1u64 << 52) | (seed >> 12) | 1;
            let q = Quantizer64::new(0.0, steps as f64, 1.0).unwrap();
            assert_eq!(q.max_integer, steps);
            let top = q.quantize(steps as f64);
            assert_eq!(top, steps, "{steps}");
            assert_eq!(top >> q.bits, 0);
        }
        for steps in [(1u64 << 52) + 1, (1 << 53) - 1] {
            let q = Quantizer64::new(0.0, steps as f64, 1.0).unwrap();
            assert_eq!(q.quantize(f64::MAX), steps);
            assert_eq!(q.bits, 53);
        }
    }

    #[test]
    fn steps_moved_rounds_the_rate_times_dt_to_the_nearest_step() {
        let position = Quantizer::new(-1024.0, 1024.0, 0.01).unwrap();
        let velocity = Quantizer::new(-64.0, 64.0, 0.01).unwrap();
        let moved = |rate: f32, dt: f32| position.steps_moved(&velocity, velocity.quantize(rate), dt);
        // 12 a second for a 30th: 0.4, 40 steps; the same backwards.
        assert_eq!(moved(12.0, 1.0 / 30.0), Some(40));
        assert_eq!(moved(-12.0, 1.0 / 30.0), Some(-40));
        assert_eq!(moved(0.0, 1.0 / 30.0), Some(0));
        // 0.05 a second for a 30th: 0.17 steps, 0; 0.2: 0.67 steps, 1.
        assert_eq!(moved(-0.05, 1.0 / 30.0), Some(0));
        assert_eq!(moved(-0.2, 1.0 / 30.0), Some(-1));
        // Clamped to the range's steps; not finite: none.
        assert_eq!(moved(64.0, 1.0e6), Some(i64::from(position.max_integer())));
        assert_eq!(moved(64.0, f32::INFINITY), None);
    }

    /// `steps_moved` as it was before its floor took the sum with
    /// `1.5 x 2^p` and its finite test a constant bound: the reference.
    fn steps_moved_by_casts(q: &Quantizer, rate: &Quantizer, rate_steps: u32, dt: f32) -> Option<i64> {
        let step = q.delta / q.max_integer as f32;
        let rate_step = rate.delta / rate.max_integer as f32;
        let (scale, offset) = (rate_step * dt / step, rate.min * dt / step);
        let moved = offset + rate_steps as f32 * scale;
        if !moved.is_finite() {
            return None;
        }
        let limit = q.max_integer as f32;
        let half_up = moved.max(-limit).min(limit) + 0.5;
        let truncated = half_up as i64;
        Some(if (truncated as f32) > half_up { truncated - 1 } else { truncated })
    }

    #[test]
    fn steps_moved_is_the_floor_of_the_casts() {
        let declarations = [
            (-1024.0, 1024.0, 0.01),
            (-64.0, 64.0, 0.01),
            (0.0, 1.0, 1.0 / 4_194_303.0),
            (0.0, 1.0, 1.0 / 4_194_304.0),
            (-1024.0, 1024.0, 0.0001),
            (0.0, 3.0, 1.0),
        ];
        let dts = [1.0 / 30.0, -1.0 / 60.0, 0.37, 1.0e6, 3.0e38, f32::INFINITY, 0.0];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for &(min, max, res) in &declarations {
            let q = Quantizer::new(min, max, res).unwrap();
            for &(rate_min, rate_max, rate_res) in &declarations {
                let rate = Quantizer::new(rate_min, rate_max, rate_res).unwrap();
                for &dt in &dts {
                    // Every rate step of small declarations, the ends and
                    // random ones past them (up to `u32::MAX`).
                    let every = (0..=rate.max_integer.min(20_000)).chain([u32::MAX, u32::MAX - 1]);
                    let random = (0..2_000).map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        (seed >> 32) as u32 >> (seed % 32)
                    });
                    for rate_steps in every.chain(random) {
                        assert_eq!(
                            q.steps_moved(&rate, rate_steps, dt),
                            steps_moved_by_casts(&q, &rate, rate_steps, dt),
                            "[{min}, {max}] at {res}, rate [{rate_min}, {rate_max}] at {rate_res}, step {rate_steps}, dt {dt}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn steps_moved_is_the_floor_of_the_casts_in_f64() {
        let by_casts = |q: &Quantizer64, rate: &Quantizer64, rate_steps: u64, dt: f64| {
            let step = q.delta / q.max_integer as f64;
            let rate_step = rate.delta / rate.max_integer as f64;
            let (scale, offset) = (rate_step * dt / step, rate.min * dt / step);
            let moved = offset + rate_steps as f64 * scale;
            let limit = q.max_integer as f64;
            let half_up = moved.max(-limit).min(limit) + 0.5;
            let truncated = half_up as i64;
            moved.is_finite().then_some(if (truncated as f64) > half_up { truncated - 1 } else { truncated })
        };
        let declarations = [
            (-1024.0, 1024.0, 0.01),
            (-64.0, 64.0, 1.0e-9),
            (0.0, 1.0, 1.0 / 2_251_799_813_685_247.0),
            (0.0, 3.0, 1.0),
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for &(min, max, res) in &declarations {
            let q = Quantizer64::new(min, max, res).unwrap();
            for &(rate_min, rate_max, rate_res) in &declarations {
                let rate = Quantizer64::new(rate_min, rate_max, rate_res).unwrap();
                for dt in [1.0 / 30.0, -1.0 / 60.0, 0.37, 1.0e12, 1.0e308, f64::INFINITY] {
                    for _ in 0..5_000 {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        let rate_steps = seed >> (seed % 64);
                        assert_eq!(q.steps_moved(&rate, rate_steps, dt), by_casts(&q, &rate, rate_steps, dt));
                    }
                }
            }
        }
    }

    #[test]
    fn where_f32_resolves_every_step_each_reads_back_to_itself() {
        // Exhaustively, up to 2^23 steps.
        for (min, max, res) in
            [(-1024.0, 1024.0, 0.01), (0.0, 1.0, 1.0 / 8_388_607.0), (-4096.0, 4096.0, 0.001)]
        {
            let q = Quantizer::new(min, max, res).unwrap();
            assert!(q.resolves_every_step(), "[{min}, {max}] at {res}");
            for step in 0..=q.max_integer {
                assert_eq!(q.quantize(q.dequantize(step).unwrap()), step, "[{min}, {max}] at {res}");
            }
        }
        // Past it, some steps decode to a value that quantizes elsewhere.
        for (min, max, res) in [(-1024.0, 1024.0, 0.0001), (1000.0, 1100.0, 0.00002)] {
            let q = Quantizer::new(min, max, res).unwrap();
            assert!(!q.resolves_every_step(), "[{min}, {max}] at {res}");
            assert!((0..=q.max_integer).any(|step| q.quantize(q.dequantize(step).unwrap()) != step));
        }
        assert!(Quantizer64::new(-1.0e6, 1.0e6, 0.001).unwrap().resolves_every_step());
        assert!(!Quantizer64::new(0.0, 1.0, 1.0e-300).unwrap().resolves_every_step());
    }

    /// The bound of the module docs, in steps.
    fn error_bound_in_steps(q: &Quantizer) -> f64 {
        let n = f64::from(q.max_integer);
        let step = f64::from(q.delta) / n;
        let magnitude = f64::from(q.min.abs().max((q.min + q.delta).abs()));
        0.5 + (6.0 * n + magnitude / step + 1.0) / 16_777_216.0
    }

    /// The largest distance, in steps, between a value and what it decodes
    /// to, over `samples` values spread across the range.
    fn worst_error_in_steps(q: &Quantizer, samples: u32) -> f64 {
        let step = f64::from(q.delta) / f64::from(q.max_integer);
        let mut worst = 0.0f64;
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for index in 0..samples {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let t = if index % 2 == 0 {
                f64::from(index) / f64::from(samples)
            } else {
                (seed >> 11) as f64 / (1u64 << 53) as f64
            };
            let value = (f64::from(q.min) + f64::from(q.delta) * t) as f32;
            if value < q.min || value > q.min + q.delta {
                continue;
            }
            let back = q.dequantize(q.quantize(value)).unwrap();
            worst = worst.max((f64::from(back) - f64::from(value)).abs() / step);
        }
        worst
    }

    #[test]
    fn decoded_values_stay_within_the_documented_bound() {
        let declarations = [
            (0.0, 10.0, 1.0),
            (-1024.0, 1024.0, 0.01),
            (-1024.0, 1024.0, 0.001),
            (0.0, 1.0, 1.0 / 8_388_608.0),
            (-4096.0, 4096.0, 0.0005),
            (-100.0, 100.0, 0.00001),
            (1000.0, 1100.0, 0.00002),
            (0.0, 1.0e9, 1.0),
            (-2.0e9, 2.0e9, 1.0),
        ];
        for (min, max, res) in declarations {
            let q = Quantizer::new(min, max, res).unwrap();
            let (worst, bound) = (worst_error_in_steps(&q, 200_000), error_bound_in_steps(&q));
            assert!(worst <= bound, "[{min}, {max}] at {res}: {worst} steps, bound {bound}");
        }
        // The figures the module docs quote.
        let near = |min, max, res, low: f64, high: f64| {
            let worst = worst_error_in_steps(&Quantizer::new(min, max, res).unwrap(), 400_000);
            assert!((low..=high).contains(&worst), "[{min}, {max}] at {res}: {worst}");
        };
        near(-1024.0, 1024.0, 0.01, 0.5, 0.58);
        near(-4096.0, 4096.0, 0.0005, 2.0, 2.5);
        near(0.0, 1.0e9, 1.0, 16.0, 32.5);
    }

    #[test]
    fn quantize_is_the_reference_floor_for_every_kind_of_value() {
        let declarations = [(-1024.0, 1024.0, 0.01), (0.0, 6.2831855, 0.001), (-1.0, 1.0, 1.0 / 127.0)];
        // Both casts: step counts under 2^30 (signed) and over it (unsigned).
        let wide = [(0.0, 1.0e9, 1.0), (-2.0e9, 2.0e9, 1.0), (0.0, 4.0e9, 0.9), (-1.0e30, 1.0e30, 1.0e21)];
        let mut bits = 0x9E37_79B9u32;
        for (min, max, res) in declarations.into_iter().chain(wide) {
            let q = Quantizer::new(min, max, res).unwrap();
            let edges =
                [min, max, min - 1.0, max + 1.0, 0.0, -0.0, f32::MAX, f32::MIN, f32::NAN, f32::INFINITY];
            for value in edges {
                assert_eq!(q.quantize(value), reference_quantize(&q, value), "{value} in {min} {max} {res}");
            }
            for step in 0..20_000 {
                // Values across the range, and arbitrary bit patterns.
                let value = min + (max - min) * (step as f32 / 19_999.0);
                assert_eq!(q.quantize(value), reference_quantize(&q, value), "{value}");
                bits = bits.wrapping_mul(0x0019_660D).wrapping_add(0x3C6E_F35F);
                let value = f32::from_bits(bits);
                assert_eq!(q.quantize(value), reference_quantize(&q, value), "{value:e}");
            }
        }
    }

    #[test]
    fn quantize64_is_the_reference_formula_in_f64() {
        for (min, max, res) in
            [(-1.0e6, 1.0e6, 0.001), (0.0, core::f64::consts::TAU, 1.0e-6), (-1.0, 1.0, 0.5)]
        {
            let q = Quantizer64::new(min, max, res).unwrap();
            let mut bits = 0x9E37_79B9_7F4A_7C15u64;
            for step in 0..20_000 {
                let value = min + (max - min) * (step as f64 / 19_999.0);
                bits = bits.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                for value in [value, f64::from_bits(bits), min - 1.0, max + 1.0, f64::NAN] {
                    let normalized = (value - min) / q.delta;
                    let normalized = if normalized.is_nan() { 0.0 } else { normalized.clamp(0.0, 1.0) };
                    let scaled = normalized * q.max_integer as f64 + 0.5;
                    let floor =
                        if scaled >= 4_503_599_627_370_496.0 { scaled } else { (scaled as u64) as f64 };
                    assert_eq!(
                        q.quantize(value),
                        (floor as u64).min(q.max_integer),
                        "{value} in {min} {max} {res}"
                    );
                }
            }
            // Every step decodes to a value that quantizes back to it.
            for integer in [0, 1, q.max_integer / 3, q.max_integer - 1, q.max_integer] {
                assert_eq!(q.quantize(q.dequantize(integer).unwrap()), integer);
            }
            assert_eq!(q.dequantize(q.max_integer + 1), None);
        }
        let q = Quantizer64::new(-1.0e6, 1.0e6, 0.001).unwrap();
        assert_eq!((q.max_integer, q.bits), (2_000_000_000, 31));
        // 2^53 steps at most; a finer resolution is clamped there.
        assert_eq!(Quantizer64::new(0.0, 1.0, 1.0e-300).unwrap().max_integer, 1 << 53);
        assert!(Quantizer64::new(1.0, 1.0, 0.1).is_none());
        assert!(Quantizer64::new(0.0, f64::INFINITY, 0.1).is_none());
    }

    #[test]
    fn refuses_bad_declarations() {
        assert!(Quantizer::new(1.0, 1.0, 0.1).is_none());
        assert!(Quantizer::new(0.0, 1.0, 0.0).is_none());
        assert!(Quantizer::new(0.0, 1.0, -1.0).is_none());
        assert!(Quantizer::new(f32::NAN, 1.0, 0.1).is_none());
        assert!(Quantizer::new(0.0, f32::INFINITY, 0.1).is_none());
        assert!(Quantizer::new(-3.0e38, 3.0e38, 1.0).is_none());
    }
}
