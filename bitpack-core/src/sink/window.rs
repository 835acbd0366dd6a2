//! A writer held in locals for a derived block's elements, its stores into
//! a fixed-size window of its buffer: each store's offset is masked into
//! the window, so it needs no bounds check (the compiler sees every offset
//! below the array's length) and no `unsafe`. The window is taken only
//! where the buffer holds all of it, for a block whose maximum fits in it;
//! should the block write more (a `MAX_BITS` that understates), the masked
//! stores wrap inside the window, [`BitSink::overran`] says so, and the
//! block is written again element by element from its start.

use super::reserved::Reserved;
use super::writer::{BitWriter, Store, WriterCheckpoint};
use super::{BitSink, Reserve};
use crate::error::Error;

/// Bytes a window's stores land in (a power of two: offsets are masked).
pub(crate) const WINDOW: usize = 256;

/// The window's bytes: [`WINDOW`] and the 7 bytes an 8-byte store at its
/// last offset reaches past it (8: a multiple of 4).
type Bytes = [u8; WINDOW + 8];

impl Store for &mut Bytes {
    #[inline(always)]
    fn u64_at(&mut self, at: usize, word: u64) {
        let at = at & (WINDOW - 1);
        self.as_mut_slice()[at..at + 8].copy_from_slice(&word.to_le_bytes());
    }

    #[inline(always)]
    fn u32_at(&mut self, at: usize, word: u32) {
        let at = at & (WINDOW - 1);
        self.as_mut_slice()[at..at + 4].copy_from_slice(&word.to_le_bytes());
    }
}

/// A [`BitWriter`]'s state in locals over a window of its buffer from its
/// next word; put back into the writer when dropped.
#[derive(Debug)]
pub struct Window<'s> {
    bytes: &'s mut Bytes,
    /// The writer's state, `word_index` counted from the window's start.
    state: WriterCheckpoint,
    /// Where the window starts in the writer's buffer.
    base: usize,
    /// Set when a rewind found stores past the window (they wrapped).
    overran: bool,
    origin: &'s mut WriterCheckpoint,
}

impl<'a> BitWriter<'a> {
    /// This writer's stores into a window of its buffer, when `bits` fit
    /// in the window and the buffer holds the whole window; `None` (nothing
    /// changed) otherwise.
    #[inline(always)]
    pub(crate) fn window(&mut self, bits: usize) -> Option<Window<'_>> {
        let (buf, origin) = self.parts();
        Window::over(buf, origin, bits)
    }
}

impl<'s> Window<'s> {
    /// A window of `buf` from the next word of `origin` (a writer's state
    /// in its own form, over `buf`), put back into `origin` when dropped;
    /// `None` when `bits` do not fit in a window or `buf` does not hold
    /// all of it.
    #[inline(always)]
    pub(crate) fn over(buf: &'s mut [u8], origin: &'s mut WriterCheckpoint, bits: usize) -> Option<Self> {
        if bits > WINDOW * 8 {
            return None;
        }
        let base = origin.word_index();
        let bytes = buf.get_mut(base..)?.first_chunk_mut::<{ WINDOW + 8 }>()?;
        let (scratch, scratch_bits) = origin.scratch();
        Some(Window {
            bytes,
            state: WriterCheckpoint::at_start(scratch, scratch_bits),
            base,
            overran: false,
            origin,
        })
    }
}

impl Window<'_> {
    /// Whether a store so far may have wrapped: the next word is past the window.
    #[inline(always)]
    fn past(&self) -> bool {
        self.state.word_index() > WINDOW
    }
}

impl Drop for Window<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        *self.origin = self.state.offset(self.base);
    }
}

impl BitSink for Window<'_> {
    type Checkpoint = WriterCheckpoint;

    #[inline(always)]
    fn checkpoint(&self) -> WriterCheckpoint {
        self.state
    }

    #[inline(always)]
    fn rewind(&mut self, checkpoint: WriterCheckpoint) {
        self.overran |= self.past();
        self.state = checkpoint;
    }

    #[inline(always)]
    fn position(&self) -> usize {
        let (_, scratch_bits) = self.state.scratch();
        (self.base + self.state.word_index()) * 8 + scratch_bits as usize
    }

    #[inline(always)]
    fn reserve(&self, _bits: usize) -> Result<(), Error> {
        Ok(())
    }

    #[inline(always)]
    fn push(&mut self, value: u64, bits: u32) {
        self.state.push(&mut self.bytes, value, bits);
    }

    #[inline]
    fn push_aligned_bytes(&mut self, bytes: &[u8]) {
        self.state.push_bytes(&mut self.bytes, bytes);
    }

    #[inline(always)]
    fn overran(&self) -> bool {
        self.overran | self.past()
    }
}

impl<'s> Reserve for Window<'s> {
    reserve_in_place!();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pushes of every kind through a window, after 0 to 63 bits already
    /// in the writer, land as the same pushes through the writer (bytes,
    /// length, position), and the window says it did not overrun.
    #[test]
    fn window_writes_as_its_writer() {
        let pushes: [(u64, u32); 7] =
            [(5, 3), (0xABCD, 16), (u64::MAX >> 1, 63), (1, 1), (0x1234_5678_9ABC, 48), (7, 64), (0x3FF, 10)];
        let total: usize = pushes.iter().map(|&(_, bits)| bits as usize).sum();
        for before in 0..64 {
            let mut direct = [0u8; 320];
            let mut writer = BitWriter::new(&mut direct);
            writer
                .push(0x5555_5555_5555_5555 >> (64 - before.max(1)) & crate::bits::low_mask(before), before);
            for (value, bits) in pushes {
                writer.push(value, bits);
            }
            let direct_len = writer.finish().unwrap();
            let mut through = [0u8; 320];
            let mut writer = BitWriter::new(&mut through);
            writer
                .push(0x5555_5555_5555_5555 >> (64 - before.max(1)) & crate::bits::low_mask(before), before);
            {
                let mut window = writer.window(total).unwrap();
                let start = window.checkpoint();
                window.push(u64::MAX, 64);
                window.rewind(start);
                for (value, bits) in pushes {
                    window.push(value, bits);
                }
                window.push_aligned_bytes(&[]);
                assert!(!window.overran());
                assert_eq!(window.position(), before as usize + total);
            }
            assert_eq!(writer.position(), before as usize + total);
            let len = writer.finish().unwrap();
            assert_eq!((len, through), (direct_len, direct), "{before} bits before");
        }
    }

    /// A window is refused where the buffer does not hold all of it or the
    /// bits asked for exceed it; past it, the stores wrap inside it (never
    /// past the buffer) and `overran` says so, also after a rewind.
    #[test]
    fn window_refuses_or_reports_overruns() {
        let mut short = [0u8; WINDOW + 7];
        assert!(BitWriter::new(&mut short).window(8).is_none());
        let mut buf = [0u8; WINDOW + 8];
        assert!(BitWriter::new(&mut buf).window(WINDOW * 8 + 1).is_none());
        let mut writer = BitWriter::new(&mut buf);
        writer.push(1, 1);
        assert!(writer.window(8).is_some(), "the pending bit goes at byte 0");
        writer.push(1, 31);
        assert!(writer.window(8).is_none(), "the next word at byte 4: the window is past the buffer");
        for rewound in [false, true] {
            let mut buf = [0u8; WINDOW + 16];
            let mut writer = BitWriter::new(&mut buf);
            let mut window = writer.window(WINDOW * 8).unwrap();
            let start = window.checkpoint();
            for _ in 0..WINDOW / 8 {
                window.push(u64::MAX, 64);
            }
            assert!(!window.overran(), "the whole window, no more");
            window.push(0xAB, 8);
            window.push(u64::MAX, 64);
            assert!(window.overran());
            if rewound {
                window.rewind(start);
                assert!(window.overran(), "sticky across a rewind");
            }
            drop(window);
            assert_eq!(&buf[WINDOW + 8..], &[0; 8], "nothing past the window");
        }
    }
}
