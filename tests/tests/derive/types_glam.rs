//! glam's vectors and quaternions (feature `glam`): raw components as the
//! array of them, per-axis quantized and ranged vectors, smallest-three
//! quaternions, fused-run leaves and relative deltas.

use crate::types_support;

use bitpack::__private::{
    Bound, RunReader, RunWriter, quantized_axes_f32, quantized_axes_f64, ranged_axes_i32, ranged_axes_u16,
    run_bits, run_remains, smallest_three_run_bits, smallest_three_run_value, smallest_three_schema,
    smallest_three_widths,
};
use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, ErrorKind, smallest_three};
use glam::{
    BVec3, DQuat, DVec2, DVec3, DVec4, I8Vec2, I16Vec3, I64Vec4, IVec2, IVec3, IVec4, Quat, U8Vec3, U16Vec4,
    U64Vec2, UVec2, UVec3, UVec4, Vec2, Vec3, Vec3A, Vec4,
};
use types_support::{Rng, hostile, same_as_array};

/// Leaves written as a fused run does.
fn fused<const N: usize>(leaves: [u64; N], widths: [u32; N]) -> [u8; 8] {
    let mut bytes = [0u8; 8];
    let mut writer = BitWriter::new(&mut bytes);
    let mut run = RunWriter::new();
    for (leaf, width) in leaves.into_iter().zip(widths) {
        run.put(&mut writer, leaf, width);
    }
    run.finish(&mut writer);
    writer.finish().unwrap();
    bytes
}

/// Leaves read back as a fused run does.
fn unfused<const N: usize>(bytes: &[u8], widths: [u32; N]) -> [u64; N] {
    let mut reader = BitReader::new(bytes);
    assert!(run_remains(&reader, run_bits(&widths)));
    let mut run = RunReader::new(run_bits(&widths));
    widths.map(|width| run.get(&mut reader, width))
}

#[test]
fn vectors_are_their_components_in_order() {
    let mut rng = Rng(1);
    for _ in 0..2_000 {
        let f = |rng: &mut Rng| f32::from_bits(rng.next() as u32);
        let d = |rng: &mut Rng| rng.range(-1e9, 1e9);
        let (x, y, z, w) = (f(&mut rng), f(&mut rng), f(&mut rng), f(&mut rng));
        if [x, y, z, w].iter().all(|c| !c.is_nan()) {
            same_as_array(&Vec2::new(x, y), &[x, y]);
            same_as_array(&Vec3::new(x, y, z), &[x, y, z]);
            same_as_array(&Vec3A::new(x, y, z), &[x, y, z]);
            same_as_array(&Vec4::new(x, y, z, w), &[x, y, z, w]);
            same_as_array(&Quat::from_xyzw(x, y, z, w), &[x, y, z, w]);
        }
        let (a, b, c, e) = (d(&mut rng), d(&mut rng), d(&mut rng), d(&mut rng));
        same_as_array(&DVec2::new(a, b), &[a, b]);
        same_as_array(&DVec3::new(a, b, c), &[a, b, c]);
        same_as_array(&DVec4::new(a, b, c, e), &[a, b, c, e]);
        same_as_array(&DQuat::from_xyzw(a, b, c, e), &[a, b, c, e]);
        let i = rng.next();
        let (i0, i1, i2, i3) = (i as i32, (i >> 16) as i32, (i >> 32) as i32, (i >> 48) as i32);
        same_as_array(&IVec2::new(i0, i1), &[i0, i1]);
        same_as_array(&IVec3::new(i0, i1, i2), &[i0, i1, i2]);
        same_as_array(&IVec4::new(i0, i1, i2, i3), &[i0, i1, i2, i3]);
        same_as_array(&UVec2::new(i0 as u32, i1 as u32), &[i0 as u32, i1 as u32]);
        same_as_array(&UVec3::new(i0 as u32, i1 as u32, 7), &[i0 as u32, i1 as u32, 7]);
        same_as_array(&UVec4::new(1, 2, i2 as u32, 4), &[1, 2, i2 as u32, 4]);
        same_as_array(&I8Vec2::new(i0 as i8, -1), &[i0 as i8, -1]);
        same_as_array(&U8Vec3::new(i1 as u8, 0, 255), &[i1 as u8, 0, 255]);
        same_as_array(&I16Vec3::new(i0 as i16, i1 as i16, -7), &[i0 as i16, i1 as i16, -7]);
        same_as_array(&U16Vec4::new(1, i2 as u16, 3, 4), &[1, i2 as u16, 3, 4]);
        same_as_array(&I64Vec4::new(i as i64, -1, 0, i64::MIN), &[i as i64, -1, 0, i64::MIN]);
        same_as_array(&U64Vec2::new(i, u64::MAX), &[i, u64::MAX]);
        same_as_array(&BVec3::new(i & 1 == 1, i & 2 == 2, true), &[i & 1 == 1, i & 2 == 2, true]);
    }
    assert_eq!(Vec3::MAX_BITS, 96);
    assert_eq!(Quat::MAX_BITS, 128);
    assert_eq!(Vec3::SCHEMA, <[f32; 3]>::SCHEMA);
    assert_ne!(Vec3::SCHEMA, DVec3::SCHEMA);
}

#[test]
fn hostile_bytes_read_canonically() {
    let mut rng = Rng(2);
    hostile::<Vec3>(&mut rng, 5_000, 16, false);
    hostile::<Vec3A>(&mut rng, 5_000, 16, false);
    hostile::<Quat>(&mut rng, 5_000, 20, false);
    hostile::<DQuat>(&mut rng, 5_000, 40, false);
    hostile::<IVec3>(&mut rng, 5_000, 16, false);
    hostile::<BVec3>(&mut rng, 5_000, 2, false);
}

const RES: f32 = 1.0 / 512.0;
const MIN: [f32; 3] = [-256.0, -256.0, 0.0];
const MAX: [f32; 3] = [255.0, 255.0, 32.0 - RES];

#[test]
fn per_axis_quantized_vec3_writes_each_axis_as_its_float() {
    // What the derive will write for `#[quantize(min = MIN, max = MAX, res = RES)]`:
    // paths go through `Bound`, which takes scalar and array constants alike.
    const BITS: usize =
        quantized_axes_f32::bits(Bound(MIN).per_axis(), Bound(MAX).per_axis(), Bound(RES).per_axis());
    assert_eq!(BITS, 18 + 18 + 14);
    let res = [RES; 3];
    let mut rng = Rng(3);
    for _ in 0..20_000 {
        let v = Vec3::new(
            rng.range(-300.0, 300.0) as f32,
            rng.range(-300.0, 300.0) as f32,
            rng.range(-1.0, 40.0) as f32,
        );
        let mut buf = [0u8; 8];
        let mut writer = BitWriter::new(&mut buf);
        quantized_axes_f32::write(&mut writer, &v, MIN, MAX, res).unwrap();
        assert_eq!(writer.bits_written(), BITS);
        let mut counter = BitCounter::new();
        quantized_axes_f32::write(&mut counter, &v, MIN, MAX, res).unwrap();
        assert_eq!(counter.bits_written(), BITS);
        writer.finish().unwrap();
        // The same bits as each axis written as a compressed float.
        let mut separate = [0u8; 8];
        let mut writer = BitWriter::new(&mut separate);
        for axis in 0..3 {
            writer.write_compressed_float(v[axis], MIN[axis], MAX[axis], RES).unwrap();
        }
        writer.finish().unwrap();
        assert_eq!(buf, separate);
        let back: Vec3 = quantized_axes_f32::read(&mut BitReader::new(&buf), MIN, MAX, res).unwrap();
        for axis in 0..3 {
            let clamped = v[axis].clamp(MIN[axis], MAX[axis]);
            assert!((back[axis] - clamped).abs() <= RES / 2.0 + 1e-4, "{v} -> {back}");
        }
        // Fused-run leaves: the same bits, the same value.
        let widths = quantized_axes_f32::widths(MIN, MAX, res);
        let mut valid = true;
        let leaves = quantized_axes_f32::run_bits(&v, MIN, MAX, res, &mut valid);
        assert!(valid);
        assert_eq!(fused(leaves, widths), buf);
        let raw = unfused(&buf, widths);
        let mut valid = true;
        let value: Vec3 = quantized_axes_f32::run_value(raw, MIN, MAX, res, &mut valid);
        assert!(valid);
        assert_eq!(value, back);
    }
    // A non-finite axis is refused; the run check says so too.
    let mut counter = BitCounter::new();
    let bad = Vec3::new(0.0, f32::INFINITY, 0.0);
    assert_eq!(
        quantized_axes_f32::write(&mut counter, &bad, MIN, MAX, res).unwrap_err().kind(),
        ErrorKind::NonFiniteFloat
    );
    assert_eq!(counter.bits_written(), 0);
    let mut valid = true;
    quantized_axes_f32::run_bits(&bad, MIN, MAX, res, &mut valid);
    assert!(!valid);
    // Uniform bounds: the same fingerprint as `#[quantize]` on `[f32; 3]`.
    assert_eq!(
        quantized_axes_f32::schema([-1.0; 3], [1.0; 3], [0.01; 3]),
        bitpack::__private::schema::array(3, bitpack::__private::schema::quantized(-1.0, 1.0, 0.01))
    );
}

#[test]
fn per_axis_reads_refuse_steps_past_the_maximum_and_move_nothing() {
    // x has 18 bits for steps 0..=261632: all ones is past the maximum.
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bits(262_143, 18).unwrap();
    writer.write_bits(0, 18).unwrap();
    writer.write_bits(0, 14).unwrap();
    writer.finish().unwrap();
    let mut reader = BitReader::new(&buf);
    let error = quantized_axes_f32::read::<Vec3, 3>(&mut reader, MIN, MAX, [RES; 3]).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::OutOfRange);
    assert_eq!(reader.bits_read(), 0);
    let mut reader = BitReader::new(&buf[..5]);
    assert!(quantized_axes_f32::read::<Vec3, 3>(&mut reader, [-1.0; 3], [1.0; 3], [0.0001; 3]).is_err());
    assert_eq!(reader.bits_read(), 0);
}

#[test]
fn per_axis_relative_vectors_decode_as_absolute_ones() {
    let mut rng = Rng(4);
    let res = [RES; 3];
    let mut total = 0;
    for _ in 0..10_000 {
        let baseline = Vec3::new(
            rng.range(-250.0, 250.0) as f32,
            rng.range(-250.0, 250.0) as f32,
            rng.range(0.0, 31.0) as f32,
        );
        let moved = baseline + Vec3::new(rng.range(-0.1, 0.1) as f32, 0.0, rng.range(-0.5, 0.5) as f32);
        let mut buf = [0u8; 16];
        let mut writer = BitWriter::new(&mut buf);
        quantized_axes_f32::write_relative(&mut writer, &moved, &baseline, MIN, MAX, res).unwrap();
        let bits = writer.bits_written();
        total += bits;
        writer.finish().unwrap();
        let absolute: Vec3 = {
            let (bytes, _) = {
                let mut buf = [0u8; 8];
                let mut writer = BitWriter::new(&mut buf);
                quantized_axes_f32::write(&mut writer, &moved, MIN, MAX, res).unwrap();
                writer.finish().unwrap();
                (buf, 0)
            };
            quantized_axes_f32::read(&mut BitReader::new(&bytes), MIN, MAX, res).unwrap()
        };
        let mut reader = BitReader::new(&buf);
        let back: Vec3 = quantized_axes_f32::read_relative(&mut reader, &baseline, MIN, MAX, res).unwrap();
        assert_eq!(reader.bits_read(), bits);
        assert_eq!(back, absolute);
    }
    // y never moves (4 bits); x and z move a little: well under 50 bits a vector.
    assert!(total / 10_000 < 30, "{}", total / 10_000);
    // f64 vectors too.
    let (min, max, res) = ([-1e6; 2], [1e6; 2], [0.001; 2]);
    let baseline = DVec2::new(1234.5, -99.25);
    let moved = DVec2::new(1234.501, -99.25);
    let mut counter = BitCounter::new();
    quantized_axes_f64::write_relative(&mut counter, &moved, &baseline, min, max, res).unwrap();
    assert_eq!(counter.bits_written(), 4 + 4);
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    quantized_axes_f64::write(&mut writer, &moved, min, max, res).unwrap();
    assert_eq!(writer.bits_written(), quantized_axes_f64::bits(min, max, res));
    writer.finish().unwrap();
    let back: DVec2 = quantized_axes_f64::read(&mut BitReader::new(&buf), min, max, res).unwrap();
    assert!((back - moved).abs().max_element() <= 0.0005 + 1e-9);
}

#[test]
fn ranged_int_vectors_per_axis() {
    let (min, max) = ([-100, -100, 0], [100, 100, 15]);
    const BITS: usize = ranged_axes_i32::bits([-100, -100, 0], [100, 100, 15]);
    assert_eq!(BITS, 8 + 8 + 4);
    let v = IVec3::new(-100, 42, 15);
    let mut buf = [0u8; 4];
    let mut writer = BitWriter::new(&mut buf);
    ranged_axes_i32::write(&mut writer, &v, min, max).unwrap();
    assert_eq!(writer.bits_written(), BITS);
    let error = ranged_axes_i32::write(&mut writer, &IVec3::new(0, 0, 16), min, max).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::OutOfRange);
    assert_eq!(writer.bits_written(), BITS);
    writer.finish().unwrap();
    let back: IVec3 = ranged_axes_i32::read(&mut BitReader::new(&buf), min, max).unwrap();
    assert_eq!(back, v);
    let mut valid = true;
    let leaves = ranged_axes_i32::run_bits(&v, min, max, &mut valid);
    assert_eq!((leaves, valid), ([0, 142, 15], true));
    let value: IVec3 = ranged_axes_i32::run_value(leaves, min, max, &mut valid);
    assert_eq!((value, valid), (v, true));
    ranged_axes_i32::run_value::<IVec3, 3>([201, 0, 0], min, max, &mut valid);
    assert!(!valid);
    // Relative: a step of one is 4 bits an axis.
    let mut counter = BitCounter::new();
    ranged_axes_i32::write_relative(&mut counter, &IVec3::new(-99, 42, 14), &v, min, max).unwrap();
    assert_eq!(counter.bits_written(), 12);
    let mut buf = [0u8; 4];
    let mut writer = BitWriter::new(&mut buf);
    ranged_axes_u16::write_relative(
        &mut writer,
        &UVec2::new(0, 0).as_u16vec2(),
        &glam::U16Vec2::new(3, 900),
        [0; 2],
        [1000; 2],
    )
    .unwrap();
    assert_eq!(writer.bits_written(), 4 + 11);
    writer.finish().unwrap();
    let back: glam::U16Vec2 = ranged_axes_u16::read_relative(
        &mut BitReader::new(&buf),
        &glam::U16Vec2::new(3, 900),
        [0; 2],
        [1000; 2],
    )
    .unwrap();
    assert_eq!(back, glam::U16Vec2::ZERO);
}

#[test]
fn glam_quaternions_in_smallest_three() {
    let mut rng = Rng(5);
    for component_bits in [9, 11, 15] {
        let widths = smallest_three_widths(component_bits);
        for _ in 0..2_000 {
            let [x, y, z, w] = rng.rotation();
            let q = Quat::from_xyzw(x as f32, y as f32, z as f32, w as f32);
            let mut buf = [0u8; 8];
            let mut writer = BitWriter::new(&mut buf);
            smallest_three::write(&mut writer, &q, component_bits).unwrap();
            assert_eq!(writer.bits_written(), smallest_three::bits(component_bits));
            writer.finish().unwrap();
            let back: Quat = smallest_three::read(&mut BitReader::new(&buf), component_bits).unwrap();
            assert!(back.is_normalized());
            assert!(q.angle_between(back) <= smallest_three::max_angle_error(component_bits) as f32 + 1e-3);
            // The same bits as the array, and through fused-run leaves.
            let mut array = [0u8; 8];
            let mut writer = BitWriter::new(&mut array);
            smallest_three::write(&mut writer, &q.to_array(), component_bits).unwrap();
            writer.finish().unwrap();
            assert_eq!(array, buf);
            let mut valid = true;
            let leaves = smallest_three_run_bits(&q, component_bits, &mut valid);
            assert!(valid);
            assert_eq!(fused(leaves, widths), buf);
            let raw = unfused(&buf, widths);
            let value: Quat = smallest_three_run_value(raw, component_bits, &mut valid);
            assert!(valid);
            assert_eq!(value, back);
            // DQuat: the same wire for the same rotation, read in f64.
            let d = DQuat::from_xyzw(x, y, z, w);
            let mut counter = BitCounter::new();
            smallest_three::write(&mut counter, &d, component_bits).unwrap();
            assert_eq!(counter.bits_written(), smallest_three::bits(component_bits));
        }
    }
    // A run refuses what the writer refuses, and codes no writer sends.
    let mut valid = true;
    smallest_three_run_bits(&Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), 9, &mut valid);
    assert!(!valid);
    let mut valid = true;
    let _: Quat = smallest_three_run_value([3, 511, 511, 511], 9, &mut valid);
    assert!(!valid, "a rebuilt w of 0 is not the largest");
    let mut valid = true;
    let _: Quat = smallest_three_run_value([4, 0, 0, 0], 9, &mut valid);
    assert!(!valid);
    // Fingerprints: f32 and f64 differ; glam and arrays of one type agree.
    assert_eq!(smallest_three_schema::<Quat>(9), smallest_three_schema::<[f32; 4]>(9));
    assert_ne!(smallest_three_schema::<Quat>(9), smallest_three_schema::<DQuat>(9));
    assert_ne!(smallest_three_schema::<Quat>(9), smallest_three_schema::<Quat>(10));
    assert!(bitpack::__private::smallest_three_problem(9).is_none());
    assert_eq!(
        bitpack::__private::smallest_three_problem(31).unwrap().as_str(),
        "quantize: a quaternion takes `bits` from 2 to 30 per component, not 31"
    );
}

#[test]
fn glam_quaternion_relative_in_deltas() {
    let baseline = Quat::from_rotation_y(0.7);
    let turned = Quat::from_rotation_y(0.701);
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    smallest_three::write_relative(&mut writer, &turned, &baseline, 15).unwrap();
    let bits = writer.bits_written();
    assert!(bits < smallest_three::bits(15) / 2, "{bits}");
    writer.finish().unwrap();
    let back: Quat = smallest_three::read_relative(&mut BitReader::new(&buf), &baseline, 15).unwrap();
    assert!(back.angle_between(turned) < 2e-4);
}
