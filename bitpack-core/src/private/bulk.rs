//! Bulk paths for derived `Vec<bool>` and `Vec<u8>`: the same wire as the
//! element-by-element code (the length, then one bit per bool or eight bits
//! per byte, low bit first), pushed and taken up to 64 bits at a time.
//!
//! Room and input are checked once for the whole run: a write that may not
//! fit, and only that, goes element by element, so that it fails at the
//! same bit as ever; a read's length is refused (as [`read_vec`](super::read_vec) refuses
//! it) unless every element is in the input, so its takes cannot fail.

use alloc::vec::Vec;

use super::{read_claimed_len, write_len};
use crate::error::Error;
use crate::read::BitRead;
use crate::source::SourceExt;
use crate::write::BitWrite;

/// Bools in a 64-bit word: the first one in the low bit.
#[inline(always)]
fn bools_word(values: &[bool]) -> u64 {
    values.iter().enumerate().fold(0, |word, (index, &value)| word | (u64::from(value) << index))
}

/// Bytes in a 64-bit word: the first one in the low byte.
#[inline(always)]
fn bytes_word(values: &[u8]) -> u64 {
    values.iter().enumerate().fold(0, |word, (index, &value)| word | (u64::from(value) << (8 * index)))
}

/// Writes a `Vec<bool>` as [`write_len`] then one bit per element, 64 bits
/// at a time.
///
/// Generated code: `#p::write_bools(__writer, &self.field, MAX_LEN)?;`
#[inline]
pub fn write_bools<W: BitWrite>(writer: &mut W, values: &[bool], max_len: usize) -> Result<(), Error> {
    write_len(writer, values.len(), max_len)?;
    if writer.reserve(values.len()).is_err() {
        return values.iter().try_for_each(|&value| writer.write_bool(value));
    }
    let (words, rest) = values.as_chunks::<64>();
    for word in words {
        writer.push(bools_word(word), 64);
    }
    if !rest.is_empty() {
        writer.push(bools_word(rest), rest.len() as u32);
    }
    Ok(())
}

/// Writes a `Vec<u8>` as [`write_len`] then eight bits per element, eight
/// bytes to a 64-bit push (aligned or not).
///
/// Generated code: `#p::write_u8s(__writer, &self.field, MAX_LEN)?;`
#[inline]
pub fn write_u8s<W: BitWrite>(writer: &mut W, values: &[u8], max_len: usize) -> Result<(), Error> {
    write_len(writer, values.len(), max_len)?;
    if writer.reserve(values.len().saturating_mul(8)).is_err() {
        return values.iter().try_for_each(|&value| writer.write_u8(value));
    }
    let (words, rest) = values.as_chunks::<8>();
    for word in words {
        writer.push(u64::from_le_bytes(*word), 64);
    }
    if !rest.is_empty() {
        writer.push(bytes_word(rest), 8 * rest.len() as u32);
    }
    Ok(())
}

/// Reads what [`write_bools`] wrote: [`read_vec`](super::read_vec)'s checks (the length, its
/// elements in the input, then claimed from the budget), then the bits 64
/// at a time. On `Err` the reader is back where it was.
///
/// Generated code: `#p::read_bools(__reader, MAX_LEN)?`.
#[inline]
pub fn read_bools<R: BitRead>(reader: &mut R, max_len: usize) -> Result<Vec<bool>, Error> {
    reader.rolled_back(|reader| {
        let len = read_claimed_len::<bool>(reader, max_len, 1)?;
        let mut values = Vec::with_capacity(len);
        let mut left = len;
        while left > 0 {
            let bits = left.min(64);
            let word = reader.take(bits as u32)?;
            values.extend((0..bits).map(|index| (word >> index) & 1 != 0));
            left -= bits;
        }
        Ok(values)
    })
}

/// Reads what [`write_u8s`] wrote: [`read_vec`](super::read_vec)'s checks, then the bytes
/// eight to a 64-bit take. On `Err` the reader is back where it was.
///
/// Generated code: `#p::read_u8s(__reader, MAX_LEN)?`.
#[inline]
pub fn read_u8s<R: BitRead>(reader: &mut R, max_len: usize) -> Result<Vec<u8>, Error> {
    reader.rolled_back(|reader| {
        let len = read_claimed_len::<u8>(reader, max_len, 8)?;
        let mut values = Vec::with_capacity(len);
        let mut left = len;
        while left > 0 {
            let bytes = left.min(8);
            let word = reader.take(8 * bytes as u32)?;
            values.extend_from_slice(&word.to_le_bytes()[..bytes]);
            left -= bytes;
        }
        Ok(values)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use crate::{BitReader, BitWriter};

    #[test]
    fn a_short_buffer_fails_at_the_same_bit_as_element_by_element() {
        let values: Vec<u8> = (0..20).collect();
        for size in [0, 4, 8, 13, 20] {
            let mut bulk_buf = alloc::vec![0u8; size];
            let mut bulk = BitWriter::new(&mut bulk_buf);
            bulk.write_bits(1, 3).ok();
            let bulk_error = write_u8s(&mut bulk, &values, 31).unwrap_err();
            let mut one_buf = alloc::vec![0u8; size];
            let mut one = BitWriter::new(&mut one_buf);
            one.write_bits(1, 3).ok();
            let one_error = write_len(&mut one, values.len(), 31)
                .and_then(|()| values.iter().try_for_each(|&value| one.write_u8(value)))
                .unwrap_err();
            assert_eq!((bulk_error.kind(), bulk_error.bit()), (one_error.kind(), one_error.bit()));
            assert_eq!(bulk_error.kind(), ErrorKind::BufferFull);
        }
    }

    #[test]
    fn a_length_past_the_input_is_refused_at_the_length() {
        let mut buf = [0u8; 8];
        let mut writer = BitWriter::new(&mut buf);
        writer.write_bits(1, 1).unwrap();
        write_len(&mut writer, 60, 63).unwrap();
        let used = writer.finish().unwrap();
        let mut reader = BitReader::new(&buf[..used]);
        reader.read_bits(1).unwrap();
        let error = read_u8s(&mut reader, 63).unwrap_err();
        assert_eq!((error.kind(), error.bit(), reader.bits_read()), (ErrorKind::UnexpectedEnd, 1, 1));
        let mut reader = BitReader::new(&buf[..used]);
        reader.read_bits(1).unwrap();
        let error = read_bools(&mut reader, 63).unwrap_err();
        assert_eq!((error.kind(), error.bit(), reader.bits_read()), (ErrorKind::UnexpectedEnd, 1, 1));
    }
}
