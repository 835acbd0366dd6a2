//! Adaptive integers: the published example against protobuf, and the
//! worked cases with their exact bit counts.

use crate::adaptive_support;

use adaptive_support::{Big, Mixed, Outer, Position, Published, Samples, Single, decode, encode};
use bitpack::adaptive::{self, Signs};
use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, ErrorKind};
use prost::Message;

#[derive(Clone, PartialEq, prost::Message)]
struct PublishedProto {
    #[prost(int64, tag = "1")]
    id: i64,
    #[prost(int32, tag = "2")]
    a: i32,
    #[prost(int32, tag = "3")]
    b: i32,
}

/// Encodes, asserts the exact bit count, and round-trips.
fn assert_bits<T: BitPack + PartialEq + std::fmt::Debug>(value: &T, expected_bits: usize) {
    let (bytes, bits) = encode(value).expect("encodes");
    assert_eq!(bits, expected_bits, "bits of {value:?}");
    assert_eq!(&decode::<T>(&bytes).expect("decodes"), value);
}

#[test]
fn published_example_takes_48_bits_where_protobuf_takes_9_bytes() {
    let message = Published { id: 123_456_789, a: 25, b: 3 };
    // Sign bit; 123456789 has 27 significant bits: 6 + 26; 25: 5 + 4; 3: 5 + 1.
    assert_bits(&message, 1 + (6 + 26) + (5 + 4) + (5 + 1));
    let (ours, bits) = encode(&message).unwrap();
    assert!(bits <= 48);
    assert_eq!(ours.len(), 6);

    let proto = PublishedProto { id: 123_456_789, a: 25, b: 3 }.encode_to_vec();
    assert_eq!(proto, [0x08, 0x95, 0x9A, 0xEF, 0x3A, 0x10, 0x19, 0x18, 0x03]);
    assert_eq!(proto.len(), 9);
    assert!(ours.len() <= 6 && ours.len() < proto.len());
}

#[test]
fn one_negative_value_switches_the_message_to_zig_zag() {
    // Sign bit 1; -1 zig-zags to 1: prefix alone; 250 zig-zags to 500 (9 bits): 5 + 8;
    // u32 70000 (17 bits) is never zig-zagged: 5 + 16.
    assert_bits(&Mixed { a: -1, b: 250, c: 70_000 }, 1 + 5 + (5 + 8) + (5 + 16));
    // Without the negative value, 250 is sent as itself (8 bits): 5 + 7.
    assert_bits(&Mixed { a: 1, b: 250, c: 70_000 }, 1 + 5 + (5 + 7) + (5 + 16));
}

#[test]
fn a_vec_of_close_values_shares_one_length() {
    let samples = Samples { values: vec![3, 1000, 1001, 1002, 998] };
    // No signed field: no sign bit. Length 5 in bits_required(0, 16) = 5 bits,
    // mode 1, width 10 in the 4-bit prefix, five 10-bit values = 60.
    assert_bits(&samples, 5 + 1 + 4 + 5 * 10);
    // Per value would be 5 + 1 + (4 + 1) + 4 * (4 + 9) = 63: shared is exactly shorter.
    let per_value: usize =
        samples.values.iter().map(|&v| adaptive::adaptive_bits(v, Signs::NonNegative).unwrap()).sum();
    assert_eq!(per_value, 57);
    // Values of very different sizes keep per-value lengths.
    // 60000 has 16 bits: escape prefix, one bit, 15 bits; shared would be 4 + 1 + 2 * 16.
    assert_bits(&Samples { values: vec![1, 60_000] }, 5 + 1 + 4 + (4 + 1 + 15));
    assert_bits(&Samples { values: vec![] }, 5);
}

#[test]
fn a_three_vector_shares_one_length() {
    // Sign bit 0, mode 1, width 7 in the 5-bit prefix, three 7-bit values.
    assert_bits(&Position { xyz: [100, 101, 99] }, 1 + 1 + 5 + 3 * 7);
    // With a negative value every component is zig-zagged: 200, 202, 197 (8 bits).
    assert_bits(&Position { xyz: [100, -101, 99] }, 1 + 1 + 5 + 3 * 8);
}

#[test]
fn sixty_four_bit_values_need_no_sign_bit() {
    // 1.7e12 has 41 significant bits: 6 + 40. 0xDEADBEEFCAFEBABE has 64: escape
    // prefix, one bit, 63 bits. No signed field, so no sign bit.
    assert_bits(&Big { a: 1_700_000_000_000, b: 0xDEAD_BEEF_CAFE_BABE }, (6 + 40) + (6 + 1 + 63));
    assert_bits(&Big { a: u64::MAX, b: 1 << 62 }, (6 + 1 + 63) + (6 + 1 + 62));
}

#[test]
fn i32_min_round_trips() {
    // Sign bit 1; zig-zag gives u32::MAX (32 bits): escape, one bit, 31 bits.
    assert_bits(&Single { v: i32::MIN }, 1 + 5 + 1 + 31);
    assert_bits(&Single { v: i32::MAX }, 1 + 5 + 1 + 30);
}

#[test]
fn an_all_zero_message_is_its_prefixes() {
    assert_bits(&Published { id: 0, a: 0, b: 0 }, 1 + 6 + 5 + 5);
    assert_bits(&Big { a: 0, b: 0 }, 6 + 6);
}

#[test]
fn nested_types_share_the_message_sign_bit() {
    let calm = Outer {
        id: 7,
        position: Position { xyz: [100, 101, 99] },
        target: Some(Single { v: 4 }),
        heading: 1.5,
    };
    // One sign bit (0); id 7: 5 + 2; position 1 + 5 + 21; Some + 4 (3 bits): 1 + 5 + 2;
    // heading 1500 as i64 (11 bits): 6 + 10.
    assert_bits(&calm, 1 + (5 + 2) + (1 + 5 + 21) + (1 + 5 + 2) + (6 + 10));
    // A negative value deep inside switches every signed value to zig-zag.
    let negative_target = Outer { target: Some(Single { v: -4 }), ..calm.clone() };
    // Zig-zag: position 200, 202, 198 (8 bits); -4 -> 7 (3 bits); 1500 -> 3000 (12 bits).
    assert_bits(&negative_target, 1 + (5 + 2) + (1 + 5 + 24) + (1 + 5 + 2) + (6 + 11));
    // A heading that rounds to a negative count counts too; one that rounds to 0 does not.
    let (bytes, bits) = encode(&Outer { heading: -0.0004, ..calm.clone() }).unwrap();
    assert_eq!(bits, 1 + 7 + 27 + 8 + 6);
    assert_eq!(decode::<Outer>(&bytes).unwrap(), Outer { heading: 0.0, ..calm.clone() });
    let (bytes, _) = encode(&Outer { heading: -0.0006, ..calm.clone() }).unwrap();
    assert_eq!(decode::<Outer>(&bytes).unwrap().heading, -0.001);
}

#[test]
fn fixed_point_refuses_what_it_cannot_send() {
    let mut counter = BitCounter::new();
    let refuse = |value: f64, res: f64| {
        adaptive::write_fixed(&mut BitCounter::new(), value, res, Signs::ZigZag).map_err(|e| e.kind())
    };
    assert_eq!(refuse(f64::NAN, 0.001), Err(ErrorKind::NonFiniteFloat));
    assert_eq!(refuse(f64::INFINITY, 0.001), Err(ErrorKind::NonFiniteFloat));
    assert_eq!(refuse(1e16, 0.001), Err(ErrorKind::OutOfRange)); // 1e19 steps
    assert_eq!(refuse(-1e16, 0.001), Err(ErrorKind::OutOfRange));
    assert_eq!(refuse(1.0, 0.0), Err(ErrorKind::InvalidDeclaration));
    assert_eq!(refuse(1.0, -0.5), Err(ErrorKind::InvalidDeclaration));
    assert_eq!(
        adaptive::write_fixed_f32(&mut counter, f32::MAX, 1e32, Signs::ZigZag).map_err(|e| e.kind()),
        Ok(())
    );
    // Nothing was counted for the refused values.
    assert_eq!(counter.bits_written(), adaptive::adaptive_bits(3_402_823_i64, Signs::ZigZag).unwrap());
    // The largest quotients: 2^50 steps for f64, 2^22 for f32 (past them a
    // decoded value could re-encode one step away).
    let steps = adaptive::FIXED_MAX_STEPS as f64;
    assert_eq!(adaptive::fixed_point(steps, 1.0), Ok(adaptive::FIXED_MAX_STEPS));
    assert_eq!(adaptive::fixed_point(-steps, 1.0), Ok(-adaptive::FIXED_MAX_STEPS));
    assert_eq!(adaptive::fixed_point(steps + 1.0, 1.0), Err(ErrorKind::OutOfRange));
    let f32_steps = adaptive::FIXED_F32_MAX_STEPS as f32;
    assert!(adaptive::write_fixed_f32(&mut BitCounter::new(), f32_steps, 1.0, Signs::ZigZag).is_ok());
    assert_eq!(
        adaptive::write_fixed_f32(&mut BitCounter::new(), f32_steps + 1.0, 1.0, Signs::ZigZag)
            .map_err(|e| e.kind()),
        Err(ErrorKind::OutOfRange)
    );
}

#[test]
fn fixed_point_readers_refuse_quotients_no_writer_sends() {
    let mut buf = [0u8; 16];
    let mut writer = BitWriter::new(&mut buf);
    adaptive::write_adaptive(&mut writer, adaptive::FIXED_MAX_STEPS + 1, Signs::ZigZag).unwrap();
    adaptive::write_adaptive(&mut writer, adaptive::FIXED_F32_MAX_STEPS + 1, Signs::ZigZag).unwrap();
    let used = writer.finish().unwrap();
    let mut reader = BitReader::new(&buf[..used]);
    let error = adaptive::read_fixed(&mut reader, 0.001, Signs::ZigZag).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::OutOfRange);
    assert_eq!(reader.bits_read(), 0, "a refused read leaves the reader");
    adaptive::read_adaptive::<i64>(&mut reader, Signs::ZigZag).unwrap();
    let error = adaptive::read_fixed_f32(&mut reader, 0.5, Signs::ZigZag).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::OutOfRange);
}

#[test]
fn a_negative_value_under_non_negative_signs_is_refused() {
    let mut counter = BitCounter::new();
    let error = adaptive::write_adaptive(&mut counter, -5i32, Signs::NonNegative).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::OutOfRange);
    assert_eq!(counter.bits_written(), 0);
    let error = adaptive::write_adaptive_group(&mut counter, &[1i8, -1], Signs::NonNegative).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::OutOfRange);
    assert_eq!(counter.bits_written(), 0);
}

#[test]
fn readers_refuse_and_stay_put() {
    // A u8 prefix of 7 (escape) then 1: length 8 needs 7 more bits; only 1 remains.
    let mut short = BitReader::new(&[0xFF]);
    let error = adaptive::read_adaptive::<u8>(&mut short, Signs::NonNegative).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::UnexpectedEnd);
    assert_eq!(short.bits_read(), 0);

    // i8 without signs: length 8 stands for 128..=255, which no i8 is.
    let mut bytes = [0u8; 2];
    let mut writer = BitWriter::new(&mut bytes);
    adaptive::write_adaptive(&mut writer, 200u8, Signs::NonNegative).unwrap();
    writer.finish().unwrap();
    let mut reader = BitReader::new(&bytes);
    let error = adaptive::read_adaptive::<i8>(&mut reader, Signs::NonNegative).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::OutOfRange);
    assert_eq!(reader.bits_read(), 0);
    assert_eq!(adaptive::read_adaptive::<i8>(&mut reader, Signs::ZigZag).unwrap(), 100);

    // A Vec length over its maximum.
    let mut bytes = [0u8; 4];
    let mut writer = BitWriter::new(&mut bytes);
    writer.write_bits(17, 5).unwrap();
    writer.finish().unwrap();
    let error = adaptive::read_adaptive_vec::<u16>(&mut BitReader::new(&bytes), 16, Signs::NonNegative);
    assert_eq!(error.unwrap_err().kind(), ErrorKind::TooLong);

    // 16 values of at least 4 bits each cannot fit in the 27 bits left.
    let mut bytes = [0u8; 4];
    let mut writer = BitWriter::new(&mut bytes);
    writer.write_bits(16, 5).unwrap();
    writer.finish().unwrap();
    let error = adaptive::read_adaptive_vec::<u16>(&mut BitReader::new(&bytes), 16, Signs::NonNegative);
    assert_eq!(error.unwrap_err().kind(), ErrorKind::UnexpectedEnd);
}

#[test]
fn too_long_vec_is_refused_before_writing() {
    let mut counter = BitCounter::new();
    let error = adaptive::write_adaptive_vec(&mut counter, &[1u16; 17], 16, Signs::NonNegative);
    assert_eq!(error.unwrap_err().kind(), ErrorKind::TooLong);
    assert_eq!(counter.bits_written(), 0);
}

/// Encodes `values` as a bare group and returns the bytes.
fn group_bytes(values: &[u8]) -> Vec<u8> {
    let mut buf = vec![0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    adaptive::write_adaptive_group(&mut writer, values, Signs::NonNegative).unwrap();
    let used = writer.finish().unwrap();
    buf.truncate(used);
    buf
}

#[test]
fn group_wire_bytes_are_pinned() {
    // [3, 4]: per value 4 + 5 bits, shared 3 + 2 * 3: a tie keeps per value.
    // Mode 0; prefix 2, payload 1; prefix 3, payload 00 (LSB first).
    assert_eq!(group_bytes(&[3, 4]), [0b0111_0100, 0b00]);
    // [1, 1]: per value 3 + 3 bits, shared 3 + 2 * 1: shared.
    // Mode 1; width 1 (100); 1; 1.
    assert_eq!(group_bytes(&[1, 1]), [0b0011_0011]);
    // [255]: per value escape (111), bit 1, seven 1s; shared would be 1 bit longer.
    assert_eq!(group_bytes(&[255]), [0b1111_1110, 0b1111]);
}

#[test]
fn published_example_bytes_are_pinned() {
    // Sign 0; prefix 27 then the low 26 bits of 123456789; prefix 5 then 1001;
    // prefix 2 then 1. Regression vector: any change here breaks peers.
    let (bytes, _) = encode(&Published { id: 123_456_789, a: 25, b: 3 }).unwrap();
    let mut reader = BitReader::new(&bytes);
    assert!(!reader.read_bool().unwrap());
    assert_eq!(reader.read_bits(6).unwrap(), 27);
    assert_eq!(reader.read_bits(26).unwrap(), 123_456_789 - (1 << 26));
    assert_eq!(reader.read_bits(5).unwrap(), 5);
    assert_eq!(reader.read_bits(4).unwrap(), 25 - 16);
    assert_eq!(reader.read_bits(5).unwrap(), 2);
    assert_eq!(reader.read_bits(1).unwrap(), 1);
    assert_eq!(reader.bits_remaining(), 0);
}
