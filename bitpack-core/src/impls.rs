//! `BitPack` for the standard types the derive builds on: `bool`, every
//! integer at its full range, raw `f32`/`f64`, `()`, tuples, arrays,
//! `Option`, `Box`, `Rc` and `Arc`. Fingerprints come from the same functions the
//! derive calls, so a plain `u8` field and `#[bits(min = 0, max = 255)]`
//! hash alike (they write alike). A composite's failed write or read puts
//! the writer or reader back where it was, whatever its parts do.

use crate::error::Error;
use crate::pack::BitPack;
use crate::private::{self, schema};
use crate::read::BitRead;
use crate::write::BitWrite;

/// Types with a fixed-width core operation: `bool` (1 bit), raw `f32`
/// and `f64` (their IEEE bits).
macro_rules! fixed_width {
    ($($ty:ty, $bits:expr, $kind:ident, $write:ident, $read:ident;)*) => {$(
        impl BitPack for $ty {
            const MAX_BITS: usize = $bits;
            const MIN_BITS: usize = $bits;
            const SCHEMA: u64 = schema::node(schema::$kind, &[]);

            #[inline(always)]
            fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
                writer.$write(*self)
            }

            #[inline(always)]
            fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
                reader.$read()
            }
        }
    )*};
}

fixed_width! {
    bool, 1, BOOL, write_bool, read_bool;
    f32, 32, F32, write_f32, read_f32;
    f64, 64, F64, write_f64, read_f64;
}

/// Unsigned integers: their raw bits (`value - 0` at full width).
macro_rules! unsigned {
    ($($ty:ident $module:ident $write:ident $read:ident;)*) => {$(
        impl BitPack for $ty {
            const MAX_BITS: usize = $ty::BITS as usize;
            const MIN_BITS: usize = $ty::BITS as usize;
            const SCHEMA: u64 = private::$module::schema($ty::MIN, $ty::MAX);

            #[inline(always)]
            fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
                writer.$write(*self)
            }

            #[inline(always)]
            fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
                reader.$read()
            }
        }
    )*};
}

unsigned! {
    u8 ranged_u8 write_u8 read_u8;
    u16 ranged_u16 write_u16 read_u16;
    u32 ranged_u32 write_u32 read_u32;
    u64 ranged_u64 write_u64 read_u64;
    u128 ranged_u128 write_u128 read_u128;
}

/// Signed integers: offset by their minimum, as `#[bits(min = MIN, max = MAX)]`.
macro_rules! signed {
    ($($ty:ident $module:ident;)*) => {$(
        impl BitPack for $ty {
            const MAX_BITS: usize = $ty::BITS as usize;
            const MIN_BITS: usize = $ty::BITS as usize;
            const SCHEMA: u64 = private::$module::schema($ty::MIN, $ty::MAX);

            #[inline(always)]
            fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
                private::$module::write(writer, *self, $ty::MIN, $ty::MAX)
            }

            #[inline(always)]
            fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
                private::$module::read(reader, $ty::MIN, $ty::MAX)
            }
        }
    )*};
}

signed! {
    i8 ranged_i8;
    i16 ranged_i16;
    i32 ranged_i32;
    i64 ranged_i64;
    i128 ranged_i128;
}

impl<T: BitPack> BitPack for Option<T> {
    const MAX_BITS: usize = 1usize.saturating_add(T::MAX_BITS);
    const MIN_BITS: usize = 1;
    const SCHEMA: u64 = schema::option(T::SCHEMA);

    #[inline(always)]
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        match self {
            Some(value) => private::write_atomic(writer, |writer| value.__write_some(writer)),
            None => writer.write_bool(false),
        }
    }

    #[inline(always)]
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        private::read_atomic(reader, |reader| {
            if reader.read_bool()? { Ok(Some(T::read_from(reader)?)) } else { Ok(None) }
        })
    }
}

/// A box (or an `Rc`, an `Arc`) writes what it holds; a read makes a new one.
macro_rules! pointer {
    ($($(#[$cfg:meta])* $pointer:path;)*) => {$(
        $(#[$cfg])*
        impl<T: BitPack> BitPack for $pointer {
            const MAX_BITS: usize = T::MAX_BITS;
            const MIN_BITS: usize = T::MIN_BITS;
            const SCHEMA: u64 = T::SCHEMA;

            #[inline(always)]
            fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
                T::write_to(self, writer)
            }

            /// Built on the heap, its size claimed from the reader's budget
            /// first ([`BitPack::read_boxed`]).
            #[inline(always)]
            fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
                Ok(<$pointer>::from(T::read_boxed(reader)?))
            }
        }
    )*};
}

pointer! {
    #[cfg(feature = "alloc")]
    alloc::boxed::Box<T>;
    #[cfg(feature = "alloc")]
    alloc::rc::Rc<T>;
    #[cfg(all(feature = "alloc", target_has_atomic = "ptr"))]
    alloc::sync::Arc<T>;
}

/// `N` values one after the other.
impl<T: BitPack, const N: usize> BitPack for [T; N] {
    const MAX_BITS: usize = private::times(N, T::MAX_BITS);
    const MIN_BITS: usize = private::times(N, T::MIN_BITS);
    const SCHEMA: u64 = schema::array(N, T::SCHEMA);

    #[inline(always)]
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        // Element by element, or a block of elements at a time for a
        // derived `T` with quantized fused runs (`__write_items`).
        private::write_atomic(writer, |writer| T::__write_items(self, writer))
    }

    #[inline(always)]
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        private::read_array(reader, T::read_from)
    }

    #[cfg(feature = "alloc")]
    #[inline]
    fn read_boxed<R: BitRead>(reader: &mut R) -> Result<alloc::boxed::Box<Self>, Error> {
        private::read_boxed_array(reader, T::read_from)
    }
}

/// Tuples (and `()`): their elements in order, like a tuple struct.
macro_rules! tuple {
    ($(($($name:ident $index:tt),*);)*) => {$(
        impl<$($name: BitPack),*> BitPack for ($($name,)*) {
            const MAX_BITS: usize = private::sum(&[$($name::MAX_BITS),*]);
            const MIN_BITS: usize = private::sum(&[$($name::MIN_BITS),*]);
            const SCHEMA: u64 = schema::sequence(&[$($name::SCHEMA),*]);

            #[inline(always)]
            #[allow(unused_variables)]
            fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
                private::write_atomic(writer, |writer| {
                    $(self.$index.write_to(writer)?;)*
                    Ok(())
                })
            }

            #[inline(always)]
            #[allow(unused_variables)]
            fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
                private::read_atomic(reader, |reader| Ok(($($name::read_from(reader)?,)*)))
            }
        }
    )*};
}

tuple! {
    ();
    (A 0);
    (A 0, B 1);
    (A 0, B 1, C 2);
    (A 0, B 1, C 2, D 3);
    (A 0, B 1, C 2, D 3, E 4);
    (A 0, B 1, C 2, D 3, E 4, F 5);
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6);
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::BitReader;
    use crate::{BitCounter, BitWriter};

    fn round_trip<T: BitPack + PartialEq + core::fmt::Debug>(value: T, bits: usize) {
        let mut counter = BitCounter::new();
        value.write_to(&mut counter).unwrap();
        assert_eq!(counter.bits_written(), bits);
        assert!(bits <= T::MAX_BITS && bits >= T::MIN_BITS);
        let mut buf = [0u8; 64];
        let mut writer = BitWriter::new(&mut buf);
        value.write_to(&mut writer).unwrap();
        let used = writer.finish().unwrap();
        let mut reader = BitReader::new(&buf[..used]);
        assert_eq!(T::read_from(&mut reader).unwrap(), value);
        assert_eq!(reader.bits_read(), bits);
    }

    #[test]
    fn std_types_round_trip_at_their_widths() {
        round_trip(true, 1);
        round_trip(200u8, 8);
        round_trip(-5i8, 8);
        round_trip(i64::MIN, 64);
        round_trip(u128::MAX, 128);
        round_trip(i128::MIN, 128);
        round_trip(-0.0f32, 32);
        round_trip(1.5f64, 64);
        round_trip((), 0);
        round_trip((1u8, false, -1i16), 25);
        round_trip(Some(3u16), 17);
        round_trip(None::<u16>, 1);
        round_trip([1u8, 2, 3], 24);
        round_trip(alloc::boxed::Box::new(7u32), 32);
    }

    #[test]
    fn signed_full_range_is_offset_by_min() {
        let mut buf = [0u8; 1];
        let mut writer = BitWriter::new(&mut buf);
        (-128i8).write_to(&mut writer).unwrap();
        writer.finish().unwrap();
        assert_eq!(buf, [0]);
    }

    #[test]
    fn plain_and_full_range_integers_share_a_fingerprint() {
        assert_eq!(u8::SCHEMA, private::ranged_u8::schema(0, 255));
        assert_ne!(u8::SCHEMA, u16::SCHEMA);
        assert_ne!(<Option<u8>>::SCHEMA, u8::SCHEMA);
        assert_eq!(<alloc::boxed::Box<u8>>::SCHEMA, u8::SCHEMA);
    }
}
