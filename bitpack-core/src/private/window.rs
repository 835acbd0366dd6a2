//! A derived block's elements read through a window (issue 15): the next
//! `WINDOW_BYTES` (256) bytes of the input (zero-padded near its end) as a
//! fixed array, read at a bit position held in a local. Each of the
//! block's loads is then an index masked into the array, with no bound
//! check, no `Result` and no position stored into the reader; the block
//! takes all its bits from the reader once, at its end
//! ([`close_window`]), which refuses what the input does not hold.
//!
//! A block that read past the input's end or past the window is read
//! again element by element from where it began (`read_blocks`), so every
//! error and position is the element's own `read_from`'s.

use crate::read::BitRead;

/// Bytes a window covers: a block's bits must end within them.
pub const WINDOW_BYTES: usize = 256;

/// Whether a block of elements of at most `max_bits` each (`MAX_BITS`)
/// always ends within a window (from any bit of its first byte).
#[inline]
pub const fn fits_window(max_bits: usize) -> bool {
    max_bits <= (WINDOW_BYTES * 8 - 7) / super::BLOCK
}

/// The window's array: the covered bytes plus the 8 a load at its last
/// byte reads.
const SPAN: usize = WINDOW_BYTES + 8;

/// The next `WINDOW_BYTES` (256) bytes of a reader's input, at a bit position.
#[derive(Debug)]
pub struct Window<'s> {
    bytes: &'s [u8; SPAN],
    /// The next bit to take, from the first byte's bit 0 (the reader's
    /// position is bit `first` of it).
    bit: usize,
    first: usize,
}

impl Window<'_> {
    /// The next `bits` (at most 64) bits; past the window they are garbage
    /// and [`close_window`] refuses the block.
    #[inline(always)]
    pub fn take(&mut self, bits: u32) -> u64 {
        // One load holds 57 bits past the position's offset in its byte.
        if bits > 56 {
            let low = self.load(32);
            return low | (self.load(bits - 32) << 32);
        }
        self.load(bits)
    }

    /// [`Window::take`] when `taken`, else the same bits left in the window
    /// (an `Option`'s value after its presence bit): loaded either way, so
    /// no branch on the bit.
    #[inline(always)]
    pub fn take_if(&mut self, taken: bool, bits: u32) -> u64 {
        let at = self.bit;
        let value = self.take(bits);
        self.bit = at + if taken { bits as usize } else { 0 };
        value
    }

    /// [`Window::take`] of at most 56 bits.
    #[inline(always)]
    fn load(&mut self, bits: u32) -> u64 {
        let at = self.bit;
        self.bit += bits as usize;
        // Masked, so never out of the array: no bound check, no panic.
        let byte = (at >> 3) & (WINDOW_BYTES - 1);
        let word = match self.bytes.get(byte..byte + 8).and_then(|chunk| chunk.first_chunk::<8>()) {
            Some(chunk) => u64::from_le_bytes(*chunk),
            None => 0,
        };
        (word >> (at & 7)) & crate::bits::low_mask(bits)
    }

    /// The bits taken since the window was opened, for [`close_window`];
    /// `None` if some lay past the window (their bits were garbage).
    #[inline(always)]
    pub fn end(self) -> Option<usize> {
        (self.bit <= WINDOW_BYTES * 8).then_some(self.bit - self.first)
    }
}

/// A window at `reader`'s position: over its input, or near the end over
/// `pad` (the rest of the input, zero-padded; `None` until then, so a block
/// away from the end clears nothing).
#[inline(always)]
pub fn read_window<'s, R: BitRead>(reader: &'s R, pad: &'s mut Option<[u8; SPAN]>) -> Window<'s> {
    let (rest, first) = reader.rest();
    let bytes = match rest.first_chunk::<SPAN>() {
        Some(bytes) => bytes,
        None => pad.insert(padded(rest)),
    };
    Window { bytes, bit: first as usize, first: first as usize }
}

/// The last bytes of an input, zero-padded to a window's span.
#[cold]
fn padded(rest: &[u8]) -> [u8; SPAN] {
    let mut bytes = [0; SPAN];
    for (to, from) in bytes.iter_mut().zip(rest) {
        *to = *from;
    }
    bytes
}

/// Takes from `reader` the bits a block read through its window
/// (`Window::end`): `true`, or `false` with nothing taken when they ran
/// past the window or the input (the block is then read element by
/// element, which finds the error).
#[inline(always)]
pub fn close_window<R: BitRead>(reader: &mut R, taken: Option<usize>) -> bool {
    taken.is_some_and(|bits| reader.close_run(bits).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::low_mask;
    use crate::reader::BitReader;
    use crate::source::BitSource;

    /// Widths of 0 to 64 bits from a seed, as a block's takes.
    fn widths(seed: u32) -> impl Iterator<Item = u32> {
        (0..40 + 40 * (seed / 2)).map(move |index| (index * 37 + seed * 11) % 65)
    }

    /// At every starting bit of inputs of 0 to 300 bytes (the window over
    /// the input, or padded near its end): each take is the reader's, zeros
    /// past the input; the block is closed iff its bits were all inside the
    /// window and the input, and then the reader has moved by them.
    #[test]
    fn takes_are_the_readers_and_close_only_inside_the_input_and_window() {
        let bytes: alloc::vec::Vec<u8> = (0..300u32).map(|i| (i * 151 + 7) as u8).collect();
        for len in [0, 1, 7, 8, 9, 63, 64, 200, 263, 264, 265, 290, 300] {
            let input = &bytes[..len];
            for start in [0usize, 1, 7, 8, 13, 100] {
                for seed in 0..3 {
                    let mut reader = BitReader::new(input);
                    if reader.take(start.min(len * 8) as u32 % 57).is_err() {
                        continue;
                    }
                    let before = reader.bits_read();
                    let mut pad = None;
                    let mut window = read_window(&reader, &mut pad);
                    let mut expected = BitReader::new(input);
                    expected.take(before as u32).unwrap();
                    let mut taken = 0usize;
                    for width in widths(seed) {
                        let value = window.take(width);
                        taken += width as usize;
                        let inside = (before & 7) + taken <= WINDOW_BYTES * 8;
                        if before + taken <= len * 8 && inside {
                            assert_eq!(value, expected.take(width).unwrap(), "{len} bytes from {before}");
                        } else if before + taken - width as usize >= len * 8 && inside {
                            // Wholly past the input, inside the window: zeros.
                            assert_eq!(value, 0);
                        }
                        assert_eq!(value & !low_mask(width), 0);
                    }
                    let end = window.end();
                    assert_eq!(end.is_some(), (before & 7) + taken <= WINDOW_BYTES * 8);
                    let closed = close_window(&mut reader, end);
                    assert_eq!(closed, end.is_some() && before + taken <= len * 8);
                    assert_eq!(reader.bits_read(), if closed { before + taken } else { before });
                }
            }
        }
    }

    #[test]
    fn blocks_of_up_to_255_bits_an_element_fit_a_window() {
        assert!(fits_window(255) && !fits_window(256) && fits_window(0));
        // The last bit of eight such elements from the worst offset.
        const { assert!(7 + 255 * crate::private::BLOCK <= WINDOW_BYTES * 8) };
    }
}
