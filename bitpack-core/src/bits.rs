//! Bit arithmetic shared by the write and read sides: the widths of ranged
//! encodings, zig-zag, masks, alignment padding, and the NUL scan of strings.

use crate::words::short_word;

/// Bits needed to send any value of `[min, max]` as `value - min`: the bit
/// length of `max - min` (computed in `u32`, so any `i32` range works).
/// `0` when `min == max`. With `min > max` the range is empty; writers refuse
/// such declarations, and this returns the width of the wrapped difference.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::bits_required;
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
/// # extern crate bitpack_core as bitpack;
/// use bitpack::bits_required64;
/// assert_eq!(bits_required64(-5_000_000_000, 5_000_000_000), 34);
/// ```
#[inline]
pub const fn bits_required64(min: i64, max: i64) -> u32 {
    bit_length_u128((max as u64).wrapping_sub(min as u64) as u128)
}

/// [`bits_required`] for `i128` ranges (which hold every `u64` range too).
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::bits_required128;
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
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{zigzag_decode32, zigzag_encode32};
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

/// Whether `bytes` holds a NUL, eight bytes at a time: the early-exit byte
/// loop `contains` compiles to was about half the cost of counting an object.
#[inline(always)]
pub(crate) fn has_nul(bytes: &[u8]) -> bool {
    const LOW_BITS: u64 = 0x0101_0101_0101_0101;
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    let (words, rest) = bytes.as_chunks::<8>();
    let mut found = false;
    for word in words {
        let word = u64::from_le_bytes(*word);
        // Nonzero exactly when some byte of `word` is zero.
        found |= word.wrapping_sub(LOW_BITS) & !word & HIGH_BITS != 0;
    }
    // The last bytes in one word, the bytes past them 0xFF (not NUL).
    let word = short_word(rest, |byte| byte) | u64::MAX.checked_shl(8 * rest.len() as u32).unwrap_or(0);
    found | (word.wrapping_sub(LOW_BITS) & !word & HIGH_BITS != 0)
}

/// Bits of zero padding from `position` to the next byte boundary.
#[inline(always)]
pub(crate) const fn align_padding(position: usize) -> u32 {
    ((8 - (position & 7)) & 7) as u32
}

/// Whether a string may hold NUL bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Nul {
    /// The reference's strings: a C++ reader would cut the text at a NUL.
    Refused,
    /// Derived `String` fields, read only by bitpack: NUL is a byte.
    Allowed,
}

#[cfg(test)]
mod tests {
    use super::has_nul;

    #[test]
    fn has_nul_finds_a_zero_at_every_position() {
        for len in 0..40 {
            let mut bytes = [0x80u8; 40];
            assert!(!has_nul(&bytes[..len]), "no NUL in {len} bytes");
            for at in 0..len {
                bytes[at] = 0;
                assert!(has_nul(&bytes[..len]), "NUL at {at} of {len}");
                bytes[at] = if at % 2 == 0 { 0x01 } else { 0xFF };
            }
            assert!(!has_nul(&bytes[..len]), "0x01 and 0xFF are not NUL");
        }
    }
}
