//! Issue 15's inline string bytes: a string shorter than 64 bytes goes out
//! with its length and padding, eight bytes to a push, where longer ones
//! take the sink's aligned copy. Either way the bits are those of the
//! length, the padding, then each byte on its own, after any bit offset,
//! and a short buffer is refused at the same bit, the writer unmoved.

use crate::bulk_support;
use bitpack::{BitCounter, BitRead, BitReader, BitWrite, BitWriter, Error, ErrorKind};
use proptest::prelude::*;

use bulk_support::written;

/// The length as `int(len, 0, max_len)`, the padding, then each byte.
fn by_bytes(writer: &mut BitWriter<'_>, bytes: &[u8], max_len: Option<usize>) -> Result<(), Error> {
    if let Some(max_len) = max_len {
        writer.write_int(bytes.len() as i32, 0, max_len as i32)?;
    }
    writer.write_align()?;
    bytes.iter().try_for_each(|&byte| writer.write_u8(byte))
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z/._0-9]{0,80}", "[^\u{0}]{0,30}"]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(512)))]

    #[test]
    fn strings_write_the_bits_of_their_bytes(text in text(), offset in 0u32..64, wide in any::<bool>()) {
        let max_len = if wide { 100_000 } else { 200 };
        let inline = written(offset, 256, |writer| writer.write_str(&text, max_len)).unwrap();
        let expected = written(offset, 256, |writer| by_bytes(writer, text.as_bytes(), Some(max_len))).unwrap();
        prop_assert_eq!(&inline, &expected);
        let mut counter = BitCounter::new();
        if offset > 0 {
            counter.write_bits64(0, offset).unwrap();
        }
        counter.write_str(&text, max_len).unwrap();
        prop_assert_eq!(counter.bits_written(), inline.1);
        let mut reader = BitReader::new(&inline.0);
        if offset > 0 {
            reader.read_bits64(offset).unwrap();
        }
        prop_assert_eq!(reader.read_str(max_len).unwrap(), text.as_str());
    }

    #[test]
    fn bytes_write_the_bits_of_their_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..100), offset in 0u32..64) {
        let inline = written(offset, 256, |writer| writer.write_bytes(&bytes)).unwrap();
        let expected = written(offset, 256, |writer| by_bytes(writer, &bytes, None)).unwrap();
        prop_assert_eq!(inline, expected);
    }

    #[test]
    fn a_short_buffer_is_refused_at_the_same_bit(text in text(), offset in 0u32..64, room in 8usize..100) {
        let inline = written(offset, room, |writer| writer.write_str(&text, 200));
        let expected = written(offset, room, |writer| by_bytes(writer, text.as_bytes(), Some(200)));
        match (inline, expected) {
            (Ok(inline), Ok(expected)) => prop_assert_eq!(inline, expected),
            (Err((error, at)), Err(_)) => {
                // One room check for the whole string, at its start.
                prop_assert_eq!((error.kind(), error.bit(), at), (ErrorKind::BufferFull, offset as usize, offset as usize));
            }
            (inline, expected) => prop_assert!(false, "{inline:?} against {expected:?}"),
        }
    }
}

/// `read_str` as two takes and a byte loop, from the public calls: the
/// length, refused over `max_len`; the padding and bytes, refused unless
/// all remain; nonzero padding; then UTF-8 and NUL. Every refusal names the
/// string's start.
fn read_str_by_parts(reader: &mut BitReader<'_>, max_len: usize) -> Result<String, (ErrorKind, usize)> {
    let start = reader.bits_read();
    let length_bits = usize::BITS - max_len.leading_zeros();
    let len = reader.read_bits64(length_bits).map_err(|_| (ErrorKind::UnexpectedEnd, start))?;
    if len > max_len as u64 {
        return Err((ErrorKind::TooLong, start));
    }
    let padding = (8 - reader.bits_read() % 8) % 8;
    if reader.bits_remaining() < padding + 8 * len as usize {
        return Err((ErrorKind::UnexpectedEnd, start));
    }
    if padding > 0 && reader.read_bits(padding as u32).unwrap() != 0 {
        return Err((ErrorKind::NonZeroPadding, start));
    }
    let bytes: Vec<u8> = (0..len).map(|_| reader.read_u8().unwrap()).collect();
    let text = String::from_utf8(bytes).map_err(|_| (ErrorKind::InvalidUtf8, start))?;
    if text.contains('\0') {
        return Err((ErrorKind::InteriorNul, start));
    }
    Ok(text)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(2048)))]

    #[test]
    fn any_input_reads_as_the_two_take_path_reads_it(
        bytes in proptest::collection::vec(prop_oneof![Just(0u8), 0x20u8..0x7f, any::<u8>()], 0..24),
        offset in 0usize..24,
        max_len in prop_oneof![Just(1usize), Just(5), Just(20), Just(200), Just(100_000)],
    ) {
        let offset = offset.min(bytes.len() * 8);
        let mut reader = BitReader::new(&bytes);
        let mut parts = BitReader::new(&bytes);
        if offset > 0 {
            reader.read_bits64(offset as u32).unwrap();
            parts.read_bits64(offset as u32).unwrap();
        }
        let read = reader.read_str(max_len).map(str::to_owned).map_err(|error| (error.kind(), error.bit()));
        let expected = read_str_by_parts(&mut parts, max_len);
        prop_assert_eq!(&read, &expected);
        match read {
            Ok(_) => prop_assert_eq!(reader.bits_read(), parts.bits_read()),
            Err(_) => prop_assert_eq!(reader.bits_read(), offset, "put back at the start"),
        }
    }
}

#[test]
fn a_refused_owned_string_puts_the_reader_and_its_budget_back() {
    use bitpack::__private::read_rust_string;
    // After a 3-bit lead, "ab" then the invalid "\xFF\xFE", max_len 20.
    let mut buf = [0u8; 16];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bits(5, 3).unwrap();
    writer.write_int(4, 0, 20).unwrap();
    writer.write_bytes(&[b'a', b'b', 0xFF, 0xFE]).unwrap();
    let used = writer.finish().unwrap();
    // Its 4 bytes claim 16, an allocation's least.
    for (limit, kind) in [(16, ErrorKind::InvalidUtf8), (15, ErrorKind::AllocationLimit)] {
        let mut reader = BitReader::with_limit(&buf[..used], limit);
        reader.read_bits(3).unwrap();
        let error = read_rust_string(&mut reader, 20).unwrap_err();
        assert_eq!((error.kind(), error.bit()), (kind, 3));
        assert_eq!((reader.bits_read(), reader.allocation_left()), (3, limit));
    }
}
