//! mint's vectors, points and quaternions (feature `mint`): raw components
//! as the array of them, for any `BitPack` component; per-axis bounds and
//! smallest three through the same runtime as glam's.

use crate::types_support;

use bitpack::__private::{quantized_axes_f32, ranged_axes_u8};
use bitpack::{BitCounter, BitPack, BitReader, BitWrite, BitWriter, smallest_three};
use mint::{Point2, Point3, Quaternion, Vector2, Vector3, Vector4};
use types_support::{Rng, hostile, same_as_array};

#[test]
fn components_in_order_for_any_component_type() {
    let mut rng = Rng(11);
    for _ in 0..2_000 {
        let (a, b, c, d) = (rng.next() as u16, rng.next() as u16, rng.next() as u16, rng.next() as u16);
        same_as_array(&Vector2 { x: a, y: b }, &[a, b]);
        same_as_array(&Vector3 { x: a, y: b, z: c }, &[a, b, c]);
        same_as_array(&Vector4 { x: a, y: b, z: c, w: d }, &[a, b, c, d]);
        same_as_array(&Point2 { x: a as i8, y: b as i8 }, &[a as i8, b as i8]);
        let (x, y, z) = (rng.unit() as f32, rng.unit() as f32, rng.unit() as f32);
        same_as_array(&Point3 { x, y, z }, &[x, y, z]);
        same_as_array(&Quaternion { v: Vector3 { x, y, z }, s: 0.5f32 }, &[x, y, z, 0.5]);
        // Nested BitPack components: an Option per axis.
        same_as_array(&Vector2 { x: Some(a), y: None }, &[Some(a), None]);
    }
    assert_eq!(<Vector3<f32>>::SCHEMA, <glam::Vec3 as BitPack>::SCHEMA);
    let mut rng = Rng(12);
    hostile::<Vector3<f32>>(&mut rng, 5_000, 16, false);
    hostile::<Quaternion<f64>>(&mut rng, 5_000, 40, false);
    hostile::<Vector4<Option<u8>>>(&mut rng, 5_000, 8, false);
}

#[test]
fn per_axis_and_smallest_three_on_mint() {
    let (min, max, res) = ([-256.0, -256.0, 0.0], [255.0, 255.0, 31.998_047], [1.0 / 512.0; 3]);
    let v = Vector3 { x: 1.5f32, y: -2.25, z: 3.0 };
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    quantized_axes_f32::write(&mut writer, &v, min, max, res).unwrap();
    assert_eq!(writer.bits_written(), 50);
    writer.finish().unwrap();
    let back: Vector3<f32> = quantized_axes_f32::read(&mut BitReader::new(&buf), min, max, res).unwrap();
    assert_eq!(back, v, "multiples of 1/512 are exact");
    // The glam vector with the same components writes the same bits.
    let mut glam_buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut glam_buf);
    quantized_axes_f32::write(&mut writer, &glam::Vec3::new(1.5, -2.25, 3.0), min, max, res).unwrap();
    writer.finish().unwrap();
    assert_eq!(glam_buf, buf);

    let mut counter = BitCounter::new();
    ranged_axes_u8::write(&mut counter, &Point2 { x: 3u8, y: 200 }, [0, 0], [7, 255]).unwrap();
    assert_eq!(counter.bits_written(), 3 + 8);

    let mut rng = Rng(13);
    for _ in 0..2_000 {
        let [x, y, z, w] = rng.rotation();
        let q = Quaternion { v: Vector3 { x: x as f32, y: y as f32, z: z as f32 }, s: w as f32 };
        let mut buf = [0u8; 8];
        let mut writer = BitWriter::new(&mut buf);
        smallest_three::write(&mut writer, &q, 11).unwrap();
        writer.finish().unwrap();
        let back: Quaternion<f32> = smallest_three::read(&mut BitReader::new(&buf), 11).unwrap();
        // The same bits as glam's Quat of the same components.
        let mut glam_buf = [0u8; 8];
        let mut writer = BitWriter::new(&mut glam_buf);
        smallest_three::write(
            &mut writer,
            &glam::Quat::from_xyzw(x as f32, y as f32, z as f32, w as f32),
            11,
        )
        .unwrap();
        writer.finish().unwrap();
        assert_eq!(glam_buf, buf);
        let dot = q.v.x * back.v.x + q.v.y * back.v.y + q.v.z * back.v.z + q.s * back.s;
        assert!(dot.abs() > 0.9999, "{dot}");
    }
}
