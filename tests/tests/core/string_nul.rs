//! Strings with a NUL: the reference's `write_str`/`read_str` refuse them
//! (a C++ reader ends the string at the first NUL, so the peers would
//! disagree), while the length-prefixed Rust string the derive sends for a
//! `String` field carries any UTF-8, NUL included.

use bitpack::__private;
use bitpack::{BitPack, BitRead, BitReader, BitWrite, BitWriter, ErrorKind};

const WITH_NUL: &str = "a\0b\0";

#[test]
fn the_reference_string_still_refuses_nul() {
    let mut buf = [0u8; 16];
    let mut writer = BitWriter::new(&mut buf);
    assert_eq!(writer.write_str(WITH_NUL, 8).unwrap_err().kind(), ErrorKind::InteriorNul);
    assert_eq!(writer.bits_written(), 0);
    // The same bits written as a Rust string are refused by read_str.
    __private::write_rust_string(&mut writer, WITH_NUL, 8).unwrap();
    let used = writer.finish().unwrap();
    let mut reader = BitReader::new(&buf[..used]);
    assert_eq!(reader.read_str(8).unwrap_err().kind(), ErrorKind::InteriorNul);
    assert_eq!(__private::read_string(&mut reader, 8).unwrap_err().kind(), ErrorKind::InteriorNul);
    assert_eq!(reader.bits_read(), 0);
}

#[test]
fn a_rust_string_carries_nul_on_the_same_wire() {
    let mut buf = [0u8; 16];
    let mut writer = BitWriter::new(&mut buf);
    __private::write_rust_string(&mut writer, WITH_NUL, 8).unwrap();
    // Length in 4 bits, 4 bits of padding, 4 bytes: write_str's layout.
    assert_eq!(writer.bits_written(), 8 + 32);
    let used = writer.finish().unwrap();
    assert_eq!(&buf[..used], &[4, b'a', 0, b'b', 0]);
    assert_eq!(__private::read_rust_string(&mut BitReader::new(&buf[..used]), 8).unwrap(), WITH_NUL);
    // Without a NUL both forms are the same bits.
    let mut plain = [0u8; 16];
    let mut writer = BitWriter::new(&mut plain);
    writer.write_str("ab", 8).unwrap();
    let used = writer.finish().unwrap();
    assert_eq!(__private::read_rust_string(&mut BitReader::new(&plain[..used]), 8).unwrap(), "ab");
    // Lengths and UTF-8 are still checked, and the bytes claimed.
    let mut writer = BitWriter::new(&mut buf);
    assert_eq!(
        __private::write_rust_string(&mut writer, "too long", 4).unwrap_err().kind(),
        ErrorKind::TooLong
    );
    let invalid = [2u8, 0xFF, 0x00];
    let mut reader = BitReader::new(&invalid);
    assert_eq!(__private::read_rust_string(&mut reader, 8).unwrap_err().kind(), ErrorKind::InvalidUtf8);
    assert_eq!(reader.bits_read(), 0);
    let bytes = [4, b'a', 0, b'b', 0];
    let mut reader = BitReader::with_limit(&bytes, 3);
    assert_eq!(__private::read_rust_string(&mut reader, 8).unwrap_err().kind(), ErrorKind::AllocationLimit);
    assert_eq!((reader.bits_read(), reader.allocation_left()), (0, 3));
}

#[derive(BitPack, Debug, PartialEq)]
struct Chat {
    #[bitpack(max_len = 16)]
    text: String,
}

#[test]
fn a_derived_string_carries_nul() {
    let chat = Chat { text: WITH_NUL.into() };
    let bytes = bitpack::encode(&chat).unwrap();
    assert_eq!(bitpack::decode::<Chat>(&bytes).unwrap(), chat);
}
