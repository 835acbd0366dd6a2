//! What a write or a read did, to hold derived code to the same fields
//! written or read by hand: on success the bytes (or the value), on failure
//! the error and where the writer or reader was left.

#![allow(dead_code)] // each test binary uses part of this module

use bitpack::{BitRead, BitReader, BitWrite, BitWriter, Error};
use std::fmt::Debug;

/// A write's outcome into a buffer of `buf_len` bytes: the bytes and bits
/// on success, the error and where the writer stands after it otherwise.
pub fn outcome(
    buf_len: usize,
    write: impl FnOnce(&mut BitWriter<'_>) -> Result<(), Error>,
) -> Result<(Vec<u8>, usize), (Error, usize)> {
    let mut buf = vec![0u8; buf_len];
    let mut writer = BitWriter::new(&mut buf);
    match write(&mut writer) {
        Ok(()) => {
            let bits = writer.bits_written();
            let used = writer.finish().map_err(|e| (e, bits))?;
            Ok((buf[..used].to_vec(), bits))
        }
        Err(error) => Err((error, writer.bits_written())),
    }
}

/// A read's outcome, compared through `Debug` (NaN is not equal to
/// itself), and where the reader stands after it.
pub fn read_outcome<'a, T: Debug>(
    bytes: &'a [u8],
    read: impl FnOnce(&mut BitReader<'a>) -> Result<T, Error>,
) -> (String, usize) {
    let mut reader = BitReader::new(bytes);
    let result = read(&mut reader);
    (format!("{result:?}"), reader.bits_read())
}
