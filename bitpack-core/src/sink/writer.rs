//! The writer: bits into a caller's buffer through a 64-bit scratch word.

use super::BitSink;
use crate::error::{Error, ErrorKind};
use crate::unchecked::Words;

/// Writes bits into a byte buffer of any length, LSB first, flushing
/// 32-bit little-endian words as the reference does. Never allocates.
///
/// A refused write of a value (derived or the core's) leaves the position
/// and every byte before it as they were (the bytes `finish` returns: up
/// to 31 bits before the position wait in the writer, not yet in the
/// buffer); bytes past the position are unspecified, since the writer
/// stores whole words ahead of it and a refused write does not put them
/// back.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitWrite, BitWriter};
/// let mut buf = [0u8; 8];
/// let mut writer = BitWriter::new(&mut buf);
/// writer.write_bits(5, 3)?;
/// writer.write_u8(0xA5)?;
/// let used = writer.finish()?;
/// assert_eq!(&buf[..used], &[0x2D, 0x05]);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[derive(Debug)]
pub struct BitWriter<'a> {
    buf: Words<'a>,
    /// Pending bits (low bit first; fewer than 32 between pushes, up to 63
    /// while held in a local: `push_wide`) and the byte offset where they
    /// go (any byte: a short string leaves it at the string's end).
    state: WriterCheckpoint,
    capacity_bits: usize,
}

impl<'a> BitWriter<'a> {
    /// A writer over `buf`; whatever `buf` held is overwritten as bits are
    /// written.
    #[inline]
    pub fn new(buf: &'a mut [u8]) -> Self {
        let capacity_bits = buf.len().saturating_mul(8);
        BitWriter { buf: Words::new(buf), state: WriterCheckpoint::at_start(0, 0), capacity_bits }
    }

    /// Flushes the partly filled last byte (its unused high bits zero) and
    /// returns the bytes used: `ceil(bits_written / 8)`.
    #[inline]
    pub fn finish(mut self) -> Result<usize, Error> {
        let tail = self.state.scratch_bits.div_ceil(8) as usize;
        let end = self.state.word_index + tail;
        let Some(dest) = self.buf.buf().get_mut(self.state.word_index..end) else {
            // Only after writes inside a reservation overran it: a
            // hand-written `BitPack` whose `MAX_BITS` understates what it
            // writes. The words past the buffer were dropped.
            return Err(Error::new(ErrorKind::BufferFull, self.capacity_bits));
        };
        // Fewer than 32 bits wait in the scratch word, so at most 4 bytes:
        // one fixed-size copy per length, where a copy of a variable length
        // is a `memcpy` call (measured: 2 ns of a 13 ns input message).
        let bytes = (self.state.scratch as u32).to_le_bytes();
        match dest {
            [a] => *a = bytes[0],
            [a, b] => [*a, *b] = [bytes[0], bytes[1]],
            [a, b, c] => [*a, *b, *c] = [bytes[0], bytes[1], bytes[2]],
            [a, b, c, d] => [*a, *b, *c, *d] = bytes,
            _ => {}
        }
        Ok(end)
    }

    /// This writer by value, its buffer taken (an empty one left in its
    /// place): for `sink::local`, which moves it back.
    #[inline(always)]
    pub(crate) fn take_buffer(&mut self) -> Self {
        BitWriter {
            buf: core::mem::take(&mut self.buf),
            state: self.state,
            capacity_bits: self.capacity_bits,
        }
    }

    /// [`WriterCheckpoint::push_wide`] into this writer's buffer.
    #[inline(always)]
    pub(crate) fn push_wide(&mut self, value: u64, bits: u32) {
        self.state.push_wide(&mut self.buf, value, bits);
    }

    /// [`WriterCheckpoint::resume_wide`].
    #[inline(always)]
    pub(crate) fn resume_wide(&mut self, word: u64, bits: u32) {
        self.state.resume_wide(word, bits);
    }

    /// [`WriterCheckpoint::settle`] into this writer's buffer.
    #[inline(always)]
    pub(crate) fn settle(&mut self) {
        self.state.settle(&mut self.buf);
    }

    /// Its buffer's words reborrowed and its state, borrowed apart (for
    /// `sink::held`).
    #[inline(always)]
    pub(crate) fn words_and_state(&mut self) -> (Words<'_>, &mut WriterCheckpoint) {
        (self.buf.reborrow(), &mut self.state)
    }

    /// A writer over `buf` (another's words) from `state`, with its
    /// capacity (for `sink::detached`).
    #[inline(always)]
    pub(crate) fn over(buf: Words<'a>, state: WriterCheckpoint, capacity_bits: usize) -> Self {
        BitWriter { buf, state, capacity_bits }
    }

    /// Its capacity in bits.
    #[inline(always)]
    pub(crate) fn capacity_bits(&self) -> usize {
        self.capacity_bits
    }

    /// Its buffer and its state, borrowed apart (for `sink::window`).
    #[inline(always)]
    pub(crate) fn parts(&mut self) -> (&mut [u8], &mut WriterCheckpoint) {
        (self.buf.buf(), &mut self.state)
    }
}

/// Bytes from a writer's next word that [`WriterCheckpoint::store_text`]
/// needs: 16 of waiting bits and header, then 8-byte copies from byte 15 at
/// most to byte 78.
const TEXT_ROOM: usize = 80;

/// Where a writer's words go: its whole buffer ([`Words`], stores past its
/// end dropped) or a block's window (`sink::window`, offsets masked into it).
pub(crate) trait Store {
    /// Stores `word` little-endian at byte `at`.
    fn u64_at(&mut self, at: usize, word: u64);
    /// Stores `word` little-endian at byte `at`.
    fn u32_at(&mut self, at: usize, word: u32);
}

impl Store for Words<'_> {
    #[inline(always)]
    fn u64_at(&mut self, at: usize, word: u64) {
        self.store_u64(at, word);
    }

    #[inline(always)]
    fn u32_at(&mut self, at: usize, word: u32) {
        self.store_u32(at, word);
    }
}

/// A [`BitWriter`]'s state: its pending bits and where they go. The words
/// flushed before it stay in the buffer; those flushed after it are
/// rewritten as writing goes on, and never counted by `finish` before.
#[derive(Clone, Copy, Debug)]
pub struct WriterCheckpoint {
    scratch: u64,
    scratch_bits: u32,
    word_index: usize,
}

impl WriterCheckpoint {
    /// Nothing pending, the next word at byte 0 (a window's start).
    #[inline(always)]
    pub(crate) fn at_start(scratch: u64, scratch_bits: u32) -> Self {
        WriterCheckpoint { scratch, scratch_bits, word_index: 0 }
    }

    #[inline(always)]
    pub(crate) fn word_index(&self) -> usize {
        self.word_index
    }

    #[inline(always)]
    pub(crate) fn scratch(&self) -> (u64, u32) {
        (self.scratch, self.scratch_bits)
    }

    /// The state moved `bytes` further (a window's start added back).
    #[inline(always)]
    pub(crate) fn offset(self, bytes: usize) -> Self {
        WriterCheckpoint { word_index: self.word_index.wrapping_add(bytes), ..self }
    }

    /// `BitSink::push` with this state, its words into `store`.
    #[inline(always)]
    pub(crate) fn push(&mut self, store: &mut impl Store, value: u64, bits: u32) {
        if bits == 64 {
            // A whole word (a fused run's): fewer than 32 bits wait, so it
            // always stores one word and leaves as many waiting, with no
            // branch on how many.
            let waiting = self.scratch_bits % 32;
            let low = self.scratch | (value << waiting);
            store.u64_at(self.word_index, low);
            self.word_index += 8;
            // `value >> (64 - waiting)`, 0 when nothing waits: one funnel
            // shift (`shld`).
            self.scratch = ((u128::from(value) << waiting) >> 64) as u64;
        } else if bits <= 32 {
            self.push32(store, value, bits);
        } else {
            // A u128 scratch for one push: up to 96 bits, two words stored at once.
            let wide = u128::from(self.scratch) | (u128::from(value) << self.scratch_bits);
            let total = self.scratch_bits + bits;
            if total >= 64 {
                store.u64_at(self.word_index, wide as u64);
                self.word_index += 8;
                self.scratch = (wide >> 64) as u64;
                self.scratch_bits = total - 64;
            } else {
                self.scratch = wide as u64;
                self.scratch_bits = total;
                self.flush_word(store);
            }
        }
    }

    /// `BitSink::push` for a writer held in a local (`sink::local`): up to
    /// 63 bits wait, and 8 bytes are stored once 64 do, where `push` stores
    /// 4 every 32 (half the stores and checks for a run of short fields).
    /// [`WriterCheckpoint::settle`] puts it back to fewer than 32.
    #[inline(always)]
    pub(crate) fn push_wide(&mut self, store: &mut impl Store, value: u64, bits: u32) {
        debug_assert!(self.scratch_bits < 64 && bits <= 64 && (bits == 64 || value >> bits == 0));
        let waiting = self.scratch_bits % 64;
        let low = self.scratch | (value << waiting);
        let total = waiting + bits;
        if bits == 64 || total >= 64 {
            store.u64_at(self.word_index, low);
            self.word_index += 8;
            // `value >> (64 - waiting)`: under 64 bits pushed, `waiting` is
            // at least 1 here, and two plain shifts do; 64 may come after
            // none waiting (0), one funnel shift.
            self.scratch = if bits == 64 {
                ((u128::from(value) << waiting) >> 64) as u64
            } else {
                (value >> 1) >> (63 - waiting)
            };
            self.scratch_bits = total - 64;
        } else {
            self.scratch = low;
            self.scratch_bits = total;
        }
    }

    /// `bits` (under 64) waiting again in a local's wide form (nothing
    /// waiting before): no store.
    #[inline(always)]
    pub(crate) fn resume_wide(&mut self, word: u64, bits: u32) {
        self.scratch = word;
        self.scratch_bits = bits;
    }

    /// Back from [`WriterCheckpoint::push_wide`]'s form to the writer's
    /// own: 32 of the waiting bits stored when there are that many.
    #[inline(always)]
    pub(crate) fn settle(&mut self, store: &mut impl Store) {
        if self.scratch_bits >= 32 {
            self.flush_word(store);
        }
    }

    /// A whole word, nothing waiting (`BitSink::suspend`).
    #[inline(always)]
    pub(crate) fn store_word(&mut self, store: &mut impl Store, word: u64) {
        store.u64_at(self.word_index, word);
        self.word_index += 8;
    }

    /// `bits` (under 64) waiting again, nothing waiting before
    /// (`BitSink::resume`); 32 of them stored when there are that many.
    #[inline(always)]
    pub(crate) fn resume(&mut self, store: &mut impl Store, word: u64, bits: u32) {
        self.resume_wide(word, bits);
        self.settle(store);
    }

    /// Appends up to 32 bits.
    #[inline(always)]
    pub(crate) fn push32(&mut self, store: &mut impl Store, value: u64, bits: u32) {
        debug_assert!(bits <= 32 && value >> bits == 0);
        self.scratch |= value << self.scratch_bits;
        self.scratch_bits += bits;
        if self.scratch_bits >= 32 {
            self.flush_word(store);
        }
    }

    /// Pushes `bytes` through the scratch word, four at a time, then the
    /// rest one by one.
    #[inline(always)]
    pub(crate) fn push_bytes(&mut self, store: &mut impl Store, bytes: &[u8]) {
        let (words, rest) = bytes.as_chunks::<4>();
        for word in words {
            self.push32(store, u64::from(u32::from_le_bytes(*word)), 32);
        }
        for &byte in rest {
            self.push32(store, u64::from(byte), 8);
        }
    }

    /// [`BitSink::store_text`] with this state, into `buf` from its next
    /// word: the waiting bits and the header as two 8-byte stores, the
    /// bytes (now byte-aligned) as 8-byte copies, the last overlapping
    /// (a string under 8 bytes as one word), and nothing waiting after
    /// them, the next word at the byte after the string. Where the
    /// pushes branched on whether each word filled the scratch, this
    /// branches only on whether the string has 8 bytes, on a shorter one's
    /// length (`short_word`) and, past 24 bytes, in the copies' loop.
    /// A longer string, or one near the end of `buf` (fewer than
    /// [`TEXT_ROOM`] bytes from the next word), out of line to the same
    /// state: nothing waits after a string either way, so the compiler
    /// knows it after every one. Always `true`.
    #[inline(always)]
    pub(crate) fn store_text(&mut self, buf: &mut [u8], header: u64, header_bits: u32, bytes: &[u8]) -> bool {
        let len = bytes.len();
        debug_assert!(header_bits < 64);
        let room = buf.get_mut(self.word_index..).and_then(<[u8]>::first_chunk_mut::<TEXT_ROOM>);
        let Some(room) = room.filter(|_| len < 64) else {
            // Nothing waits after it: set here, where the compiler sees it.
            let word_index = text_out_of_line(*self, buf, header, header_bits, bytes);
            *self = WriterCheckpoint { scratch: 0, scratch_bits: 0, word_index };
            return true;
        };
        // Every store ends by byte 15 + 63 (the compiler sees it: no
        // bounds check).
        let put = |room: &mut [u8; TEXT_ROOM], at: usize, word: u64| {
            room[at..at + 8].copy_from_slice(&word.to_le_bytes());
        };
        // Up to 63 waiting bits and 63 of header, a whole number of bytes:
        // `low`, then what passed it (`header >> (64 - waiting)`) only when
        // some did (the string's bytes start in the first word otherwise;
        // with nothing waiting, after another string, this folds away).
        let waiting = self.scratch_bits;
        put(room, 0, self.scratch | header << waiting);
        if waiting + header_bits > 64 {
            put(room, 8, (header >> 1) >> (63 - waiting));
        }
        // Under 16: both are under 64.
        let start = ((waiting + header_bits) as usize / 8) & 15;
        if len >= 8 {
            let word_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or([0; 8]));
            let last_at = len - 8;
            // The first 24 bytes in two copies and the last (those that
            // overlap store the same bytes again), a loop past them: no
            // branch on the length for strings up to 24 bytes.
            put(room, start, word_at(0));
            let second = last_at.min(8);
            put(room, start + second, word_at(second));
            let mut at = 16;
            while at < last_at {
                put(room, start + at, word_at(at));
                at += 8;
            }
            put(room, start + last_at, word_at(last_at));
        } else if len >= 4 {
            // Its first 4 bytes and its last 4 (overlapping), stored as
            // they are: nothing after the string is needed in registers.
            let four = |at: usize| <[u8; 4]>::try_from(&bytes[at..at + 4]).unwrap_or([0; 4]);
            room[start..start + 4].copy_from_slice(&four(0));
            room[start + len - 4..start + len].copy_from_slice(&four(len - 4));
        } else if len > 0 {
            // The first, middle and last byte (some the same).
            room[start] = bytes[0];
            room[start + len / 2] = bytes[len / 2];
            room[start + len - 1] = bytes[len - 1];
        }
        // Nothing waits after the string: the next word starts at its end,
        // on any byte (every store and `finish` take any byte offset), so
        // its last bytes need not be taken back from those words.
        self.scratch = 0;
        self.scratch_bits = 0;
        self.word_index += start + len;
        true
    }

    /// Stores the low 32 scratch bits as the next word.
    #[inline(always)]
    fn flush_word(&mut self, store: &mut impl Store) {
        // The reservation guarantees these 4 bytes lie inside the buffer: 32
        // reserved bits start at byte `word_index`. (Past
        // it, after an overrun, nothing is stored and `finish` refuses.)
        store.u32_at(self.word_index, self.scratch as u32);
        self.word_index += 4;
        self.scratch >>= 32;
        self.scratch_bits -= 32;
    }
}

impl BitSink for BitWriter<'_> {
    type Checkpoint = WriterCheckpoint;

    #[inline(always)]
    fn checkpoint(&self) -> WriterCheckpoint {
        self.state
    }

    #[inline(always)]
    fn rewind(&mut self, checkpoint: WriterCheckpoint) {
        self.state = checkpoint;
    }

    #[inline(always)]
    fn position(&self) -> usize {
        self.state.word_index * 8 + self.state.scratch_bits as usize
    }

    #[inline(always)]
    fn reserve(&self, bits: usize) -> Result<(), Error> {
        let position = self.position();
        // Wrapping, not saturating (16% slower on a 5-bit write): only a
        // reservation overrun (see `finish`) puts the position past the
        // capacity; then this passes, nothing lands past the buffer, and
        // `finish` refuses.
        if bits > self.capacity_bits.wrapping_sub(position) {
            return Err(Error::new(ErrorKind::BufferFull, position));
        }
        Ok(())
    }

    #[inline(always)]
    fn push(&mut self, value: u64, bits: u32) {
        self.state.push(&mut self.buf, value, bits);
    }

    #[inline(always)]
    fn suspend(&mut self) -> (u64, u32) {
        // Fewer than 64 bits wait (32 but in a local), bound for the word
        // at `word_index`: whole words gathered after them go there in turn.
        let waiting = self.state.scratch();
        (self.state.scratch, self.state.scratch_bits) = (0, 0);
        waiting
    }

    #[inline(always)]
    fn push_word(&mut self, word: u64) {
        self.state.store_word(&mut self.buf, word);
    }

    #[inline(always)]
    fn resume(&mut self, word: u64, bits: u32) {
        self.state.resume(&mut self.buf, word, bits);
    }

    #[inline(always)]
    fn store_text(&mut self, header: u64, header_bits: u32, bytes: &[u8]) -> bool {
        self.state.store_text(self.buf.buf(), header, header_bits, bytes)
    }

    #[inline(always)]
    fn push_aligned_bytes(&mut self, bytes: &[u8]) {
        // Short runs (names, tags) go through the scratch word four bytes at
        // a time: a variable-length `memcpy` call costs more than they do.
        if bytes.len() < 64 {
            self.state.push_bytes(&mut self.buf, bytes);
            return;
        }
        // Out of line, the state by value: a call that took the writer
        // would take its address, and a writer held in a local could no
        // longer keep its state in registers (`sink::local`).
        self.state = long_aligned_bytes(self.state, self.buf.buf(), bytes);
    }
}

/// [`WriterCheckpoint::store_text`] of a string of 64 bytes or more, or
/// where `buf` has fewer than [`TEXT_ROOM`] bytes from the next word: the
/// header pushed, the whole bytes then waiting (fewer than 8: the header
/// ends on a byte) stored one by one, and the string copied after them, so
/// that nothing waits after it, as after the straight stores: the next
/// word's byte. By value: no call takes a held writer's address.
#[cold]
#[inline(never)]
fn text_out_of_line(
    mut state: WriterCheckpoint,
    buf: &mut [u8],
    header: u64,
    header_bits: u32,
    bytes: &[u8],
) -> usize {
    let mut words = Words::new(buf);
    state.push_wide(&mut words, header, header_bits);
    debug_assert!(state.scratch_bits.is_multiple_of(8));
    let waiting = (state.scratch_bits / 8) as usize;
    let at = state.word_index;
    let end = at + waiting + bytes.len();
    // The reservation holds them; past it (a `MAX_BITS` that understates)
    // they are dropped, as every store past the buffer is.
    if let Some(dest) = words.buf().get_mut(at..end) {
        let (header_bytes, text) = dest.split_at_mut(waiting);
        header_bytes.copy_from_slice(&state.scratch.to_le_bytes()[..waiting]);
        text.copy_from_slice(bytes);
    }
    end
}

/// [`BitSink::push_aligned_bytes`] of 64 bytes or more with `state` into
/// `buf`: the new state.
#[inline(never)]
pub(crate) fn long_aligned_bytes(
    mut state: WriterCheckpoint,
    buf: &mut [u8],
    bytes: &[u8],
) -> WriterCheckpoint {
    let mut words = Words::new(buf);
    let mut rest = bytes;
    // Fill the current word a byte at a time...
    while state.scratch_bits != 0 {
        let Some((&first, tail)) = rest.split_first() else { return state };
        state.push32(&mut words, u64::from(first), 8);
        rest = tail;
    }
    // ...copy whole words straight into the buffer...
    let whole = rest.len() & !3;
    if let Some(dest) = words.buf().get_mut(state.word_index..state.word_index + whole) {
        dest.copy_from_slice(&rest[..whole]);
    }
    state.word_index += whole;
    // ...and start the next word with what is left.
    for &byte in &rest[whole..] {
        state.push32(&mut words, u64::from(byte), 8);
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A push of 33 to 64 bits (through the u128 scratch) lands as the same
    /// bits pushed as two halves of at most 32, from every offset in the word,
    /// up to the buffer's last byte.
    #[test]
    fn wide_pushes_match_two_narrow_ones() {
        let value = 0xDEAD_BEEF_F00D_CAFE_u64;
        for offset in 0..32 {
            for bits in 33..=64 {
                let value = value & crate::bits::low_mask(bits);
                let len = (offset + bits as usize).div_ceil(8);
                let (mut wide, mut narrow) = ([0u8; 12], [0u8; 12]);
                let (wide, narrow) = (&mut wide[..len], &mut narrow[..len]);
                let mut writer = BitWriter::new(wide);
                writer.push(0x5555_5555 & crate::bits::low_mask(offset as u32), offset as u32);
                writer.push(value, bits);
                assert_eq!(writer.position(), offset + bits as usize);
                let wide_len = writer.finish().unwrap();
                let mut writer = BitWriter::new(narrow);
                writer.push(0x5555_5555 & crate::bits::low_mask(offset as u32), offset as u32);
                writer.push(value & 0xFFFF_FFFF, 32);
                writer.push(value >> 32, bits - 32);
                let narrow_len = writer.finish().unwrap();
                assert_eq!((narrow_len, &narrow[..]), (wide_len, &wide[..]), "{offset} + {bits}");
            }
        }
    }
}
