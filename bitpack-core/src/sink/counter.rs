//! The measure stream: counts bits exactly, writes nothing.

use super::BitSink;
use crate::error::{Error, ErrorKind};

/// Counts the bits a [`crate::BitWriter`] would write for the same calls,
/// exactly (alignment included), and refuses what the writer refuses except
/// for lack of space.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitCounter, BitWrite};
/// let mut counter = BitCounter::new();
/// counter.write_u8(1)?;
/// counter.write_align()?;
/// counter.write_bytes(b"abc")?;
/// assert_eq!(counter.bits_written(), 32);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BitCounter {
    bits: usize,
}

impl BitCounter {
    /// A counter at zero bits.
    #[inline]
    pub const fn new() -> Self {
        BitCounter { bits: 0 }
    }

    /// Whole bytes the counted bits fill: `ceil(bits / 8)`.
    #[inline]
    pub const fn bytes(&self) -> usize {
        self.bits.div_ceil(8)
    }
}

impl BitSink for BitCounter {
    type Checkpoint = usize;
    const COUNTS_ONLY: bool = true;

    #[inline(always)]
    fn checkpoint(&self) -> usize {
        self.bits
    }

    #[inline(always)]
    fn rewind(&mut self, bits: usize) {
        self.bits = bits;
    }

    #[inline(always)]
    fn position(&self) -> usize {
        self.bits
    }

    #[inline(always)]
    fn reserve(&self, bits: usize) -> Result<(), Error> {
        match self.bits.checked_add(bits) {
            Some(_) => Ok(()),
            None => Err(Error::new(ErrorKind::BufferFull, self.bits)),
        }
    }

    #[inline(always)]
    fn push(&mut self, _value: u64, bits: u32) {
        self.bits += bits as usize;
    }

    #[inline(always)]
    fn push_aligned_bytes(&mut self, bytes: &[u8]) {
        self.bits += bytes.len() * 8;
    }

    #[inline(always)]
    fn push_zeros(&mut self, bits: usize) {
        self.bits += bits;
    }
}
