//! The integer types adaptive values come in, and the sign mode of a
//! message their magnitudes follow.

use crate::error::Error;
use crate::read::BitRead;
use crate::write::BitWrite;

mod sealed {
    pub trait Sealed {}
}

/// How the signed adaptive values of one message are sent: chosen once per
/// message from "is any of them negative", and passed down to nested types.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::Signs;
/// assert_eq!(Signs::for_any_negative(false), Signs::NonNegative);
/// assert_eq!(Signs::for_any_negative(true), Signs::ZigZag);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signs {
    /// No signed value is negative: each is sent as its plain value.
    NonNegative,
    /// Some signed value is negative: each is sent zig-zag coded.
    ZigZag,
}

impl Signs {
    /// The mode for a message in which some signed value is negative (or not).
    #[inline]
    pub const fn for_any_negative(any_negative: bool) -> Self {
        if any_negative { Signs::ZigZag } else { Signs::NonNegative }
    }

    /// Writes the message's sign bit: 1 for [`Signs::ZigZag`].
    #[inline]
    pub fn write<W: BitWrite>(self, writer: &mut W) -> Result<(), Error> {
        writer.write_bool(self == Signs::ZigZag)
    }

    /// Reads the message's sign bit.
    #[inline]
    pub fn read(reader: &mut impl BitRead) -> Result<Self, Error> {
        Ok(Self::for_any_negative(reader.read_bool()?))
    }
}

/// An integer type that can be sent adaptively: every primitive integer.
/// Sealed; the constants describe its wire form (see the module docs).
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::AdaptiveInt;
/// assert_eq!((u8::PREFIX_BITS, u16::PREFIX_BITS, i32::PREFIX_BITS, u64::PREFIX_BITS), (3, 4, 5, 6));
/// assert_eq!(i32::MAX_BITS, 37); // i32::MIN zig-zag coded: escape, 1 bit, 31 bits
/// ```
pub trait AdaptiveInt: Copy + sealed::Sealed {
    /// Bits of the length prefix: 3, 4, 5, 6 or 7.
    const PREFIX_BITS: u32;
    /// Bits of the type on the wire (`2^PREFIX_BITS`): its longest length.
    const WIDTH: u32;
    /// Whether the type is signed (and so follows the message's [`Signs`]).
    const SIGNED: bool;
    /// The value 0.
    const ZERO: Self;
    /// The most bits one value takes: the escape, its bit, `WIDTH - 1` bits.
    const MAX_BITS: usize = (Self::PREFIX_BITS + Self::WIDTH) as usize;

    /// Whether the value is below zero (never, for unsigned types).
    fn is_negative(self) -> bool;

    /// The magnitude sent for the value under `signs`, or `None` for a
    /// negative value under [`Signs::NonNegative`].
    fn to_magnitude(self, signs: Signs) -> Option<u128>;

    /// The value a magnitude stands for under `signs`, or `None` when no
    /// value of the type has that magnitude.
    fn from_magnitude(magnitude: u128, signs: Signs) -> Option<Self>;
}

macro_rules! unsigned_adaptive {
    ($($t:ty => $prefix:expr),*) => {$(
        impl sealed::Sealed for $t {}
        impl AdaptiveInt for $t {
            const PREFIX_BITS: u32 = $prefix;
            const WIDTH: u32 = 1 << $prefix;
            const SIGNED: bool = false;
            const ZERO: Self = 0;
            #[inline]
            fn is_negative(self) -> bool {
                false
            }
            #[inline]
            fn to_magnitude(self, _signs: Signs) -> Option<u128> {
                Some(self as u128)
            }
            #[inline]
            fn from_magnitude(magnitude: u128, _signs: Signs) -> Option<Self> {
                <$t>::try_from(magnitude).ok()
            }
        }
    )*};
}

macro_rules! signed_adaptive {
    ($($t:ty, $unsigned:ty, $wide:ty => $prefix:expr),*) => {$(
        impl sealed::Sealed for $t {}
        impl AdaptiveInt for $t {
            const PREFIX_BITS: u32 = $prefix;
            const WIDTH: u32 = 1 << $prefix;
            const SIGNED: bool = true;
            const ZERO: Self = 0;
            #[inline]
            fn is_negative(self) -> bool {
                self < 0
            }
            #[inline]
            fn to_magnitude(self, signs: Signs) -> Option<u128> {
                match signs {
                    Signs::NonNegative => u128::try_from(self).ok(),
                    Signs::ZigZag => {
                        // Zig-zag in the wire width ($wide), so isize is the same on every target.
                        let value = self as $wide;
                        Some((((value << 1) ^ (value >> (<$wide>::BITS - 1))) as $unsigned) as u128)
                    }
                }
            }
            #[inline]
            fn from_magnitude(magnitude: u128, signs: Signs) -> Option<Self> {
                match signs {
                    Signs::NonNegative => <$t>::try_from(magnitude).ok(),
                    Signs::ZigZag => {
                        let coded = <$unsigned>::try_from(magnitude).ok()?;
                        let value = ((coded >> 1) as $wide) ^ -((coded & 1) as $wide);
                        <$t>::try_from(value).ok()
                    }
                }
            }
        }
    )*};
}

unsigned_adaptive!(u8 => 3, u16 => 4, u32 => 5, u64 => 6, u128 => 7, usize => 6);
signed_adaptive!(
    i8, u8, i8 => 3,
    i16, u16, i16 => 4,
    i32, u32, i32 => 5,
    i64, u64, i64 => 6,
    i128, u128, i128 => 7,
    isize, u64, i64 => 6
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zigzag_matches_the_core_helpers() {
        for value in [0i32, -1, 1, i32::MIN, i32::MAX, -12345] {
            let expected = u128::from(crate::zigzag_encode32(value));
            assert_eq!(value.to_magnitude(Signs::ZigZag), Some(expected));
        }
        assert_eq!((-1isize).to_magnitude(Signs::ZigZag), Some(1));
    }
}
