//! The reference's compressed-float arithmetic, in f32 step by step, and
//! the same arithmetic in f64 for `f64` fields (bitpack's own extension:
//! the reference has no compressed double).
//!
//! Every step is rounded to the float type and nothing is fused, exactly as
//! the reference compiles with `-ffp-contract=off`: Rust never contracts
//! float operations, so plain arithmetic here matches it bit for bit.

use crate::bits::bits_required64;

/// The largest step count the reference allows: the largest f32 below 2^32.
pub(crate) const MAX_STEPS: f32 = 4_294_967_040.0;

/// The largest step count of an f64 declaration: 2^53, below which every
/// integer is an exact f64 (so steps convert back and forth exactly).
pub(crate) const MAX_STEPS_F64: f64 = 9_007_199_254_740_992.0;

/// Below this many steps [`Quantizer::quantize`] takes the signed cast:
/// `scaled` is at most `max_integer + 0.5`, far below 2^31.
const SIGNED_CAST_STEPS: u32 = 1 << 30;

/// A quantizer for one float type: `$float` arithmetic, `$int` steps,
/// `$signed` the signed cast below `$signed_steps` steps (branch-free on
/// x86 where the unsigned one branches), `$ceil` a const ceiling.
macro_rules! quantizer {
    ($(#[$doc:meta])* $name:ident, $float:ident, $int:ident, $signed:ident, $max_steps:expr, $signed_steps:expr, $ceil:ident) => {
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

            /// The largest integer on the wire.
            #[inline]
            pub(crate) const fn max_integer(&self) -> $int {
                self.max_integer
            }

            /// The integer the reference writes for a finite `value` (clamped into range).
            #[inline]
            pub(crate) fn quantize(&self, value: $float) -> $int {
                // `max(0.0)` turns a NaN into 0, which is what the reference's clamp
                // ends in (writes refuse NaN before this anyway).
                #[allow(clippy::manual_clamp)]
                let normalized = ((value - self.min) / self.delta).max(0.0).min(1.0);
                // `max_integer` came from a float, so it converts back exactly and
                // `normalized <= 1` keeps the result at or below it. The sum is
                // non-negative, where the truncating cast is the reference's
                // `floor` (a separate floor measured ~2 compares more per float).
                let scaled = normalized * self.max_integer as $float + 0.5;
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
        }
    };
}

quantizer!(
    /// A validated `(min, max, res)` declaration and what follows from it.
    Quantizer, f32, u32, i32, MAX_STEPS, SIGNED_CAST_STEPS, ceil_f32
);

quantizer!(
    /// [`Quantizer`] for `f64` fields: the same steps in f64 arithmetic, up
    /// to 2^53 of them.
    Quantizer64, f64, u64, i64, MAX_STEPS_F64, 1 << 62, ceil_f64
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
        floor as u32
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
                    assert_eq!(q.quantize(value), floor as u64, "{value} in {min} {max} {res}");
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
