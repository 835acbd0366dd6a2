//! Vectors sent axis by axis, each axis with its own bounds:
//! `#[quantize(min, max, res)]` on glam and mint float vectors (one module
//! per float type, `quantized_axes_f32` and `quantized_axes_f64`) and
//! `#[bits(min, max)]` on integer vectors (`ranged_axes_i32`, ...), with the
//! same functions in every module, so the derive names the module after the
//! component type.
//!
//! Bounds are arrays, one entry per axis, `x` first. A bound the attribute
//! gives as one number for every axis is `[value; N]`; one given as a path
//! (to a scalar or an array constant) goes through [`Bound`], which takes
//! either. Each axis is written exactly as the scalar field would be
//! (`write_compressed_float`, a ranged integer), so a vector with the same
//! bounds on every axis writes, measures and fingerprints as the array of
//! its components with the same attribute.

use super::message::Message;
use super::schema;
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::source::SourceExt;
use crate::write::BitWrite;

/// A vector of `N` components of `T`, `x` first: implemented for `[T; N]`
/// and, with the `glam` and `mint` features, for their vectors.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a vector of {N} `{T}` components bitpack can send axis by axis",
    label = "per-axis `#[quantize]` and `#[bits]` take a vector",
    note = "glam's and mint's vectors are, with the `glam` and `mint` features of `bitpack` (enable the one \
            you use), and so is `[{T}; {N}]`",
    note = "for a vector type of yours, put the attribute on its fields where it derives `BitPack`, or send \
            it with #[bitpack(with = module)]"
)]
pub trait Axes<T, const N: usize>: Sized {
    /// The components, `x` first.
    fn to_axes(&self) -> [T; N];
    /// The vector with these components.
    fn from_axes(axes: [T; N]) -> Self;
}

impl<T: Copy, const N: usize> Axes<T, N> for [T; N] {
    #[inline(always)]
    fn to_axes(&self) -> [T; N] {
        *self
    }

    #[inline(always)]
    fn from_axes(axes: [T; N]) -> Self {
        axes
    }
}

/// A bound given as a path: a scalar constant (the same for every axis) or
/// an array constant (one per axis). `Bound(PATH).per_axis()` is the
/// per-axis array either way, in `const` context too; an array of the
/// wrong length is a type error at the path.
#[derive(Clone, Copy, Debug)]
pub struct Bound<B>(pub B);

macro_rules! bound {
    ($($ty:ty),*) => {$(
        impl Bound<$ty> {
            /// The same bound for every axis.
            #[inline(always)]
            pub const fn per_axis<const N: usize>(self) -> [$ty; N] {
                [self.0; N]
            }
        }

        impl<const N: usize> Bound<[$ty; N]> {
            /// One bound per axis, as given.
            #[inline(always)]
            pub const fn per_axis(self) -> [$ty; N] {
                self.0
            }
        }
    )*};
}

bound!(f32, f64, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

/// The name of axis `index` in messages.
const fn axis_name(index: usize) -> &'static str {
    match index {
        0 => "x",
        1 => "y",
        2 => "z",
        3 => "w",
        _ => "?",
    }
}

/// `problem` prefixed with the axis it is about.
const fn on_axis(index: usize, problem: &str) -> Message {
    Message::new().text("axis ").text(axis_name(index)).text(": ").text(problem)
}

/// A vector's fingerprint from its axes': an array when every axis has the
/// same one (as the array of its components would), else the axes in order.
const fn axes_schema<const N: usize>(axes: [u64; N]) -> u64 {
    let mut index = 1;
    while index < N {
        if axes[index] != axes[0] {
            return schema::sequence(&axes);
        }
        index += 1;
    }
    if N == 0 { schema::sequence(&[]) } else { schema::array(N, axes[0]) }
}

/// Moves the reader back to `start` after a failed read of several axes.
#[inline(always)]
fn restore<T>(reader: &mut impl BitRead, start: usize, result: Result<T, Error>) -> Result<T, Error> {
    match result {
        Ok(value) => Ok(value),
        Err(error) => reader.fail(start, error.kind()),
    }
}

/// Reads `N` axes with `read_axis`, stopping at the first error.
#[inline(always)]
fn read_axes<R: BitRead, T: Copy + Default, const N: usize>(
    reader: &mut R,
    mut read_axis: impl FnMut(&mut R, usize) -> Result<T, Error>,
) -> Result<[T; N], Error> {
    let start = reader.bits_read();
    let mut axes = [T::default(); N];
    for (index, axis) in axes.iter_mut().enumerate() {
        let result = read_axis(reader, index);
        *axis = restore(reader, start, result)?;
    }
    Ok(axes)
}

macro_rules! quantized_axes {
    ($module:ident, $float:ident, $quantizer:ident, $relative:ident, $bits:ident, $problem:ident,
     $schema:ident, $run_bits:ident, $run_value:ident, $write:ident, $read:ident) => {
        #[doc = concat!("`#[quantize(min, max, res)]` on a vector of `", stringify!($float), "`, per axis.")]
        pub mod $module {
            use super::*;
            use crate::private::{$bits, $problem, $relative, $run_bits, $run_value};
            use crate::quantize::$quantizer;

            /// Bits of the vector: each axis's `quantize_bits`.
            pub const fn bits<const N: usize>(min: [$float; N], max: [$float; N], res: [$float; N]) -> usize {
                let widths = widths(min, max, res);
                let mut total = 0;
                let mut index = 0;
                while index < N {
                    total += widths[index] as usize;
                    index += 1;
                }
                total
            }

            /// Each axis's bits: the widths of its leaves in a fused run.
            pub const fn widths<const N: usize>(
                min: [$float; N],
                max: [$float; N],
                res: [$float; N],
            ) -> [u32; N] {
                let mut widths = [0; N];
                let mut index = 0;
                while index < N {
                    widths[index] = $bits(min[index], max[index], res[index]) as u32;
                    index += 1;
                }
                widths
            }

            /// The vector's `SCHEMA` fingerprint.
            pub const fn schema<const N: usize>(min: [$float; N], max: [$float; N], res: [$float; N]) -> u64 {
                let mut axes = [0; N];
                let mut index = 0;
                while index < N {
                    axes[index] = schema::$schema(min[index], max[index], res[index]);
                    index += 1;
                }
                axes_schema(axes)
            }

            /// Why the declaration is refused, if it is, naming the axis
            /// (checked at compile time).
            pub const fn problem<const N: usize>(
                min: [$float; N],
                max: [$float; N],
                res: [$float; N],
            ) -> Option<Message> {
                let mut index = 0;
                while index < N {
                    if let Some(problem) = $problem(min[index], max[index], res[index]) {
                        return Some(on_axis(index, problem));
                    }
                    index += 1;
                }
                None
            }

            /// `Err` unless every axis is finite and declared usable.
            #[inline(always)]
            fn check<const N: usize>(
                axes: &[$float; N],
                min: &[$float; N],
                max: &[$float; N],
                res: &[$float; N],
                at: usize,
            ) -> Result<(), Error> {
                for index in 0..N {
                    if $quantizer::new(min[index], max[index], res[index]).is_none() {
                        return Err(Error::new(ErrorKind::InvalidDeclaration, at));
                    }
                    if !axes[index].is_finite() {
                        return Err(Error::new(ErrorKind::NonFiniteFloat, at));
                    }
                }
                Ok(())
            }

            #[doc = concat!("Writes each axis as `", stringify!($write), "` with its own bounds;")]
            /// a refused axis writes nothing at all.
            #[inline]
            pub fn write<W: BitWrite, V: Axes<$float, N>, const N: usize>(
                writer: &mut W,
                value: &V,
                min: [$float; N],
                max: [$float; N],
                res: [$float; N],
            ) -> Result<(), Error> {
                let axes = value.to_axes();
                check(&axes, &min, &max, &res, writer.bits_written())?;
                writer.reserve(bits(min, max, res))?;
                for index in 0..N {
                    writer.$write(axes[index], min[index], max[index], res[index])?;
                }
                Ok(())
            }

            /// Reads what [`write`](fn@write) wrote with the same bounds; on `Err` the
            /// reader has not moved.
            #[inline]
            pub fn read<V: Axes<$float, N>, const N: usize>(
                reader: &mut impl BitRead,
                min: [$float; N],
                max: [$float; N],
                res: [$float; N],
            ) -> Result<V, Error> {
                let axes =
                    read_axes(reader, |reader, index| reader.$read(min[index], max[index], res[index]))?;
                Ok(V::from_axes(axes))
            }

            /// What [`write`](fn@write) puts on the wire, one leaf per axis for a fused
            /// run (widths from [`widths`]); clears `valid` when it would
            /// refuse the value.
            #[inline(always)]
            pub fn run_bits<V: Axes<$float, N>, const N: usize>(
                value: &V,
                min: [$float; N],
                max: [$float; N],
                res: [$float; N],
                valid: &mut bool,
            ) -> [u64; N] {
                let axes = value.to_axes();
                core::array::from_fn(|index| {
                    $run_bits(axes[index], min[index], max[index], res[index], valid)
                })
            }

            /// The vector of a fused run's leaves; clears `valid` when
            /// [`read`](fn@read) would refuse the same bits.
            #[inline(always)]
            pub fn run_value<V: Axes<$float, N>, const N: usize>(
                raw: [u64; N],
                min: [$float; N],
                max: [$float; N],
                res: [$float; N],
                valid: &mut bool,
            ) -> V {
                V::from_axes(core::array::from_fn(|index| {
                    $run_value(raw[index], min[index], max[index], res[index], valid)
                }))
            }

            /// `#[bitpack(relative)]`: each axis's steps against the
            /// baseline's (the relative float of that axis). A refused value
            /// writes nothing.
            #[inline]
            pub fn write_relative<W: BitWrite, V: Axes<$float, N>, const N: usize>(
                writer: &mut W,
                value: &V,
                baseline: &V,
                min: [$float; N],
                max: [$float; N],
                res: [$float; N],
            ) -> Result<(), Error> {
                let (axes, base) = (value.to_axes(), baseline.to_axes());
                check(&axes, &min, &max, &res, writer.bits_written())?;
                for index in 0..N {
                    $relative::write(writer, axes[index], base[index], min[index], max[index], res[index])?;
                }
                Ok(())
            }

            /// Reads what [`write_relative`] wrote against the same baseline
            /// (or what was decoded of it); on `Err` the reader has not moved.
            #[inline]
            pub fn read_relative<V: Axes<$float, N>, const N: usize>(
                reader: &mut impl BitRead,
                baseline: &V,
                min: [$float; N],
                max: [$float; N],
                res: [$float; N],
            ) -> Result<V, Error> {
                let base = baseline.to_axes();
                let axes = read_axes(reader, |reader, index| {
                    $relative::read(reader, base[index], min[index], max[index], res[index])
                })?;
                Ok(V::from_axes(axes))
            }

            /// `#[bitpack(relative(rate = field, dt = D))]` on a vector: each
            /// axis as that axis's relative float predicted by the same axis
            /// of the baseline's rate (`predict`: the rate vector, its
            /// per-axis declaration and `dt`), the wire of the scalar
            /// `write_predicted` axis by axis. A refused value writes nothing.
            #[inline]
            pub fn write_predicted<W: BitWrite, V: Axes<$float, N>, R: Axes<$float, N>, const N: usize>(
                writer: &mut W,
                value: &V,
                baseline: &V,
                predict: (&R, [$float; N], [$float; N], [$float; N], $float),
                min: [$float; N],
                max: [$float; N],
                res: [$float; N],
            ) -> Result<(), Error> {
                let (rate, rate_min, rate_max, rate_res, dt) = predict;
                let (axes, base, rate) = (value.to_axes(), baseline.to_axes(), rate.to_axes());
                let at = writer.bits_written();
                check(&axes, &min, &max, &res, at)?;
                // Checked before any axis is written, as the value's own declaration.
                for index in 0..N {
                    if $quantizer::new(rate_min[index], rate_max[index], rate_res[index]).is_none() {
                        return Err(Error::new(ErrorKind::InvalidDeclaration, at));
                    }
                }
                for index in 0..N {
                    let predict = (rate[index], rate_min[index], rate_max[index], rate_res[index], dt);
                    $relative::write_predicted(
                        writer,
                        axes[index],
                        base[index],
                        predict,
                        min[index],
                        max[index],
                        res[index],
                    )?;
                }
                Ok(())
            }

            /// Reads what [`write_predicted`] wrote against the same baseline
            /// (or what was decoded of it), rate and declarations; on `Err`
            /// the reader has not moved.
            #[inline]
            pub fn read_predicted<V: Axes<$float, N>, R: Axes<$float, N>, const N: usize>(
                reader: &mut impl BitRead,
                baseline: &V,
                predict: (&R, [$float; N], [$float; N], [$float; N], $float),
                min: [$float; N],
                max: [$float; N],
                res: [$float; N],
            ) -> Result<V, Error> {
                let (rate, rate_min, rate_max, rate_res, dt) = predict;
                let (base, rate) = (baseline.to_axes(), rate.to_axes());
                let axes = read_axes(reader, |reader, index| {
                    let predict = (rate[index], rate_min[index], rate_max[index], rate_res[index], dt);
                    $relative::read_predicted(
                        reader,
                        base[index],
                        predict,
                        min[index],
                        max[index],
                        res[index],
                    )
                })?;
                Ok(V::from_axes(axes))
            }
        }
    };
}

quantized_axes!(
    quantized_axes_f32,
    f32,
    Quantizer,
    relative_f32,
    quantize_bits,
    quantize_problem,
    quantized,
    quantized_bits,
    quantized_value,
    write_compressed_float,
    read_compressed_float
);

quantized_axes!(
    quantized_axes_f64,
    f64,
    Quantizer64,
    relative_f64,
    quantize64_bits,
    quantize64_problem,
    quantized64,
    quantized64_bits,
    quantized64_value,
    write_compressed_double,
    read_compressed_double
);

macro_rules! ranged_axes {
    ($($module:ident $ty:ident $ranged:ident $relative:ident;)*) => {$(
        #[doc = concat!("`#[bits(min, max)]` on a vector of `", stringify!($ty), "`, per axis.")]
        pub mod $module {
            use super::*;
            use crate::private::{$ranged, $relative};

            /// Bits of the vector: each axis's `bits_required(min, max)`.
            pub const fn bits<const N: usize>(min: [$ty; N], max: [$ty; N]) -> usize {
                let mut total = 0;
                let mut index = 0;
                while index < N {
                    total += $ranged::bits(min[index], max[index]);
                    index += 1;
                }
                total
            }

            /// Each axis's bits: the widths of its leaves in a fused run.
            pub const fn widths<const N: usize>(min: [$ty; N], max: [$ty; N]) -> [u32; N] {
                let mut widths = [0; N];
                let mut index = 0;
                while index < N {
                    widths[index] = $ranged::bits(min[index], max[index]) as u32;
                    index += 1;
                }
                widths
            }

            /// The vector's `SCHEMA` fingerprint.
            pub const fn schema<const N: usize>(min: [$ty; N], max: [$ty; N]) -> u64 {
                let mut axes = [0; N];
                let mut index = 0;
                while index < N {
                    axes[index] = $ranged::schema(min[index], max[index]);
                    index += 1;
                }
                axes_schema(axes)
            }

            /// Why the ranges are refused, if they are, naming the axis.
            pub const fn problem<const N: usize>(min: [$ty; N], max: [$ty; N]) -> Option<Message> {
                let mut index = 0;
                while index < N {
                    if let Some(problem) = $ranged::problem(min[index], max[index]) {
                        return Some(on_axis(index, problem.as_str()));
                    }
                    index += 1;
                }
                None
            }

            /// Why the ranges cannot be coded relatively, if they cannot.
            pub const fn relative_problem<const N: usize>(min: [$ty; N], max: [$ty; N]) -> Option<Message> {
                let mut index = 0;
                while index < N {
                    if let Some(problem) = $relative::problem(min[index], max[index]) {
                        return Some(on_axis(index, problem));
                    }
                    index += 1;
                }
                None
            }

            /// `Err(OutOfRange)` unless every axis is in its range.
            #[inline(always)]
            fn check<const N: usize>(axes: &[$ty; N], min: &[$ty; N], max: &[$ty; N], at: usize) -> Result<(), Error> {
                for index in 0..N {
                    if min[index] > max[index] {
                        return Err(Error::new(ErrorKind::InvalidDeclaration, at));
                    }
                    if axes[index] < min[index] || axes[index] > max[index] {
                        return Err(Error::new(ErrorKind::OutOfRange, at));
                    }
                }
                Ok(())
            }

            /// Writes each axis as `value - min` in its range's bits; a
            /// refused axis writes nothing at all.
            #[inline]
            pub fn write<W: BitWrite, V: Axes<$ty, N>, const N: usize>(
                writer: &mut W,
                value: &V,
                min: [$ty; N],
                max: [$ty; N],
            ) -> Result<(), Error> {
                let axes = value.to_axes();
                check(&axes, &min, &max, writer.bits_written())?;
                writer.reserve(bits(min, max))?;
                for index in 0..N {
                    $ranged::write(writer, axes[index], min[index], max[index])?;
                }
                Ok(())
            }

            /// Reads what [`write`](fn@write) wrote with the same ranges; on `Err` the
            /// reader has not moved.
            #[inline]
            pub fn read<V: Axes<$ty, N>, const N: usize>(
                reader: &mut impl BitRead,
                min: [$ty; N],
                max: [$ty; N],
            ) -> Result<V, Error> {
                let axes = read_axes(reader, |reader, index| $ranged::read(reader, min[index], max[index]))?;
                Ok(V::from_axes(axes))
            }

            /// What [`write`](fn@write) puts on the wire, one leaf per axis for a fused
            /// run (ranges up to 64 bits; widths from [`widths`]); clears
            /// `valid` when it would refuse the value.
            #[inline(always)]
            pub fn run_bits<V: Axes<$ty, N>, const N: usize>(
                value: &V,
                min: [$ty; N],
                max: [$ty; N],
                valid: &mut bool,
            ) -> [u64; N] {
                let axes = value.to_axes();
                core::array::from_fn(|index| $ranged::run_bits(axes[index], min[index], max[index], valid))
            }

            /// The vector of a fused run's leaves; clears `valid` when
            /// [`read`](fn@read) would refuse the same bits.
            #[inline(always)]
            pub fn run_value<V: Axes<$ty, N>, const N: usize>(
                raw: [u64; N],
                min: [$ty; N],
                max: [$ty; N],
                valid: &mut bool,
            ) -> V {
                V::from_axes(core::array::from_fn(|index| $ranged::run_value(raw[index], min[index], max[index], valid)))
            }

            /// `#[bitpack(relative)]`: each axis against the baseline's
            /// (4 bits for a step of -4..=+3, else 1 bit and the absolute
            /// value). A refused value writes nothing.
            #[inline]
            pub fn write_relative<W: BitWrite, V: Axes<$ty, N>, const N: usize>(
                writer: &mut W,
                value: &V,
                baseline: &V,
                min: [$ty; N],
                max: [$ty; N],
            ) -> Result<(), Error> {
                let (axes, base) = (value.to_axes(), baseline.to_axes());
                check(&axes, &min, &max, writer.bits_written())?;
                for index in 0..N {
                    $relative::write(writer, axes[index], base[index], min[index], max[index])?;
                }
                Ok(())
            }

            /// Reads what [`write_relative`] wrote against the same baseline;
            /// on `Err` the reader has not moved.
            #[inline]
            pub fn read_relative<V: Axes<$ty, N>, const N: usize>(
                reader: &mut impl BitRead,
                baseline: &V,
                min: [$ty; N],
                max: [$ty; N],
            ) -> Result<V, Error> {
                let base = baseline.to_axes();
                let axes = read_axes(reader, |reader, index| {
                    $relative::read(reader, base[index], min[index], max[index])
                })?;
                Ok(V::from_axes(axes))
            }
        }
    )*};
}

ranged_axes! {
    ranged_axes_u8 u8 ranged_u8 relative_u8;
    ranged_axes_u16 u16 ranged_u16 relative_u16;
    ranged_axes_u32 u32 ranged_u32 relative_u32;
    ranged_axes_u64 u64 ranged_u64 relative_u64;
    ranged_axes_u128 u128 ranged_u128 relative_u128;
    ranged_axes_usize usize ranged_usize relative_usize;
    ranged_axes_i8 i8 ranged_i8 relative_i8;
    ranged_axes_i16 i16 ranged_i16 relative_i16;
    ranged_axes_i32 i32 ranged_i32 relative_i32;
    ranged_axes_i64 i64 ranged_i64 relative_i64;
    ranged_axes_i128 i128 ranged_i128 relative_i128;
    ranged_axes_isize isize ranged_isize relative_isize;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::BitReader;
    use crate::{BitCounter, BitWriter};

    const RES: f32 = 1.0 / 512.0;
    const MIN: [f32; 3] = [-256.0, -256.0, 0.0];
    const MAX: [f32; 3] = [255.0, 255.0, 32.0 - RES];

    #[test]
    fn bounds_take_scalars_and_arrays() {
        const SPLAT: [f32; 3] = Bound(RES).per_axis();
        const GIVEN: [f32; 3] = Bound(MIN).per_axis();
        assert_eq!(SPLAT, [RES; 3]);
        assert_eq!(GIVEN, MIN);
        const WIDE: [i64; 2] = Bound(-5i64).per_axis();
        assert_eq!(WIDE, [-5, -5]);
    }

    #[test]
    fn per_axis_bits_are_fiedlers_cube_position() {
        const BITS: usize = quantized_axes_f32::bits(MIN, MAX, [RES; 3]);
        assert_eq!(BITS, 18 + 18 + 14);
        assert_eq!(quantized_axes_f32::widths(MIN, MAX, [RES; 3]), [18, 18, 14]);
        let mut counter = BitCounter::new();
        quantized_axes_f32::write(&mut counter, &[1.0f32, -2.0, 3.0], MIN, MAX, [RES; 3]).unwrap();
        assert_eq!(counter.bits_written(), BITS);
        // A refused axis writes nothing.
        let error = quantized_axes_f32::write(&mut counter, &[1.0f32, f32::NAN, 3.0], MIN, MAX, [RES; 3]);
        assert_eq!(error.unwrap_err().kind(), ErrorKind::NonFiniteFloat);
        assert_eq!(counter.bits_written(), BITS);
    }

    #[test]
    fn uniform_bounds_fingerprint_as_the_array() {
        let uniform = quantized_axes_f32::schema([-1.0; 3], [1.0; 3], [0.01; 3]);
        assert_eq!(uniform, schema::array(3, schema::quantized(-1.0, 1.0, 0.01)));
        assert_ne!(quantized_axes_f32::schema(MIN, MAX, [RES; 3]), uniform);
        assert_ne!(quantized_axes_f64::schema([-1.0; 3], [1.0; 3], [0.01; 3]), uniform);
        assert_eq!(
            ranged_axes_i32::schema([0; 2], [9; 2]),
            schema::array(2, crate::private::ranged_i32::schema(0, 9))
        );
    }

    #[test]
    fn problems_name_the_axis() {
        assert!(quantized_axes_f32::problem(MIN, MAX, [RES; 3]).is_none());
        let problem = quantized_axes_f32::problem(MIN, [255.0, -300.0, 1.0], [RES; 3]).unwrap();
        assert_eq!(problem.as_str(), "axis y: quantize: `min` must be below `max`; swap them");
        let problem = ranged_axes_u8::problem([0, 0, 9], [10, 10, 3]).unwrap();
        assert_eq!(problem.as_str(), "axis z: bits: `min` (9) is greater than `max` (3); swap them");
        assert!(
            ranged_axes_u64::relative_problem([0; 2], [10, u64::MAX]).unwrap().as_str().contains("axis y")
        );
    }

    #[test]
    fn ranged_axes_round_trip_and_refuse() {
        let mut buf = [0u8; 16];
        let mut writer = BitWriter::new(&mut buf);
        ranged_axes_i32::write(&mut writer, &[-3, 7, 100], [-8, 0, 0], [7, 7, 1000]).unwrap();
        assert_eq!(writer.bits_written(), 4 + 3 + 10);
        assert_eq!(
            ranged_axes_i32::write(&mut writer, &[-3, 8, 100], [-8, 0, 0], [7, 7, 1000]).unwrap_err().kind(),
            ErrorKind::OutOfRange
        );
        assert_eq!(writer.bits_written(), 17);
        let used = writer.finish().unwrap();
        let mut reader = BitReader::new(&buf[..used]);
        let back: [i32; 3] = ranged_axes_i32::read(&mut reader, [-8, 0, 0], [7, 7, 1000]).unwrap();
        assert_eq!(back, [-3, 7, 100]);
        // The third axis out of its range: the reader goes back to the start.
        let mut reader = BitReader::new(&[0xFF, 0xFF, 0xFF]);
        assert!(ranged_axes_i32::read::<[i32; 3], 3>(&mut reader, [-8, 0, 0], [7, 7, 1000]).is_err());
        assert_eq!(reader.bits_read(), 0);
    }
}
