//! The read interface over any bit source.
//!
//! Every operation is a provided method of [`BitRead`]: it checks the
//! declaration, takes raw bits from the source, then checks the value. A
//! source ([`crate::BitReader`], or a future back end) implements only the
//! raw takes, so every back end refuses exactly the same inputs, and the
//! readers of the core, the derive's runtime and generated code are generic
//! over it, as writing is over [`crate::BitWrite`].

use crate::bits::{
    Nul, align_padding, bit_length_u128, bits_required, bits_required64, bits_required128, has_nul, low_mask,
};
use crate::error::{Error, ErrorKind};
use crate::quantize::{Quantizer, Quantizer64};
use crate::relative::{
    ABSOLUTE_PREFIX_ZEROS, ACK_DELTA_BITS, ACK_WINDOW, LAST_TIER_HIGH, RELATIVE_TIERS, RelativeInt,
    SEQUENCE_WRAP, ack_delta, tier_bits,
};
use crate::source::{BitSource, SourceExt};

/// The least the allocation budget counts for one heap allocation: an
/// allocator hands out no smaller block (a `Box<bool>` costs 16 bytes or
/// more, not 1).
pub(crate) const MIN_ALLOCATION_BYTES: usize = 16;

/// What [`BitRead::claim_allocation`] claims for one heap allocation of
/// `count` values of `T`, the one rule every read that allocates (or loops
/// once per element) follows: `count * max(size_of::<T>(), 1)`, at least
/// [`MIN_ALLOCATION_BYTES`] unless `count` is 0; `None` past `usize`.
#[inline(always)]
pub(crate) const fn allocation_claim<T>(count: usize) -> Option<usize> {
    let element = if size_of::<T>() == 0 { 1 } else { size_of::<T>() };
    match count.checked_mul(element) {
        Some(1..MIN_ALLOCATION_BYTES) => Some(MIN_ALLOCATION_BYTES),
        bytes => bytes,
    }
}

/// Reads values as bits: implemented by [`crate::BitReader`], which reads
/// a slice. Every read checks its bound first and returns `Err` rather than
/// panicking; a failed read leaves the reader where it was.
///
/// The trait is sealed; use it as a generic bound (`R: BitRead`), as
/// [`crate::BitPack::read_from`] does, and import it to call its methods
/// on a `BitReader`.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitRead, BitReader, BitWrite, BitWriter};
///
/// fn read_player(r: &mut impl BitRead) -> Result<(i32, f32, bool), bitpack::Error> {
///     Ok((r.read_int(0, 1000)?, r.read_compressed_float(-1024.0, 1024.0, 0.01)?, r.read_bool()?))
/// }
///
/// let mut buf = [0u8; 4];
/// let mut writer = BitWriter::new(&mut buf);
/// writer.write_int(750, 0, 1000)?;
/// writer.write_compressed_float(12.5, -1024.0, 1024.0, 0.01)?;
/// writer.write_bool(true)?;
/// writer.finish()?;
///
/// let mut reader = BitReader::new(&buf);
/// let (health, x, alive) = read_player(&mut reader)?;
/// assert_eq!((health, alive), (750, true));
/// assert!((x - 12.5).abs() <= 0.01);
/// assert_eq!(reader.bits_read(), 29);
/// # Ok::<(), bitpack::Error>(())
/// ```
pub trait BitRead: BitSource {
    /// Bits read so far.
    #[inline]
    fn bits_read(&self) -> usize {
        self.position()
    }

    /// Bits left to read (for a [`crate::BitReader`], the unused bits of
    /// the last byte included).
    #[inline]
    fn bits_remaining(&self) -> usize {
        self.remaining()
    }

    /// Bytes decoding may still allocate (see [`crate::BitReader`]'s
    /// allocation budget).
    #[inline]
    fn allocation_left(&self) -> usize {
        self.budget_left()
    }

    /// Claims room for one heap allocation of `count` values of `T` from
    /// the allocation budget; call it before allocating them. It claims
    /// `count * size_of::<T>()` bytes, a zero-sized `T` counted as 1 byte
    /// (it takes no room, but each is a turn of the loop that makes it:
    /// the budget bounds how many), and at least 16 bytes unless `count`
    /// is 0 (no allocator hands out less). [`ErrorKind::AllocationLimit`]
    /// past the budget, and then nothing is claimed.
    ///
    /// ```
    /// # extern crate bitpack_core as bitpack;
    /// use bitpack::{BitRead, BitReader, ErrorKind};
    /// let mut reader = BitReader::with_limit(&[0u8; 4], 60);
    /// reader.claim_allocation::<u32>(5)?; // 20 bytes
    /// reader.claim_allocation::<u8>(1)?; // 16 bytes, an allocation's least
    /// assert_eq!(reader.allocation_left(), 24);
    /// reader.claim_allocation::<()>(24)?; // 24 turns; nothing allocated
    /// assert_eq!(reader.allocation_left(), 0);
    /// let error = reader.claim_allocation::<u32>(1).unwrap_err();
    /// assert_eq!(error.kind(), ErrorKind::AllocationLimit);
    /// assert_eq!(reader.allocation_left(), 0); // nothing claimed
    /// # Ok::<(), bitpack::Error>(())
    /// ```
    #[inline]
    fn claim_allocation<T>(&mut self, count: usize) -> Result<(), Error> {
        match allocation_claim::<T>(count) {
            Some(bytes) => self.claim_budget(bytes),
            None => Err(Error::new(ErrorKind::AllocationLimit, self.position())),
        }
    }

    /// Reads `bits` bits, `bits` in `1..=32`.
    #[inline]
    fn read_bits(&mut self, bits: u32) -> Result<u32, Error> {
        if bits == 0 || bits > 32 {
            return self.fail(self.position(), ErrorKind::InvalidDeclaration);
        }
        Ok(self.take(bits)? as u32)
    }

    /// Reads `bits` bits, `bits` in `1..=64`.
    #[inline]
    fn read_bits64(&mut self, bits: u32) -> Result<u64, Error> {
        if bits == 0 || bits > 64 {
            return self.fail(self.position(), ErrorKind::InvalidDeclaration);
        }
        self.take(bits)
    }

    /// One bit.
    #[inline]
    fn read_bool(&mut self) -> Result<bool, Error> {
        Ok(self.take(1)? != 0)
    }

    /// An integer written by `write_int(value, min, max)`; refuses an
    /// offset above `max - min`.
    #[inline]
    fn read_int(&mut self, min: i32, max: i32) -> Result<i32, Error> {
        let start = self.position();
        if min > max {
            return self.fail(start, ErrorKind::InvalidDeclaration);
        }
        let offset = self.take(bits_required(min, max))? as u32;
        if offset > (max as u32).wrapping_sub(min as u32) {
            return self.fail(start, ErrorKind::OutOfRange);
        }
        Ok(offset.wrapping_add(min as u32) as i32)
    }

    /// [`BitRead::read_int`] for `i64`.
    #[inline]
    fn read_int64(&mut self, min: i64, max: i64) -> Result<i64, Error> {
        let start = self.position();
        if min > max {
            return self.fail(start, ErrorKind::InvalidDeclaration);
        }
        let offset = self.take(bits_required64(min, max))?;
        if offset > (max as u64).wrapping_sub(min as u64) {
            return self.fail(start, ErrorKind::OutOfRange);
        }
        Ok(offset.wrapping_add(min as u64) as i64)
    }

    /// [`BitRead::read_int`] for `i128`.
    #[inline]
    fn read_int128(&mut self, min: i128, max: i128) -> Result<i128, Error> {
        let start = self.position();
        if min > max {
            return self.fail(start, ErrorKind::InvalidDeclaration);
        }
        let offset = self.read_wide_bits(bits_required128(min, max))?;
        if offset > (max as u128).wrapping_sub(min as u128) {
            return self.fail(start, ErrorKind::OutOfRange);
        }
        Ok(offset.wrapping_add(min as u128) as i128)
    }

    /// 8 raw bits.
    #[inline]
    fn read_u8(&mut self) -> Result<u8, Error> {
        Ok(self.take(8)? as u8)
    }

    /// 16 raw bits.
    #[inline]
    fn read_u16(&mut self) -> Result<u16, Error> {
        Ok(self.take(16)? as u16)
    }

    /// 32 raw bits.
    #[inline]
    fn read_u32(&mut self) -> Result<u32, Error> {
        Ok(self.take(32)? as u32)
    }

    /// 64 raw bits.
    #[inline]
    fn read_u64(&mut self) -> Result<u64, Error> {
        self.take(64)
    }

    /// 128 raw bits.
    #[inline]
    fn read_u128(&mut self) -> Result<u128, Error> {
        self.read_wide_bits(128)
    }

    /// 32 IEEE-754 bits, any pattern.
    #[inline]
    fn read_f32(&mut self) -> Result<f32, Error> {
        Ok(f32::from_bits(self.read_u32()?))
    }

    /// 64 IEEE-754 bits, any pattern.
    #[inline]
    fn read_f64(&mut self) -> Result<f64, Error> {
        Ok(f64::from_bits(self.read_u64()?))
    }

    /// A compressed float; refuses an integer above the declaration's
    /// maximum, and a declaration `write_compressed_float` would refuse.
    #[inline]
    fn read_compressed_float(&mut self, min: f32, max: f32, res: f32) -> Result<f32, Error> {
        let start = self.position();
        let Some(quantizer) = Quantizer::new(min, max, res) else {
            return self.fail(start, ErrorKind::InvalidDeclaration);
        };
        let integer = self.take(quantizer.bits)? as u32;
        match quantizer.dequantize(integer) {
            Some(value) => Ok(value),
            None => self.fail(start, ErrorKind::OutOfRange),
        }
    }

    /// A compressed double written by `write_compressed_double`; refuses
    /// an integer above the declaration's maximum, and a declaration the
    /// writer would refuse.
    #[inline]
    fn read_compressed_double(&mut self, min: f64, max: f64, res: f64) -> Result<f64, Error> {
        let start = self.position();
        let Some(quantizer) = Quantizer64::new(min, max, res) else {
            return self.fail(start, ErrorKind::InvalidDeclaration);
        };
        let integer = self.take(quantizer.bits)?;
        match quantizer.dequantize(integer) {
            Some(value) => Ok(value),
            None => self.fail(start, ErrorKind::OutOfRange),
        }
    }

    /// Skips to the next byte boundary; refuses nonzero padding.
    #[inline]
    fn read_align(&mut self) -> Result<(), Error> {
        let start = self.position();
        if self.take(align_padding(start))? != 0 {
            return self.fail(start, ErrorKind::NonZeroPadding);
        }
        Ok(())
    }

    /// Aligns, then reads `len` bytes, borrowed from the reader until its
    /// next read (a [`crate::BitReader`]'s own `read_bytes` borrows them
    /// from its input instead). Checks the whole length fits before
    /// reading anything.
    #[inline]
    fn read_bytes(&mut self, len: usize) -> Result<&[u8], Error> {
        let start = align_for_bytes(self, len)?;
        self.take_bytes(len, start, Ok)
    }

    /// A string written by `write_str(s, max_len)`, borrowed as
    /// [`BitRead::read_bytes`] borrows. Refuses a length over `max_len`,
    /// invalid UTF-8 and NUL bytes.
    #[inline]
    fn read_str(&mut self, max_len: usize) -> Result<&str, Error> {
        read_text(self, max_len, Nul::Refused)
    }

    /// A string written by `write_wstr(s, max_units)`. The only read that
    /// allocates: the string's UTF-8 bytes (at most 3 per 32 input bits),
    /// claimed from the allocation budget first. Refuses a count over
    /// `max_units`, a group above `0xFFFF`, a zero group and unpaired
    /// surrogates.
    #[cfg(feature = "alloc")]
    fn read_wstr(&mut self, max_units: usize) -> Result<alloc::string::String, Error> {
        self.atomic(|reader| read_wstr_units(reader, max_units))
    }

    /// A value written by `write_int_relative(previous, value)`; refuses
    /// any value that does not come strictly after `previous`, and an
    /// absolute value for a difference a tier holds (`NonCanonical`).
    #[inline]
    fn read_int_relative<T: RelativeInt>(&mut self, previous: T) -> Result<T, Error> {
        self.atomic(|reader| {
            let start = reader.position();
            let current = match relative_tier(reader)? {
                Some((low, high)) => {
                    let offset = reader.take(tier_bits(low, high))? as u32;
                    if offset > high - low {
                        return Err(Error::new(ErrorKind::OutOfRange, start));
                    }
                    // May wrap past T's end; then it is no increase and is refused.
                    T::from_wire(previous.to_wire().wrapping_add(low + offset))
                }
                None => {
                    let current = T::from_wire(reader.take(32)? as u32);
                    // The writer sends a difference a tier can hold in that
                    // tier: an absolute value for one is not canonical.
                    if current > previous
                        && current.to_wire().wrapping_sub(previous.to_wire()) <= LAST_TIER_HIGH
                    {
                        return Err(Error::new(ErrorKind::NonCanonical, start));
                    }
                    current
                }
            };
            if current > previous { Ok(current) } else { Err(Error::new(ErrorKind::NotIncreasing, start)) }
        })
    }

    /// An ack written by `write_ack_relative(sequence, ack)`; refuses 16
    /// raw bits for an ack the 64-ack window holds (`NonCanonical`).
    #[inline]
    fn read_ack_relative(&mut self, sequence: u16) -> Result<u16, Error> {
        self.atomic(|reader| {
            let start = reader.position();
            if reader.read_bool()? {
                let delta_minus_one = reader.take(ACK_DELTA_BITS)? as u16;
                Ok(sequence.wrapping_sub(delta_minus_one + 1))
            } else {
                let ack = reader.take(16)? as u16;
                // The writer sends a delta the window holds as a delta.
                if ack_delta(sequence, ack) <= ACK_WINDOW {
                    return Err(Error::new(ErrorKind::NonCanonical, start));
                }
                Ok(ack)
            }
        })
    }

    /// A sequence written by `write_sequence_relative(sequence1, s2)`;
    /// refuses anything the writer cannot have produced (`s2 == sequence1`
    /// included).
    #[inline]
    fn read_sequence_relative(&mut self, sequence1: u16) -> Result<u16, Error> {
        self.atomic(|reader| {
            let start = reader.position();
            let lifted = reader.read_int_relative(u32::from(sequence1))?;
            let sequence1 = u32::from(sequence1);
            // Unlifted values come after sequence1 below the wrap; lifted
            // ones come before it, past the wrap.
            match lifted {
                l if l < SEQUENCE_WRAP => Ok(l as u16),
                l if l - SEQUENCE_WRAP < sequence1 => Ok((l - SEQUENCE_WRAP) as u16),
                _ => Err(Error::new(ErrorKind::OutOfRange, start)),
            }
        })
    }
}

impl<S: BitSource + ?Sized> BitRead for S {}

/// Checks that `len` bytes remain after the padding to the next byte, then
/// reads the padding: the position where the read started, to go back to.
#[inline(always)]
pub(crate) fn align_for_bytes<S: BitRead + ?Sized>(source: &mut S, len: usize) -> Result<usize, Error> {
    let start = source.position();
    let padding = align_padding(start) as usize;
    let needed = len.checked_mul(8).and_then(|bits| bits.checked_add(padding));
    source.need(needed.unwrap_or(usize::MAX))?;
    source.read_align()?;
    Ok(start)
}

/// `read_str`'s wire, a NUL refused or not: the length, align, the bytes.
/// On `Err` the source is back at the length, and the error names it.
#[inline(always)]
pub(crate) fn read_text<S: BitRead + ?Sized>(
    source: &mut S,
    max_len: usize,
    nul: Nul,
) -> Result<&str, Error> {
    let start = text_start(source, max_len)?;
    source.take_bytes(start.len, start.position, |bytes| checked_text(bytes, nul))
}

/// Where a string starts, and its length in bytes.
#[derive(Clone, Copy)]
pub(crate) struct TextStart {
    pub(crate) position: usize,
    pub(crate) len: usize,
}

/// Reads a string's length and the padding after it, checking that its
/// bytes remain: everything of `read_str` but the bytes. On `Err` the
/// source is back at the length, and the error names it.
#[inline(always)]
pub(crate) fn text_start<S: BitRead + ?Sized>(source: &mut S, max_len: usize) -> Result<TextStart, Error> {
    let position = source.position();
    // The length and the padding after it in one take when both are there,
    // checked in the order of the two-take path below (too long, bytes
    // missing, nonzero padding), every refusal naming the start.
    let length_bits = bit_length_u128(max_len as u128);
    let head = length_bits + align_padding(position + length_bits as usize);
    if head <= 56 && head as usize <= source.remaining() {
        let word = source.take(head)?;
        let len = word & low_mask(length_bits);
        if len > max_len as u64 {
            return source.fail(position, ErrorKind::TooLong);
        }
        let len = len as usize;
        if len.saturating_mul(8) > source.remaining() {
            return source.fail(position, ErrorKind::UnexpectedEnd);
        }
        if word >> length_bits != 0 {
            return source.fail(position, ErrorKind::NonZeroPadding);
        }
        return Ok(TextStart { position, len });
    }
    let len = text_len(source, max_len)?;
    match align_for_bytes(source, len) {
        Ok(_) => Ok(TextStart { position, len }),
        Err(error) => source.fail(position, error.kind()),
    }
}

/// A string of 1 to `TEXT_WINDOW` (32) ASCII bytes (none NUL when
/// it is refused) read into an owned `String` through one window of input:
/// its length, the padding after it, its bytes and the budget for them
/// tested together, one branch for all, then the bytes copied without a
/// branch on their length. `None`, nothing taken nor claimed, for anything
/// else (an empty, long, non-ASCII or refused string, the end of the input
/// near): the caller reads it the long way, which refuses what is refused.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn short_owned_text<S: BitRead + ?Sized>(
    source: &mut S,
    max_len: usize,
    nul: Nul,
) -> Option<alloc::string::String> {
    const WINDOW: usize = 8 + crate::unchecked::TEXT_WINDOW;
    let length_bits = bit_length_u128(max_len as u128);
    // The length and the padding after it: all of it in the window's first
    // 8 bytes, the string's bytes from the next byte boundary on.
    let head = length_bits + align_padding(source.position() + length_bits as usize);
    if head > 56 {
        return None;
    }
    let (window, bit) = source.window::<WINDOW>()?;
    let word = u64::from_le_bytes(*window.first_chunk::<8>()?) >> bit;
    let len = word & low_mask(length_bits);
    let padding = (word & low_mask(head)) >> length_bits;
    // `bit + head` is a multiple of 8, at most 63: the string's first
    // byte is byte 1 to 7 of the window.
    let first = (bit + head) as usize / 8;
    let text = window.get(first..)?.first_chunk::<{ crate::unchecked::TEXT_WINDOW }>()?;
    let len = len as usize;
    let budget = source.budget_left();
    // A count of bytes never overflows: no branch for the `None`.
    let claim = allocation_claim::<u8>(len).unwrap_or(usize::MAX);
    let fits = (len <= max_len) & (padding == 0) & (claim <= budget);
    let text = crate::unchecked::short_text(text, len, nul, fits)?;
    // The window holds the head and the bytes, and their claim is within
    // the budget (tested above).
    source.take_window(head as usize + 8 * len, budget - claim);
    Some(text)
}

/// The length of a string of at most `max_len` bytes, refused past it.
#[inline(always)]
pub(crate) fn text_len<S: BitRead + ?Sized>(source: &mut S, max_len: usize) -> Result<usize, Error> {
    let start = source.position();
    let len = source.take(bit_length_u128(max_len as u128))?;
    if len > max_len as u64 {
        return source.fail(start, ErrorKind::TooLong);
    }
    Ok(len as usize)
}

/// `bytes` as text: valid UTF-8, and without NUL when it is refused.
#[inline(always)]
pub(crate) fn checked_text(bytes: &[u8], nul: Nul) -> Result<&str, ErrorKind> {
    // ASCII (the common case) is valid UTF-8: a word test, not a decode.
    let text = match crate::unchecked::ascii_str(bytes) {
        Some(text) => text,
        None => core::str::from_utf8(bytes).map_err(|_| ErrorKind::InvalidUtf8)?,
    };
    if nul == Nul::Refused && has_nul(bytes) {
        return Err(ErrorKind::InteriorNul);
    }
    Ok(text)
}

#[cfg(feature = "alloc")]
fn read_wstr_units<S: BitRead + ?Sized>(
    source: &mut S,
    max_units: usize,
) -> Result<alloc::string::String, Error> {
    let start = source.position();
    let units = source.take(bit_length_u128(max_units as u128))?;
    if units > max_units as u64 {
        return Err(Error::new(ErrorKind::TooLong, start));
    }
    // Each unit takes 32 bits: check they are all there before allocating.
    let units = units as usize;
    source.need(units.saturating_mul(32))?;
    // A first pass checks the units and counts the UTF-8 bytes, so the
    // budget is claimed and the string allocated once, exactly.
    let units_start = source.checkpoint();
    let mut len = 0;
    read_utf16_chars(source, units, start, |c| len += c.len_utf8())?;
    source.rewind(units_start);
    source.claim_allocation::<u8>(len)?;
    let mut text = alloc::string::String::with_capacity(len);
    read_utf16_chars(source, units, start, |c| text.push(c))?;
    Ok(text)
}

/// Reads `units` UTF-16 code units (32 bits each) and hands each
/// character to `each`.
#[cfg(feature = "alloc")]
fn read_utf16_chars<S: BitSource + ?Sized>(
    source: &mut S,
    units: usize,
    start: usize,
    mut each: impl FnMut(char),
) -> Result<(), Error> {
    let mut left = units;
    while left > 0 {
        let unit = read_utf16_unit(source, start)?;
        left -= 1;
        let code_point = match unit {
            0xD800..=0xDBFF => {
                if left == 0 {
                    return Err(Error::new(ErrorKind::InvalidUtf16, start));
                }
                let low = read_utf16_unit(source, start)?;
                left -= 1;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err(Error::new(ErrorKind::InvalidUtf16, start));
                }
                0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(Error::new(ErrorKind::InvalidUtf16, start)),
            _ => unit,
        };
        match char::from_u32(code_point) {
            Some(c) => each(c),
            None => return Err(Error::new(ErrorKind::InvalidUtf16, start)),
        }
    }
    Ok(())
}

#[cfg(feature = "alloc")]
fn read_utf16_unit<S: BitSource + ?Sized>(source: &mut S, start: usize) -> Result<u32, Error> {
    let unit = source.take(32)? as u32;
    match unit {
        0 => Err(Error::new(ErrorKind::InteriorNul, start)),
        0x1_0000.. => Err(Error::new(ErrorKind::InvalidUtf16, start)),
        _ => Ok(unit),
    }
}

/// Reads the zero flags up to a one: the tier it selects, or `None` after
/// `ABSOLUTE_PREFIX_ZEROS` zeros.
#[inline(always)]
fn relative_tier<S: BitRead + ?Sized>(reader: &mut S) -> Result<Option<(u32, u32)>, Error> {
    for &tier in RELATIVE_TIERS.iter() {
        if reader.read_bool()? {
            return Ok(Some(tier));
        }
    }
    Ok(None)
}

// Keeps the prefix constant in use on the read side too: the final tier is
// entered after exactly this many zero flags.
const _: () = assert!(RELATIVE_TIERS.len() == ABSOLUTE_PREFIX_ZEROS as usize);

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use alloc::string::String;
    use alloc::vec;
    use alloc::vec::Vec;

    use super::{BitRead, checked_text, short_owned_text, text_start};
    use crate::bits::{Nul, align_padding, bit_length_u128, low_mask};
    use crate::error::{Error, ErrorKind};
    use crate::reader::BitReader;
    use crate::sink::writer::BitWriter;
    use crate::source::BitSource;
    use crate::write::BitWrite;

    /// `read_bytes` and `read_str` as a generic caller sees them (borrowed
    /// from the reader), not the `BitReader`'s own zero-copy methods.
    fn text_through_the_trait<R: BitRead>(
        reader: &mut R,
        max_len: usize,
    ) -> Result<(Vec<u8>, String), ErrorKind> {
        let bytes = reader.read_bytes(2).map_err(|e| e.kind())?.to_vec();
        let text = String::from(reader.read_str(max_len).map_err(|e| e.kind())?);
        Ok((bytes, text))
    }

    fn message(text: &[u8]) -> Vec<u8> {
        let mut buf = vec![0u8; 64];
        let mut writer = BitWriter::new(&mut buf);
        writer.write_bool(true).unwrap();
        writer.write_bytes(&[7, 9]).unwrap();
        // A string's wire by hand, so that invalid UTF-8 can be sent.
        writer.write_int(text.len() as i32, 0, 16).unwrap();
        writer.write_align().unwrap();
        writer.write_bytes(text).unwrap();
        let used = writer.finish().unwrap();
        buf.truncate(used);
        buf
    }

    #[test]
    fn generic_reads_of_bytes_and_text_match_the_readers_own() {
        let bytes = message(b"arena");
        let mut generic = BitReader::new(&bytes);
        assert!(BitRead::read_bool(&mut generic).unwrap());
        let through_trait = text_through_the_trait(&mut generic, 16).unwrap();
        let mut own = BitReader::new(&bytes);
        assert!(own.read_bool().unwrap());
        let own_bytes = own.read_bytes(2).unwrap().to_vec();
        let own_text = String::from(own.read_str(16).unwrap());
        assert_eq!(through_trait, (own_bytes, own_text));
        assert_eq!((generic.bits_read(), generic.bits_remaining()), (own.bits_read(), own.bits_remaining()));
    }

    #[test]
    fn a_refused_generic_string_leaves_the_reader_at_its_length() {
        for (text, kind) in [(&b"a\xFFb"[..], ErrorKind::InvalidUtf8), (&b"a\0b"[..], ErrorKind::InteriorNul)]
        {
            let bytes = message(text);
            let mut reader = BitReader::new(&bytes);
            reader.read_bool().unwrap();
            BitRead::read_bytes(&mut reader, 2).unwrap();
            let start = reader.bits_read();
            let error = BitRead::read_str(&mut reader, 16).unwrap_err();
            assert_eq!((error.kind(), error.bit(), reader.bits_read()), (kind, start, start));
            // The reader's own zero-copy read refuses the same way.
            let error = reader.read_str(16).unwrap_err();
            assert_eq!((error.kind(), error.bit(), reader.bits_read()), (kind, start, start));
        }
    }

    /// A reader's outcome: the text or the error (kind and bit), and the
    /// position and budget after.
    type Outcome = (Result<String, (ErrorKind, usize)>, usize, usize);

    /// `read_rust_string`/`read_string` before the window (the length and
    /// padding, the claim, the bytes taken and checked; back to the start
    /// on `Err`).
    fn long_way(reader: &mut BitReader<'_>, max_len: usize, nul: Nul) -> Outcome {
        let checkpoint = reader.checkpoint();
        let result = (|| {
            let start = text_start(reader, max_len)?;
            let at = start.position;
            reader.claim_allocation::<u8>(start.len).map_err(|error| Error::new(error.kind(), at))?;
            reader.take_bytes(start.len, at, |bytes| checked_text(bytes, nul)).map(String::from)
        })();
        if result.is_err() {
            reader.rewind(checkpoint);
        }
        (result.map_err(|e| (e.kind(), e.bit())), reader.bits_read(), reader.allocation_left())
    }

    fn owned(reader: &mut BitReader<'_>, max_len: usize, nul: Nul) -> Outcome {
        let result = match nul {
            Nul::Allowed => crate::private::read_rust_string(reader, max_len),
            Nul::Refused => crate::private::read_string(reader, max_len),
        };
        (result.map_err(|e| (e.kind(), e.bit())), reader.bits_read(), reader.allocation_left())
    }

    /// `skip` one bits, a length field of `max_len`'s width holding `len`,
    /// padding holding `padding`, `text`, then 48 bytes of 0xEE (so that
    /// the window is there unless the input is cut).
    fn string_message(skip: u32, max_len: usize, len: u64, padding: u32, text: &[u8]) -> Vec<u8> {
        let mut buf = vec![0u8; text.len() + 80];
        let mut writer = BitWriter::new(&mut buf);
        if skip > 0 {
            writer.write_bits(low_mask(skip) as u32, skip).unwrap();
        }
        let length_bits = bit_length_u128(max_len as u128);
        writer.write_bits64(len, length_bits).unwrap();
        let padding_bits = align_padding(skip as usize + length_bits as usize);
        if padding_bits > 0 {
            writer.write_bits(padding & low_mask(padding_bits) as u32, padding_bits).unwrap();
        }
        writer.write_bytes(text).unwrap();
        writer.write_bytes(&[0xEE; 48]).unwrap();
        let used = writer.finish().unwrap();
        buf.truncate(used);
        buf
    }

    /// The owned string reads (through the window when it is there) and
    /// the long way agree on every outcome: every bit offset, lengths
    /// around the window's 32 bytes and past `max_len`, nonzero padding,
    /// non-ASCII, invalid UTF-8 and NUL bytes, inputs cut at every byte
    /// and budgets just short of the string; and the window is taken.
    #[test]
    fn owned_strings_read_through_the_window_as_the_long_way() {
        let mut through_window = 0;
        let texts = |len: usize| -> Vec<Vec<u8>> {
            let ascii: Vec<u8> = (0..len).map(|index| b'a' + (index % 26) as u8).collect();
            let mut texts = vec![ascii.clone()];
            for (at, bytes) in [(0, &b"\x80"[..]), (len / 2, b"\0"), (len.saturating_sub(1), b"\xFF")] {
                if len > 0 {
                    let mut text = ascii.clone();
                    text[at] = bytes[0];
                    texts.push(text);
                }
            }
            if len >= 2 {
                // Valid UTF-8 that is not ASCII: "é" at the end.
                let mut text = ascii.clone();
                text[len - 2..].copy_from_slice("\u{e9}".as_bytes());
                texts.push(text);
            }
            texts
        };
        for max_len in [1usize, 3, 8, 31, 32, 33, 64, 1000, 1 << 40] {
            let length_bits = bit_length_u128(max_len as u128);
            for skip in 0..8 {
                let lens = (0..=34u64).chain([max_len as u64 + 1, low_mask(length_bits)]);
                for len in lens.filter(|&len| len <= low_mask(length_bits)) {
                    let text_len = (len as usize).min(40);
                    for text in texts(text_len) {
                        for padding in [0, 1] {
                            let bytes = string_message(skip, max_len, len, padding, &text);
                            let cuts: Vec<usize> = if len <= 33 && padding == 0 {
                                (0..=bytes.len()).collect()
                            } else {
                                vec![bytes.len()]
                            };
                            for cut in cuts {
                                let input = &bytes[..cut];
                                // Around the string's claim, and an
                                // allocation's least (16).
                                let limits = [
                                    None,
                                    Some(text_len),
                                    Some(text_len.saturating_sub(1)),
                                    Some(16),
                                    Some(15),
                                ];
                                for limit in limits {
                                    for nul in [Nul::Allowed, Nul::Refused] {
                                        let fresh = || {
                                            let mut reader = match limit {
                                                None => BitReader::new(input),
                                                Some(limit) => BitReader::with_limit(input, limit),
                                            };
                                            reader.read_bits(skip.max(1)).map(drop).unwrap_or(());
                                            if skip == 0 {
                                                reader.seek_back(0);
                                            }
                                            reader
                                        };
                                        let (mut new, mut old) = (fresh(), fresh());
                                        assert_eq!(
                                            owned(&mut new, max_len, nul),
                                            long_way(&mut old, max_len, nul),
                                            "max_len {max_len}, skip {skip}, len {len}, {text:?}, padding {padding}, cut {cut}, {limit:?}"
                                        );
                                        through_window += usize::from(
                                            short_owned_text(&mut fresh(), max_len, nul).is_some(),
                                        );
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(through_window > 10_000, "{through_window}");
    }

    #[test]
    fn a_string_longer_than_the_input_is_refused_before_its_bytes() {
        let bytes = message(b"abc");
        // Cut the last byte of the string: the length says 3, 2 remain.
        let mut reader = BitReader::new(&bytes[..bytes.len() - 1]);
        reader.read_bool().unwrap();
        BitRead::read_bytes(&mut reader, 2).unwrap();
        let start = reader.bits_read();
        let error = BitRead::read_str(&mut reader, 16).unwrap_err();
        assert_eq!((error.kind(), error.bit(), reader.bits_read()), (ErrorKind::UnexpectedEnd, start, start));
    }
}
