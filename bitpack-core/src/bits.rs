//! Bit-width arithmetic shared by every ranged encoding.

/// Bits needed to send any value of `[min, max]` as `value - min`: the bit
/// length of `max - min` (computed in `u32`, so any `i32` range works).
/// `0` when `min == max`. With `min > max` the range is empty; writers refuse
/// such declarations, and this returns the width of the wrapped difference.
///
/// ```
/// use bitpack_core::bits_required;
/// assert_eq!(bits_required(0, 1000), 10);
/// assert_eq!(bits_required(-10, 10), 5);
/// assert_eq!(bits_required(7, 7), 0);
/// assert_eq!(bits_required(i32::MIN, i32::MAX), 32);
/// ```
#[inline]
pub const fn bits_required(min: i32, max: i32) -> u32 {
    bit_length_u128((max as u32).wrapping_sub(min as u32) as u128)
}

/// [`bits_required`] for `i64` ranges.
///
/// ```
/// use bitpack_core::bits_required64;
/// assert_eq!(bits_required64(-5_000_000_000, 5_000_000_000), 34);
/// ```
#[inline]
pub const fn bits_required64(min: i64, max: i64) -> u32 {
    bit_length_u128((max as u64).wrapping_sub(min as u64) as u128)
}

/// [`bits_required`] for `i128` ranges (which hold every `u64` range too).
///
/// ```
/// use bitpack_core::bits_required128;
/// assert_eq!(bits_required128(0, u64::MAX as i128), 64);
/// assert_eq!(bits_required128(i128::MIN, i128::MAX), 128);
/// ```
#[inline]
pub const fn bits_required128(min: i128, max: i128) -> u32 {
    bit_length_u128((max as u128).wrapping_sub(min as u128))
}

/// Number of significant bits of `value` (0 for 0).
#[inline]
pub(crate) const fn bit_length_u128(value: u128) -> u32 {
    128 - value.leading_zeros()
}

/// Zig-zag maps signed to unsigned so small magnitudes stay small:
/// 0, -1, 1, -2 become 0, 1, 2, 3.
///
/// ```
/// use bitpack_core::{zigzag_decode32, zigzag_encode32};
/// assert_eq!(zigzag_encode32(-1), 1);
/// assert_eq!(zigzag_encode32(i32::MIN), u32::MAX);
/// assert_eq!(zigzag_decode32(zigzag_encode32(-12345)), -12345);
/// ```
#[inline]
pub const fn zigzag_encode32(value: i32) -> u32 {
    ((value << 1) ^ (value >> 31)) as u32
}

/// Inverse of [`zigzag_encode32`].
#[inline]
pub const fn zigzag_decode32(value: u32) -> i32 {
    ((value >> 1) as i32) ^ -((value & 1) as i32)
}

/// Zig-zag for `i64`; see [`zigzag_encode32`].
#[inline]
pub const fn zigzag_encode64(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// Inverse of [`zigzag_encode64`].
#[inline]
pub const fn zigzag_decode64(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

/// A mask of the low `bits` bits, `bits` in `0..=64`.
#[inline(always)]
pub(crate) const fn low_mask(bits: u32) -> u64 {
    if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 }
}
