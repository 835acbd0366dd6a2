//! Decoding never allocates more than the declared maximum lengths allow,
//! nor more than the input could hold, and derived writes allocate
//! nothing: a counting global allocator (per thread) watches.

use crate::counting_allocator;
use crate::derive_types;

use bitpack::{BitPack, BitWrite, BitWriter};
use counting_allocator::measure;
use derive_types::*;
use proptest::prelude::*;

/// Bytes allocated while decoding `bytes` as a `T` (the value is dropped
/// after counting).
fn bytes_allocated_decoding<T: BitPack>(bytes: &[u8]) -> usize {
    let (result, usage) = measure(|| bitpack::decode::<T>(bytes));
    drop(result);
    usage.bytes
}

/// Player: a name of at most 16 bytes and an inventory of at most 8.
const PLAYER_MAX_HEAP: usize = NAME_LEN + 8;
/// Containers: up to 3 strings of 3 bytes in a Vec of 3, a box, a grid of
/// 4 rows of 4 bools (arrays are read in place).
const CONTAINERS_MAX_HEAP: usize =
    3 * size_of::<String>() + 3 * 3 + size_of::<(u8, bool)>() + 4 * size_of::<Vec<bool>>() + 4 * 4;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(512)))]

    #[test]
    fn random_input_allocates_within_the_declared_maxima(
        bytes in proptest::collection::vec(any::<u8>(), 0..400),
    ) {
        prop_assert!(bytes_allocated_decoding::<Player>(&bytes) <= PLAYER_MAX_HEAP);
        prop_assert!(bytes_allocated_decoding::<Containers>(&bytes) <= CONTAINERS_MAX_HEAP);
        // Huge declares room for 1000 u64s and 100000 bytes of text, but
        // what is allocated is bounded by what the input can hold: at most
        // one u64 per 64 bits and one byte of text per 8.
        let huge = bytes_allocated_decoding::<Huge>(&bytes);
        prop_assert!(huge <= bytes.len() * 8 / 64 * 8 + bytes.len(), "{} bytes for {} of input", huge, bytes.len());
    }
}

#[test]
fn a_length_the_input_cannot_hold_is_refused_before_allocating() {
    // Claim 1000 u64s (10-bit length), then stop after 8 more bytes.
    let mut buf = [0u8; 16];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_int(1000, 0, 1000).unwrap();
    writer.write_u64(42).unwrap();
    let used = writer.finish().unwrap();
    assert_eq!(bytes_allocated_decoding::<Huge>(&buf[..used]), 0);
    let error = bitpack::decode::<Huge>(&buf[..used]).unwrap_err();
    assert_eq!(error.kind(), bitpack::ErrorKind::UnexpectedEnd);
}

#[test]
fn zero_sized_elements_are_bounded_by_max_len() {
    let huge = Huge { numbers: vec![], text: String::new(), units: vec![(); 1000] };
    let bytes = bitpack::encode(&huge).unwrap();
    assert_eq!(bitpack::decode::<Huge>(&bytes).unwrap(), huge);
    assert_eq!(bytes_allocated_decoding::<Huge>(&bytes), 0);
}

#[derive(BitPack, Debug, Clone, PartialEq)]
struct Gear {
    #[change_group]
    #[bits(min = 0, max = 99)]
    ammo: u8,
}

/// Change groups over a ranged integer, a `String` and a `Vec`, and a
/// nested type's own groups.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Unit {
    #[change_group]
    #[bits(min = 0, max = 100)]
    health: u8,
    #[change_group(look)]
    #[bitpack(max_len = 8)]
    name: String,
    #[change_group(look)]
    #[bits(min = 0, max = 9)]
    #[bitpack(max_len = 4)]
    tags: Vec<u8>,
    #[change_group]
    gear: Gear,
}

#[derive(BitPack, Debug, Clone, PartialEq)]
#[bitpack(adaptive)]
struct Score {
    id: u64,
    delta: i32,
    #[bitpack(max_len = 4)]
    history: Vec<i16>,
}

#[test]
fn derived_writes_allocate_nothing() {
    use bitpack::{BitCounter, ChangeGroups};
    let containers = Containers {
        names: Some(vec!["ab".into(), "c".into()]),
        slots: [Some(1), None, Some(9)],
        boxed: Box::new((1, true)),
        grid: vec![vec![true, false], vec![]],
        pairs: (1, -1),
        cache: vec![7; 3],
        ids: [EntityId(1), EntityId(4095)],
    };
    let huge = Huge { numbers: vec![1, 2, 3], text: "hello".into(), units: vec![(); 5] };
    let score = Score { id: 1 << 40, delta: -3, history: vec![1, -2, 3] };
    let unit = Unit { health: 40, name: "ogre".into(), tags: vec![1, 9], gear: Gear { ammo: 7 } };
    let baseline = Unit { health: 41, name: "orc".into(), tags: vec![], gear: Gear { ammo: 8 } };
    let (confirmed, mut latest) = (Default::default(), Default::default());
    let mut buf = [0u8; 256];
    let ((), usage) = measure(|| {
        bitpack::encode_into(&containers, &mut buf).expect("writes");
        bitpack::encode_into(&huge, &mut buf).expect("writes");
        bitpack::encode_into(&score, &mut buf).expect("writes");
        bitpack::encode_into(&unit, &mut buf).expect("writes");
        let mut counter = BitCounter::new();
        containers.write_to(&mut counter).expect("counts");
        score.write_to(&mut counter).expect("counts");
        let mut writer = BitWriter::new(&mut buf);
        unit.write_changes(&mut writer, &confirmed, &mut latest).expect("writes");
        unit.write_delta(&baseline, &mut writer).expect("writes");
        unit.write_delta(&baseline, &mut counter).expect("counts");
        writer.finish().expect("fits");
    });
    assert_eq!(usage.allocations, 0, "{usage:?}");
    // Refusals allocate nothing either.
    let long = Huge { text: String::new(), numbers: vec![0; 1001], units: vec![] };
    let (result, usage) = measure(|| bitpack::encode_into(&long, &mut buf));
    assert_eq!(result.unwrap_err().kind(), bitpack::ErrorKind::TooLong);
    assert_eq!(usage.allocations, 0);
}
