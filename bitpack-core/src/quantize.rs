//! The reference's compressed-float arithmetic, in f32 step by step.
//!
//! Every step is rounded to f32 and nothing is fused, exactly as the
//! reference compiles with `-ffp-contract=off`: Rust never contracts float
//! operations, so plain f32 arithmetic here matches it bit for bit.

use crate::bits::bits_required64;

/// The largest step count the reference allows: the largest f32 below 2^32.
pub(crate) const MAX_STEPS: f32 = 4_294_967_040.0;

/// A validated `(min, max, res)` declaration and what follows from it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quantizer {
    min: f32,
    delta: f32,
    /// The largest integer on the wire: `ceil((max - min) / res)`.
    max_integer: u32,
    /// `bits_required(0, max_integer)`.
    pub(crate) bits: u32,
}

impl Quantizer {
    /// `None` when the declaration is unusable: a non-finite bound or
    /// resolution, `min >= max`, `res <= 0`, or a span that overflows f32.
    #[inline]
    pub(crate) const fn new(min: f32, max: f32, res: f32) -> Option<Self> {
        if !(min.is_finite() && max.is_finite() && res.is_finite()) || min >= max || res <= 0.0 {
            return None;
        }
        let delta = max - min;
        if !delta.is_finite() {
            return None;
        }
        let values = delta / res;
        // NaN cannot reach here (finite / positive), but the reference maps it to 1.
        let values = if values.is_nan() { 1.0 } else { values.clamp(1.0, MAX_STEPS) };
        // `ceil` of a float in [1, MAX_STEPS] is an exact integer below 2^32.
        let max_integer = ceil_f32(values) as u32;
        Some(Quantizer { min, delta, max_integer, bits: bits_required64(0, max_integer as i64) })
    }

    /// The integer the reference writes for a finite `value` (clamped into range).
    #[inline]
    pub(crate) fn quantize(&self, value: f32) -> u32 {
        let normalized = (value - self.min) / self.delta;
        let normalized = if normalized.is_nan() { 0.0 } else { normalized.clamp(0.0, 1.0) };
        // `max_integer` came from an f32, so it converts back exactly and
        // `normalized <= 1` keeps the result at or below it.
        floor_f32(normalized * self.max_integer as f32 + 0.5) as u32
    }

    /// The value the reference reads back for `integer`, or `None` when the
    /// integer is above the declared maximum.
    #[inline]
    pub(crate) fn dequantize(&self, integer: u32) -> Option<f32> {
        if integer > self.max_integer {
            return None;
        }
        let normalized = integer as f32 / self.max_integer as f32;
        Some(normalized * self.delta + self.min)
    }
}

/// `f32::floor` needs `std`; this works in `no_std` for the non-negative
/// finite values quantization produces.
#[inline(always)]
fn floor_f32(x: f32) -> f32 {
    // Every f32 at or above 2^23 is already an integer.
    if x >= 8_388_608.0 { x } else { (x as u32) as f32 }
}

/// Ceiling for positive finite values, without `std`.
#[inline(always)]
const fn ceil_f32(x: f32) -> f32 {
    if x >= 8_388_608.0 {
        return x;
    }
    let truncated = (x as u32) as f32;
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
