//! Issue 15's bulk paths: a derived `Vec<bool>` or `Vec<u8>` goes up to 64
//! bits at a time, yet writes the bits the element-by-element core calls
//! write (the length, then each element), after any bit offset; reads them
//! back; and refuses a short input, a short buffer or a small budget at the
//! same bit, with the reader or writer back where it was.

use crate::bulk_support;

use bitpack::{BitPack, BitRead, BitReader, BitWrite, BitWriter, Error, ErrorKind};
use bulk_support::{Against, reader_at};
use proptest::prelude::*;

const MAX_FLAGS: usize = 150;
const MAX_BYTES: usize = 40;

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Bulk {
    /// An offset of `lead_bits` bits before the vectors.
    #[bits(min = 0, max = 0x7fff)]
    lead: u16,
    #[bitpack(max_len = MAX_FLAGS)]
    flags: Vec<bool>,
    #[bitpack(max_len = MAX_BYTES)]
    bytes: Vec<u8>,
    tail: bool,
}

/// What the element-by-element core calls write for `value`.
fn by_elements(writer: &mut BitWriter<'_>, value: &Bulk) -> Result<(), Error> {
    writer.write_int(i32::from(value.lead), 0, 0x7fff)?;
    writer.write_int(value.flags.len() as i32, 0, MAX_FLAGS as i32)?;
    value.flags.iter().try_for_each(|&flag| writer.write_bool(flag))?;
    writer.write_int(value.bytes.len() as i32, 0, MAX_BYTES as i32)?;
    value.bytes.iter().try_for_each(|&byte| writer.write_u8(byte))?;
    writer.write_bool(value.tail)
}

/// The element-by-element core reads of what `by_elements` wrote.
fn read_by_elements(reader: &mut BitReader<'_>) -> Result<Bulk, Error> {
    let lead = reader.read_int(0, 0x7fff)? as u16;
    let len = reader.read_int(0, MAX_FLAGS as i32)? as usize;
    let flags = (0..len).map(|_| reader.read_bool()).collect::<Result<_, _>>()?;
    let len = reader.read_int(0, MAX_BYTES as i32)? as usize;
    let bytes = (0..len).map(|_| reader.read_u8()).collect::<Result<_, _>>()?;
    Ok(Bulk { lead, flags, bytes, tail: reader.read_bool()? })
}

/// The derived read as it was before the bulk paths: each `Vec` through
/// `read_vec`, element by element, the body atomic.
fn read_as_before(reader: &mut BitReader<'_>) -> Result<Bulk, Error> {
    use bitpack::__private as p;
    p::read_atomic(reader, |reader| {
        let lead = reader.read_int(0, 0x7fff)? as u16;
        let flags = p::read_vec(reader, MAX_FLAGS, 1, |reader| reader.read_bool())?;
        let bytes = p::read_vec(reader, MAX_BYTES, 8, |reader| reader.read_u8())?;
        Ok(Bulk { lead, flags, bytes, tail: reader.read_bool()? })
    })
}

/// `value` written by `write` after `offset` bits (see `bulk_support::written`).
fn written(
    offset: u32,
    value: &Bulk,
    room: usize,
    write: impl Fn(&mut BitWriter<'_>, &Bulk) -> Result<(), Error>,
) -> Result<(Vec<u8>, usize), (Error, usize)> {
    bulk_support::written(offset, room, |writer| write(writer, value))
}

fn bulk() -> impl Strategy<Value = Bulk> {
    (
        0u16..=0x7fff,
        prop_oneof![Just(0usize), Just(MAX_FLAGS), 0..=MAX_FLAGS],
        prop_oneof![Just(0usize), Just(MAX_BYTES), 0..=MAX_BYTES],
        any::<bool>(),
        any::<u64>(),
    )
        .prop_flat_map(|(lead, flags, bytes, tail, _)| {
            (
                Just(lead),
                proptest::collection::vec(any::<bool>(), flags),
                proptest::collection::vec(any::<u8>(), bytes),
                Just(tail),
            )
        })
        .prop_map(|(lead, flags, bytes, tail)| Bulk { lead, flags, bytes, tail })
}

const ROOM: usize = 256;

const AGAINST: Against<Bulk> = Against { write: by_elements, read: read_as_before };

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(512)))]

    #[test]
    fn the_bulk_wire_is_the_element_by_element_wire(value in bulk(), offset in 0u32..64) {
        let bytes = AGAINST.same_wire(&value, offset, ROOM)?;
        prop_assert_eq!(&read_by_elements(&mut reader_at(&bytes, offset)).unwrap(), &value);
    }

    #[test]
    fn a_short_buffer_fails_at_the_same_bit(value in bulk(), offset in 0u32..64, room in 8usize..80) {
        AGAINST.same_short_buffer(&value, offset, room)?;
    }

    #[test]
    fn a_short_input_is_refused_at_the_same_bit(value in bulk(), offset in 0u32..64, cut in 0usize..1000) {
        AGAINST.same_short_input(&value, offset, cut, ROOM)?;
    }
}

#[test]
fn a_small_budget_is_refused_at_the_length() {
    let value = Bulk { lead: 3, flags: vec![true; 9], bytes: vec![7; 20], tail: true };
    let (bytes, _) = written(5, &value, ROOM, by_elements).unwrap();
    let mut reader = BitReader::with_limit(&bytes, 16 + 19);
    reader.read_bits(5).unwrap();
    let error = Bulk::read_from(&mut reader).unwrap_err();
    // The flags' 9 bytes (claimed as 16, an allocation's least) fit; the 20
    // bytes do not, refused at their length.
    assert_eq!((error.kind(), error.bit()), (ErrorKind::AllocationLimit, 5 + 15 + 8 + 9));
    assert_eq!(reader.bits_read(), 5);
    assert_eq!(reader.allocation_left(), 16 + 19, "the budget put back too");
}
