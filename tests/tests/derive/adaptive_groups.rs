//! Field groups of adaptive integers: `#[bitpack(adaptive(group = name))]`
//! on fields and `#[bitpack(adaptive(group))]` on a struct. A group of
//! fields goes on the wire exactly as an array of their values would, at
//! its first field: same bits, same sizes, same fingerprint.

use bitpack::adaptive::{Signs, write_adaptive, write_adaptive_group};
use bitpack::{BitCounter, BitPack, BitWrite, BitWriter};
use proptest::prelude::*;

/// The array form: one field, one group.
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
#[bitpack(adaptive)]
struct ArrayVec3 {
    xyz: [i32; 3],
}

/// A glam-style vector, its fields named into one group.
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct Vec3 {
    #[bitpack(adaptive(group = xyz))]
    x: i32,
    #[bitpack(adaptive(group = xyz))]
    y: i32,
    #[bitpack(adaptive(group = xyz))]
    z: i32,
}

/// The same, grouped by the type: every plain integer field in one group.
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
#[bitpack(adaptive(group))]
struct TypeGrouped {
    x: i32,
    y: i32,
    z: i32,
}

/// A group whose fields are apart: written at its first field.
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct Spread {
    #[bitpack(adaptive(group = pos))]
    x: i32,
    alive: bool,
    #[bitpack(adaptive(group = pos))]
    y: i32,
    #[bitpack(adaptive)]
    id: u16,
    #[bitpack(adaptive(group = pos))]
    z: i32,
}

/// Two groups of different types in one struct, a tuple struct.
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct TwoGroups(
    #[bitpack(adaptive(group = a))] u8,
    #[bitpack(adaptive(group = b))] u64,
    #[bitpack(adaptive(group = a))] u8,
    #[bitpack(adaptive(group = b))] u64,
);

/// Groups inside enum variants (each variant its own scope).
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
enum Shape {
    Point {
        #[bitpack(adaptive(group = p))]
        x: i16,
        #[bitpack(adaptive(group = p))]
        y: i16,
    },
    Empty,
    Segment(
        #[bitpack(adaptive(group = p))] i16,
        #[bitpack(adaptive(group = p))] i16,
        bool,
        #[bitpack(adaptive(group = p))] i16,
    ),
}

/// A grouped type nested under a parent's sign bit.
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct Body {
    #[bitpack(adaptive)]
    position: Vec3,
    #[bitpack(adaptive)]
    mass: u32,
}

/// `adaptive(group)` groups only the plain integers its `adaptive` reaches:
/// the array stays a group of its own, annotated fields keep their encoding.
#[derive(BitPack, Debug, Clone, PartialEq)]
#[bitpack(adaptive(group))]
struct Mixed<T> {
    a: usize,
    history: [u8; 2],
    #[bits(min = 0, max = 3)]
    lives: u8,
    extra: T,
    b: usize,
}

/// Encodes, checks `measure` and the size bounds, decodes: the bit count.
fn round_trip<T: BitPack + PartialEq + std::fmt::Debug>(value: &T) -> usize {
    let bits = bitpack::measure(value).expect("measures");
    let bytes = bitpack::encode(value).expect("encodes");
    assert_eq!(bytes.len(), bits.div_ceil(8));
    assert!(bits <= T::MAX_BITS, "{bits} bits over MAX_BITS {}", T::MAX_BITS);
    assert!(bits >= T::MIN_BITS, "{bits} bits under MIN_BITS {}", T::MIN_BITS);
    assert_eq!(&bitpack::decode::<T>(&bytes).expect("decodes"), value);
    bits
}

/// Both forms of one vector encode to the same bytes.
fn same_as_array(x: i32, y: i32, z: i32) -> usize {
    let array = ArrayVec3 { xyz: [x, y, z] };
    let bits = round_trip(&array);
    let bytes = bitpack::encode(&array).unwrap();
    assert_eq!(round_trip(&Vec3 { x, y, z }), bits);
    assert_eq!(bitpack::encode(&Vec3 { x, y, z }).unwrap(), bytes);
    assert_eq!(round_trip(&TypeGrouped { x, y, z }), bits);
    assert_eq!(bitpack::encode(&TypeGrouped { x, y, z }).unwrap(), bytes);
    bits
}

#[test]
fn a_field_group_is_the_array_bit_for_bit() {
    // Sign bit, mode bit, shared width 7 in the 5-bit prefix, 3 x 7.
    assert_eq!(same_as_array(100, 101, 99), 1 + 1 + 5 + 3 * 7);
    // A negative value: sign bit 1, zig-zag widens -101 to 201 (8 bits).
    assert_eq!(same_as_array(100, -101, 99), 1 + 1 + 5 + 3 * 8);
    // Per-value lengths win when one value is far longer: mode, 5, 5 + 23, 5 + 1.
    assert_eq!(same_as_array(0, 10_000_000, 2), 1 + 1 + 5 + (5 + 23) + (5 + 1));
    assert_eq!(same_as_array(0, 0, 0), 1 + 1 + 5);
    same_as_array(i32::MIN, i32::MAX, -1);
}

#[test]
fn a_field_group_has_the_sizes_and_fingerprint_of_the_array() {
    assert_eq!(Vec3::MAX_BITS, ArrayVec3::MAX_BITS);
    assert_eq!(Vec3::MIN_BITS, ArrayVec3::MIN_BITS);
    assert_eq!(Vec3::SCHEMA, ArrayVec3::SCHEMA);
    assert_eq!(TypeGrouped::SCHEMA, ArrayVec3::SCHEMA);
    assert_eq!(TypeGrouped::MAX_BITS, ArrayVec3::MAX_BITS);
    // Not the fields one by one: three lone values would take 3 prefixes.
    #[derive(BitPack)]
    #[bitpack(adaptive)]
    struct Lone {
        x: i32,
        y: i32,
        z: i32,
    }
    assert_ne!(Lone::SCHEMA, Vec3::SCHEMA);
    assert_eq!(round_trip(&Vec3 { x: 100, y: 101, z: 99 }), 28);
    assert_eq!(bitpack::measure(&Lone { x: 100, y: 101, z: 99 }).unwrap(), 1 + 3 * (5 + 6));
}

#[test]
fn a_spread_group_is_written_at_its_first_field() {
    let spread = Spread { x: 100, alive: true, y: 101, id: 5, z: 99 };
    // Sign, group (1 + 5 + 21), bool, id 5 (u16 prefix 4 + 2).
    assert_eq!(round_trip(&spread), 1 + 27 + 1 + 6);
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    Signs::NonNegative.write(&mut writer).unwrap();
    write_adaptive_group(&mut writer, &[100i32, 101, 99], Signs::NonNegative).unwrap();
    writer.write_bool(true).unwrap();
    write_adaptive(&mut writer, 5u16, Signs::NonNegative).unwrap();
    let used = writer.finish().unwrap();
    assert_eq!(bitpack::encode(&spread).unwrap(), buf[..used]);
}

#[test]
fn groups_of_each_type_and_in_variants_round_trip() {
    // No signed field: no sign bit. Group a: mode, u8 prefix 3 (width 2), 2 x 2.
    // Group b: per-value lengths win: mode, (6 + 0), (escape 6 + 1 + 63).
    assert_eq!(round_trip(&TwoGroups(2, 1, 3, u64::MAX)), (1 + 3 + 2 * 2) + (1 + 6 + (6 + 1 + 63)));
    round_trip(&TwoGroups(u8::MAX, 0, 0, 0));
    // Tag 2 bits, sign bit, then as an array of two i16: mode, prefix 4 + width 3, 2 x 3.
    assert_eq!(round_trip(&Shape::Point { x: 5, y: 7 }), 2 + 1 + 1 + 4 + 2 * 3);
    round_trip(&Shape::Empty);
    // Sign 1: -4 -> 7, 6 -> 12, 0 -> 0; shared width 4: mode, 4, 3 x 4; then the bool.
    assert_eq!(round_trip(&Shape::Segment(-4, 6, true, 0)), 2 + 1 + (1 + 4 + 3 * 4) + 1);
}

#[test]
fn a_nested_grouped_type_shares_its_parents_sign_bit() {
    let body = Body { position: Vec3 { x: 100, y: 101, z: 99 }, mass: 1 };
    // One sign bit for both, the group, then mass 1: u32 prefix 5.
    assert_eq!(round_trip(&body), 1 + 27 + 5);
    let negative = Body { position: Vec3 { x: 100, y: -101, z: 99 }, mass: 1 };
    assert_eq!(round_trip(&negative), 1 + (1 + 5 + 3 * 8) + 5);
}

#[test]
fn a_type_group_leaves_arrays_and_annotated_fields_alone() {
    let value = Mixed { a: 3, history: [1, 2], lives: 2, extra: true, b: 2 };
    // No signed value: no sign bit. Group {3, 2}: mode, 64-bit prefix 6 (width 2), 2 x 2;
    // the array: mode, u8 prefix 3 (width 2), 2 x 2; lives 2 bits; the bool 1.
    assert_eq!(round_trip(&value), (1 + 6 + 2 * 2) + (1 + 3 + 2 * 2) + 2 + 1);
    round_trip(&Mixed { a: usize::MAX, history: [0, 255], lives: 3, extra: 7u16, b: 0 });
}

#[test]
fn writer_and_counter_agree_on_groups() {
    let value = Spread { x: -7, alive: false, y: 0, id: u16::MAX, z: i32::MIN };
    let mut counter = BitCounter::new();
    value.write_to(&mut counter).unwrap();
    assert_eq!(counter.bits_written(), round_trip(&value));
}

proptest! {
    #[test]
    fn vectors_round_trip_as_arrays(x in any::<i32>(), y in any::<i32>(), z in any::<i32>()) {
        same_as_array(x, y, z);
    }

    #[test]
    fn spread_and_two_groups_round_trip(
        x in any::<i32>(), y in any::<i32>(), z in any::<i32>(), id in any::<u16>(), alive in any::<bool>(),
        a in any::<u8>(), b in any::<u8>(), c in any::<u64>(), d in any::<u64>(),
    ) {
        round_trip(&Spread { x, alive, y, id, z });
        round_trip(&TwoGroups(a, c, b, d));
        round_trip(&Body { position: Vec3 { x, y, z }, mass: u32::from(id) });
    }

    #[test]
    fn variants_round_trip(x in any::<i16>(), y in any::<i16>(), z in any::<i16>(), flag in any::<bool>()) {
        round_trip(&Shape::Point { x, y });
        round_trip(&Shape::Segment(x, y, flag, z));
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..32)) {
        // Ok or Err, never a panic; what decodes re-encodes and decodes to itself.
        if let Ok(value) = bitpack::decode::<Vec3>(&bytes) { round_trip(&value); }
        if let Ok(value) = bitpack::decode::<TypeGrouped>(&bytes) { round_trip(&value); }
        if let Ok(value) = bitpack::decode::<Spread>(&bytes) { round_trip(&value); }
        if let Ok(value) = bitpack::decode::<TwoGroups>(&bytes) { round_trip(&value); }
        if let Ok(value) = bitpack::decode::<Shape>(&bytes) { round_trip(&value); }
        if let Ok(value) = bitpack::decode::<Body>(&bytes) { round_trip(&value); }
    }
}
