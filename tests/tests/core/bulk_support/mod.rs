//! What the bulk-path tests share: a write after a bit offset, and the
//! checks of a derived type's bulk paths against the code they replace.

#![allow(dead_code)] // each test binary uses part of this module

use std::fmt::Debug;

use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, Error, ErrorKind};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// `write` after `offset` bits of `0b1010...` (an odd offset unaligns
/// bytes) into a buffer of `room` bytes: the bytes and the bits written,
/// or the error and where the writer is.
pub fn written(
    offset: u32,
    room: usize,
    write: impl FnOnce(&mut BitWriter<'_>) -> Result<(), Error>,
) -> Result<(Vec<u8>, usize), (Error, usize)> {
    let mut buf = vec![0u8; room];
    let mut writer = BitWriter::new(&mut buf);
    if offset > 0 {
        writer.write_bits64(0xAAAA_AAAA_AAAA_AAAA >> (64 - offset), offset).unwrap();
    }
    match write(&mut writer) {
        Ok(()) => {
            let bits = writer.bits_written();
            let used = writer.finish().unwrap();
            buf.truncate(used);
            Ok((buf, bits))
        }
        Err(error) => Err((error, writer.bits_written())),
    }
}

/// A derived type's bulk paths checked against the code they replace.
pub struct Against<T> {
    /// What the element-by-element core calls write for a value.
    pub write: fn(&mut BitWriter<'_>, &T) -> Result<(), Error>,
    /// The derived read as it was before the bulk paths.
    pub read: fn(&mut BitReader<'_>) -> Result<T, Error>,
}

/// A reader `offset` bits into `bytes`.
pub fn reader_at(bytes: &[u8], offset: u32) -> BitReader<'_> {
    let mut reader = BitReader::new(bytes);
    if offset > 0 {
        reader.read_bits64(offset).unwrap();
    }
    reader
}

impl<T: BitPack + PartialEq + Debug> Against<T> {
    /// The derived write writes the element calls' bits; the derived read
    /// and the old read read them back, the derived one to the last bit.
    /// The bytes, for more checks.
    pub fn same_wire(&self, value: &T, offset: u32, room: usize) -> Result<Vec<u8>, TestCaseError> {
        let derived = written(offset, room, |writer| value.write_to(writer)).unwrap();
        let expected = written(offset, room, |writer| (self.write)(writer, value)).unwrap();
        prop_assert_eq!(&derived, &expected);
        let (bytes, bits) = derived;
        let mut reader = reader_at(&bytes, offset);
        prop_assert_eq!(&T::read_from(&mut reader).unwrap(), value);
        prop_assert_eq!(reader.bits_read(), bits);
        prop_assert_eq!(&(self.read)(&mut reader_at(&bytes, offset)).unwrap(), value);
        Ok(bytes)
    }

    /// In a buffer of `room` bytes the derived write fails, if at all, as
    /// the element calls do: `BufferFull` at the same bit, the writer back
    /// at the offset.
    pub fn same_short_buffer(&self, value: &T, offset: u32, room: usize) -> Result<(), TestCaseError> {
        let derived = written(offset, room, |writer| value.write_to(writer));
        let expected = written(offset, room, |writer| (self.write)(writer, value));
        match (derived, expected) {
            (Ok(derived), Ok(expected)) => prop_assert_eq!(derived, expected),
            (Err((derived, derived_at)), Err((expected, _))) => {
                prop_assert_eq!(derived.kind(), ErrorKind::BufferFull);
                prop_assert_eq!((derived.kind(), derived.bit()), (expected.kind(), expected.bit()));
                prop_assert_eq!(derived_at, offset as usize, "the derived write is atomic");
            }
            (derived, expected) => prop_assert!(false, "{derived:?} against {expected:?}"),
        }
        Ok(())
    }

    /// The value cut to its first `cut` (modulo its length) bytes reads as
    /// the old read reads it: `UnexpectedEnd` at the same bit, both readers
    /// back at the offset.
    pub fn same_short_input(
        &self,
        value: &T,
        offset: u32,
        cut: usize,
        room: usize,
    ) -> Result<(), TestCaseError> {
        let (bytes, bits) = written(offset, room, |writer| (self.write)(writer, value)).unwrap();
        let cut = cut % bits.div_ceil(8).max(1);
        if offset as usize > cut * 8 {
            return Ok(());
        }
        let (mut reader, mut expected_reader) =
            (reader_at(&bytes[..cut], offset), reader_at(&bytes[..cut], offset));
        match (T::read_from(&mut reader), (self.read)(&mut expected_reader)) {
            (Ok(derived), Ok(expected)) => prop_assert_eq!(derived, expected),
            (Err(derived), Err(expected)) => {
                prop_assert_eq!(derived.kind(), ErrorKind::UnexpectedEnd);
                prop_assert_eq!((derived.kind(), derived.bit()), (expected.kind(), expected.bit()));
                prop_assert_eq!(reader.bits_read(), offset as usize, "put back");
                prop_assert_eq!(expected_reader.bits_read(), offset as usize);
            }
            (derived, expected) => prop_assert!(false, "{derived:?} against {expected:?}"),
        }
        Ok(())
    }
}

/// Measuring `value` after `offset` bits counts the bits the writer writes
/// into `room` bytes, or refuses as it does (the error's kind and bit, and
/// where the counter and the writer are then).
pub fn measured_as_written<T: BitPack>(value: &T, offset: u32, room: usize) -> Result<(), TestCaseError> {
    let mut counter = BitCounter::new();
    if offset > 0 {
        counter.write_bits64(0, offset).unwrap();
    }
    let counted = value.write_to(&mut counter).map(|()| counter.bits_written());
    let counted = counted.map_err(|error| (error.kind(), error.bit(), counter.bits_written()));
    let written = written(offset, room, |writer| value.write_to(writer)).map(|(_, bits)| bits);
    let written = written.map_err(|(error, at)| (error.kind(), error.bit(), at));
    prop_assert_eq!(counted, written);
    Ok(())
}
