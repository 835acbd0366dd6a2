//! Whole-value entry points: encode, decode and measure a [`BitPack`] value.

use crate::error::{Error, ErrorKind};
use crate::pack::BitPack;
use crate::read::BitRead;
use crate::reader::BitReader;
use crate::sink::counter::BitCounter;
use crate::sink::writer::BitWriter;
use crate::write::BitWrite;

/// The exact number of bits `value` writes, without writing them.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// assert_eq!(bitpack::measure(&(true, 7u8))?, 9);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[inline]
pub fn measure<T: BitPack>(value: &T) -> Result<usize, Error> {
    let mut counter = BitCounter::new();
    value.write_to(&mut counter)?;
    Ok(counter.bits_written())
}

/// Writes `value` into `buf` and returns the bytes used
/// (`ceil(bits / 8)`); [`ErrorKind::BufferFull`] when `buf` is too small.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// let mut buf = [0u8; 4];
/// let used = bitpack::encode_into(&(true, 7u8), &mut buf)?;
/// assert_eq!(&buf[..used], &[0x0F, 0x00]);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[inline]
pub fn encode_into<T: BitPack>(value: &T, buf: &mut [u8]) -> Result<usize, Error> {
    let mut writer = BitWriter::new(buf);
    value.write_to(&mut writer)?;
    writer.finish()
}

/// Writes `value` into a new `Vec` of exactly the bytes it needs.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// let bytes = bitpack::encode(&(true, 7u8))?;
/// assert_eq!(bytes, [0x0F, 0x00]);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[cfg(feature = "alloc")]
#[inline]
pub fn encode<T: BitPack>(value: &T) -> Result<alloc::vec::Vec<u8>, Error> {
    let bytes = measure(value)?.div_ceil(8);
    let mut buf = alloc::vec![0u8; bytes];
    let used = encode_into(value, &mut buf)?;
    buf.truncate(used);
    Ok(buf)
}

/// Reads a `T` from `bytes`, refusing whole bytes left over after it
/// ([`ErrorKind::TrailingBytes`]): a message is one value, so extra bytes
/// mean the peers disagree on the layout. The unused bits of the last byte
/// must be the writer's zeros ([`ErrorKind::NonCanonical`] otherwise: a
/// value of a newer type with one more small field would decode, the field
/// dropped). What the value allocates is bounded by
/// [`BitReader::default_limit`]`(bytes.len())` (64 KiB plus 1 KiB per input
/// byte; [`ErrorKind::AllocationLimit`] past it): see [`decode_with_limit`].
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::ErrorKind;
/// assert_eq!(bitpack::decode::<(bool, u8)>(&[0x0F, 0x00])?, (true, 7));
/// let error = bitpack::decode::<(bool, u8)>(&[0x0F, 0x00, 0x00]).unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::TrailingBytes);
/// let error = bitpack::decode::<(bool, u8)>(&[0x0F, 0x02]).unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::NonCanonical);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[inline]
pub fn decode<T: BitPack>(bytes: &[u8]) -> Result<T, Error> {
    decode_with_limit(bytes, BitReader::default_limit(bytes.len()))
}

/// [`decode`] with an explicit allocation budget: what decoding may
/// allocate (every `Vec`, `String` and `Box` claims `len * size_of` of its
/// elements first, at least 16 bytes: [`crate::BitRead::claim_allocation`]),
/// refused with [`ErrorKind::AllocationLimit`] past it, before allocating.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::ErrorKind;
/// let bytes = bitpack::encode(&Box::new([7u64; 4]))?;
/// assert_eq!(*bitpack::decode_with_limit::<Box<[u64; 4]>>(&bytes, 32)?, [7; 4]);
/// let error = bitpack::decode_with_limit::<Box<[u64; 4]>>(&bytes, 31).unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::AllocationLimit);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[inline]
pub fn decode_with_limit<T: BitPack>(bytes: &[u8], limit: usize) -> Result<T, Error> {
    let mut reader = BitReader::with_limit(bytes, limit);
    let value = T::read_from(&mut reader)?;
    let left = reader.bits_remaining();
    if left >= 8 {
        return Err(Error::new(ErrorKind::TrailingBytes, reader.bits_read()));
    }
    // The writer pads the last byte with zeros: other bits there would be
    // dropped (a newer type's field, say) and not re-encode.
    if left > 0 && reader.read_bits(left as u32)? != 0 {
        return Err(Error::new(ErrorKind::NonCanonical, bytes.len() * 8 - left));
    }
    Ok(value)
}
