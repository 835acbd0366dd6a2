//! Glenn Fiedler's snapshot-compression cubes ("Snapshot Compression",
//! 901 cubes at 60 packets a second), reproduced with derived types exactly
//! as issue 12 writes them (`#[quantize(bits = 9)] orientation: glam::Quat`,
//! `#[quantize(min = [..], max = [..], res = RES)] position: glam::Vec3`),
//! checked bit for bit against hand-written impls over the core's
//! primitives.
//!
//! The published 17.37 and 4.34 Mbps count each packet's IPv4 and UDP
//! headers (28 bytes) on top of the payload: the payloads alone are 17.35
//! and 4.32 Mbps.

use crate::types_support;

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
#[derive(BitPack, Debug, Clone, PartialEq)]
struct CubeState {
    interacting: bool,
    position: Vec3,
    linear_velocity: Vec3,
    orientation: Quat,
}

/// The same, written by hand.
#[derive(Debug, Clone, PartialEq)]
struct HandCubeState {
    interacting: bool,
    position: Vec3,
    linear_velocity: Vec3,
    orientation: Quat,
}

impl BitPack for HandCubeState {
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
        Ok(HandCubeState {
            interacting: bool::read_from(reader)?,
            position: Vec3::read_from(reader)?,
            linear_velocity: Vec3::read_from(reader)?,
            orientation: Quat::read_from(reader)?,
        })
    }
}

/// The compressed cube of the issue, as the issue writes it: smallest three
/// at 9 bits, the position bounded per axis at 1/512 m, the at-rest flag.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Cube {
    #[quantize(bits = 9)] // smallest three: 2 + 3 x 9 = 29 bits
    orientation: glam::Quat,
    #[quantize(min = [-256.0, -256.0, 0.0], max = [255.0, 255.0, Z_MAX], res = RES)]
    position: glam::Vec3, // per-axis bounds: 18 + 18 + 14 bits
    at_rest: bool,
}

const RES: f32 = 1.0 / 512.0;
const Z_MAX: f32 = 32.0 - RES;
const MIN: [f32; 3] = [-256.0, -256.0, 0.0];
const MAX: [f32; 3] = [255.0, 255.0, Z_MAX];
const ORIENTATION_BITS: u32 = 9;

/// The compressed cube, written by hand.
#[derive(Debug, Clone, PartialEq)]
struct HandCube {
    orientation: Quat,
    position: Vec3,
    at_rest: bool,
}

impl BitPack for HandCube {
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
        Ok(HandCube {
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
    let CubeState { interacting, position, linear_velocity, orientation } = cube.clone();
    let hand = HandCubeState { interacting, position, linear_velocity, orientation };
    assert_eq!(types_support::encode(&cube), types_support::encode(&hand));
    assert_eq!(
        (CubeState::MAX_BITS, CubeState::MIN_BITS, CubeState::SCHEMA),
        (HandCubeState::MAX_BITS, HandCubeState::MIN_BITS, HandCubeState::SCHEMA)
    );
    assert_eq!(format!("{:.2}", mbps(321, false)), "17.35");
    assert_eq!(format!("{:.2}", mbps(321, true)), "17.37");
}

#[test]
fn compressed_cubes_take_80_bits_4_34_mbps() {
    assert_eq!(smallest_three_widths(ORIENTATION_BITS), [2, 9, 9, 9]);
    assert_eq!(quantized_axes_f32::widths(MIN, MAX, [RES; 3]), [18, 18, 14]);
    assert_eq!(Cube::MAX_BITS, 29 + 18 + 18 + 14 + 1);
    assert_eq!(Cube::MAX_BITS, 80);
    assert_eq!(Cube::MIN_BITS, 80);
    assert_eq!((Cube::MAX_BITS, Cube::SCHEMA), (HandCube::MAX_BITS, HandCube::SCHEMA));
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
        let Cube { orientation, position, at_rest } = cube.clone();
        assert_eq!(
            types_support::encode(&HandCube { orientation, position, at_rest }),
            (bytes.clone(), bits)
        );
        let back = Cube::read_from(&mut BitReader::new(&bytes)).unwrap();
        assert!((back.position - cube.position).abs().max_element() <= RES / 2.0 + 1e-4);
        assert!(back.orientation.angle_between(cube.orientation) <= 0.0097);
        assert_eq!(back.at_rest, cube.at_rest);
        // What is read writes the same 80 bits again.
        assert_eq!(types_support::encode(&back), (bytes, bits));
    }
}

#[test]
fn derived_cubes_read_hostile_bytes_canonically() {
    // Whatever is read writes back to the bits it came from (the run and
    // its fallback refuse the same codes).
    let accepted = types_support::hostile::<Cube>(&mut Rng(77), 20_000, 12, false);
    assert!(accepted > 1000, "{accepted}");
    // A short buffer: every prefix is refused, no panic.
    let cube =
        Cube { orientation: Quat::from_rotation_y(1.0), position: Vec3::new(1.0, 2.0, 3.0), at_rest: true };
    let (bytes, _) = types_support::encode(&cube);
    for len in 0..bytes.len() {
        assert!(Cube::read_from(&mut BitReader::new(&bytes[..len])).is_err());
    }
    // A non-finite position is an `Err` on write, and so is a zero-length rotation.
    let nan = Cube { position: Vec3::new(f32::NAN, 0.0, 0.0), ..cube.clone() };
    assert_eq!(bitpack::encode(&nan).unwrap_err().kind(), bitpack::ErrorKind::NonFiniteFloat);
    let zero = Cube { orientation: Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), ..cube };
    assert_eq!(bitpack::encode(&zero).unwrap_err().kind(), bitpack::ErrorKind::OutOfRange);
}
