//! The reader: every bound checked, nothing read past the slice.

use crate::bits::{
    Nul, align_padding, bit_length_u128, bits_required, bits_required64, bits_required128, has_nul, low_mask,
};
use crate::error::{Error, ErrorKind};
use crate::quantize::{Quantizer, Quantizer64};
use crate::relative::{
    ABSOLUTE_PREFIX_ZEROS, ACK_DELTA_BITS, ACK_WINDOW, LAST_TIER_HIGH, RELATIVE_TIERS, RelativeInt,
    SEQUENCE_WRAP, ack_delta, tier_bits,
};

/// Reads what a [`crate::BitWriter`] wrote, with the same parameters.
///
/// Every read checks its bound first and returns `Err` rather than
/// panicking; a failed read leaves the position where it was. The reader
/// never looks past its slice, and ignores the unused high bits of the last
/// byte. Its own reads allocate nothing except [`BitReader::read_wstr`].
///
/// # Allocation budget
///
/// A reader carries a budget of bytes that decoding may allocate, as
/// bincode 2's limit does: every adaptive `Vec`, `String`, `Box` and wide
/// string the core builds while reading (and every `Vec` read through
/// `__private::read_vec`) first claims `len * size_of::<T>()` from it, and
/// is refused with [`ErrorKind::AllocationLimit`] past it, before
/// allocating. Nested collections claim their total. [`BitReader::new`] sets
/// [`BitReader::default_limit`] of its input, [`BitReader::with_limit`] a
/// given one; a hand-written `read_from` that allocates claims with
/// [`BitReader::claim_allocation`]. A failed read gives back what it
/// claimed.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::BitReader;
/// let mut reader = BitReader::new(&[0x2D, 0x05]);
/// assert_eq!(reader.read_bits(3)?, 5);
/// assert_eq!(reader.read_u8()?, 0xA5);
/// assert!(reader.read_u8().is_err()); // only 5 bits remain
/// # Ok::<(), bitpack::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct BitReader<'a> {
    bytes: &'a [u8],
    position: usize,
    len_bits: usize,
    /// Bytes decoding may still allocate.
    allocation_left: usize,
}

/// `allocation_left` of a reader made by `BitReader::new` until its first
/// claim: the default limit, worked out from the input's length only when a
/// read allocates. (Working it out in `new` measured 5% more instructions
/// on a 14-field read that allocates nothing.)
const DEFAULT_LIMIT: usize = usize::MAX;

/// A reader's position and budget, to put it back after a failed read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReadCheckpoint {
    position: usize,
    allocation_left: usize,
}

impl<'a> BitReader<'a> {
    /// The allocation budget of a reader made by [`BitReader::new`] (and so
    /// of [`crate::decode`]): 64 KiB, plus 1 KiB per input byte. Enough for
    /// any message of the benchmark datasets (every snapshot, input and
    /// delta decodes within it, tested), and for a 1-bit `None` or empty
    /// value standing for 128 bytes of heap; a 5-byte hostile input gets 69
    /// KiB, where it could ask for gigabytes. Pass a larger limit to
    /// [`BitReader::with_limit`] or [`crate::decode_with_limit`] for values
    /// that expand more.
    ///
    /// ```
    /// # extern crate bitpack_core as bitpack;
    /// use bitpack::BitReader;
    /// assert_eq!(BitReader::default_limit(0), 65_536);
    /// assert_eq!(BitReader::default_limit(1200), 65_536 + 1200 * 1024);
    /// ```
    #[inline]
    pub const fn default_limit(input_len: usize) -> usize {
        (64 * 1024usize).saturating_add(input_len.saturating_mul(1024))
    }

    /// A reader at the first bit of `bytes`, with the allocation budget
    /// [`BitReader::default_limit`]`(bytes.len())`.
    #[inline]
    pub fn new(bytes: &'a [u8]) -> Self {
        BitReader {
            bytes,
            position: 0,
            len_bits: bytes.len().saturating_mul(8),
            allocation_left: DEFAULT_LIMIT,
        }
    }

    /// A reader at the first bit of `bytes` that may allocate at most
    /// `limit` bytes for what it decodes (`usize::MAX`: no limit).
    ///
    /// ```
    /// # extern crate bitpack_core as bitpack;
    /// use bitpack::{BitReader, ErrorKind};
    /// let mut reader = BitReader::with_limit(&[0u8; 4], 16);
    /// reader.claim_allocation::<u32>(3)?; // 12 bytes
    /// assert_eq!(reader.allocation_left(), 4);
    /// let error = reader.claim_allocation::<u32>(2).unwrap_err();
    /// assert_eq!(error.kind(), ErrorKind::AllocationLimit);
    /// assert_eq!(reader.allocation_left(), 4); // nothing claimed
    /// # Ok::<(), bitpack::Error>(())
    /// ```
    #[inline]
    pub fn with_limit(bytes: &'a [u8], limit: usize) -> Self {
        // One byte less than `usize::MAX`, which stands for the default.
        let limit = limit.min(DEFAULT_LIMIT - 1);
        BitReader { bytes, position: 0, len_bits: bytes.len().saturating_mul(8), allocation_left: limit }
    }

    /// Bytes decoding may still allocate.
    #[inline]
    pub fn allocation_left(&self) -> usize {
        if self.allocation_left == DEFAULT_LIMIT {
            Self::default_limit(self.bytes.len())
        } else {
            self.allocation_left
        }
    }

    /// Claims room for `count` values of `T` (`count * size_of::<T>()`
    /// bytes) from the allocation budget; call it before allocating them.
    /// [`ErrorKind::AllocationLimit`] past the budget, and then nothing is
    /// claimed.
    #[inline]
    pub fn claim_allocation<T>(&mut self, count: usize) -> Result<(), Error> {
        let left = self.allocation_left();
        match count.checked_mul(size_of::<T>()) {
            Some(bytes) if bytes <= left => {
                self.allocation_left = left - bytes;
                Ok(())
            }
            _ => Err(Error::new(ErrorKind::AllocationLimit, self.position)),
        }
    }

    /// Where the reader is, and what it may still allocate.
    #[inline(always)]
    pub(crate) fn checkpoint(&self) -> ReadCheckpoint {
        ReadCheckpoint { position: self.position, allocation_left: self.allocation_left }
    }

    /// Puts the reader back at `checkpoint` (after a failed read).
    #[cold]
    pub(crate) fn rewind(&mut self, checkpoint: ReadCheckpoint) {
        self.position = checkpoint.position;
        self.allocation_left = checkpoint.allocation_left;
    }

    /// Bits read so far.
    #[inline]
    pub fn bits_read(&self) -> usize {
        self.position
    }

    /// Bits left in the slice (unused bits of the last byte included).
    #[inline]
    pub fn bits_remaining(&self) -> usize {
        self.len_bits - self.position
    }

    /// Moves back `bits` bits, to re-read them (fused runs whose values
    /// turned out invalid are read again field by field).
    #[inline(always)]
    pub(crate) fn unread(&mut self, bits: usize) {
        self.position = self.position.saturating_sub(bits);
    }

    /// Puts the reader back at `start` and refuses with an error naming it.
    #[cold]
    pub(crate) fn fail<T>(&mut self, start: usize, kind: ErrorKind) -> Result<T, Error> {
        self.position = start;
        Err(Error::new(kind, start))
    }

    /// Runs a read of several parts as one: on `Err` the reader goes back
    /// to where it started (its budget too), and the error names that start.
    #[inline(always)]
    fn atomic<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T, Error>) -> Result<T, Error> {
        let start = self.checkpoint();
        match read(self) {
            Ok(value) => Ok(value),
            Err(error) => {
                self.rewind(start);
                Err(Error::new(error.kind(), start.position))
            }
        }
    }

    /// Runs a read of several parts as one: on `Err` the reader goes back to
    /// where it started (its budget too), and the error keeps the bit where
    /// the failing part started.
    #[inline(always)]
    pub(crate) fn rolled_back<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let start = self.checkpoint();
        let result = read(self);
        if result.is_err() {
            self.rewind(start);
        }
        result
    }

    /// `Err` unless `bits` more bits remain.
    #[inline(always)]
    fn need(&self, bits: usize) -> Result<(), Error> {
        if bits > self.bits_remaining() {
            return Err(Error::new(ErrorKind::UnexpectedEnd, self.position));
        }
        Ok(())
    }

    /// Reads `bits` (0..=64) bits after checking they remain.
    #[inline(always)]
    pub(crate) fn take(&mut self, bits: u32) -> Result<u64, Error> {
        // Away from the end one check does: 8 bytes at the read position
        // hold its bit offset (at most 7) plus up to 56 bits, so when they
        // lie inside the slice the bits remain too.
        if bits <= 56 {
            let byte = self.position >> 3;
            if let Some(chunk) = self.bytes.get(byte..byte + 8).and_then(|chunk| chunk.first_chunk::<8>()) {
                let value = (u64::from_le_bytes(*chunk) >> (self.position & 7)) & low_mask(bits);
                self.position += bits as usize;
                return Ok(value);
            }
        }
        self.take_checked(bits)
    }

    /// [`BitReader::take`] within 8 bytes of the end, and over 32 bits.
    #[inline(always)]
    fn take_checked(&mut self, bits: u32) -> Result<u64, Error> {
        self.need(bits as usize)?;
        let value = if bits <= 32 {
            self.peek32(self.position, bits)
        } else {
            self.peek32(self.position, 32) | (self.peek32(self.position + 32, bits - 32) << 32)
        };
        self.position += bits as usize;
        Ok(value)
    }

    /// The `bits` (0..=32) bits at `position`, which the caller has checked
    /// lie inside the slice.
    #[inline(always)]
    fn peek32(&self, position: usize, bits: u32) -> u64 {
        let byte = position >> 3;
        let shift = position & 7;
        // One range check: `byte` is at most the slice length (the caller
        // checked), so `byte + 8` cannot overflow.
        let word = match self.bytes.get(byte..byte + 8).and_then(|chunk| chunk.first_chunk::<8>()) {
            Some(chunk) => u64::from_le_bytes(*chunk),
            None => self.tail_word(byte),
        };
        (word >> shift) & low_mask(bits)
    }

    /// Up to 8 bytes from `byte` to the end of the slice, zero-extended.
    /// Every short message ends here, so it shifts the slice's last 8 bytes
    /// down rather than copying into a scratch array (a `memcpy` call).
    #[inline(always)]
    fn tail_word(&self, byte: usize) -> u64 {
        if let Some(last) = self.bytes.last_chunk::<8>() {
            let missing = (byte + 8).saturating_sub(self.bytes.len());
            return u64::from_le_bytes(*last).checked_shr(8 * missing as u32).unwrap_or(0);
        }
        let mut word = 0;
        for (index, &value) in self.bytes.get(byte..).unwrap_or(&[]).iter().enumerate() {
            word |= u64::from(value) << (8 * index);
        }
        word
    }

    /// Reads `bits` bits, `bits` in `1..=32`.
    #[inline]
    pub fn read_bits(&mut self, bits: u32) -> Result<u32, Error> {
        if bits == 0 || bits > 32 {
            return self.fail(self.position, ErrorKind::InvalidDeclaration);
        }
        Ok(self.take(bits)? as u32)
    }

    /// Reads `bits` bits, `bits` in `1..=64`.
    #[inline]
    pub fn read_bits64(&mut self, bits: u32) -> Result<u64, Error> {
        if bits == 0 || bits > 64 {
            return self.fail(self.position, ErrorKind::InvalidDeclaration);
        }
        self.take(bits)
    }

    /// One bit.
    #[inline]
    pub fn read_bool(&mut self) -> Result<bool, Error> {
        Ok(self.take(1)? != 0)
    }

    /// An integer written by `write_int(value, min, max)`; refuses an
    /// offset above `max - min`.
    #[inline]
    pub fn read_int(&mut self, min: i32, max: i32) -> Result<i32, Error> {
        let start = self.position;
        if min > max {
            return self.fail(start, ErrorKind::InvalidDeclaration);
        }
        let offset = self.take(bits_required(min, max))? as u32;
        if offset > (max as u32).wrapping_sub(min as u32) {
            return self.fail(start, ErrorKind::OutOfRange);
        }
        Ok(offset.wrapping_add(min as u32) as i32)
    }

    /// [`BitReader::read_int`] for `i64`.
    #[inline]
    pub fn read_int64(&mut self, min: i64, max: i64) -> Result<i64, Error> {
        let start = self.position;
        if min > max {
            return self.fail(start, ErrorKind::InvalidDeclaration);
        }
        let offset = self.take(bits_required64(min, max))?;
        if offset > (max as u64).wrapping_sub(min as u64) {
            return self.fail(start, ErrorKind::OutOfRange);
        }
        Ok(offset.wrapping_add(min as u64) as i64)
    }

    /// [`BitReader::read_int`] for `i128`.
    #[inline]
    pub fn read_int128(&mut self, min: i128, max: i128) -> Result<i128, Error> {
        let start = self.position;
        if min > max {
            return self.fail(start, ErrorKind::InvalidDeclaration);
        }
        let offset = self.read_wide_bits(bits_required128(min, max))?;
        if offset > (max as u128).wrapping_sub(min as u128) {
            return self.fail(start, ErrorKind::OutOfRange);
        }
        Ok(offset.wrapping_add(min as u128) as i128)
    }

    /// `bits` (0..=128) bits, low 64 first, checked to remain before any is
    /// read.
    #[inline(always)]
    pub(crate) fn read_wide_bits(&mut self, bits: u32) -> Result<u128, Error> {
        if bits > 128 {
            return self.fail(self.position, ErrorKind::InvalidDeclaration);
        }
        self.need(bits as usize)?;
        if bits <= 64 {
            return Ok(u128::from(self.take(bits)?));
        }
        let low = self.take(64)?;
        let high = self.take(bits - 64)?;
        Ok(u128::from(low) | (u128::from(high) << 64))
    }

    /// 8 raw bits.
    #[inline]
    pub fn read_u8(&mut self) -> Result<u8, Error> {
        Ok(self.take(8)? as u8)
    }

    /// 16 raw bits.
    #[inline]
    pub fn read_u16(&mut self) -> Result<u16, Error> {
        Ok(self.take(16)? as u16)
    }

    /// 32 raw bits.
    #[inline]
    pub fn read_u32(&mut self) -> Result<u32, Error> {
        Ok(self.take(32)? as u32)
    }

    /// 64 raw bits.
    #[inline]
    pub fn read_u64(&mut self) -> Result<u64, Error> {
        self.take(64)
    }

    /// 128 raw bits.
    #[inline]
    pub fn read_u128(&mut self) -> Result<u128, Error> {
        self.read_wide_bits(128)
    }

    /// 32 IEEE-754 bits, any pattern.
    #[inline]
    pub fn read_f32(&mut self) -> Result<f32, Error> {
        Ok(f32::from_bits(self.read_u32()?))
    }

    /// 64 IEEE-754 bits, any pattern.
    #[inline]
    pub fn read_f64(&mut self) -> Result<f64, Error> {
        Ok(f64::from_bits(self.read_u64()?))
    }

    /// A compressed float; refuses an integer above the declaration's
    /// maximum, and a declaration `write_compressed_float` would refuse.
    #[inline]
    pub fn read_compressed_float(&mut self, min: f32, max: f32, res: f32) -> Result<f32, Error> {
        let start = self.position;
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
    pub fn read_compressed_double(&mut self, min: f64, max: f64, res: f64) -> Result<f64, Error> {
        let start = self.position;
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
    pub fn read_align(&mut self) -> Result<(), Error> {
        let start = self.position;
        if self.take(align_padding(start))? != 0 {
            return self.fail(start, ErrorKind::NonZeroPadding);
        }
        Ok(())
    }

    /// Aligns, then borrows `len` bytes from the input (no copy). Checks the
    /// whole length fits before reading anything.
    #[inline]
    pub fn read_bytes(&mut self, len: usize) -> Result<&'a [u8], Error> {
        let start = self.position;
        let padding = align_padding(start) as usize;
        let needed = len.checked_mul(8).and_then(|bits| bits.checked_add(padding));
        self.need(needed.unwrap_or(usize::MAX))?;
        self.read_align()?;
        let first = self.position / 8;
        let Some(bytes) = self.bytes.get(first..first + len) else {
            return self.fail(start, ErrorKind::UnexpectedEnd);
        };
        self.position += len * 8;
        Ok(bytes)
    }

    /// A string written by `write_str(s, max_len)`, borrowed from the input.
    /// Refuses a length over `max_len`, invalid UTF-8 and NUL bytes.
    #[inline]
    pub fn read_str(&mut self, max_len: usize) -> Result<&'a str, Error> {
        self.read_text(max_len, Nul::Refused)
    }

    /// `read_str`'s wire, a NUL refused or not.
    #[inline(always)]
    pub(crate) fn read_text(&mut self, max_len: usize, nul: Nul) -> Result<&'a str, Error> {
        self.atomic(|reader| {
            let start = reader.position;
            let len = reader.take(bit_length_u128(max_len as u128))?;
            if len > max_len as u64 {
                return Err(Error::new(ErrorKind::TooLong, start));
            }
            let bytes = reader.read_bytes(len as usize)?;
            let Ok(text) = core::str::from_utf8(bytes) else {
                return Err(Error::new(ErrorKind::InvalidUtf8, start));
            };
            if nul == Nul::Refused && has_nul(bytes) {
                return Err(Error::new(ErrorKind::InteriorNul, start));
            }
            Ok(text)
        })
    }

    /// A string written by `write_wstr(s, max_units)`. The only read that
    /// allocates: the string's UTF-8 bytes (at most 3 per 32 input bits),
    /// claimed from the allocation budget first. Refuses a count over
    /// `max_units`, a group above `0xFFFF`, a zero group and unpaired
    /// surrogates.
    #[cfg(feature = "alloc")]
    pub fn read_wstr(&mut self, max_units: usize) -> Result<alloc::string::String, Error> {
        self.atomic(|reader| reader.read_wstr_inner(max_units))
    }

    #[cfg(feature = "alloc")]
    fn read_wstr_inner(&mut self, max_units: usize) -> Result<alloc::string::String, Error> {
        let start = self.position;
        let units = self.take(bit_length_u128(max_units as u128))?;
        if units > max_units as u64 {
            return Err(Error::new(ErrorKind::TooLong, start));
        }
        // Each unit takes 32 bits: check they are all there before allocating.
        let units = units as usize;
        self.need(units.saturating_mul(32))?;
        // A first pass checks the units and counts the UTF-8 bytes, so the
        // budget is claimed and the string allocated once, exactly.
        let mut measure = self.clone();
        let mut len = 0;
        measure.read_utf16_chars(units, start, |c| len += c.len_utf8())?;
        self.claim_allocation::<u8>(len)?;
        let mut text = alloc::string::String::with_capacity(len);
        self.read_utf16_chars(units, start, |c| text.push(c))?;
        Ok(text)
    }

    /// Reads `units` UTF-16 code units (32 bits each) and hands each
    /// character to `each`.
    #[cfg(feature = "alloc")]
    fn read_utf16_chars(
        &mut self,
        units: usize,
        start: usize,
        mut each: impl FnMut(char),
    ) -> Result<(), Error> {
        let mut left = units;
        while left > 0 {
            let unit = self.read_utf16_unit(start)?;
            left -= 1;
            let code_point = match unit {
                0xD800..=0xDBFF => {
                    if left == 0 {
                        return Err(Error::new(ErrorKind::InvalidUtf16, start));
                    }
                    let low = self.read_utf16_unit(start)?;
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
    fn read_utf16_unit(&mut self, start: usize) -> Result<u32, Error> {
        let unit = self.take(32)? as u32;
        match unit {
            0 => Err(Error::new(ErrorKind::InteriorNul, start)),
            0x1_0000.. => Err(Error::new(ErrorKind::InvalidUtf16, start)),
            _ => Ok(unit),
        }
    }

    /// A value written by `write_int_relative(previous, value)`; refuses
    /// any value that does not come strictly after `previous`, and an
    /// absolute value for a difference a tier holds (`NonCanonical`).
    #[inline]
    pub fn read_int_relative<T: RelativeInt>(&mut self, previous: T) -> Result<T, Error> {
        self.atomic(|reader| {
            let start = reader.position;
            let current = match reader.relative_tier()? {
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

    /// Reads the zero flags up to a one: the tier it selects, or `None` after
    /// `ABSOLUTE_PREFIX_ZEROS` zeros.
    #[inline(always)]
    fn relative_tier(&mut self) -> Result<Option<(u32, u32)>, Error> {
        for &tier in RELATIVE_TIERS.iter() {
            if self.read_bool()? {
                return Ok(Some(tier));
            }
        }
        Ok(None)
    }

    /// An ack written by `write_ack_relative(sequence, ack)`; refuses 16
    /// raw bits for an ack the 64-ack window holds (`NonCanonical`).
    #[inline]
    pub fn read_ack_relative(&mut self, sequence: u16) -> Result<u16, Error> {
        self.atomic(|reader| {
            let start = reader.position;
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
    pub fn read_sequence_relative(&mut self, sequence1: u16) -> Result<u16, Error> {
        self.atomic(|reader| {
            let start = reader.position;
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

// Keeps the prefix constant in use on the read side too: the final tier is
// entered after exactly this many zero flags.
const _: () = assert!(RELATIVE_TIERS.len() == ABSOLUTE_PREFIX_ZEROS as usize);
