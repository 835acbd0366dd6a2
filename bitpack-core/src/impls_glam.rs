//! `BitPack` for glam's vectors and quaternions (feature `glam`). Without
//! attributes each is its components in order (`x, y, z, w`), written
//! exactly as the array of them: the same bits, `MAX_BITS`, `MIN_BITS` and
//! `SCHEMA` as `[f32; 3]` for a `Vec3`, `[f32; 4]` for a `Quat`. The derive's
//! per-axis bounds reach them through [`Axes`], its smallest-three
//! quaternions through [`Quaternion`].

use crate::error::Error;
use crate::pack::BitPack;
use crate::private::Axes;
use crate::read::BitRead;
use crate::smallest_three::Quaternion;
use crate::write::BitWrite;

/// A glam type written as the array of its components, and its `Axes`.
macro_rules! as_array {
    ($($ty:ident: [$component:ty; $n:literal];)*) => {$(
        impl BitPack for glam::$ty {
            const MAX_BITS: usize = <[$component; $n]>::MAX_BITS;
            const MIN_BITS: usize = <[$component; $n]>::MIN_BITS;
            const SCHEMA: u64 = <[$component; $n]>::SCHEMA;

            #[inline(always)]
            fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
                <[$component; $n]>::from(*self).write_to(writer)
            }

            #[inline(always)]
            fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
                Ok(Self::from(<[$component; $n]>::read_from(reader)?))
            }
        }

        impl Axes<$component, $n> for glam::$ty {
            #[inline(always)]
            fn to_axes(&self) -> [$component; $n] {
                <[$component; $n]>::from(*self)
            }

            #[inline(always)]
            fn from_axes(axes: [$component; $n]) -> Self {
                Self::from(axes)
            }
        }
    )*};
}

as_array! {
    Vec2: [f32; 2];
    Vec3: [f32; 3];
    Vec3A: [f32; 3];
    Vec4: [f32; 4];
    DVec2: [f64; 2];
    DVec3: [f64; 3];
    DVec4: [f64; 4];
    I8Vec2: [i8; 2];
    I8Vec3: [i8; 3];
    I8Vec4: [i8; 4];
    U8Vec2: [u8; 2];
    U8Vec3: [u8; 3];
    U8Vec4: [u8; 4];
    I16Vec2: [i16; 2];
    I16Vec3: [i16; 3];
    I16Vec4: [i16; 4];
    U16Vec2: [u16; 2];
    U16Vec3: [u16; 3];
    U16Vec4: [u16; 4];
    IVec2: [i32; 2];
    IVec3: [i32; 3];
    IVec4: [i32; 4];
    UVec2: [u32; 2];
    UVec3: [u32; 3];
    UVec4: [u32; 4];
    I64Vec2: [i64; 2];
    I64Vec3: [i64; 3];
    I64Vec4: [i64; 4];
    U64Vec2: [u64; 2];
    U64Vec3: [u64; 3];
    U64Vec4: [u64; 4];
    BVec2: [bool; 2];
    BVec3: [bool; 3];
    BVec4: [bool; 4];
}

/// Quaternions: raw as `[x, y, z, w]`, and smallest three under
/// `#[quantize(bits = N)]`. A raw read is not normalised: it gives back the
/// components that were written.
macro_rules! quaternion {
    ($($ty:ident: $component:ty;)*) => {$(
        impl BitPack for glam::$ty {
            const MAX_BITS: usize = <[$component; 4]>::MAX_BITS;
            const MIN_BITS: usize = <[$component; 4]>::MIN_BITS;
            const SCHEMA: u64 = <[$component; 4]>::SCHEMA;

            #[inline(always)]
            fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
                self.to_array().write_to(writer)
            }

            #[inline(always)]
            fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
                Ok(Self::from_array(<[$component; 4]>::read_from(reader)?))
            }
        }

        impl Quaternion for glam::$ty {
            type Scalar = $component;

            #[inline(always)]
            fn to_xyzw(&self) -> [$component; 4] {
                self.to_array()
            }

            #[inline(always)]
            fn from_xyzw(xyzw: [$component; 4]) -> Self {
                Self::from_array(xyzw)
            }
        }
    )*};
}

quaternion! {
    Quat: f32;
    DQuat: f64;
}
