//! Plain integers and bulk sequences gathered into one push inside a
//! derived struct's reservation (`__private::Prefix`: a record's id, flags
//! and payload length together): the bits, the error and its bit, and the
//! writer's position are those of writing each field as the core calls do
//! (the length, then each element), after any offset, into buffers of any
//! size, with lengths past `max_len` anywhere; measuring counts the same.

use crate::bulk_support;

use bitpack::__private::write_len;
use bitpack::{BitPack, BitWriter, Error};
use bulk_support::{measured_as_written, written};
use proptest::prelude::*;

/// Issue 15's record: the id, the flags and the payload's length in one push.
#[derive(BitPack, Clone, Debug, PartialEq)]
struct Record {
    id: u16,
    #[bitpack(max_len = 16)]
    flags: Vec<bool>,
    #[bitpack(max_len = 32)]
    payload: Vec<u8>,
}

/// Two integers before the flags, three sequences after them (lanes of 16
/// bits in a short range, then bytes, then bools again), a second prefix
/// after a field that ends the first.
#[derive(BitPack, Clone, Debug, PartialEq)]
struct Chain {
    a: u8,
    b: i16,
    #[bitpack(max_len = 12)]
    flags: Vec<bool>,
    #[bitpack(max_len = 20)]
    words: Vec<u16>,
    #[bitpack(max_len = 40)]
    bytes: Vec<u8>,
    #[bitpack(max_len = 16)]
    more: Vec<bool>,
    stop: bool,
    c: i32,
    #[bitpack(max_len = 16)]
    last: Vec<bool>,
}

/// Integers that fill a word before the flags (the prefix pushed early).
#[derive(BitPack, Clone, Debug, PartialEq)]
struct Wide {
    x: u32,
    y: u32,
    z: u32,
    #[bitpack(max_len = 16)]
    flags: Vec<bool>,
    #[bitpack(max_len = 8)]
    items: Vec<u16>,
}

/// Records through the held loop of a derived `Vec`.
#[derive(BitPack, Clone, Debug, PartialEq)]
struct Records {
    #[bitpack(max_len = 6)]
    records: Vec<Record>,
}

fn bools(writer: &mut BitWriter<'_>, values: &[bool], max_len: usize) -> Result<(), Error> {
    write_len(writer, values.len(), max_len)?;
    values.iter().try_for_each(|value| value.write_to(writer))
}

fn ints<T: BitPack>(writer: &mut BitWriter<'_>, values: &[T], max_len: usize) -> Result<(), Error> {
    write_len(writer, values.len(), max_len)?;
    values.iter().try_for_each(|value| value.write_to(writer))
}

fn record_by_fields(writer: &mut BitWriter<'_>, value: &Record) -> Result<(), Error> {
    value.id.write_to(writer)?;
    bools(writer, &value.flags, 16)?;
    ints(writer, &value.payload, 32)
}

fn chain_by_fields(writer: &mut BitWriter<'_>, value: &Chain) -> Result<(), Error> {
    value.a.write_to(writer)?;
    value.b.write_to(writer)?;
    bools(writer, &value.flags, 12)?;
    ints(writer, &value.words, 20)?;
    ints(writer, &value.bytes, 40)?;
    bools(writer, &value.more, 16)?;
    value.stop.write_to(writer)?;
    value.c.write_to(writer)?;
    bools(writer, &value.last, 16)
}

fn wide_by_fields(writer: &mut BitWriter<'_>, value: &Wide) -> Result<(), Error> {
    [value.x, value.y, value.z].iter().try_for_each(|value| value.write_to(writer))?;
    bools(writer, &value.flags, 16)?;
    ints(writer, &value.items, 8)
}

fn records_by_fields(writer: &mut BitWriter<'_>, value: &Records) -> Result<(), Error> {
    write_len(writer, value.records.len(), 6)?;
    value.records.iter().try_for_each(|record| record_by_fields(writer, record))
}

/// The derived write against `by_fields` after `offset` bits into `room`
/// bytes: the same bytes and bits, or the same error at the same bit with
/// the derived writer back at the offset (it is atomic); and measuring
/// counts (or refuses) as writing into a roomy buffer does.
fn same_as_by_fields<T: BitPack>(
    value: &T,
    offset: u32,
    room: usize,
    by_fields: fn(&mut BitWriter<'_>, &T) -> Result<(), Error>,
) -> Result<(), TestCaseError> {
    let derived = written(offset, room, |writer| value.write_to(writer));
    let expected = written(offset, room, |writer| by_fields(writer, value));
    match (derived, expected) {
        (Ok(derived), Ok(expected)) => prop_assert_eq!(derived, expected),
        (Err((derived, at)), Err((expected, _))) => {
            prop_assert_eq!((derived.kind(), derived.bit()), (expected.kind(), expected.bit()));
            prop_assert_eq!(at, offset as usize, "the derived write is atomic");
        }
        (derived, expected) => prop_assert!(false, "{derived:?} against {expected:?}"),
    }
    measured_as_written(value, offset, ROOMY)
}

/// Room for every value here.
const ROOMY: usize = 512;

/// Up to two past `max_len`: refused at the length.
fn vec_of<T: Arbitrary + Clone + std::fmt::Debug>(max_len: usize) -> impl Strategy<Value = Vec<T>> {
    prop_oneof![
        proptest::collection::vec(any::<T>(), 0..=max_len),
        proptest::collection::vec(any::<T>(), 0..=max_len + 2),
    ]
}

fn record() -> impl Strategy<Value = Record> {
    (any::<u16>(), vec_of::<bool>(16), vec_of::<u8>(32)).prop_map(|(id, flags, payload)| Record {
        id,
        flags,
        payload,
    })
}

fn chain() -> impl Strategy<Value = Chain> {
    (
        (any::<u8>(), any::<i16>(), vec_of::<bool>(12), vec_of::<u16>(20), vec_of::<u8>(40)),
        (vec_of::<bool>(16), any::<bool>(), any::<i32>(), vec_of::<bool>(16)),
    )
        .prop_map(|((a, b, flags, words, bytes), (more, stop, c, last))| Chain {
            a,
            b,
            flags,
            words,
            bytes,
            more,
            stop,
            c,
            last,
        })
}

fn wide() -> impl Strategy<Value = Wide> {
    (any::<u32>(), any::<u32>(), any::<u32>(), vec_of::<bool>(16), vec_of::<u16>(8))
        .prop_map(|(x, y, z, flags, items)| Wide { x, y, z, flags, items })
}

/// Roomy, or a few bytes short somewhere in the value.
fn room() -> impl Strategy<Value = usize> {
    prop_oneof![Just(ROOMY), 8usize..80]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(1024)))]

    #[test]
    fn a_record_writes_its_fields_bits(value in record(), offset in 0u32..64, room in room()) {
        same_as_by_fields(&value, offset, room, record_by_fields)?;
    }

    #[test]
    fn a_chain_writes_its_fields_bits(value in chain(), offset in 0u32..64, room in room()) {
        same_as_by_fields(&value, offset, room, chain_by_fields)?;
    }

    #[test]
    fn wide_integers_write_their_bits(value in wide(), offset in 0u32..64, room in room()) {
        same_as_by_fields(&value, offset, room, wide_by_fields)?;
    }

    #[test]
    fn held_records_write_their_fields_bits(
        records in proptest::collection::vec(record(), 0..=7),
        offset in 0u32..64,
        room in prop_oneof![Just(ROOMY), 8usize..200],
    ) {
        same_as_by_fields(&Records { records }, offset, room, records_by_fields)?;
    }
}
