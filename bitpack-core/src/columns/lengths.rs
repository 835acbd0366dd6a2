//! Lengths: a collection's own, before its columns, and a column of the
//! lengths of collections inside the elements (and the `String` columns
//! made of one).

use super::int::{read_int_column, write_int_column, write_int_slices};
use crate::bits::bit_length_u128;
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::source::SourceExt;
use crate::write::BitWrite;
use alloc::string::String;
use alloc::vec::Vec;

/// Bits of `len`'s bit length: `bit_length(bit_length(max_len))`.
#[inline(always)]
const fn length_header_bits(max_len: usize) -> u32 {
    bit_length_u128(bit_length_u128(max_len as u128) as u128)
}

/// The most bits [`write_column_len`] takes for `max_len`.
#[inline]
pub const fn column_len_max_bits(max_len: usize) -> usize {
    let bits = bit_length_u128(max_len as u128) as usize;
    length_header_bits(max_len) as usize + bits.saturating_sub(1)
}

/// The fewest bits [`write_column_len`] takes for `max_len` (a length of 0).
#[inline]
pub const fn column_len_min_bits(max_len: usize) -> usize {
    length_header_bits(max_len) as usize
}

/// Writes a collection's length, at most `max_len` (else `TooLong`): its bit
/// length `n` in `bit_length(bit_length(max_len))` bits, then its low
/// `n - 1` bits (the leading 1 is implied). A generous `max_len` costs a
/// bit or two, not a bit per doubling.
#[inline]
pub fn write_column_len<W: BitWrite>(writer: &mut W, len: usize, max_len: usize) -> Result<(), Error> {
    if len > max_len {
        return Err(Error::new(ErrorKind::TooLong, writer.bits_written()));
    }
    let length = bit_length_u128(len as u128);
    let header = length_header_bits(max_len);
    let payload = length.saturating_sub(1);
    writer.reserve((header + payload) as usize)?;
    writer.push(u64::from(length), header);
    writer.push((len as u64) & !(1u64 << payload), payload);
    Ok(())
}

/// Reads a length written by [`write_column_len`]; refuses one over
/// `max_len` (`TooLong`). What the length may allocate is claimed by the
/// columns that follow.
#[inline]
pub fn read_column_len(reader: &mut impl BitRead, max_len: usize) -> Result<usize, Error> {
    let start = reader.bits_read();
    let length = reader.take(length_header_bits(max_len))? as u32;
    if length > bit_length_u128(max_len as u128) {
        return reader.fail(start, ErrorKind::TooLong);
    }
    let len = match length {
        0 | 1 => u64::from(length),
        _ => (1u64 << (length - 1)) | reader.take(length - 1)?,
    };
    match usize::try_from(len) {
        Ok(len) if len <= max_len => Ok(len),
        _ => reader.fail(start, ErrorKind::TooLong),
    }
}

/// The most bits a column of `count` lengths of at most `max_len` takes.
#[inline]
pub const fn length_column_max_bits(count: usize, max_len: usize) -> usize {
    let each = bit_length_u128(max_len as u128) as usize;
    (<usize as super::int::ColumnInt>::HEADER_MAX_BITS).saturating_add(count.saturating_mul(each))
}

/// Writes the lengths of collections inside a column's elements, each at
/// most `max_len` (else `TooLong`), as a `usize` integer column.
#[inline]
pub fn write_length_column<W: BitWrite>(
    writer: &mut W,
    lengths: impl Iterator<Item = usize> + Clone,
    max_len: usize,
) -> Result<(), Error> {
    if lengths.clone().any(|len| len > max_len) {
        return Err(Error::new(ErrorKind::TooLong, writer.bits_written()));
    }
    write_int_column(writer, lengths)
}

/// Reads `count` lengths written by [`write_length_column`] with the same
/// `max_len`, and their total; refuses a length over `max_len` (`TooLong`).
pub fn read_length_column(
    reader: &mut impl BitRead,
    count: usize,
    max_len: usize,
) -> Result<(Vec<usize>, usize), Error> {
    let start = reader.bits_read();
    let lengths = read_int_column::<usize>(reader, count)?;
    let mut total = 0usize;
    for &len in &lengths {
        if len > max_len {
            return reader.fail(start, ErrorKind::TooLong);
        }
        total = match total.checked_add(len) {
            Some(total) => total,
            None => return reader.fail(start, ErrorKind::TooLong),
        };
    }
    Ok((lengths, total))
}

/// The most bits a column of `count` strings of at most `max_len` bytes takes.
#[inline]
pub const fn text_column_max_bits(count: usize, max_len: usize) -> usize {
    let bytes = (<u8 as super::int::ColumnInt>::HEADER_MAX_BITS)
        .saturating_add(count.saturating_mul(max_len).saturating_mul(8));
    length_column_max_bits(count, max_len).saturating_add(bytes)
}

/// Writes strings of at most `max_len` bytes as a column: their lengths,
/// then all their bytes as one `u8` column (ASCII takes 7 bits a byte).
pub fn write_text_column<'a, W: BitWrite>(
    writer: &mut W,
    texts: impl Iterator<Item = &'a str> + Clone,
    max_len: usize,
) -> Result<(), Error> {
    write_length_column(writer, texts.clone().map(str::len), max_len)?;
    write_int_slices(writer, texts.map(str::as_bytes))
}

/// Reads `count` strings written by [`write_text_column`]; refuses bytes
/// that are not UTF-8 (`InvalidUtf8`).
pub fn read_text_column(
    reader: &mut impl BitRead,
    count: usize,
    max_len: usize,
) -> Result<Vec<String>, Error> {
    let start = reader.bits_read();
    let (lengths, total) = read_length_column(reader, count, max_len)?;
    let bytes = read_int_column::<u8>(reader, total)?;
    reader.claim_allocation::<String>(count)?;
    super::assemble::claim_each::<u8>(reader, &lengths)?;
    // Every string is UTF-8 exactly when all the bytes are and each string
    // starts on a character: one check of the column, not one per string.
    let Ok(mut rest) = core::str::from_utf8(&bytes) else {
        return reader.fail(start, ErrorKind::InvalidUtf8);
    };
    let mut texts = Vec::with_capacity(count);
    for len in lengths {
        let Some((text, after)) = rest.split_at_checked(len) else {
            return reader.fail(start, ErrorKind::InvalidUtf8);
        };
        texts.push(String::from(text));
        rest = after;
    }
    Ok(texts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::BitReader;
    use crate::sink::writer::BitWriter;

    /// A text column of `lengths` over `bytes`, written as its writer would.
    fn texts(lengths: &[usize], bytes: &[u8]) -> Result<Vec<String>, Error> {
        let mut buf = [0u8; 64];
        let mut writer = BitWriter::new(&mut buf);
        write_length_column(&mut writer, lengths.iter().copied(), 8).unwrap();
        write_int_column(&mut writer, bytes.iter().copied()).unwrap();
        let used = writer.finish().unwrap();
        let mut reader = BitReader::new(&buf[..used]);
        let read = read_text_column(&mut reader, lengths.len(), 8);
        if read.is_err() {
            assert_eq!(reader.bits_read(), 0);
        }
        read
    }

    #[test]
    fn each_string_is_utf8_not_only_the_column() {
        assert_eq!(texts(&[2, 0, 1], "éa".as_bytes()).unwrap(), ["é", "", "a"]);
        // "é" cut in two: the column is UTF-8, neither string is.
        assert_eq!(texts(&[1, 1], "é".as_bytes()).unwrap_err().kind(), ErrorKind::InvalidUtf8);
        assert_eq!(texts(&[1, 2], &[b'a', 0xFF, b'b']).unwrap_err().kind(), ErrorKind::InvalidUtf8);
    }
}
