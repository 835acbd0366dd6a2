//! `#[bitpack(adaptive)]` and fixed-point `#[quantize(res)]` on derived
//! types: the worked cases of the adaptive tests, now derived, with the
//! same exact bit counts, checked against the hand-written impls; proptest
//! round trips; random bytes never panic.

use crate::adaptive_support;

use bitpack::adaptive::{self, SignScope, Signs};
use bitpack::{BitCounter, BitPack, BitReader, BitWrite, ErrorKind};
use proptest::prelude::*;
use prost::Message;

/// The published example: every integer adaptive.
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
#[bitpack(adaptive)]
struct Published {
    a: i64,
    b: i32,
    c: i32,
}

#[derive(Clone, PartialEq, prost::Message)]
struct PublishedProto {
    #[prost(int64, tag = "1")]
    a: i64,
    #[prost(int32, tag = "2")]
    b: i32,
    #[prost(int32, tag = "3")]
    c: i32,
}

/// Field by field, and an unsigned field next to signed ones.
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct Mixed {
    #[bitpack(adaptive)]
    a: i32,
    #[bitpack(adaptive)]
    b: i32,
    #[bitpack(adaptive)]
    c: u32,
}

const SAMPLES_MAX_LEN: usize = 16;

/// A `Vec` of adaptive integers: one shared-length group.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Samples {
    #[bitpack(adaptive, max_len = SAMPLES_MAX_LEN)]
    values: Vec<u16>,
}

/// A 3-vector: one shared-length group.
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
#[bitpack(adaptive)]
struct Position {
    xyz: [i32; 3],
}

/// No signed field: no sign bit.
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
#[bitpack(adaptive)]
struct Big {
    a: u64,
    b: u64,
}

#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
#[bitpack(adaptive)]
struct Single {
    v: i32,
}

const HEADING_RES: f64 = 0.001;

/// Nested types share the one sign bit; a float without a range is fixed point.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Outer {
    #[bitpack(adaptive)]
    id: u32,
    #[bitpack(adaptive)]
    position: Position,
    #[bitpack(adaptive)]
    target: Option<Single>,
    #[quantize(res = HEADING_RES)]
    heading: f64,
}

/// Type-level `adaptive` leaves annotated and non-integer fields alone.
#[derive(BitPack, Debug, Clone, PartialEq)]
#[bitpack(adaptive)]
struct Partly {
    score: i32,
    #[bits(min = 0, max = 15)]
    level: u8,
    alive: bool,
    #[quantize(res = 0.25)]
    speed: f32,
    #[bitpack(max_len = 4)]
    history: Vec<i16>,
    maybe: Option<u64>,
    pair: (u8, bool),
    nested: Single,
}

/// Enums: the tag, then the variant's fields under the message's signs.
#[derive(BitPack, Debug, Clone, PartialEq)]
#[bitpack(adaptive)]
enum Event {
    Idle,
    Hit { target: u32, damage: i16 },
    Moved(#[bitpack(adaptive)] Position, bool),
    Scores(#[bitpack(max_len = 3)] Vec<[i8; 2]>),
}

/// Generic: a scoped type parameter gets its `SignScope` bound.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Wrapper<T> {
    #[bitpack(adaptive)]
    inner: T,
    #[bitpack(adaptive)]
    count: u8,
}

/// Encodes with `bitpack::encode`, checks `measure` and the sizes, decodes.
fn round_trip<T: BitPack + PartialEq + std::fmt::Debug>(value: &T) -> usize {
    let bits = bitpack::measure(value).expect("measures");
    let bytes = bitpack::encode(value).expect("encodes");
    assert_eq!(bytes.len(), bits.div_ceil(8));
    assert!(bits <= T::MAX_BITS, "{bits} bits over MAX_BITS {}", T::MAX_BITS);
    assert!(bits >= T::MIN_BITS, "{bits} bits under MIN_BITS {}", T::MIN_BITS);
    assert_eq!(&bitpack::decode::<T>(&bytes).expect("decodes"), value);
    bits
}

/// The derived bytes equal the hand-written impl's for the same values.
fn same_as_hand_written<D: BitPack, H: BitPack>(derived: &D, hand: &H) {
    let (hand_bytes, hand_bits) = adaptive_support::encode(hand).expect("hand-written encodes");
    assert_eq!(bitpack::measure(derived).unwrap(), hand_bits);
    assert_eq!(bitpack::encode(derived).unwrap(), hand_bytes);
    assert_eq!(D::MAX_BITS, H::MAX_BITS);
}

#[test]
fn published_example_takes_48_bits_and_6_bytes() {
    let message = Published { a: 123_456_789, b: 25, c: 3 };
    let bits = round_trip(&message);
    // Sign bit; 123456789 has 27 significant bits: 6 + 26; 25: 5 + 4; 3: 5 + 1.
    assert_eq!(bits, 1 + (6 + 26) + (5 + 4) + (5 + 1));
    assert!(bits <= 48);
    let ours = bitpack::encode(&message).unwrap();
    assert_eq!(ours.len(), 6);
    let proto = PublishedProto { a: 123_456_789, b: 25, c: 3 }.encode_to_vec();
    assert_eq!(proto, [0x08, 0x95, 0x9A, 0xEF, 0x3A, 0x10, 0x19, 0x18, 0x03]);
    same_as_hand_written(&message, &adaptive_support::Published { id: 123_456_789, a: 25, b: 3 });
}

#[test]
fn worked_cases_take_their_exact_bits() {
    // {i32 -1, i32 250, u32 70000}: sign 1; -1 -> 1: prefix alone; 250 -> 500: 5 + 8; 5 + 16.
    assert_eq!(round_trip(&Mixed { a: -1, b: 250, c: 70_000 }), 1 + 5 + (5 + 8) + (5 + 16));
    assert_eq!(round_trip(&Mixed { a: 1, b: 250, c: 70_000 }), 1 + 5 + (5 + 7) + (5 + 16));
    // Vec<u16> [3, 1000, 1001, 1002, 998]: length 5 bits, mode, width 10 in 4 bits, 5 x 10.
    let samples = Samples { values: vec![3, 1000, 1001, 1002, 998] };
    assert_eq!(round_trip(&samples), 5 + 1 + 4 + 5 * 10);
    assert_eq!(round_trip(&Samples { values: vec![1, 60_000] }), 5 + 1 + 4 + (4 + 1 + 15));
    assert_eq!(round_trip(&Samples { values: vec![] }), 5);
    // [100, 101, 99] as a 3-vector: sign, mode, width 7 in 5 bits, 3 x 7.
    assert_eq!(round_trip(&Position { xyz: [100, 101, 99] }), 1 + 1 + 5 + 3 * 7);
    assert_eq!(round_trip(&Position { xyz: [100, -101, 99] }), 1 + 1 + 5 + 3 * 8);
    // {u64 1.7e12, u64 0xDEADBEEFCAFEBABE}: no sign bit; 6 + 40; escape, bit, 63.
    let big = Big { a: 1_700_000_000_000, b: 0xDEAD_BEEF_CAFE_BABE };
    assert_eq!(round_trip(&big), (6 + 40) + (6 + 1 + 63));
    assert_eq!(round_trip(&Big { a: u64::MAX, b: 1 << 62 }), (6 + 1 + 63) + (6 + 1 + 62));
    // {i32::MIN}: sign 1, zig-zag u32::MAX: escape, bit, 31.
    assert_eq!(round_trip(&Single { v: i32::MIN }), 1 + 5 + 1 + 31);
    assert_eq!(round_trip(&Single { v: i32::MAX }), 1 + 5 + 1 + 30);
    // All zero: the prefixes (and the sign bit where there are signed fields).
    assert_eq!(round_trip(&Published { a: 0, b: 0, c: 0 }), 1 + 6 + 5 + 5);
    assert_eq!(round_trip(&Big { a: 0, b: 0 }), 6 + 6);
}

#[test]
fn derived_bytes_equal_the_hand_written_impls() {
    use adaptive_support as hand;
    same_as_hand_written(&Mixed { a: -1, b: 250, c: 70_000 }, &hand::Mixed { a: -1, b: 250, c: 70_000 });
    let values = vec![3, 1000, 1001, 1002, 998];
    same_as_hand_written(&Samples { values: values.clone() }, &hand::Samples { values });
    same_as_hand_written(&Position { xyz: [100, -101, 99] }, &hand::Position { xyz: [100, -101, 99] });
    same_as_hand_written(&Big { a: 1 << 40, b: 7 }, &hand::Big { a: 1 << 40, b: 7 });
    same_as_hand_written(&Single { v: i32::MIN }, &hand::Single { v: i32::MIN });
    for (target, heading) in [(Some(4), 1.5), (Some(-4), 1.5), (None, -0.0006), (None, -0.0004)] {
        let derived = Outer {
            id: 7,
            position: Position { xyz: [100, 101, 99] },
            target: target.map(|v| Single { v }),
            heading,
        };
        let hand = hand::Outer {
            id: 7,
            position: hand::Position { xyz: [100, 101, 99] },
            target: target.map(|v| hand::Single { v }),
            heading,
        };
        same_as_hand_written(&derived, &hand);
    }
}

#[test]
fn nested_types_share_the_message_sign_bit() {
    let calm = Outer {
        id: 7,
        position: Position { xyz: [100, 101, 99] },
        target: Some(Single { v: 4 }),
        heading: 1.5,
    };
    // One sign bit (0); id 7: 5 + 2; position 1 + 5 + 21; Some + 4: 1 + 5 + 2; 1500: 6 + 10.
    assert_eq!(round_trip(&calm), 1 + (5 + 2) + (1 + 5 + 21) + (1 + 5 + 2) + (6 + 10));
    let negative = Outer { target: Some(Single { v: -4 }), ..calm.clone() };
    assert!(negative.any_negative());
    assert_eq!(round_trip(&negative), 1 + (5 + 2) + (1 + 5 + 24) + (1 + 5 + 2) + (6 + 11));
    // A heading that rounds to 0 is not negative; it reads back as 0.
    let bytes = bitpack::encode(&Outer { heading: -0.0004, ..calm.clone() }).unwrap();
    assert_eq!(bitpack::decode::<Outer>(&bytes).unwrap().heading, 0.0);
    // Each nested message alone spends its own sign bit; inside Outer it spends none.
    assert_eq!(Position::MAX_BITS, 1 + adaptive::adaptive_group_max_bits::<i32>(3));
    assert_eq!(
        Outer::MAX_BITS,
        1 + 37
            + adaptive::adaptive_group_max_bits::<i32>(3)
            + (1 + 37)
            + <i64 as adaptive::AdaptiveInt>::MAX_BITS
    );
    const { assert!(Outer::HAS_SIGNED && Position::HAS_SIGNED && !Big::HAS_SIGNED && !Samples::HAS_SIGNED) };
}

#[test]
fn type_level_adaptive_leaves_annotated_fields_alone() {
    let value = Partly {
        score: -3,
        level: 15,
        alive: true,
        speed: -1.25,
        history: vec![-1, 2],
        maybe: Some(9),
        pair: (5, false),
        nested: Single { v: -2 },
    };
    let bits = round_trip(&value);
    // Sign 1; -3 -> 5: 5 + 2; level 4; alive 1; -1.25 / 0.25 = -5 -> 9: 6 + 3;
    // history: length 3 bits, group of zig-zag [1, 4]: per value 1 + (4 + 0) + (4 + 2) = 11,
    // shared 1 + 4 + 2 * 3 = 11 (not shorter, so per value); Some(9): 1 + 6 + 3;
    // (u8 5: 3 + 2, bool 1); nested Single: its own message, sign 1 + (-2 -> 3: 5 + 1).
    assert_eq!(bits, 1 + 7 + 4 + 1 + 9 + (3 + 11) + 10 + 6 + (1 + 6));
    // Without a negative value anywhere, the same message does not zig-zag.
    let calm = Partly { score: 3, speed: 1.25, history: vec![1, 2], nested: Single { v: 2 }, ..value };
    round_trip(&calm);
}

#[test]
fn enums_with_adaptive_fields_round_trip() {
    let cases = [
        Event::Idle,
        Event::Hit { target: 90_210, damage: -17 },
        Event::Hit { target: 0, damage: i16::MIN },
        Event::Moved(Position { xyz: [1520, -340, 88] }, true),
        Event::Scores(vec![[1, -1], [i8::MIN, i8::MAX]]),
    ];
    for event in &cases {
        round_trip(event);
    }
    // Sign 0, tag 2 bits; 90210 has 17 bits: 5 + 16; 17: 4 + 4.
    assert_eq!(round_trip(&Event::Hit { target: 90_210, damage: 17 }), 1 + 2 + (5 + 16) + (4 + 4));
    assert_eq!(round_trip(&Event::Idle), 1 + 2);
}

#[test]
fn generic_types_share_the_sign_bit_of_their_parameter() {
    let wrapped = Wrapper { inner: Single { v: -4 }, count: 3 };
    // One sign bit for both: -4 -> 7: 5 + 2; u8 3: 3 + 1.
    assert_eq!(round_trip(&wrapped), 1 + 7 + 4);
    assert_eq!(Wrapper::<Single>::MAX_BITS, 1 + 37 + 3 + 1 + 7);
    // Without a signed value inside, no sign bit at all.
    assert_eq!(round_trip(&Wrapper { inner: Big { a: 0, b: 0 }, count: 0 }), 12 + 3);
}

#[test]
fn fixed_point_refuses_what_it_cannot_send() {
    let mut calm = Outer { id: 0, position: Position { xyz: [0; 3] }, target: None, heading: f64::NAN };
    assert_eq!(bitpack::encode(&calm).unwrap_err().kind(), ErrorKind::NonFiniteFloat);
    calm.heading = 1e300;
    assert_eq!(bitpack::measure(&calm).unwrap_err().kind(), ErrorKind::OutOfRange);
}

#[test]
fn scoped_writes_spend_no_sign_bit_of_their_own() {
    let position = Position { xyz: [100, 101, 99] };
    let mut counter = BitCounter::new();
    position.write_scoped(&mut counter, Signs::NonNegative).unwrap();
    assert_eq!(counter.bits_written(), 1 + 5 + 3 * 7);
    let mut buf = [0u8; 4];
    let mut writer = bitpack::BitWriter::new(&mut buf);
    position.write_scoped(&mut writer, Signs::ZigZag).unwrap();
    writer.finish().unwrap();
    assert_eq!(Position::read_scoped(&mut BitReader::new(&buf), Signs::ZigZag).unwrap(), position);
}

#[test]
fn fingerprints_tell_adaptive_from_fixed_width() {
    #[derive(BitPack)]
    struct Plain {
        _a: i64,
        _b: i32,
        _c: i32,
    }
    #[derive(BitPack)]
    #[bitpack(adaptive)]
    struct Renamed {
        _x: i64,
        _y: i32,
        _z: i32,
    }
    #[derive(BitPack)]
    struct Coarse {
        #[quantize(res = 0.01)]
        _heading: f64,
    }
    #[derive(BitPack)]
    struct Fine {
        #[quantize(res = 0.001)]
        _heading: f64,
    }
    assert_ne!(Published::SCHEMA, Plain::SCHEMA);
    assert_eq!(Published::SCHEMA, Renamed::SCHEMA);
    assert_ne!(Coarse::SCHEMA, Fine::SCHEMA);
    assert_ne!(Mixed::SCHEMA, Published::SCHEMA);
}

/// Writing through any `BitWrite` sink: the writer and the counter agree.
fn counted<T: BitPack>(value: &T) -> usize {
    let mut counter = BitCounter::new();
    value.write_to(&mut counter).unwrap();
    counter.bits_written()
}

fn position() -> impl Strategy<Value = Position> {
    any::<[i32; 3]>().prop_map(|xyz| Position { xyz })
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        Just(Event::Idle),
        (any::<u32>(), any::<i16>()).prop_map(|(target, damage)| Event::Hit { target, damage }),
        (position(), any::<bool>()).prop_map(|(position, flag)| Event::Moved(position, flag)),
        proptest::collection::vec(any::<[i8; 2]>(), 0..=3).prop_map(Event::Scores),
    ]
}

proptest! {
    #[test]
    fn published_round_trips(a in any::<i64>(), b in any::<i32>(), c in any::<i32>()) {
        let value = Published { a, b, c };
        let bits = round_trip(&value);
        prop_assert_eq!(bits, counted(&value));
        let hand = adaptive_support::Published { id: a, a: b, b: c };
        prop_assert_eq!(bitpack::encode(&value).unwrap(), adaptive_support::encode(&hand).unwrap().0);
    }

    #[test]
    fn mixed_and_big_round_trip(a in any::<i32>(), b in any::<i32>(), c in any::<u32>(), d in any::<u64>()) {
        round_trip(&Mixed { a, b, c });
        round_trip(&Big { a: d, b: d.rotate_left(17) });
    }

    #[test]
    fn groups_round_trip(values in proptest::collection::vec(any::<u16>(), 0..=SAMPLES_MAX_LEN), p in position()) {
        round_trip(&Samples { values });
        round_trip(&p);
    }

    #[test]
    fn nested_and_fixed_point_round_trip(
        id in any::<u32>(),
        p in position(),
        target in proptest::option::of(any::<i32>()),
        heading in -1e12f64..1e12,
    ) {
        let value = Outer { id, position: p, target: target.map(|v| Single { v }), heading };
        let bytes = bitpack::encode(&value).unwrap();
        let back = bitpack::decode::<Outer>(&bytes).unwrap();
        prop_assert_eq!(back.id, id);
        prop_assert_eq!(back.position, p);
        prop_assert_eq!(back.target, value.target);
        prop_assert!((back.heading - heading).abs() <= HEADING_RES / 2.0 + heading.abs() * 1e-15);
        prop_assert!(bitpack::measure(&value).unwrap() <= Outer::MAX_BITS);
    }

    #[test]
    fn events_round_trip(event in event()) {
        round_trip(&event);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..48)) {
        // Ok or Err, never a panic; what decodes re-encodes to the bits it was read from.
        if let Ok(value) = bitpack::decode::<Published>(&bytes) { round_trip(&value); }
        if let Ok(value) = bitpack::decode::<Mixed>(&bytes) { round_trip(&value); }
        if let Ok(value) = bitpack::decode::<Samples>(&bytes) { round_trip(&value); }
        if let Ok(value) = bitpack::decode::<Position>(&bytes) { round_trip(&value); }
        if let Ok(value) = bitpack::decode::<Big>(&bytes) { round_trip(&value); }
        if let Ok(value) = bitpack::decode::<Outer>(&bytes) { prop_assert!(bitpack::measure(&value).is_ok()); }
        if let Ok(value) = bitpack::decode::<Partly>(&bytes) { prop_assert!(bitpack::measure(&value).is_ok()); }
        if let Ok(value) = bitpack::decode::<Event>(&bytes) { round_trip(&value); }
    }
}
