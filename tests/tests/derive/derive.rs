//! Derived types round-trip, measure exactly, stay within `MAX_BITS`,
//! refuse what they must, and survive any input.

use crate::derive_types;

use bitpack::{BitPack, BitRead, BitReader, BitWrite, BitWriter, ErrorKind};
use derive_types::*;
use proptest::prelude::*;

/// Writes `value` with the writer, checks the count against `measure` and
/// the bounds, reads it back, and returns it with the bytes.
fn write_read<T: BitPack>(value: &T) -> (T, Vec<u8>) {
    let mut buf = vec![0u8; T::MAX_BITS.div_ceil(8)];
    let mut writer = BitWriter::new(&mut buf);
    value.write_to(&mut writer).unwrap();
    let written = writer.bits_written();
    let used = writer.finish().unwrap();
    buf.truncate(used);
    assert_eq!(bitpack::measure(value).unwrap(), written, "measure equals the bits written");
    assert!(written <= T::MAX_BITS, "{written} bits over MAX_BITS {}", T::MAX_BITS);
    assert!(written >= T::MIN_BITS, "{written} bits under MIN_BITS {}", T::MIN_BITS);
    let mut reader = BitReader::new(&buf);
    let back = T::read_from(&mut reader).unwrap();
    assert_eq!(reader.bits_read(), written, "the reader takes what the writer wrote");
    assert_eq!(bitpack::encode(value).unwrap(), buf);
    (back, buf)
}

fn assert_round_trip<T: BitPack + PartialEq + std::fmt::Debug>(value: &T) {
    let (back, bytes) = write_read(value);
    assert_eq!(&back, value);
    assert_eq!(&bitpack::decode::<T>(&bytes).unwrap(), value);
}

/// A quantized value reads back within half a step (plus f32 rounding).
fn assert_quantized(back: f32, value: f32, min: f32, max: f32, res: f32) {
    let tolerance = res / 2.0 + 4.0 * f32::EPSILON * min.abs().max(max.abs());
    assert!((back - value).abs() <= tolerance, "{value} came back as {back} (res {res})");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(256)))]

    #[test]
    fn players_round_trip(player in player()) {
        let (back, _) = write_read(&player);
        assert_quantized(back.x, player.x, -1024.0, 1024.0, 0.01);
        let x = back.x;
        prop_assert_eq!(back, Player { x, ..player });
    }

    #[test]
    fn every_integer_type_round_trips(ranges in ranges()) {
        assert_round_trip(&ranges);
    }

    #[test]
    fn floats_round_trip(floats in floats()) {
        let (back, _) = write_read(&floats);
        assert_quantized(back.unit, floats.unit, -1.0, 1.0, 0.001);
        assert_quantized(back.angle, floats.angle, 0.0, 360.0, 0.5);
        prop_assert_eq!(back.path.len(), floats.path.len());
        for (&got, &sent) in back.path.iter().zip(&floats.path) {
            assert_quantized(got, sent, -1024.0, 1024.0, 0.01);
        }
        prop_assert_eq!(back.raw.to_bits(), floats.raw.to_bits());
        prop_assert_eq!(back.raw64.to_bits(), floats.raw64.to_bits());
    }

    #[test]
    fn containers_round_trip(containers in containers()) {
        assert_round_trip(&containers);
    }

    #[test]
    fn generic_types_round_trip(wrapper in wrapper()) {
        assert_round_trip(&wrapper);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        fn decode_all(bytes: &[u8]) {
            check_decode::<Player>(bytes);
            check_decode::<Ranges>(bytes);
            check_decode::<Floats>(bytes);
            check_decode::<Containers>(bytes);
            check_decode::<Wrapper<Weapon>>(bytes);
            check_decode::<Weapon>(bytes);
            check_decode::<EntityId>(bytes);
            check_decode::<Huge>(bytes);
        }
        decode_all(&bytes);
    }
}

/// Whatever `decode` accepts re-encodes to the same value.
fn check_decode<T: BitPack + PartialEq + std::fmt::Debug>(bytes: &[u8]) {
    if let Ok(value) = bitpack::decode::<T>(bytes) {
        let again = bitpack::encode(&value).unwrap();
        assert_eq!(bitpack::decode::<T>(&again).unwrap(), value);
    }
}

#[test]
fn containers_write_what_the_core_calls_write() {
    let value = Containers {
        names: Some(vec!["ab".to_owned(), String::new()]),
        slots: [Some(9), None, Some(0)],
        boxed: Box::new((200, true)),
        grid: vec![vec![true], vec![], vec![false, true]],
        pairs: (-1, 1),
        cache: vec![1, 2, 3],
        ids: [EntityId(1), EntityId(4095)],
    };
    let mut by_hand = [0u8; 64];
    let mut w = BitWriter::new(&mut by_hand);
    // names: Option<Vec<String>>, max_len 3 for the Vec and each String.
    w.write_bool(true).unwrap();
    w.write_int(2, 0, 3).unwrap();
    w.write_str("ab", 3).unwrap();
    w.write_str("", 3).unwrap();
    // slots: [Option<u8>; 3] in 0..=9.
    for slot in [Some(9), None, Some(0)] {
        w.write_bool(slot.is_some()).unwrap();
        if let Some(slot) = slot {
            w.write_int(slot, 0, 9).unwrap();
        }
    }
    // boxed: (u8, bool) at full range.
    w.write_u8(200).unwrap();
    w.write_bool(true).unwrap();
    // grid: Vec<Vec<bool>>, both of max_len 4.
    w.write_int(3, 0, 4).unwrap();
    for row in [&[true][..], &[], &[false, true]] {
        w.write_int(row.len() as i32, 0, 4).unwrap();
        for &cell in row {
            w.write_bool(cell).unwrap();
        }
    }
    // pairs: (i8, i32) in -1..=1; cache skipped; ids in 0..=4095.
    w.write_int(-1, -1, 1).unwrap();
    w.write_int(1, -1, 1).unwrap();
    w.write_int(1, 0, 4095).unwrap();
    w.write_int(4095, 0, 4095).unwrap();
    let hand_bits = w.bits_written();
    let used = w.finish().unwrap();
    let (back, derived) = write_read(&value);
    assert_eq!(derived, &by_hand[..used]);
    assert_eq!(bitpack::measure(&value).unwrap(), hand_bits);
    assert_eq!(back, Containers { cache: Vec::new(), ..value });
}

#[test]
fn max_bits_is_the_sum_of_field_maxima() {
    assert_eq!(EntityId::MAX_BITS, 12);
    // tag 2 bits + the largest variant (Bow: 7 + 1).
    assert_eq!(Weapon::MAX_BITS, 2 + 8);
    assert_eq!(Weapon::MIN_BITS, 2);
    // small 8, constant 0, u32 32, i64 34, u64 64, i128 MIN..=0 128 (a span of
    // 2^127), u128 127, usize 17, isize 4, then full ranges 8 + 16 + 64 + 128.
    assert_eq!(Ranges::MAX_BITS, 8 + 32 + 34 + 64 + 128 + 127 + 17 + 4 + 8 + 16 + 64 + 128);
    assert_eq!(Ranges::MAX_BITS, Ranges::MIN_BITS);
    // unit 11, angle 10, path (3 + 4 * 18), raw 32, raw64 64.
    assert_eq!(Floats::MAX_BITS, 11 + 10 + 3 + 4 * 18 + 32 + 64);
    assert_eq!(<Wrapper<EntityId>>::MAX_BITS, 12 + 2 + 2 * 12);
}

#[test]
fn out_of_range_values_are_refused_on_write() {
    let player = Player {
        health: 1001,
        x: 0.0,
        alive: true,
        name: String::new(),
        inventory: vec![],
        weapon: Weapon::Fists,
        target: None,
    };
    assert_eq!(bitpack::encode(&player).unwrap_err().kind(), ErrorKind::OutOfRange);
    let long_name = Player { health: 1, name: "x".repeat(17), ..player.clone() };
    assert_eq!(bitpack::measure(&long_name).unwrap_err().kind(), ErrorKind::TooLong);
    let long_inventory = Player { health: 1, inventory: vec![0; 9], ..player.clone() };
    assert_eq!(bitpack::encode(&long_inventory).unwrap_err().kind(), ErrorKind::TooLong);
    let bad_item = Player { health: 1, inventory: vec![100], ..player.clone() };
    assert_eq!(bitpack::encode(&bad_item).unwrap_err().kind(), ErrorKind::OutOfRange);
    let bad_float = Player { health: 1, x: f32::NAN, ..player };
    assert_eq!(bitpack::encode(&bad_float).unwrap_err().kind(), ErrorKind::NonFiniteFloat);
}

#[test]
fn decode_refuses_whole_bytes_left_over() {
    let mut bytes = bitpack::encode(&EntityId(7)).unwrap();
    assert_eq!(bytes.len(), 2);
    assert_eq!(bitpack::decode::<EntityId>(&bytes).unwrap(), EntityId(7));
    bytes.push(0);
    assert_eq!(bitpack::decode::<EntityId>(&bytes).unwrap_err().kind(), ErrorKind::TrailingBytes);
}

#[test]
fn a_tag_past_the_last_variant_is_refused() {
    // Weapon's tag is 2 bits: 3 names no variant.
    let error = bitpack::decode::<Weapon>(&[0b11]).unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::OutOfRange | ErrorKind::InvalidTag), "{error}");
}

#[test]
fn encode_into_reports_a_full_buffer() {
    let mut small = [0u8; 1];
    assert_eq!(bitpack::encode_into(&EntityId(1), &mut small).unwrap_err().kind(), ErrorKind::BufferFull);
    let mut exact = [0u8; 2];
    assert_eq!(bitpack::encode_into(&EntityId(1), &mut exact).unwrap(), 2);
}

mod schema {
    use bitpack::BitPack;

    pub mod before {
        #[derive(bitpack::BitPack)]
        pub struct Shape {
            #[bits(min = 0, max = 100)]
            pub health: u8,
            pub alive: bool,
        }
    }

    pub mod renamed {
        #[derive(bitpack::BitPack)]
        pub struct Other {
            #[bits(min = 0, max = 100)]
            pub hit_points: u8,
            pub living: bool,
        }
    }

    pub mod widened {
        #[derive(bitpack::BitPack)]
        pub struct Shape {
            #[bits(min = 0, max = 101)]
            pub health: u8,
            pub alive: bool,
        }
    }

    pub mod reordered {
        #[derive(bitpack::BitPack)]
        pub struct Shape {
            pub alive: bool,
            #[bits(min = 0, max = 100)]
            pub health: u8,
        }
    }

    pub mod longer {
        #[derive(bitpack::BitPack)]
        pub struct Named {
            #[bitpack(max_len = 17)]
            pub name: String,
        }
    }

    pub mod shorter {
        #[derive(bitpack::BitPack)]
        pub struct Named {
            #[bitpack(max_len = 16)]
            pub name: String,
        }
    }

    pub mod finer {
        #[derive(bitpack::BitPack)]
        pub struct Position {
            #[quantize(min = 0.0, max = 1.0, res = 0.001)]
            pub x: f32,
        }
    }

    pub mod coarser {
        #[derive(bitpack::BitPack)]
        pub struct Position {
            #[quantize(min = 0.0, max = 1.0, res = 0.01)]
            pub x: f32,
        }
    }

    #[test]
    fn schema_follows_the_layout_not_the_names() {
        assert_eq!(before::Shape::SCHEMA, renamed::Other::SCHEMA);
        assert_ne!(before::Shape::SCHEMA, widened::Shape::SCHEMA);
        assert_ne!(before::Shape::SCHEMA, reordered::Shape::SCHEMA);
        assert_ne!(longer::Named::SCHEMA, shorter::Named::SCHEMA);
        assert_ne!(finer::Position::SCHEMA, coarser::Position::SCHEMA);
    }

    #[test]
    fn nested_types_fold_in_their_schema() {
        #[derive(bitpack::BitPack)]
        struct Outer {
            inner: before::Shape,
        }
        #[derive(bitpack::BitPack)]
        struct OuterWidened {
            inner: widened::Shape,
        }
        assert_ne!(Outer::SCHEMA, OuterWidened::SCHEMA);
        // A plain u8 and a full-range one write alike, so hash alike.
        #[derive(bitpack::BitPack)]
        struct Plain(u8);
        #[derive(bitpack::BitPack)]
        struct FullRange(#[bits(min = 0, max = 255)] u8);
        assert_eq!(Plain::SCHEMA, FullRange::SCHEMA);
    }
}

/// `#[quantize(min, max, res)]` on `f64`: the compressed double, alone (no run).
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct Planet {
    #[quantize(min = -1.0e9, max = 1.0e9, res = 0.01)]
    x: f64,
}

/// The same declaration on an f64 and an f32 field: different wires.
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct Coarse {
    #[quantize(min = -1000.0, max = 1000.0, res = 0.001)]
    x: f64,
}

#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct CoarseF32 {
    #[quantize(min = -1000.0, max = 1000.0, res = 0.001)]
    x: f32,
}

#[test]
fn quantized_doubles_write_the_core_bytes() {
    // 2e11 steps of 0.01: 38 bits, more than an f32 declaration may have.
    assert_eq!(Planet::MAX_BITS, 38);
    assert_ne!(Coarse::SCHEMA, CoarseF32::SCHEMA);
    // 2,000,000 steps either way (an f32 declaration may have up to 2^23).
    assert_eq!((Coarse::MAX_BITS, CoarseF32::MAX_BITS), (21, 21));
    for x in [-1.0e9, -123_456_789.012, 0.0, 0.005, 987_654_321.987, 1.0e9, 2.0e9, -5.0e9] {
        let planet = Planet { x };
        let bytes = bitpack::encode(&planet).expect("encodes");
        let mut by_hand = [0u8; 8];
        let mut writer = BitWriter::new(&mut by_hand);
        writer.write_compressed_double(x, -1.0e9, 1.0e9, 0.01).expect("writes");
        let used = writer.finish().expect("finishes");
        assert_eq!(bytes, by_hand[..used]);
        let back: Planet = bitpack::decode(&bytes).expect("decodes");
        let expected = BitReader::new(&bytes).read_compressed_double(-1.0e9, 1.0e9, 0.01).expect("reads");
        assert_eq!(back.x.to_bits(), expected.to_bits());
        assert!((back.x - x.clamp(-1.0e9, 1.0e9)).abs() <= 0.005 + 1e-6, "{x} -> {}", back.x);
    }
    assert_eq!(bitpack::encode(&Planet { x: f64::NAN }).unwrap_err().kind(), ErrorKind::NonFiniteFloat);
    // Steps above the maximum are refused on read.
    assert_eq!(bitpack::decode::<Planet>(&[0xFF; 5]).unwrap_err().kind(), ErrorKind::OutOfRange);
}

/// Literals past f32 on an `f64` field: read as f64, as a `const` of the
/// same value is (they were once read as f32, infinite, and refused).
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct Cosmos {
    #[quantize(min = -1.0e300, max = 1.0e300, res = 1.0e290)]
    x: f64,
    #[quantize(min = 0, max = 1.0e-30, res = 1.0e-45)]
    tiny: f64,
}

const COSMOS_MIN: f64 = -1.0e300;

#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct CosmosByConst {
    #[quantize(min = COSMOS_MIN, max = 1.0e300, res = 1.0e290)]
    x: f64,
    #[quantize(min = 0, max = 1.0e-30, res = 1.0e-45)]
    tiny: f64,
}

#[test]
fn f64_literals_are_read_as_f64() {
    assert_eq!(Cosmos::MAX_BITS, CosmosByConst::MAX_BITS);
    assert_eq!(Cosmos::SCHEMA, CosmosByConst::SCHEMA);
    // 2e10 steps of 1e290, and 1e15 of 1e-45: 35 and 50 bits.
    assert_eq!(Cosmos::MAX_BITS, 35 + 50);
    for (x, tiny) in [(-1.0e300, 0.0), (3.5e299, 4.0e-31), (1.0e300, 1.0e-30)] {
        let cosmos = Cosmos { x, tiny };
        let bytes = bitpack::encode(&cosmos).expect("encodes");
        assert_eq!(bytes, bitpack::encode(&CosmosByConst { x, tiny }).expect("encodes"));
        let back: Cosmos = bitpack::decode(&bytes).expect("decodes");
        assert!((back.x - x).abs() <= 0.5e290 * (1.0 + 1e-9), "{x} -> {}", back.x);
        assert!((back.tiny - tiny).abs() <= 0.5e-45 * (1.0 + 1e-6), "{tiny} -> {}", back.tiny);
    }
}
