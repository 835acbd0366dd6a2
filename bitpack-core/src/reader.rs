//! The reader: every bound checked, nothing read past the slice.

use crate::bits::{Nul, low_mask};
use crate::error::{Error, ErrorKind};
#[cfg(doc)]
use crate::read::BitRead;
use crate::read::{align_for_bytes, checked_text, text_start};
use crate::source::{BitSource, SourceExt};

/// Reads what a [`crate::BitWriter`] wrote, with the same parameters.
///
/// Every read checks its bound first and returns `Err` rather than
/// panicking; a failed read leaves the position where it was. The reader
/// never looks past its slice, and ignores the unused high bits of the last
/// byte. Its own reads allocate nothing except [`BitRead::read_wstr`].
///
/// # Allocation budget
///
/// A reader carries a budget of bytes that decoding may allocate, as
/// bincode 2's limit does: every adaptive `Vec`, `String`, `Box` and wide
/// string the core builds while reading (and every `Vec` read through
/// `__private::read_vec`) first claims `len * size_of::<T>()` from it (a
/// zero-sized `T` counted as 1 byte, each allocation as at least 16:
/// [`BitRead::claim_allocation`]), and is refused with
/// [`ErrorKind::AllocationLimit`] past it, before allocating. Nested collections claim their total. [`BitReader::new`] sets
/// [`BitReader::default_limit`] of its input, [`BitReader::with_limit`] a
/// given one; a hand-written `read_from` that allocates claims with
/// [`BitRead::claim_allocation`]. A failed read gives back what it
/// claimed.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitRead, BitReader};
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
pub struct ReadCheckpoint {
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
    /// use bitpack::{BitRead, BitReader};
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
    /// use bitpack::{BitRead, BitReader, ErrorKind};
    /// let mut reader = BitReader::with_limit(&[0u8; 4], 24);
    /// reader.claim_allocation::<u32>(5)?; // 20 bytes
    /// assert_eq!(reader.allocation_left(), 4);
    /// let error = reader.claim_allocation::<u32>(1).unwrap_err(); // 16 bytes
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

    /// `take` within 8 bytes of the end, and over 32 bits.
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
            None => tail_word(self.bytes, byte),
        };
        (word >> shift) & low_mask(bits)
    }

    /// Aligns, then borrows `len` bytes from the input (no copy): what
    /// [`BitRead::read_bytes`] reads, for as long as the input lives.
    /// Checks the whole length fits before reading anything.
    #[inline]
    pub fn read_bytes(&mut self, len: usize) -> Result<&'a [u8], Error> {
        let start = align_for_bytes(self, len)?;
        self.slice_bytes(len, start, Ok)
    }

    /// A string written by `write_str(s, max_len)`, borrowed from the input:
    /// what [`BitRead::read_str`] reads, for as long as the input lives.
    /// Refuses a length over `max_len`, invalid UTF-8 and NUL bytes.
    #[inline]
    pub fn read_str(&mut self, max_len: usize) -> Result<&'a str, Error> {
        let start = text_start(self, max_len)?;
        self.slice_bytes(start.len, start.position, |bytes| checked_text(bytes, Nul::Refused))
    }

    /// [`BitSource::take_bytes`], borrowed from the input.
    #[inline(always)]
    fn slice_bytes<'s, T: ?Sized>(
        &mut self,
        len: usize,
        start: usize,
        check: impl FnOnce(&'s [u8]) -> Result<&'s T, ErrorKind>,
    ) -> Result<&'s T, Error>
    where
        'a: 's,
    {
        let first = self.position / 8;
        let Some(bytes) = self.bytes.get(first..first + len) else {
            return self.fail(start, ErrorKind::UnexpectedEnd);
        };
        match check(bytes) {
            Ok(value) => {
                self.position += len * 8;
                Ok(value)
            }
            Err(kind) => self.fail(start, kind),
        }
    }
}

/// Up to 8 bytes from `byte` to the end of `bytes`, zero-extended. Every
/// short message ends here, so it shifts the slice's last 8 bytes down
/// rather than copying into a scratch array (a `memcpy` call).
#[inline(always)]
fn tail_word(bytes: &[u8], byte: usize) -> u64 {
    if let Some(last) = bytes.last_chunk::<8>() {
        let missing = (byte + 8).saturating_sub(bytes.len());
        return u64::from_le_bytes(*last).checked_shr(8 * missing as u32).unwrap_or(0);
    }
    let mut word = 0;
    for (index, &value) in bytes.get(byte..).unwrap_or(&[]).iter().enumerate() {
        word |= u64::from(value) << (8 * index);
    }
    word
}

/// Values of one width taken one after another from bits already checked
/// to remain (see [`BitSource::take_run`]): the input's 8-byte words in
/// turn through a pending word, no bound check or `Result` per value.
/// Held in the caller's loop, its state stays in registers.
#[derive(Clone, Debug)]
pub struct BitRun<'s> {
    words: core::slice::Iter<'s, [u8; 8]>,
    /// The bytes after the last whole word, zero-extended.
    tail: u64,
    /// Bits taken from the input and not yet handed out, low first; the
    /// bits above `pending` are zero.
    word: u64,
    pending: u32,
    /// Words taken from the input, the tail included, and the bit offset
    /// of the first: what [`BitRun::taken`] counts from.
    fetched: usize,
    offset: u32,
    bits: u32,
    mask: u64,
}

impl<'s> BitRun<'s> {
    /// The run of `bits`-bit values at bit `position` of `bytes`.
    fn new(bytes: &'s [u8], position: usize, bits: u32) -> Self {
        let (words, rest) = bytes.get(position >> 3..).unwrap_or(&[]).as_chunks::<8>();
        let tail = tail_word(rest, 0);
        let offset = (position & 7) as u32;
        let mut run = BitRun {
            words: words.iter(),
            tail,
            word: 0,
            pending: 0,
            fetched: 0,
            offset,
            bits,
            mask: low_mask(bits),
        };
        run.word = run.next_word() >> offset;
        run.pending = 64 - offset;
        run
    }

    /// The input's next 8 bytes (zeros past its end).
    #[inline(always)]
    fn next_word(&mut self) -> u64 {
        self.fetched += 1;
        match self.words.next() {
            Some(word) => u64::from_le_bytes(*word),
            None => core::mem::take(&mut self.tail),
        }
    }

    /// The next value of the run's width. Past the run (a caller's bug)
    /// it reads zeros, never out of the slice.
    #[inline(always)]
    pub fn next_value(&mut self) -> u64 {
        self.cut(self.bits, self.mask)
    }

    /// The next `bits` (0..=64) bits, in a run opened with
    /// [`BitSource::open_run`]: zeros past the input's end, which
    /// [`BitSource::close_run`] then refuses.
    #[inline(always)]
    pub fn take(&mut self, bits: u32) -> u64 {
        self.cut(bits, low_mask(bits))
    }

    /// Bits handed out so far.
    #[inline(always)]
    pub fn taken(&self) -> usize {
        self.fetched * 64 - self.offset as usize - self.pending as usize
    }

    #[inline(always)]
    fn cut(&mut self, bits: u32, mask: u64) -> u64 {
        if self.pending >= bits {
            let value = self.word & mask;
            self.word = self.word.checked_shr(bits).unwrap_or(0);
            self.pending -= bits;
            value
        } else {
            // `pending < bits <= 64`: the value straddles the next word.
            let next = self.next_word();
            let value = (self.word | (next << self.pending)) & mask;
            self.word = next.checked_shr(bits - self.pending).unwrap_or(0);
            self.pending += 64 - bits;
            value
        }
    }
}

impl<'a> BitSource for BitReader<'a> {
    type Checkpoint = ReadCheckpoint;

    #[inline(always)]
    fn checkpoint(&self) -> ReadCheckpoint {
        ReadCheckpoint { position: self.position, allocation_left: self.allocation_left }
    }

    #[inline(always)]
    fn rewind(&mut self, checkpoint: ReadCheckpoint) {
        self.position = checkpoint.position;
        self.allocation_left = checkpoint.allocation_left;
    }

    #[inline(always)]
    fn position(&self) -> usize {
        self.position
    }

    #[inline(always)]
    fn remaining(&self) -> usize {
        self.len_bits - self.position
    }

    #[inline(always)]
    fn seek_back(&mut self, position: usize) {
        self.position = position.min(self.position);
    }

    #[inline(always)]
    fn take(&mut self, bits: u32) -> Result<u64, Error> {
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

    #[inline(always)]
    fn take_bytes<'s, T: ?Sized>(
        &'s mut self,
        len: usize,
        start: usize,
        check: impl FnOnce(&'s [u8]) -> Result<&'s T, ErrorKind>,
    ) -> Result<&'s T, Error> {
        self.slice_bytes(len, start, check)
    }

    #[inline(always)]
    fn window<const N: usize>(&self) -> Option<(&[u8; N], u32)> {
        let byte = self.position >> 3;
        let window = self.bytes.get(byte..byte + N)?.first_chunk::<N>()?;
        Some((window, (self.position & 7) as u32))
    }

    #[inline(always)]
    fn take_window(&mut self, bits: usize, budget: usize) {
        // A caller's bug could only move the position past the end, where
        // every take refuses (or reads zeros in a run), never out of the slice.
        debug_assert!(bits <= self.remaining() && budget <= self.budget_left());
        self.position += bits;
        // `usize::MAX` (the default limit) only from the default limit
        // itself: the same budget.
        self.allocation_left = budget;
    }

    #[inline(always)]
    fn take_run(&mut self, count: usize, bits: u32) -> Result<BitRun<'_>, Error> {
        let total = (count as u64).saturating_mul(u64::from(bits));
        if bits > 64 || total > self.remaining() as u64 {
            return Err(Error::new(ErrorKind::UnexpectedEnd, self.position));
        }
        let position = self.position;
        self.position += total as usize;
        Ok(BitRun::new(self.bytes, position, bits))
    }

    #[inline(always)]
    fn open_run(&self) -> BitRun<'_> {
        BitRun::new(self.bytes, self.position, 0)
    }

    #[inline(always)]
    fn rest(&self) -> (&[u8], u32) {
        (self.bytes.get(self.position >> 3..).unwrap_or(&[]), (self.position & 7) as u32)
    }

    #[inline(always)]
    fn close_run(&mut self, bits: usize) -> Result<(), Error> {
        self.need(bits)?;
        self.position += bits;
        Ok(())
    }

    #[inline]
    fn budget_left(&self) -> usize {
        if self.allocation_left == DEFAULT_LIMIT {
            Self::default_limit(self.bytes.len())
        } else {
            self.allocation_left
        }
    }

    #[inline]
    fn claim_budget(&mut self, bytes: usize) -> Result<(), Error> {
        let left = self.budget_left();
        if bytes > left {
            return Err(Error::new(ErrorKind::AllocationLimit, self.position));
        }
        self.allocation_left = left - bytes;
        Ok(())
    }
}
