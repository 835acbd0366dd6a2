//! The runtime behind `#[bitpack(adaptive)]` and fixed-point
//! `#[quantize(res)]`: the adaptive codecs of [`crate::adaptive`], plus the
//! `const fn`s generated `MAX_BITS`, `MIN_BITS` and `SCHEMA` are built from.
//!
//! A type with adaptive values implements [`SignScope`]; its `BitPack`
//! impl is [`write_scope`]/[`read_scope`], so a message of it spends one
//! sign bit (when it holds signed adaptive values) before its fields.

#[cfg(feature = "alloc")]
pub use crate::adaptive::read_adaptive_vec;
pub use crate::adaptive::{
    AdaptiveInt, SignScope, Signs, adaptive_group_max_bits, adaptive_vec_max_bits, any_negative,
    fixed_point_is_negative, read_adaptive, read_adaptive_group, read_fixed, read_fixed_f32, read_scope,
    write_adaptive, write_adaptive_group, write_adaptive_vec, write_fixed, write_fixed_f32, write_scope,
};
pub use core::iter::{IntoIterator, Iterator};

use super::{len_bits, schema};

/// Bits of the message's sign bit: 1 when the type holds signed adaptive values.
#[inline]
pub const fn sign_bits(has_signed: bool) -> usize {
    if has_signed { 1 } else { 0 }
}

/// Whether any flag is set (`HAS_SIGNED` of several fields), in `const`.
#[inline]
pub const fn any(flags: &[bool]) -> bool {
    let mut index = 0;
    while index < flags.len() {
        if flags[index] {
            return true;
        }
        index += 1;
    }
    false
}

/// The most bits one adaptive `T` takes.
#[inline]
pub const fn int_max_bits<T: AdaptiveInt>() -> usize {
    <T as AdaptiveInt>::MAX_BITS
}

/// The fewest bits one adaptive `T` takes: its prefix alone (the value 0).
#[inline]
pub const fn int_min_bits<T: AdaptiveInt>() -> usize {
    T::PREFIX_BITS as usize
}

/// The fewest bits a group of `count` values takes: the mode bit and a
/// shared width of 0 (all zeros); nothing for an empty group.
#[inline]
pub const fn group_min_bits<T: AdaptiveInt>(count: usize) -> usize {
    if count == 0 { 0 } else { 1 + T::PREFIX_BITS as usize }
}

/// The fewest bits an adaptive `Vec` takes: its length (empty).
#[inline]
pub const fn vec_min_bits(max_len: usize) -> usize {
    len_bits(max_len)
}

/// The most bits a fixed-point float takes: an adaptive `i64`.
pub const FIXED_MAX_BITS: usize = <i64 as AdaptiveInt>::MAX_BITS;

/// The fewest bits a fixed-point float takes: the `i64` prefix.
pub const FIXED_MIN_BITS: usize = <i64 as AdaptiveInt>::PREFIX_BITS as usize;

/// Bits of a nested type written under its parent's sign mode: its own
/// `MAX_BITS` (or `MIN_BITS`) without its own sign bit.
#[inline]
pub const fn scoped_bits(bits: usize, has_signed: bool) -> usize {
    bits.saturating_sub(sign_bits(has_signed))
}

/// Whether a fixed-point `f32` counts as negative in the message's pre-pass.
#[inline]
pub fn fixed_is_negative_f32(value: f32, res: f64) -> bool {
    fixed_point_is_negative(f64::from(value), res)
}

/// Why a fixed-point `res` is refused, if it is: checked at compile time
/// for a `res` given as a path to a constant.
pub const fn fixed_problem(res: f64) -> Option<&'static str> {
    if res.is_finite() && res > 0.0 { None } else { Some("quantize: `res` must be a finite number above 0") }
}

/// Fingerprint of one adaptive integer of `T`.
#[inline]
pub const fn int_schema<T: AdaptiveInt>() -> u64 {
    schema::node(schema::ADAPTIVE, &[T::PREFIX_BITS as u64, T::SIGNED as u64])
}

/// Fingerprint of a group of `count` adaptive `T` (an array).
#[inline]
pub const fn group_schema<T: AdaptiveInt>(count: usize) -> u64 {
    schema::node(schema::ADAPTIVE_GROUP, &[count as u64, int_schema::<T>()])
}

/// Fingerprint of an adaptive `Vec<T>` of at most `max_len`.
#[inline]
pub const fn vec_schema<T: AdaptiveInt>(max_len: usize) -> u64 {
    schema::vec(max_len, group_schema::<T>(0))
}

/// Fingerprint of a fixed-point float of `float_bits` (32 or 64) at `res`.
#[inline]
pub const fn fixed_schema(res: f64, float_bits: u32) -> u64 {
    schema::node(schema::FIXED, &[res.to_bits(), float_bits as u64])
}

/// Fingerprint of a nested type sharing its parent's sign bit.
#[inline]
pub const fn scoped_schema(nested: u64) -> u64 {
    schema::node(schema::SCOPED, &[nested])
}

/// Fingerprint of a whole adaptive message: its sign bit, then `body`.
#[inline]
pub const fn scope_schema(has_signed: bool, body: u64) -> u64 {
    schema::node(schema::SIGN_SCOPE, &[has_signed as u64, body])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BitCounter;
    use crate::write::BitWrite;

    #[test]
    fn minimums_are_what_zeros_take() {
        let mut counter = BitCounter::new();
        write_adaptive(&mut counter, 0u16, Signs::NonNegative).unwrap();
        assert_eq!(counter.bits_written(), int_min_bits::<u16>());
        let mut counter = BitCounter::new();
        write_adaptive_group(&mut counter, &[0i32; 4], Signs::ZigZag).unwrap();
        assert_eq!(counter.bits_written(), group_min_bits::<i32>(4));
        assert_eq!(group_min_bits::<i32>(0), 0);
        let mut counter = BitCounter::new();
        write_fixed(&mut counter, 0.0, 0.5, Signs::ZigZag).unwrap();
        assert_eq!(counter.bits_written(), FIXED_MIN_BITS);
    }

    #[test]
    fn scoped_bits_drop_only_a_real_sign_bit() {
        assert_eq!(scoped_bits(38, true), 37);
        assert_eq!(scoped_bits(38, false), 38);
        assert_eq!(scoped_bits(0, true), 0);
    }

    #[test]
    fn fingerprints_tell_kinds_apart() {
        assert_ne!(int_schema::<i32>(), int_schema::<u32>());
        assert_ne!(int_schema::<u32>(), int_schema::<u64>());
        assert_ne!(group_schema::<u8>(3), group_schema::<u8>(4));
        assert_ne!(fixed_schema(0.001, 32), fixed_schema(0.001, 64));
        assert_ne!(fixed_schema(0.001, 64), fixed_schema(0.01, 64));
        assert_ne!(scope_schema(true, 5), scope_schema(false, 5));
        assert_ne!(scoped_schema(7), 7);
        assert_eq!(int_schema::<u64>(), int_schema::<usize>());
    }

    #[test]
    fn fixed_problems_are_named() {
        assert!(fixed_problem(0.001).is_none());
        assert!(fixed_problem(0.0).is_some());
        assert!(fixed_problem(-1.0).is_some());
        assert!(fixed_problem(f64::INFINITY).is_some());
        assert!(fixed_problem(f64::NAN).is_some());
    }
}
