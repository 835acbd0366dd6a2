//! Issue 16's lengths that do not depend on a guessed `max_len`:
//! `#[bitpack(adaptive_len)]` on a `Vec`, `VecDeque` or `Box<[T]>` writes
//! the length as `bit_length(len)` in `bit_length(bit_length(max_len))`
//! bits, then the bits below its leading 1. Each value below is compared
//! with that layout written by hand, read back, measured, and hostile or
//! truncated bytes are refused.

use std::collections::VecDeque;

use bitpack::{BitPack, BitWrite, BitWriter, ErrorKind};
use proptest::prelude::*;

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Point {
    #[bits(min = 0, max = 1000)]
    x: u16,
    y: i8,
}

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Lists {
    /// An offset before the lengths.
    #[bits(min = 0, max = 6)]
    lead: u8,
    #[bitpack(max_len = 1_000_000, adaptive_len)]
    ids: Vec<u32>,
    #[bitpack(max_len = 40, adaptive_len)]
    flags: VecDeque<bool>,
    #[bitpack(max_len = 9, adaptive_len)]
    points: Vec<Point>,
    /// Both levels' lengths bounded-adaptive, each at most 5.
    #[bitpack(max_len = 5, adaptive_len)]
    nested: Box<[Vec<i8>]>,
}

/// The same fields with the reference's fixed-width lengths.
#[derive(BitPack, Clone, Debug, PartialEq)]
struct FixedIds {
    #[bitpack(max_len = 1_000_000)]
    ids: Vec<u32>,
}

#[derive(BitPack, Clone, Debug, PartialEq)]
struct AdaptiveIds {
    #[bitpack(max_len = 1_000_000, adaptive_len)]
    ids: Vec<u32>,
}

fn bit_length(value: u64) -> u32 {
    u64::BITS - value.leading_zeros()
}

/// The bounded-adaptive length, written by hand.
fn write_len(writer: &mut BitWriter<'_>, len: usize, max_len: usize) {
    let n = bit_length(len as u64);
    writer.write_bits(n, bit_length(u64::from(bit_length(max_len as u64)))).unwrap();
    if n > 1 {
        writer.write_bits64(len as u64 & !(1 << (n - 1)), n - 1).unwrap();
    }
}

/// `value`'s expected bytes and bit count.
fn expected(value: &Lists) -> (Vec<u8>, usize) {
    let mut buf = vec![0u8; Lists::MAX_BITS.div_ceil(8)];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_int(i32::from(value.lead), 0, 6).unwrap();
    write_len(&mut writer, value.ids.len(), 1_000_000);
    value.ids.iter().for_each(|id| writer.write_u32(*id).unwrap());
    write_len(&mut writer, value.flags.len(), 40);
    value.flags.iter().for_each(|flag| writer.write_bool(*flag).unwrap());
    write_len(&mut writer, value.points.len(), 9);
    for point in &value.points {
        writer.write_int(i32::from(point.x), 0, 1000).unwrap();
        point.y.write_to(&mut writer).unwrap();
    }
    write_len(&mut writer, value.nested.len(), 5);
    for inner in value.nested.iter() {
        write_len(&mut writer, inner.len(), 5);
        inner.iter().for_each(|byte| byte.write_to(&mut writer).unwrap());
    }
    let bits = writer.bits_written();
    let used = writer.finish().unwrap();
    buf.truncate(used);
    (buf, bits)
}

fn lists() -> impl Strategy<Value = Lists> {
    (
        0u8..=6,
        prop_oneof![Just(0usize), Just(1), Just(2), 0..300usize]
            .prop_flat_map(|n| proptest::collection::vec(any::<u32>(), n)),
        proptest::collection::vec_deque(any::<bool>(), 0..=40),
        proptest::collection::vec((0u16..=1000, any::<i8>()), 0..=9),
        proptest::collection::vec(proptest::collection::vec(any::<i8>(), 0..=5), 0..=5),
    )
        .prop_map(|(lead, ids, flags, points, nested)| Lists {
            lead,
            ids,
            flags,
            points: points.into_iter().map(|(x, y)| Point { x, y }).collect(),
            nested: nested.into_boxed_slice(),
        })
}

proptest! {
    #[test]
    fn round_trips_in_the_bounded_adaptive_layout(value in lists()) {
        let (bytes, bits) = expected(&value);
        prop_assert_eq!(bitpack::measure(&value).unwrap(), bits);
        prop_assert!((Lists::MIN_BITS..=Lists::MAX_BITS).contains(&bits));
        prop_assert_eq!(&bitpack::encode(&value).unwrap(), &bytes);
        prop_assert_eq!(bitpack::decode::<Lists>(&bytes).unwrap(), value);
    }

    #[test]
    fn truncated_bytes_are_refused(value in lists(), cut in 1usize..8) {
        let bytes = bitpack::encode(&value).unwrap();
        let keep = bytes.len().saturating_sub(cut);
        prop_assert!(bitpack::decode::<Lists>(&bytes[..keep]).is_err());
    }

    #[test]
    fn hostile_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let _ = bitpack::decode::<Lists>(&bytes);
        let _ = bitpack::decode::<AdaptiveIds>(&bytes);
    }
}

#[test]
fn a_generous_max_len_costs_a_few_bits_of_length() {
    let value = AdaptiveIds { ids: vec![7, 8, 9] };
    let length_bits = bitpack::measure(&value).unwrap() - 3 * 32;
    let fixed_bits = bitpack::measure(&FixedIds { ids: value.ids.clone() }).unwrap() - 3 * 32;
    // `bit_length(3) = 2` in `bit_length(20) = 5` bits, then the 1 bit below its leading 1.
    assert_eq!(length_bits, 6);
    assert_eq!(fixed_bits, 20);
    assert_eq!(bitpack::measure(&AdaptiveIds { ids: vec![] }).unwrap(), 5);
    assert_eq!(AdaptiveIds::MIN_BITS, 5);
    assert_eq!(AdaptiveIds::MAX_BITS, 5 + 19 + 1_000_000 * 32);
    assert_ne!(AdaptiveIds::SCHEMA, FixedIds::SCHEMA);
}

#[test]
fn lengths_over_max_len_are_refused() {
    // `nested` says 6 (bit length 3, then 0b10) with `max_len = 5`: every
    // other field empty, so the length is the first thing after them.
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_int(0, 0, 6).unwrap();
    write_len(&mut writer, 0, 1_000_000);
    write_len(&mut writer, 0, 40);
    write_len(&mut writer, 0, 9);
    write_len(&mut writer, 6, 5);
    let used = writer.finish().unwrap();
    let error = bitpack::decode::<Lists>(&buf[..used]).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TooLong);

    // A bit length above `bit_length(max_len)` (a length of 2^20 or more).
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bits(21, 5).unwrap();
    let used = writer.finish().unwrap();
    assert_eq!(bitpack::decode::<AdaptiveIds>(&buf[..used]).unwrap_err().kind(), ErrorKind::TooLong);
    // 1_000_001 fits the bit length but not `max_len`.
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    write_len(&mut writer, 1_000_001, 2_000_000);
    let used = writer.finish().unwrap();
    assert_eq!(bitpack::decode::<AdaptiveIds>(&buf[..used]).unwrap_err().kind(), ErrorKind::TooLong);
}

#[test]
fn a_length_past_the_input_is_refused_before_allocating() {
    // 900_000 ids claimed, none there.
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    write_len(&mut writer, 900_000, 1_000_000);
    let used = writer.finish().unwrap();
    assert_eq!(bitpack::decode::<AdaptiveIds>(&buf[..used]).unwrap_err().kind(), ErrorKind::UnexpectedEnd);
}

#[test]
fn writing_over_max_len_is_refused() {
    let value = Lists {
        lead: 0,
        ids: vec![],
        flags: VecDeque::new(),
        points: vec![Point { x: 0, y: 0 }; 10],
        nested: Box::new([]),
    };
    assert_eq!(bitpack::measure(&value).unwrap_err().kind(), ErrorKind::TooLong);
}
