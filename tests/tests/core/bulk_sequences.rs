//! Issue 15's bulk paths beyond `Vec<bool>` and `Vec<u8>`: `VecDeque` and
//! boxed slices of bools and integers, `Vec`s of every full-width integer
//! from `i8` to `u64`, and arrays the derive does not unroll (a length
//! given by a constant, or a literal over 16). Each writes the bits the
//! element-by-element calls write, after any bit offset; reads them back;
//! and refuses a short buffer or a short input at the same bit as the code
//! as it was, with the writer or reader back where it was.

use crate::bulk_support;

use bulk_support::Against;
use std::collections::VecDeque;

use bitpack::{BitPack, BitRead, BitReader, BitWrite, BitWriter, Error, ErrorKind};
use proptest::prelude::*;

const MAX_LEN: usize = 40;
const MASK: usize = 70;
const BYTES: usize = 13;

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Wide {
    /// An offset of `lead_bits` bits before the sequences.
    #[bits(min = 0, max = 0x7fff)]
    lead: u16,
    #[bitpack(max_len = MAX_LEN)]
    deque: VecDeque<bool>,
    #[bitpack(max_len = MAX_LEN)]
    boxed: Box<[u16]>,
    #[bitpack(max_len = MAX_LEN)]
    small: Vec<i8>,
    #[bitpack(max_len = MAX_LEN)]
    words: VecDeque<u32>,
    #[bitpack(max_len = MAX_LEN)]
    longs: Vec<i64>,
    mask: [bool; MASK],
    bytes: [u8; BYTES],
    signed: [i16; 17],
    tail: bool,
}

/// Items of a `Vec` (its writer or counter held for them).
#[derive(BitPack, Clone, Debug, PartialEq)]
struct Wides {
    #[bitpack(max_len = 3)]
    items: Vec<Wide>,
}

/// The length as `write_len` writes it, then each element by its own impl.
fn sequence<'a, T: BitPack + 'a>(
    writer: &mut BitWriter<'_>,
    items: impl ExactSizeIterator<Item = &'a T>,
) -> Result<(), Error> {
    writer.write_int(items.len() as i32, 0, MAX_LEN as i32)?;
    elements(writer, items)
}

fn elements<'a, T: BitPack + 'a>(
    writer: &mut BitWriter<'_>,
    mut items: impl Iterator<Item = &'a T>,
) -> Result<(), Error> {
    items.try_for_each(|item| item.write_to(writer))
}

/// What the element-by-element calls write for `value`.
fn by_elements(writer: &mut BitWriter<'_>, value: &Wide) -> Result<(), Error> {
    writer.write_int(i32::from(value.lead), 0, 0x7fff)?;
    sequence(writer, value.deque.iter())?;
    sequence(writer, value.boxed.iter())?;
    sequence(writer, value.small.iter())?;
    sequence(writer, value.words.iter())?;
    sequence(writer, value.longs.iter())?;
    elements(writer, value.mask.iter())?;
    elements(writer, value.bytes.iter())?;
    elements(writer, value.signed.iter())?;
    writer.write_bool(value.tail)
}

/// The derived read as it was before these bulk paths: sequences through
/// `read_sequence` and `read_vec`, arrays through `read_array`, element by
/// element, the body atomic.
fn read_as_before(reader: &mut BitReader<'_>) -> Result<Wide, Error> {
    use bitpack::__private as p;
    p::read_atomic(reader, |reader| {
        let lead = reader.read_int(0, 0x7fff)? as u16;
        let deque = p::read_sequence::<_, VecDeque<bool>, _>(reader, MAX_LEN, 1, |r| r.read_bool())?;
        let boxed = p::read_sequence::<_, Box<[u16]>, _>(reader, MAX_LEN, 16, |r| r.read_u16())?;
        let small = p::read_vec(reader, MAX_LEN, 8, i8::read_from)?;
        let words = p::read_sequence::<_, VecDeque<u32>, _>(reader, MAX_LEN, 32, |r| r.read_u32())?;
        let longs = p::read_vec(reader, MAX_LEN, 64, i64::read_from)?;
        let mask = p::read_array(reader, |r| r.read_bool())?;
        let bytes = p::read_array(reader, |r| r.read_u8())?;
        let signed = p::read_array(reader, i16::read_from)?;
        Ok(Wide { lead, deque, boxed, small, words, longs, mask, bytes, signed, tail: reader.read_bool()? })
    })
}

/// `value` written by `write` after `offset` bits (see `bulk_support::written`).
fn written(
    offset: u32,
    value: &Wide,
    room: usize,
    write: impl Fn(&mut BitWriter<'_>, &Wide) -> Result<(), Error>,
) -> Result<(Vec<u8>, usize), (Error, usize)> {
    bulk_support::written(offset, room, |writer| write(writer, value))
}

/// A sequence's length up to `most`.
fn len(most: usize) -> impl Strategy<Value = usize> {
    prop_oneof![Just(0usize), Just(MAX_LEN), 0..=most]
}

/// A deque whose elements wrap around its buffer (two halves) or not.
fn deque<T: std::fmt::Debug + Clone>(items: Vec<T>, front: usize) -> VecDeque<T> {
    let front = front.min(items.len());
    let mut deque = VecDeque::with_capacity(items.len());
    deque.extend(items[front..].iter().cloned());
    for item in items[..front].iter().rev() {
        deque.push_front(item.clone());
    }
    deque
}

fn wide() -> impl Strategy<Value = Wide> {
    wide_up_to(MAX_LEN)
}

/// Sequences up to `most` long (past `MAX_LEN`: refused).
fn wide_up_to(most: usize) -> impl Strategy<Value = Wide> {
    let vecs = (
        len(most).prop_flat_map(|n| proptest::collection::vec(any::<bool>(), n)),
        len(most).prop_flat_map(|n| proptest::collection::vec(any::<u16>(), n)),
        len(most).prop_flat_map(|n| proptest::collection::vec(any::<i8>(), n)),
        len(most).prop_flat_map(|n| proptest::collection::vec(any::<u32>(), n)),
        len(most).prop_flat_map(|n| proptest::collection::vec(any::<i64>(), n)),
    );
    let arrays = (
        proptest::array::uniform32(any::<bool>()),
        proptest::collection::vec(any::<bool>(), MASK - 32),
        any::<[u8; BYTES]>(),
        any::<[i16; 17]>(),
    );
    (0u16..=0x7fff, vecs, arrays, any::<bool>(), 0usize..=MAX_LEN).prop_map(
        |(lead, (flags, boxed, small, words, longs), (first, rest, bytes, signed), tail, front)| {
            let mut mask = [false; MASK];
            mask[..32].copy_from_slice(&first);
            mask[32..].copy_from_slice(&rest);
            Wide {
                lead,
                deque: deque(flags, front),
                boxed: boxed.into_boxed_slice(),
                small,
                words: deque(words, front),
                longs,
                mask,
                bytes,
                signed,
                tail,
            }
        },
    )
}

const ROOM: usize = 1024;

const AGAINST: Against<Wide> = Against { write: by_elements, read: read_as_before };

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(256)))]

    #[test]
    fn the_bulk_wire_is_the_element_by_element_wire(value in wide(), offset in 0u32..64) {
        AGAINST.same_wire(&value, offset, ROOM)?;
    }

    #[test]
    fn a_short_buffer_fails_at_the_same_bit(value in wide(), offset in 0u32..64, room in 8usize..600) {
        AGAINST.same_short_buffer(&value, offset, room)?;
    }

    /// Lengths 0 to two past `MAX_LEN`, alone and in a `Vec` (the counter
    /// held for its items): measured as written, refused as written.
    #[test]
    fn measuring_counts_and_refuses_as_writing(
        values in proptest::collection::vec(wide_up_to(MAX_LEN + 2), 1..=3),
        offset in 0u32..64,
    ) {
        bulk_support::measured_as_written(&values[0], offset, 4 * ROOM)?;
        bulk_support::measured_as_written(&Wides { items: values }, offset, 4 * ROOM)?;
    }

    #[test]
    fn a_short_input_is_refused_at_the_same_bit(value in wide(), offset in 0u32..64, cut in 0usize..4000) {
        AGAINST.same_short_input(&value, offset, cut, ROOM)?;
    }
}

#[test]
fn too_long_a_deque_is_refused_at_its_length() {
    let mut value = Wide {
        lead: 1,
        deque: VecDeque::new(),
        boxed: Box::new([]),
        small: vec![],
        words: VecDeque::new(),
        longs: vec![],
        mask: [true; MASK],
        bytes: [1; BYTES],
        signed: [-1; 17],
        tail: false,
    };
    value.words = deque(vec![7; MAX_LEN + 1], 3);
    let (error, at) = written(5, &value, ROOM, |writer, value| value.write_to(writer)).unwrap_err();
    // After the offset, `lead` and three empty sequences' 6-bit lengths.
    assert_eq!((error.kind(), error.bit(), at), (ErrorKind::TooLong, 5 + 15 + 3 * 6, 5));
}
