//! `BitPack` for mint's vectors, points and quaternions (feature `mint`),
//! for any component type that is `BitPack`. Each is its components in
//! order (`x, y, z, w`; a quaternion's scalar part `s` last), written
//! exactly as the array of them: the same bits, `MAX_BITS`, `MIN_BITS` and
//! `SCHEMA` as `[T; N]`, and like it failing whole (a failed write leaves
//! the writer as it was, a failed read the reader where it was). The
//! derive's per-axis bounds reach them through [`Axes`], its smallest-three
//! quaternions through [`Quaternion`].

use crate::error::Error;
use crate::pack::BitPack;
use crate::private::{Axes, read_atomic, write_atomic};
use crate::read::BitRead;
use crate::smallest_three::{Component, Quaternion};
use crate::write::BitWrite;

macro_rules! components {
    ($($ty:ident, $n:literal, [$($field:ident),*];)*) => {$(
        impl<T: BitPack> BitPack for mint::$ty<T> {
            const MAX_BITS: usize = <[T; $n]>::MAX_BITS;
            const MIN_BITS: usize = <[T; $n]>::MIN_BITS;
            const SCHEMA: u64 = <[T; $n]>::SCHEMA;

            #[inline(always)]
            fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
                write_atomic(writer, |writer| {
                    $(self.$field.write_to(writer)?;)*
                    Ok(())
                })
            }

            #[inline(always)]
            fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
                read_atomic(reader, |reader| Ok(mint::$ty { $($field: T::read_from(reader)?),* }))
            }
        }

        impl<T: Copy> Axes<T, $n> for mint::$ty<T> {
            #[inline(always)]
            fn to_axes(&self) -> [T; $n] {
                [$(self.$field),*]
            }

            #[inline(always)]
            fn from_axes(axes: [T; $n]) -> Self {
                let [$($field),*] = axes;
                mint::$ty { $($field),* }
            }
        }
    )*};
}

components! {
    Vector2, 2, [x, y];
    Vector3, 3, [x, y, z];
    Vector4, 4, [x, y, z, w];
    Point2, 2, [x, y];
    Point3, 3, [x, y, z];
}

/// `(v.x, v.y, v.z, s)`: the array `[x, y, z, w]`. A raw read is not
/// normalised.
impl<T: BitPack> BitPack for mint::Quaternion<T> {
    const MAX_BITS: usize = <[T; 4]>::MAX_BITS;
    const MIN_BITS: usize = <[T; 4]>::MIN_BITS;
    const SCHEMA: u64 = <[T; 4]>::SCHEMA;

    #[inline(always)]
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        write_atomic(writer, |writer| {
            self.v.write_to(writer)?;
            self.s.write_to(writer)
        })
    }

    #[inline(always)]
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        read_atomic(reader, |reader| {
            let v = mint::Vector3::read_from(reader)?;
            Ok(mint::Quaternion { v, s: T::read_from(reader)? })
        })
    }
}

impl<F: Component> Quaternion for mint::Quaternion<F> {
    type Scalar = F;

    #[inline(always)]
    fn to_xyzw(&self) -> [F; 4] {
        [self.v.x, self.v.y, self.v.z, self.s]
    }

    #[inline(always)]
    fn from_xyzw([x, y, z, s]: [F; 4]) -> Self {
        mint::Quaternion { v: mint::Vector3 { x, y, z }, s }
    }
}
