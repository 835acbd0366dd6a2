//! The derive on the types games hold (issue 12): glam and mint vectors with
//! per-axis bounds, smallest-three quaternions, `#[bitpack(with = module)]`,
//! and the plain std impls as fields. Each is held to the runtime called by
//! hand: the same bytes, and on a refused value, a short buffer or hostile
//! bytes the same error at the same bit (fused runs and their fallback
//! included), the writer or reader left where it started (a failed derived
//! write or read is undone whole); and in deltas, relative coding against
//! the baseline.

use crate::counting_allocator;
use crate::outcomes;
use crate::types_support;

use bitpack::__private::{self, quantized_axes_f32, quantized_axes_f64, ranged_axes_i32, ranged_axes_u8};
use bitpack::{
    BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, ChangeGroups, Error, ErrorKind,
    smallest_three,
};
use glam::{DVec3, IVec2, Quat, U8Vec3, Vec3};
use outcomes::{outcome, read_outcome};
use proptest::prelude::*;
use std::num::NonZeroU16;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;
use types_support::{Rng, encode, hostile, round_trip, same_as_array};

const RES: f32 = 1.0 / 512.0;
const MIN: [f32; 3] = [-256.0, -256.0, 0.0];
const MAX: [f32; 3] = [255.0, 255.0, 32.0 - RES];
const WORLD: [f64; 3] = [-1.0e6, -1.0e6, -1.0e3];
const WORLD_MAX: f64 = 1.0e6;
const MM: f64 = 0.001;
const BITS: u32 = 11;

/// Every new kind in one fused run: a quaternion, vectors bounded by
/// scalars, array literals and const paths (scalar and array), an integer
/// vector, mint's, an array quaternion; then a bool.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Geometry {
    #[quantize(bits = 9)]
    rotation: Quat,
    #[quantize(min = -10.0, max = 10.0, res = 0.01)]
    velocity: Vec3,
    #[quantize(min = MIN, max = MAX, res = RES)]
    position: Vec3,
    #[quantize(min = WORLD, max = WORLD_MAX, res = MM)]
    far: DVec3,
    #[bits(min = [0, -5], max = [100, 5])]
    cell: IVec2,
    #[bits(min = 0, max = 15)]
    color: U8Vec3,
    #[quantize(min = [-1, -2, -3], max = [1, 2, 3], res = 0.5)]
    mint: mint::Vector3<f32>,
    #[quantize(bits = BITS)]
    raw_rotation: [f32; 4],
    flag: bool,
}

/// [`Geometry`] written one field at a time through the runtime, as one value.
fn write_by_hand<W: BitWrite>(v: &Geometry, w: &mut W) -> Result<(), Error> {
    __private::write_atomic(w, |w| write_fields(v, w))
}

fn write_fields<W: BitWrite>(v: &Geometry, w: &mut W) -> Result<(), Error> {
    smallest_three::write(w, &v.rotation, 9)?;
    quantized_axes_f32::write(w, &v.velocity, [-10.0; 3], [10.0; 3], [0.01; 3])?;
    quantized_axes_f32::write(w, &v.position, MIN, MAX, [RES; 3])?;
    quantized_axes_f64::write(w, &v.far, WORLD, [WORLD_MAX; 3], [MM; 3])?;
    ranged_axes_i32::write(w, &v.cell, [0, -5], [100, 5])?;
    ranged_axes_u8::write(w, &v.color, [0; 3], [15; 3])?;
    quantized_axes_f32::write(w, &v.mint, [-1.0, -2.0, -3.0], [1.0, 2.0, 3.0], [0.5; 3])?;
    smallest_three::write(w, &v.raw_rotation, BITS)?;
    w.write_bool(v.flag)
}

/// [`Geometry`] read one field at a time through the runtime, as one value.
fn read_by_hand<R: BitRead>(r: &mut R) -> Result<Geometry, Error> {
    __private::read_atomic(r, read_fields)
}

fn read_fields<R: BitRead>(r: &mut R) -> Result<Geometry, Error> {
    Ok(Geometry {
        rotation: smallest_three::read(r, 9)?,
        velocity: quantized_axes_f32::read(r, [-10.0; 3], [10.0; 3], [0.01; 3])?,
        position: quantized_axes_f32::read(r, MIN, MAX, [RES; 3])?,
        far: quantized_axes_f64::read(r, WORLD, [WORLD_MAX; 3], [MM; 3])?,
        cell: ranged_axes_i32::read(r, [0, -5], [100, 5])?,
        color: ranged_axes_u8::read(r, [0; 3], [15; 3])?,
        mint: quantized_axes_f32::read(r, [-1.0, -2.0, -3.0], [1.0, 2.0, 3.0], [0.5; 3])?,
        raw_rotation: smallest_three::read(r, BITS)?,
        flag: r.read_bool()?,
    })
}

/// Bits of [`Geometry`]: 29, 3 x 11, 18 + 18 + 14, 31 + 31 + 30, 7 + 4,
/// 3 x 4, 3 + 4 + 4, 35, 1.
const GEOMETRY_BITS: usize = 29 + 33 + 50 + 92 + 11 + 12 + 11 + 35 + 1;

fn sample() -> Geometry {
    Geometry {
        rotation: Quat::from_rotation_y(0.7),
        velocity: Vec3::new(-9.5, 0.0, 3.25),
        position: Vec3::new(100.5, -256.0, 31.5),
        far: DVec3::new(123_456.789, -0.5, 999.0),
        cell: IVec2::new(100, -5),
        color: U8Vec3::new(0, 7, 15),
        mint: mint::Vector3 { x: 0.5, y: -2.0, z: 3.0 },
        raw_rotation: [0.0, 0.0, 0.38268343, 0.9238795],
        flag: true,
    }
}

#[test]
fn vectors_and_quaternions_write_as_the_runtime_does() {
    let value = sample();
    assert_eq!(Geometry::MAX_BITS, GEOMETRY_BITS);
    assert_eq!(Geometry::MIN_BITS, GEOMETRY_BITS);
    let derived = outcome(64, |w| value.write_to(w)).expect("writes");
    assert_eq!(derived, outcome(64, |w| write_by_hand(&value, w)).expect("writes"));
    assert_eq!(derived.1, GEOMETRY_BITS);
    assert_eq!(read_outcome(&derived.0, Geometry::read_from), read_outcome(&derived.0, read_by_hand));
    let back = Geometry::read_from(&mut BitReader::new(&derived.0)).unwrap();
    assert_eq!((back.cell, back.color, back.flag), (value.cell, value.color, value.flag));
    assert!((back.position - value.position).abs().max_element() <= RES / 2.0);
    assert!(back.rotation.angle_between(value.rotation) <= smallest_three::max_angle_error(9) as f32 + 1e-4);
    // What is read writes the same bits again.
    assert_eq!(encode(&back), (derived.0.clone(), derived.1));
}

#[test]
fn a_refused_vector_or_rotation_fails_where_the_runtime_does() {
    let cases = [
        ("rotation", Geometry { rotation: Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), ..sample() }),
        ("rotation", Geometry { rotation: Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0), ..sample() }),
        ("velocity", Geometry { velocity: Vec3::new(0.0, f32::INFINITY, 0.0), ..sample() }),
        ("far", Geometry { far: DVec3::new(0.0, 0.0, f64::NAN), ..sample() }),
        ("cell", Geometry { cell: IVec2::new(101, 0), ..sample() }),
        ("cell", Geometry { cell: IVec2::new(0, -6), ..sample() }),
        ("color", Geometry { color: U8Vec3::new(0, 16, 0), ..sample() }),
        ("raw_rotation", Geometry { raw_rotation: [f32::INFINITY, 0.0, 0.0, 0.0], ..sample() }),
    ];
    for (field, value) in cases {
        let derived = outcome(64, |w| value.write_to(w));
        assert!(derived.is_err(), "{field}");
        assert_eq!(derived, outcome(64, |w| write_by_hand(&value, w)), "{field}");
        let mut counter = BitCounter::new();
        let counted = value.write_to(&mut counter).map_err(|e| (e, counter.bits_written()));
        assert_eq!(counted.err(), derived.err(), "{field}: the counter refuses it the same way");
    }
    // A clamped value is not refused: it reads back at the bound.
    let beyond = Geometry { position: Vec3::new(1000.0, -1000.0, 40.0), ..sample() };
    let back: Geometry = bitpack::decode(&bitpack::encode(&beyond).unwrap()).unwrap();
    assert_eq!(back.position, Vec3::new(255.0, -256.0, 32.0 - RES));
}

#[test]
fn every_short_buffer_and_cut_fails_where_the_runtime_does() {
    let value = sample();
    let (bytes, _) = outcome(64, |w| value.write_to(w)).unwrap();
    for len in 0..bytes.len() {
        assert_eq!(outcome(len, |w| value.write_to(w)), outcome(len, |w| write_by_hand(&value, w)), "{len}");
        let cut = &bytes[..len];
        assert_eq!(read_outcome(cut, Geometry::read_from), read_outcome(cut, read_by_hand), "cut at {len}");
    }
}

#[test]
fn hostile_geometry_reads_canonically() {
    let accepted = hostile::<Geometry>(&mut Rng(12), 20_000, 40, false);
    assert!(accepted > 100, "{accepted}");
}

proptest! {
    #[test]
    fn reads_match_the_runtime_read_by_hand(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
        prop_assert_eq!(read_outcome(&bytes, Geometry::read_from), read_outcome(&bytes, read_by_hand));
    }

    #[test]
    fn writes_match_the_runtime_written_by_hand(
        angle in -7.0f32..7.0,
        velocity in prop::array::uniform3(prop_oneof![8 => -12.0f32..12.0, 1 => Just(f32::NAN)]),
        cell in (-10i32..110, -8i32..8),
        color in prop::array::uniform3(0u8..20),
        buf_len in 0usize..40,
    ) {
        let value = Geometry {
            rotation: Quat::from_rotation_x(angle),
            velocity: Vec3::from_array(velocity),
            cell: IVec2::new(cell.0, cell.1),
            color: U8Vec3::from_array(color),
            ..sample()
        };
        prop_assert_eq!(outcome(buf_len, |w| value.write_to(w)), outcome(buf_len, |w| write_by_hand(&value, w)));
    }
}

/// Without attributes a vector is its raw components, and one bound for
/// every axis is the array with the same attribute.
#[test]
fn plain_and_uniform_vectors_are_their_arrays() {
    #[derive(BitPack, Debug, PartialEq)]
    struct Raw {
        v: Vec3,
        q: Quat,
    }
    #[derive(BitPack, Debug, PartialEq)]
    struct Arrays {
        v: [f32; 3],
        q: [f32; 4],
    }
    #[derive(BitPack, Debug, PartialEq)]
    struct Uniform(#[quantize(min = -10.0, max = 10.0, res = 0.01)] Vec3);
    #[derive(BitPack, Debug, PartialEq)]
    struct UniformArray(#[quantize(min = -10.0, max = 10.0, res = 0.01)] [f32; 3]);

    let raw = Raw { v: Vec3::new(1.0, -2.0, 3.5), q: Quat::from_rotation_z(1.0) };
    same_as_array(&raw, &Arrays { v: raw.v.to_array(), q: raw.q.to_array() });
    let uniform = Uniform(Vec3::new(1.0, -2.0, 3.5));
    same_as_array(&uniform, &UniformArray([1.0, -2.0, 3.5]));
}

/// Vectors and quaternions inside containers take the field's attribute.
#[test]
fn vectors_and_quaternions_inside_containers() {
    #[derive(BitPack, Debug, Clone, PartialEq)]
    struct Squad {
        #[quantize(min = MIN, max = MAX, res = RES)]
        #[bitpack(max_len = 4)]
        positions: Vec<Vec3>,
        #[quantize(bits = 11)]
        facing: Option<Quat>,
        #[bits(min = -3, max = 3)]
        steps: [IVec2; 2],
    }
    let squad = Squad {
        positions: vec![Vec3::new(1.0, 2.0, 3.0), Vec3::new(-256.0, 255.0, 0.0)],
        facing: Some(Quat::IDENTITY),
        steps: [IVec2::new(-3, 3), IVec2::ZERO],
    };
    assert_eq!(Squad::MAX_BITS, 3 + 4 * 50 + 1 + 35 + 2 * 6);
    assert_eq!(bitpack::measure(&squad).unwrap(), 3 + 2 * 50 + 1 + 35 + 2 * 6);
    let back: Squad = bitpack::decode(&bitpack::encode(&squad).unwrap()).unwrap();
    assert_eq!(back.positions, squad.positions);
    assert_eq!(back.steps, squad.steps);
    round_trip(&Squad { facing: None, ..back });
}

/// The plain std impls as fields: `char`, `Duration`, `NonZero`, `Rc`/`Arc`.
#[test]
fn std_types_are_fields_through_their_own_impls() {
    #[derive(BitPack, Debug, Clone, PartialEq)]
    struct Std {
        initial: char,
        cooldown: Duration,
        id: NonZeroU16,
        shared: Rc<[u8; 2]>,
        #[bitpack(max_len = 8)]
        name: Arc<str>,
        #[bitpack(max_len = 3)]
        path: Rc<[IVec2]>,
        pose: Arc<Quat>,
    }
    let value = Std {
        initial: 'é',
        cooldown: Duration::new(3, 250),
        id: NonZeroU16::new(9).unwrap(),
        shared: Rc::new([1, 2]),
        name: Arc::from("ferris"),
        path: Rc::from(vec![IVec2::new(1, -1)]),
        pose: Arc::new(Quat::IDENTITY),
    };
    // The string's length, 1 bit of alignment, its bytes; the slice's length and elements.
    assert_eq!(round_trip(&value), 21 + 94 + 16 + 16 + (4 + 1 + 48) + (2 + 64) + 128);
    // A zero id is refused on read, wherever it is.
    let mut bytes = bitpack::encode(&value).unwrap();
    let id_at = 21 + 94;
    for bit in id_at..id_at + 16 {
        bytes[bit / 8] &= !(1 << (bit % 8));
    }
    assert_eq!(bitpack::decode::<Std>(&bytes).unwrap_err().kind(), ErrorKind::OutOfRange);
}

/// A third-party type with no `BitPack`, through `#[bitpack(with = ...)]`.
mod third_party {
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Uuid([u8; 16]);
    impl Uuid {
        pub fn from_u128(value: u128) -> Self {
            Uuid(value.to_le_bytes())
        }
        pub fn as_u128(&self) -> u128 {
            u128::from_le_bytes(self.0)
        }
    }
}

mod uuid_bits {
    use super::third_party::Uuid;
    use bitpack::{BitPack, BitRead, BitWrite, Error};

    pub const MAX_BITS: usize = <u128 as BitPack>::MAX_BITS;
    pub const MIN_BITS: usize = <u128 as BitPack>::MIN_BITS;
    pub const SCHEMA: u64 = <u128 as BitPack>::SCHEMA;

    pub fn write<W: BitWrite>(value: &Uuid, writer: &mut W) -> Result<(), Error> {
        value.as_u128().write_to(writer)
    }

    pub fn read(reader: &mut impl BitRead) -> Result<Uuid, Error> {
        Ok(Uuid::from_u128(u128::read_from(reader)?))
    }
}

#[test]
fn with_sends_a_foreign_type_through_its_module() {
    #[derive(BitPack, Debug, Clone, PartialEq)]
    struct Session {
        #[bitpack(with = uuid_bits)]
        id: third_party::Uuid,
        #[bitpack(with = self::uuid_bits)]
        #[change_group]
        peer: third_party::Uuid,
        ready: bool,
    }
    #[derive(BitPack)]
    struct Plain(u128, u128, bool);

    let session = Session {
        id: third_party::Uuid::from_u128(7),
        peer: third_party::Uuid::from_u128(u128::MAX),
        ready: true,
    };
    assert_eq!(Session::MAX_BITS, 128 + 128 + 1);
    assert_eq!(Session::SCHEMA, Plain::SCHEMA);
    assert_eq!(encode(&session), encode(&Plain(7, u128::MAX, true)));
    round_trip(&session);
    // In a delta, an unchanged group is one bit.
    let mut counter = BitCounter::new();
    session.write_delta(&session, &mut counter).unwrap();
    assert_eq!(counter.bits_written(), 128 + 1 + 1);
}

/// Change groups and `relative` on the new kinds: a quantized vector coded
/// per axis against the baseline's steps, a ranged one per axis, a
/// quaternion whose largest component is unchanged against the baseline's
/// components.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Body {
    #[change_group(motion)]
    #[bitpack(relative)]
    #[quantize(min = MIN, max = MAX, res = RES)]
    position: Vec3,
    #[change_group(motion)]
    #[bitpack(relative)]
    #[quantize(bits = 11)]
    rotation: Quat,
    #[change_group]
    #[bitpack(relative)]
    #[bits(min = [0, -5], max = [100, 5])]
    cell: IVec2,
    #[change_group]
    velocity: Vec3,
}

fn body() -> Body {
    Body {
        position: Vec3::new(10.0, 20.0, 5.0),
        rotation: Quat::from_rotation_y(0.5),
        cell: IVec2::new(50, 0),
        velocity: Vec3::ZERO,
    }
}

/// `body`'s delta against `baseline`, checked to read back.
fn delta_bits(body: &Body, baseline: &Body) -> usize {
    let mut buf = [0u8; 64];
    let mut writer = BitWriter::new(&mut buf);
    body.write_delta(baseline, &mut writer).unwrap();
    let bits = writer.bits_written();
    let used = writer.finish().unwrap();
    let mut counter = BitCounter::new();
    body.write_delta(baseline, &mut counter).unwrap();
    assert_eq!(counter.bits_written(), bits);
    let back = Body::read_delta(baseline, &mut BitReader::new(&buf[..used])).unwrap();
    // What was read is what a full write and read gives.
    let whole: Body = bitpack::decode(&bitpack::encode(body).unwrap()).unwrap();
    assert_eq!(encode(&back), encode(&whole));
    bits
}

#[test]
fn deltas_code_vectors_and_quaternions_against_the_baseline() {
    let still = body();
    // Nothing changed: one bit per group.
    assert_eq!(delta_bits(&still, &still), 3);
    // Moved a few steps and turned a little: the motion group relative.
    let moved = Body {
        position: still.position + Vec3::new(2.0 * RES, -RES, 0.0),
        rotation: still.rotation * Quat::from_rotation_y(0.001),
        ..still.clone()
    };
    let moved_bits = delta_bits(&moved, &still);
    let mut counter = BitCounter::new();
    quantized_axes_f32::write_relative(&mut counter, &moved.position, &still.position, MIN, MAX, [RES; 3])
        .unwrap();
    smallest_three::write_relative(&mut counter, &moved.rotation, &still.rotation, 11).unwrap();
    assert_eq!(moved_bits, 1 + counter.bits_written() + 1 + 1);
    assert_eq!(counter.bits_written(), 3 * 4 + 1 + 3 * 4, "small steps: 4 bits an axis or component");
    assert!(moved_bits < 1 + 50 + 35, "{moved_bits}");
    // The cell moved one step on each axis: 4 bits each.
    let stepped = Body { cell: IVec2::new(51, -1), ..still.clone() };
    assert_eq!(delta_bits(&stepped, &still), 1 + 1 + 4 + 4 + 1);
    // A large turn (another largest component) is sent whole, flagged.
    let turned = Body { rotation: Quat::from_rotation_x(2.5), ..still.clone() };
    assert_eq!(delta_bits(&turned, &still), 1 + 3 * 4 + (1 + 35) + 1 + 1);
    // A hostile delta never panics.
    let mut rng = Rng(4);
    for _ in 0..5_000 {
        let bytes = rng.bytes(20);
        let _ = Body::read_delta(&still, &mut BitReader::new(&bytes));
    }
}

#[test]
fn tracked_changes_send_vectors_and_quaternions_whole() {
    let still = body();
    let mut latest = <Body as ChangeGroups>::Tracker::default();
    let mut counter = BitCounter::new();
    still.write_changes(&mut counter, &Default::default(), &mut latest).unwrap();
    assert_eq!(counter.bits_written(), (1 + 50 + 35) + (1 + 11) + (1 + 96));
    let confirmed = latest.clone();
    let mut counter = BitCounter::new();
    still.write_changes(&mut counter, &confirmed, &mut latest).unwrap();
    assert_eq!(counter.bits_written(), 3);
}

/// Writing, measuring and reading vectors and quaternions allocates
/// nothing; nor does writing the collections but a `HashMap` or `HashSet`
/// (sorted on write).
#[test]
fn geometry_and_collection_writes_allocate_nothing() {
    use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
    let value = sample();
    let mut buf = [0u8; 64];
    let (bytes, usage) = counting_allocator::measure(|| {
        let used = bitpack::encode_into(&value, &mut buf).unwrap();
        let bits = bitpack::measure(&value).unwrap();
        let back = Geometry::read_from(&mut BitReader::new(&buf[..used])).unwrap();
        (used, bits, back.flag)
    });
    assert_eq!(bytes, (GEOMETRY_BITS.div_ceil(8), GEOMETRY_BITS, true));
    assert_eq!(usage.allocations, 0);

    #[derive(BitPack)]
    struct Collections {
        #[bitpack(max_len = 8)]
        name: Box<str>,
        #[bitpack(max_len = 4)]
        recent: VecDeque<u16>,
        #[bitpack(max_len = 4)]
        sorted: BTreeMap<u8, Rc<str>>,
        #[bitpack(max_len = 4)]
        seen: BTreeSet<char>,
        #[bitpack(max_len = 4)]
        slots: Arc<[i8]>,
    }
    let collections = Collections {
        name: "ferris".into(),
        recent: VecDeque::from(vec![1, 2, 3]),
        sorted: BTreeMap::from([(2, Rc::from("b")), (1, Rc::from("a"))]),
        seen: BTreeSet::from(['a', 'z']),
        slots: Arc::from(vec![-1, 1]),
    };
    let ((), usage) = counting_allocator::measure(|| {
        bitpack::encode_into(&collections, &mut buf).unwrap();
        bitpack::measure(&collections).unwrap();
    });
    assert_eq!(usage.allocations, 0);
    #[derive(BitPack)]
    struct Hashed(#[bitpack(max_len = 4)] HashMap<u8, u8>);
    let hashed = Hashed(HashMap::from([(1, 2), (3, 4), (5, 6)]));
    let (used, _) = counting_allocator::measure(|| bitpack::encode_into(&hashed, &mut buf).unwrap());
    assert_eq!(used, (3 + 3 * 16usize).div_ceil(8));
}

/// Literal bounds on an `f64` vector are checked per axis in f64, as on an
/// `f64` field: bounds past f32's range, and steps finer than f32 resolves,
/// are fine on a `DVec3` (on a `Vec3` the latter is a compile error,
/// tests/compile-fail/ui/quantize-axis-f32-unresolvable.rs).
#[derive(BitPack, Debug, PartialEq)]
struct Galaxy {
    #[quantize(min = [-1.0e39, -4096.0, 0.0], max = [1.0e39, 4096.0, 1.0], res = [1.0e30, 0.0005, 1.0e-9])]
    at: DVec3,
}

#[test]
fn f64_vector_literals_are_read_as_f64() {
    let (min, max, res) = ([-1.0e39, -4096.0, 0.0], [1.0e39, 4096.0, 1.0], [1.0e30, 0.0005, 1.0e-9]);
    // 2e9 steps in 31 bits, 16,384,000 in 24, 1e9 in 30.
    assert_eq!(Galaxy::MAX_BITS, 31 + 24 + 30);
    assert_eq!(Galaxy::MAX_BITS, quantized_axes_f64::bits(min, max, res));
    let value = Galaxy { at: DVec3::new(3.5e38, -4095.9996, 0.123_456_789_4) };
    let written = outcome(16, |w| value.write_to(w)).unwrap();
    let by_hand = outcome(16, |w| quantized_axes_f64::write(w, &value.at, min, max, res)).unwrap();
    assert_eq!(written, by_hand);
    let back: Galaxy = bitpack::decode(&written.0).unwrap();
    let (back, sent) = (back.at.to_array(), value.at.to_array());
    for (axis, res) in res.into_iter().enumerate() {
        assert!((back[axis] - sent[axis]).abs() <= res / 2.0 * 1.000_001, "axis {axis}: {back:?}");
    }
}
