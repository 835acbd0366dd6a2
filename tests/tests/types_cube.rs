//! Glenn Fiedler's snapshot-compression cubes ("Snapshot Compression",
//! 901 cubes at 60 packets a second), reproduced with hand-written
//! `BitPack` impls over the core's primitives: the derive will replace them
//! with `#[quantize(bits = 9)] orientation: Quat` and
//! `#[quantize(min = [..], max = [..], res = RES)] position: Vec3`.
//!
//! The published 17.37 and 4.34 Mbps count each packet's IPv4 and UDP
//! headers (28 bytes) on top of the payload: the payloads alone are 17.35
//! and 4.32 Mbps.

mod types_support;

use bitpack::__private::{quantized_axes_f32, schema, smallest_three_schema, smallest_three_widths};
use bitpack::{BitPack, BitRead, BitReader, BitWrite, Error, smallest_three};
use glam::{Quat, Vec3};
use types_support::{Rng, round_trip};

const CUBES: usize = 901;
const PACKETS_PER_SECOND: usize = 60;
/// IPv4 (20 bytes) and UDP (8 bytes) headers, per packet.
const HEADER_BITS: usize = 28 * 8;

/// Megabits a second for snapshots of `bits_per_cube` (payload rounded up
/// to whole bytes), with or without the packet headers.
fn mbps(bits_per_cube: usize, headers: bool) -> f64 {
    let payload = (CUBES * bits_per_cube).div_ceil(8) * 8;
    let packet = payload + if headers { HEADER_BITS } else { 0 };
    (packet * PACKETS_PER_SECOND) as f64 / 1e6
}

/// The demo's cube state as sent uncompressed: every field raw.
#[derive(Debug, Clone, PartialEq)]
struct CubeState {
    interacting: bool,
    position: Vec3,
    linear_velocity: Vec3,
    orientation: Quat,
}

impl BitPack for CubeState {
    const MAX_BITS: usize = bool::MAX_BITS + 2 * Vec3::MAX_BITS + Quat::MAX_BITS;
    const MIN_BITS: usize = Self::MAX_BITS;
    const SCHEMA: u64 = schema::sequence(&[bool::SCHEMA, Vec3::SCHEMA, Vec3::SCHEMA, Quat::SCHEMA]);

    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        self.interacting.write_to(writer)?;
        self.position.write_to(writer)?;
        self.linear_velocity.write_to(writer)?;
        self.orientation.write_to(writer)
    }

    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        Ok(CubeState {
            interacting: bool::read_from(reader)?,
            position: Vec3::read_from(reader)?,
            linear_velocity: Vec3::read_from(reader)?,
            orientation: Quat::read_from(reader)?,
        })
    }
}

const RES: f32 = 1.0 / 512.0;
const Z_MAX: f32 = 32.0 - RES;
const MIN: [f32; 3] = [-256.0, -256.0, 0.0];
const MAX: [f32; 3] = [255.0, 255.0, Z_MAX];
const ORIENTATION_BITS: u32 = 9;

/// The compressed cube of the issue: smallest three at 9 bits, the position
/// bounded per axis at 1/512 m, the at-rest flag.
#[derive(Debug, Clone, PartialEq)]
struct Cube {
    orientation: Quat,
    position: Vec3,
    at_rest: bool,
}

impl BitPack for Cube {
    const MAX_BITS: usize = smallest_three::bits(ORIENTATION_BITS)
        + quantized_axes_f32::bits(MIN, MAX, [RES; 3])
        + bool::MAX_BITS;
    const MIN_BITS: usize = Self::MAX_BITS;
    const SCHEMA: u64 = schema::sequence(&[
        smallest_three_schema::<Quat>(ORIENTATION_BITS),
        quantized_axes_f32::schema(MIN, MAX, [RES; 3]),
        bool::SCHEMA,
    ]);

    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        smallest_three::write(writer, &self.orientation, ORIENTATION_BITS)?;
        quantized_axes_f32::write(writer, &self.position, MIN, MAX, [RES; 3])?;
        self.at_rest.write_to(writer)
    }

    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        Ok(Cube {
            orientation: smallest_three::read(reader, ORIENTATION_BITS)?,
            position: quantized_axes_f32::read(reader, MIN, MAX, [RES; 3])?,
            at_rest: bool::read_from(reader)?,
        })
    }
}

#[test]
fn uncompressed_cubes_take_321_bits_17_37_mbps() {
    assert_eq!(CubeState::MAX_BITS, 1 + 96 + 96 + 128);
    assert_eq!(CubeState::MAX_BITS, 321);
    let cube = CubeState {
        interacting: true,
        position: Vec3::new(10.0, -3.5, 0.5),
        linear_velocity: Vec3::new(0.0, 0.0, -9.8),
        orientation: Quat::from_rotation_z(0.3),
    };
    assert_eq!(round_trip(&cube), 321);
    assert_eq!(format!("{:.2}", mbps(321, false)), "17.35");
    assert_eq!(format!("{:.2}", mbps(321, true)), "17.37");
}

#[test]
fn compressed_cubes_take_80_bits_4_34_mbps() {
    assert_eq!(smallest_three_widths(ORIENTATION_BITS), [2, 9, 9, 9]);
    assert_eq!(quantized_axes_f32::widths(MIN, MAX, [RES; 3]), [18, 18, 14]);
    assert_eq!(Cube::MAX_BITS, 29 + 18 + 18 + 14 + 1);
    assert_eq!(Cube::MAX_BITS, 80);
    assert_eq!(format!("{:.2}", mbps(80, false)), "4.32");
    assert_eq!(format!("{:.2}", mbps(80, true)), "4.34");
    let mut rng = Rng(31);
    for _ in 0..10_000 {
        let [x, y, z, w] = rng.rotation();
        let cube = Cube {
            orientation: Quat::from_xyzw(x as f32, y as f32, z as f32, w as f32),
            position: Vec3::new(
                rng.range(-256.0, 255.0) as f32,
                rng.range(-256.0, 255.0) as f32,
                rng.range(0.0, 31.99) as f32,
            ),
            at_rest: rng.next() & 1 == 1,
        };
        let (bytes, bits) = types_support::encode(&cube);
        assert_eq!(bits, 80);
        let back = Cube::read_from(&mut BitReader::new(&bytes)).unwrap();
        assert!((back.position - cube.position).abs().max_element() <= RES / 2.0 + 1e-4);
        assert!(back.orientation.angle_between(cube.orientation) <= 0.0097);
        assert_eq!(back.at_rest, cube.at_rest);
        // What is read writes the same 80 bits again.
        assert_eq!(types_support::encode(&back), (bytes, bits));
    }
}
