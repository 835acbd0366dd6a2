//! Bits gathered into 64-bit words before they reach a sink: a length and
//! the elements after it, or a string's length, padding and bytes, in one
//! or two pushes rather than one per value.

use crate::sink::BitSink;

/// Up to 8 values as bytes of a word, the first in the low byte, zero
/// above them: overlapping fixed-size loads, where a copy of a variable
/// length into a scratch array is a `memcpy` call.
#[inline(always)]
pub(crate) fn short_word<T: Copy>(values: &[T], byte: impl Fn(T) -> u8) -> u64 {
    let at = |index: usize| u64::from(byte(values[index]));
    let four = |from: usize| at(from) | at(from + 1) << 8 | at(from + 2) << 16 | at(from + 3) << 24;
    match values.len() {
        0 => 0,
        len @ 1..=3 => at(0) | at(len / 2) << (8 * (len / 2)) | at(len - 1) << (8 * (len - 1)),
        len @ 4..=8 => four(0) | four(len - 4) << (8 * (len - 4)),
        _ => more_than_eight(),
    }
}

/// The last `rest` (1 to `K - 1`) of `values` as a word of `width` bits a
/// value, the first in the low bits: when `values` holds `K` or more, the
/// word of its last `K` (`word`, fixed-size loads) shifted down past those
/// already sent, else `short` of the `rest` alone. One load and a shift
/// where a short tail's own word branches on its length.
#[inline(always)]
pub(crate) fn tail_word<T, const K: usize>(
    values: &[T],
    rest: usize,
    width: u32,
    word: impl FnOnce(&[T; K]) -> u64,
    short: impl FnOnce(&[T]) -> u64,
) -> u64 {
    debug_assert!(rest > 0 && rest < K && rest <= values.len());
    match values.last_chunk::<K>() {
        Some(last) => word(last) >> (width * (K - rest) as u32),
        None => short(&values[values.len() - rest..]),
    }
}

/// `short_word` is only called on at most 8 values.
#[cold]
fn more_than_eight() -> u64 {
    0
}

/// Bits waiting to be pushed 64 at a time: on their own
/// ([`Pending::new`], `SUSPENDED` false), or continuing the bits waiting in
/// the sink ([`Pending::after`], `SUSPENDED` true), whole words then
/// stored as they are.
pub(crate) struct Pending<const SUSPENDED: bool = false> {
    pub(crate) word: u64,
    /// Fewer than 64.
    pub(crate) bits: u32,
}

impl Pending<false> {
    /// The low `bits` (under 64) bits of `value` waiting (zero above them).
    #[inline(always)]
    pub(crate) fn new(value: u64, bits: u32) -> Self {
        debug_assert!(bits < 64 && value >> bits == 0);
        Pending { word: value, bits }
    }
}

impl Pending<true> {
    /// The bits waiting in `sink` (`BitSink::suspend`), then the low `bits`
    /// (0..=64) bits of `value` (zero above them): until
    /// [`Pending::finish`] nothing else may push to `sink`.
    #[inline(always)]
    pub(crate) fn after<S: BitSink + ?Sized>(sink: &mut S, value: u64, bits: u32) -> Self {
        let mut pending = Self::suspended(sink);
        pending.put(sink, value, bits);
        pending
    }

    /// [`Pending::after`] with [`Pending::put_lanes_word`]'s carry.
    #[inline(always)]
    pub(crate) fn after_lanes<S: BitSink + ?Sized>(sink: &mut S, value: u64, bits: u32) -> Self {
        let mut pending = Self::suspended(sink);
        pending.put_lanes_word(sink, value, bits);
        pending
    }

    /// The bits waiting in `sink`, handed out.
    #[inline(always)]
    fn suspended<S: BitSink + ?Sized>(sink: &mut S) -> Self {
        let (word, waiting) = sink.suspend();
        Pending { word, bits: waiting }
    }
}

impl<const SUSPENDED: bool> Pending<SUSPENDED> {
    /// The low `bits` (0..=64) bits of `value` (zero above them) after
    /// those waiting; a full word is pushed.
    #[inline(always)]
    pub(crate) fn put<S: BitSink + ?Sized>(&mut self, sink: &mut S, value: u64, bits: u32) {
        self.put_carried(sink, value, bits, |value, waiting| value.checked_shr(64 - waiting).unwrap_or(0));
    }

    /// [`Pending::put`] with the carry in two shifts, where `checked_shr`
    /// tests for 64 and selects: sequences' lanes (records encode 32,616 ->
    /// 31,739 instructions); strings' bytes keep `put` (the web log rows
    /// of `columns` took 1,483,851 -> 1,506,100 a round with it).
    #[inline(always)]
    pub(crate) fn put_lanes_word<S: BitSink + ?Sized>(&mut self, sink: &mut S, value: u64, bits: u32) {
        self.put_carried(sink, value, bits, |value, waiting| (value >> 1) >> (63 - waiting));
    }

    /// [`Pending::put`], `carry(value, waiting)` the bits of `value` past a
    /// full word: `value >> (64 - waiting)`, 0 when none wait.
    #[inline(always)]
    fn put_carried<S: BitSink + ?Sized>(
        &mut self,
        sink: &mut S,
        value: u64,
        bits: u32,
        carry: impl FnOnce(u64, u32) -> u64,
    ) {
        debug_assert!(bits == 64 || value >> bits == 0);
        let total = self.bits + bits;
        if total < 64 {
            self.word |= value << self.bits;
            self.bits = total;
        } else {
            let word = self.word | value << self.bits;
            if SUSPENDED {
                sink.push_word(word)
            } else {
                sink.push(word, 64)
            }
            // What did not fit (nothing when none were waiting).
            self.word = carry(value, self.bits);
            self.bits = total - 64;
        }
    }

    /// Bytes, eight to a word.
    #[inline(always)]
    pub(crate) fn put_bytes<S: BitSink + ?Sized>(&mut self, sink: &mut S, bytes: &[u8]) {
        let (words, rest) = bytes.as_chunks::<8>();
        match words {
            // One or two whole words (a short string): no loop to set up.
            [first] => self.put(sink, u64::from_le_bytes(*first), 64),
            [first, second] => {
                self.put(sink, u64::from_le_bytes(*first), 64);
                self.put(sink, u64::from_le_bytes(*second), 64);
            }
            _ => {
                for word in words {
                    self.put(sink, u64::from_le_bytes(*word), 64);
                }
            }
        }
        if !rest.is_empty() {
            let word = tail_word(
                bytes,
                rest.len(),
                8,
                |last| u64::from_le_bytes(*last),
                |rest| short_word(rest, |byte| byte),
            );
            self.put(sink, word, 8 * rest.len() as u32);
        }
    }

    /// Pushes what is left (gives it back to the sink when suspended).
    #[inline(always)]
    pub(crate) fn finish<S: BitSink + ?Sized>(self, sink: &mut S) {
        if SUSPENDED {
            sink.resume(self.word, self.bits);
        } else if self.bits > 0 {
            sink.push(self.word, self.bits);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BitWrite, BitWriter};

    #[test]
    fn short_words_hold_their_bytes_in_order() {
        let bytes: [u8; 8] = [1, 2, 3, 4, 5, 6, 7, 8];
        for len in 0..=8 {
            let expected = bytes[..len].iter().rev().fold(0u64, |word, &byte| word << 8 | u64::from(byte));
            assert_eq!(short_word(&bytes[..len], |byte| byte), expected, "{len}");
        }
    }

    #[test]
    fn pending_bits_are_the_bits_pushed_one_by_one() {
        let values: [(u64, u32); 7] =
            [(5, 3), (0x1234_5678_9ABC, 48), (1, 1), (u64::MAX, 64), (0, 13), (7, 3), (9, 60)];
        let (mut pending_buf, mut one_buf) = ([0u8; 64], [0u8; 64]);
        let mut pending_writer = BitWriter::new(&mut pending_buf);
        let mut one_writer = BitWriter::new(&mut one_buf);
        pending_writer.write_bits(1, 1).unwrap();
        let mut pending = Pending::after(&mut pending_writer, 3, 2);
        one_writer.write_bits(1, 1).unwrap();
        one_writer.write_bits(3, 2).unwrap();
        for (value, bits) in values {
            pending.put(&mut pending_writer, value, bits);
            one_writer.write_bits64(value, bits).unwrap();
        }
        pending.put_bytes(&mut pending_writer, b"abcdefghijk");
        for &byte in b"abcdefghijk" {
            one_writer.write_u8(byte).unwrap();
        }
        pending.finish(&mut pending_writer);
        assert_eq!(pending_writer.bits_written(), one_writer.bits_written());
        let (a, b) = (pending_writer.finish().unwrap(), one_writer.finish().unwrap());
        assert_eq!(pending_buf[..a], one_buf[..b]);
    }

    /// Bytes of every length (tails of 1 to 7 through the overlapping load,
    /// or alone when fewer than 8) after every offset in the word land as
    /// the same bytes written one by one.
    #[test]
    fn bytes_of_every_length_are_the_bytes_written_one_by_one() {
        let text: [u8; 40] = core::array::from_fn(|index| index as u8 + 1);
        for len in 0..=text.len() {
            for lead in 0..64 {
                let lead_value = 0x5555_5555_5555_5555 & crate::bits::low_mask(lead);
                let (mut pending_buf, mut one_buf) = ([0u8; 64], [0u8; 64]);
                let mut pending_writer = BitWriter::new(&mut pending_buf);
                let mut one_writer = BitWriter::new(&mut one_buf);
                let mut pending = Pending::after(&mut pending_writer, lead_value, lead);
                if lead > 0 {
                    one_writer.write_bits64(lead_value, lead).unwrap();
                }
                pending.put_bytes(&mut pending_writer, &text[..len]);
                for &byte in &text[..len] {
                    one_writer.write_u8(byte).unwrap();
                }
                pending.finish(&mut pending_writer);
                assert_eq!(pending_writer.bits_written(), one_writer.bits_written(), "{len} after {lead}");
                let (a, b) = (pending_writer.finish().unwrap(), one_writer.finish().unwrap());
                assert_eq!(pending_buf[..a], one_buf[..b], "{len} after {lead}");
            }
        }
    }
}
