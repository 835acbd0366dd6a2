//! `BitPack` for the other standard types games hold: `char`, `Duration`,
//! the `NonZero` integers and `PhantomData` (`Rc` and `Arc` are with `Box`).
//! Each has one encoding per value, and readers refuse the bit patterns no
//! value writes (a surrogate `char`, nanoseconds past a second, a zero).

use core::marker::PhantomData;
use core::num::{
    NonZeroI8, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI128, NonZeroU8, NonZeroU16, NonZeroU32,
    NonZeroU64, NonZeroU128,
};
use core::time::Duration;

use crate::error::{Error, ErrorKind};
use crate::pack::BitPack;
use crate::private::{ranged_u32, schema};
use crate::read::BitRead;
use crate::source::SourceExt;
use crate::write::BitWrite;

/// The largest Unicode scalar value.
const CHAR_MAX: i32 = char::MAX as i32;

/// A `char` is its scalar value in 21 bits (`int(c, 0, 0x10FFFF)`): the
/// cheapest there is, as 1,112,064 scalar values need 21 bits however they
/// are packed. Readers refuse surrogates (`0xD800..=0xDFFF`); values above
/// `0x10FFFF` are out of the range.
impl BitPack for char {
    const MAX_BITS: usize = 21;
    const MIN_BITS: usize = 21;
    const SCHEMA: u64 = schema::node(schema::CHAR, &[]);

    #[inline(always)]
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.write_int(*self as i32, 0, CHAR_MAX)
    }

    #[inline(always)]
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        let start = reader.bits_read();
        let value = reader.read_int(0, CHAR_MAX)?;
        match char::from_u32(value as u32) {
            Some(c) => Ok(c),
            None => reader.fail(start, ErrorKind::OutOfRange),
        }
    }
}

/// The most nanoseconds a `Duration` holds past its seconds.
const NANOS_MAX: u32 = 999_999_999;

/// A `Duration` is its whole seconds (`u64`, 64 bits) then its nanoseconds
/// (`int(nanos, 0, 999_999_999)`, 30 bits): 94 bits, as the struct
/// `{ secs: u64, #[bits(min = 0, max = 999_999_999)] nanos: u32 }` writes.
impl BitPack for Duration {
    const MAX_BITS: usize = 64 + 30;
    const MIN_BITS: usize = 64 + 30;
    const SCHEMA: u64 = schema::sequence(&[u64::SCHEMA, ranged_u32::schema(0, NANOS_MAX)]);

    #[inline(always)]
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.reserve(Self::MAX_BITS)?;
        writer.write_u64(self.as_secs())?;
        ranged_u32::write(writer, self.subsec_nanos(), 0, NANOS_MAX)
    }

    #[inline(always)]
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        let start = reader.bits_read();
        let secs = reader.read_u64()?;
        match ranged_u32::read(reader, 0, NANOS_MAX) {
            Ok(nanos) => Ok(Duration::new(secs, nanos)),
            Err(error) => reader.fail(start, error.kind()),
        }
    }
}

/// A nonzero integer (`usize` and `isize` have no `BitPack`, their width
/// being the platform's, so neither have their nonzero forms) is the integer's own bits (a `NonZeroU16` writes as a
/// `u16`, so a field can change between them without changing the wire);
/// readers refuse zero.
macro_rules! nonzero {
    ($($nonzero:ident $int:ident;)*) => {$(
        impl BitPack for $nonzero {
            const MAX_BITS: usize = <$int>::MAX_BITS;
            const MIN_BITS: usize = <$int>::MIN_BITS;
            const SCHEMA: u64 = schema::node(schema::NONZERO, &[<$int>::SCHEMA]);

            #[inline(always)]
            fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
                self.get().write_to(writer)
            }

            #[inline(always)]
            fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
                let start = reader.bits_read();
                match $nonzero::new(<$int>::read_from(reader)?) {
                    Some(value) => Ok(value),
                    None => reader.fail(start, ErrorKind::OutOfRange),
                }
            }
        }
    )*};
}

nonzero! {
    NonZeroU8 u8;
    NonZeroU16 u16;
    NonZeroU32 u32;
    NonZeroU64 u64;
    NonZeroU128 u128;
    NonZeroI8 i8;
    NonZeroI16 i16;
    NonZeroI32 i32;
    NonZeroI64 i64;
    NonZeroI128 i128;
}

/// A `PhantomData` writes nothing, as `()`.
impl<T: ?Sized> BitPack for PhantomData<T> {
    const MAX_BITS: usize = 0;
    const MIN_BITS: usize = 0;
    const SCHEMA: u64 = <()>::SCHEMA;

    #[inline(always)]
    fn write_to<W: BitWrite>(&self, _writer: &mut W) -> Result<(), Error> {
        Ok(())
    }

    #[inline(always)]
    fn read_from<R: BitRead>(_reader: &mut R) -> Result<Self, Error> {
        Ok(PhantomData)
    }
}
