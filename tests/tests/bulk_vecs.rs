//! Issue 15's bulk paths: a derived `Vec<bool>` or `Vec<u8>` goes up to 64
//! bits at a time, yet writes the bits the element-by-element core calls
//! write (the length, then each element), after any bit offset; reads them
//! back; and refuses a short input, a short buffer or a small budget at the
//! same bit, with the reader or writer back where it was.

use bitpack::{BitPack, BitRead, BitReader, BitWrite, BitWriter, Error, ErrorKind};
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

/// `value` after `offset` bits of `0b1010...` (an odd offset unaligns the
/// bytes), written by `write`: the bytes and the bits written, or the error.
fn written(
    offset: u32,
    value: &Bulk,
    room: usize,
    write: impl Fn(&mut BitWriter<'_>, &Bulk) -> Result<(), Error>,
) -> Result<(Vec<u8>, usize), (Error, usize)> {
    let mut buf = vec![0u8; room];
    let mut writer = BitWriter::new(&mut buf);
    if offset > 0 {
        writer.write_bits64(0xAAAA_AAAA_AAAA_AAAA >> (64 - offset), offset).unwrap();
    }
    match write(&mut writer, value) {
        Ok(()) => {
            let bits = writer.bits_written();
            let used = writer.finish().unwrap();
            buf.truncate(used);
            Ok((buf, bits))
        }
        Err(error) => Err((error, writer.bits_written())),
    }
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_bulk_wire_is_the_element_by_element_wire(value in bulk(), offset in 0u32..64) {
        let derived = written(offset, &value, ROOM, |writer, value| value.write_to(writer)).unwrap();
        let expected = written(offset, &value, ROOM, by_elements).unwrap();
        prop_assert_eq!(&derived, &expected);
        let (bytes, bits) = derived;
        let mut reader = BitReader::new(&bytes);
        if offset > 0 {
            reader.read_bits64(offset).unwrap();
        }
        prop_assert_eq!(&Bulk::read_from(&mut reader).unwrap(), &value);
        prop_assert_eq!(reader.bits_read(), bits);
        let mut reader = BitReader::new(&bytes);
        if offset > 0 {
            reader.read_bits64(offset).unwrap();
        }
        prop_assert_eq!(&read_by_elements(&mut reader).unwrap(), &value);
    }

    #[test]
    fn a_short_buffer_fails_at_the_same_bit(value in bulk(), offset in 0u32..64, room in 8usize..80) {
        let derived = written(offset, &value, room, |writer, value| value.write_to(writer));
        let expected = written(offset, &value, room, by_elements);
        match (derived, expected) {
            (Ok(derived), Ok(expected)) => prop_assert_eq!(derived, expected),
            (Err((derived, derived_at)), Err((expected, _))) => {
                prop_assert_eq!((derived.kind(), derived.bit()), (expected.kind(), expected.bit()));
                // The derived write is atomic: the writer is back at the offset.
                prop_assert_eq!(derived_at, offset as usize);
            }
            (derived, expected) => prop_assert!(false, "{derived:?} against {expected:?}"),
        }
    }

    #[test]
    fn a_short_input_is_refused_at_the_same_bit(value in bulk(), offset in 0u32..64, cut in 0usize..1000) {
        let (bytes, bits) = written(offset, &value, ROOM, by_elements).unwrap();
        let cut = cut % bits.div_ceil(8).max(1);
        let short = &bytes[..cut];
        let mut reader = BitReader::new(short);
        let mut expected_reader = BitReader::new(short);
        if offset as usize > cut * 8 {
            return Ok(());
        }
        if offset > 0 {
            reader.read_bits64(offset).unwrap();
            expected_reader.read_bits64(offset).unwrap();
        }
        let derived = Bulk::read_from(&mut reader);
        let expected = read_as_before(&mut expected_reader);
        match (derived, expected) {
            (Ok(derived), Ok(expected)) => prop_assert_eq!(derived, expected),
            (Err(derived), Err(expected)) => {
                prop_assert_eq!(derived.kind(), ErrorKind::UnexpectedEnd);
                prop_assert_eq!((derived.kind(), derived.bit()), (expected.kind(), expected.bit()));
                prop_assert_eq!(reader.bits_read(), offset as usize, "put back");
                prop_assert_eq!(expected_reader.bits_read(), offset as usize);
            }
            (derived, expected) => prop_assert!(false, "{derived:?} against {expected:?}"),
        }
    }
}

#[test]
fn a_small_budget_is_refused_at_the_length() {
    let value = Bulk { lead: 3, flags: vec![true; 9], bytes: vec![7; 20], tail: true };
    let (bytes, _) = written(5, &value, ROOM, by_elements).unwrap();
    let mut reader = BitReader::with_limit(&bytes, 9 + 19);
    reader.read_bits(5).unwrap();
    let error = Bulk::read_from(&mut reader).unwrap_err();
    // The flags' 9 bytes fit; the 20 bytes do not, refused at their length.
    assert_eq!((error.kind(), error.bit()), (ErrorKind::AllocationLimit, 5 + 15 + 8 + 9));
    assert_eq!(reader.bits_read(), 5);
    assert_eq!(reader.allocation_left(), 9 + 19, "the budget put back too");
}
