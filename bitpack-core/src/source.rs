//! The raw bit source under [`crate::BitRead`]: what a back end provides
//! (bits taken from a position, whole bytes at a byte boundary, an
//! allocation budget), and nothing else. Every check of a value is
//! `BitRead`'s, so back ends cannot differ in what they accept. The trait
//! is sealed: this module is private to the crate.

use crate::error::{Error, ErrorKind};
pub use crate::reader::BitRun;

/// The raw bit source under [`crate::BitRead`]. Callers check declarations
/// and values; a source checks only that the bits it hands out are there.
pub trait BitSource {
    /// A saved state of the source: what [`BitSource::rewind`] puts back.
    type Checkpoint: Copy;
    /// The source's state now (position and allocation budget): a few
    /// words, copied.
    fn checkpoint(&self) -> Self::Checkpoint;
    /// Puts the source back to `checkpoint`, taken from it earlier.
    fn rewind(&mut self, checkpoint: Self::Checkpoint);
    /// Bits taken so far.
    fn position(&self) -> usize;
    /// Bits left to take.
    fn remaining(&self) -> usize;
    /// Moves back to `position`, at most the current one (to read bits
    /// again, or to refuse a value from where it started).
    fn seek_back(&mut self, position: usize);
    /// Takes `bits` (0..=64) bits, low bit first; `UnexpectedEnd`, and
    /// nothing taken, unless they remain.
    fn take(&mut self, bits: u32) -> Result<u64, Error>;
    /// Takes `len` whole bytes (the position is a multiple of 8, and the
    /// caller checked they remain) and hands them to `check`, whose result
    /// is borrowed from the source until its next take. When `check`
    /// refuses, nothing is taken: the source moves back to `start` (where
    /// the caller's read began) and the error names it.
    fn take_bytes<'s, T: ?Sized>(
        &'s mut self,
        len: usize,
        start: usize,
        check: impl FnOnce(&'s [u8]) -> Result<&'s T, ErrorKind>,
    ) -> Result<&'s T, Error>;
    /// The `N` bytes of input from the byte holding the position, and the
    /// position's bit in the first (0..=7), when they are all there: what
    /// a short string is read through (one bound check for its length, its
    /// padding and its bytes), then taken with [`BitSource::take_window`].
    fn window<const N: usize>(&self) -> Option<(&[u8; N], u32)>;
    /// Takes `bits` bits that lie in a window [`BitSource::window`] handed
    /// out, and leaves `budget` bytes of allocation budget (the caller
    /// checked it is at most [`BitSource::budget_left`]): a read through a
    /// window, neither tested again.
    fn take_window(&mut self, bits: usize, budget: usize);
    /// Takes `count` values of `bits` (0..=64) bits each at once, checked
    /// to remain (else `UnexpectedEnd`, nothing taken), and hands back the
    /// run to cut them from.
    fn take_run(&mut self, count: usize, bits: u32) -> Result<BitRun<'_>, Error>;
    /// A run of values of any widths from the position, taken with
    /// [`BitRun::take`] (zeros past the input's end); nothing moves until
    /// [`BitSource::close_run`].
    fn open_run(&self) -> BitRun<'_>;
    /// Takes the `bits` a run opened here handed out, or `UnexpectedEnd`
    /// (nothing taken) when they were not all there.
    fn close_run(&mut self, bits: usize) -> Result<(), Error>;
    /// The input from the byte holding the position on, and the
    /// position's bit in that byte (0..=7): what a derived block reads
    /// ahead through a window (`__private::Window`) before it takes
    /// the bits with [`BitSource::close_run`].
    fn rest(&self) -> (&[u8], u32);
    /// Bytes decoding may still allocate.
    fn budget_left(&self) -> usize;
    /// Claims `bytes` from the budget: `AllocationLimit`, and nothing
    /// claimed, past it.
    fn claim_budget(&mut self, bytes: usize) -> Result<(), Error>;
}

/// The crate's own helpers over any source, for the core's reads (not
/// part of the public `BitRead`).
pub(crate) trait SourceExt: BitSource {
    /// `Err` unless `bits` more bits remain.
    #[inline(always)]
    fn need(&self, bits: usize) -> Result<(), Error> {
        if bits > self.remaining() {
            return Err(Error::new(ErrorKind::UnexpectedEnd, self.position()));
        }
        Ok(())
    }

    /// Puts the source back at `start` and refuses with an error naming it.
    #[cold]
    fn fail<T>(&mut self, start: usize, kind: ErrorKind) -> Result<T, Error> {
        self.seek_back(start);
        Err(Error::new(kind, start))
    }

    /// Moves back `bits` bits, to read them again (fused runs whose values
    /// turned out invalid are read again field by field).
    #[inline(always)]
    fn unread(&mut self, bits: usize) {
        let position = self.position().saturating_sub(bits);
        self.seek_back(position);
    }

    /// Runs a read of several parts as one: on `Err` the source goes back
    /// to where it started (its budget too), and the error names that start.
    #[inline(always)]
    fn atomic<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T, Error>) -> Result<T, Error> {
        let (start, position) = (self.checkpoint(), self.position());
        match read(self) {
            Ok(value) => Ok(value),
            Err(error) => {
                rewind_source(self, start);
                Err(Error::new(error.kind(), position))
            }
        }
    }

    /// Runs a read of several parts as one: on `Err` the source goes back
    /// to where it started (its budget too), and the error keeps the bit
    /// where the failing part started.
    #[inline(always)]
    fn rolled_back<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T, Error>) -> Result<T, Error> {
        let start = self.checkpoint();
        let result = read(self);
        if result.is_err() {
            rewind_source(self, start);
        }
        result
    }

    /// `bits` (0..=128) bits, low 64 first, checked to remain before any
    /// is taken.
    #[inline(always)]
    fn read_wide_bits(&mut self, bits: u32) -> Result<u128, Error> {
        if bits > 128 {
            let position = self.position();
            return self.fail(position, ErrorKind::InvalidDeclaration);
        }
        self.need(bits as usize)?;
        if bits <= 64 {
            return Ok(u128::from(self.take(bits)?));
        }
        let low = self.take(64)?;
        let high = self.take(bits - 64)?;
        Ok(u128::from(low) | (u128::from(high) << 64))
    }
}

impl<S: BitSource + ?Sized> SourceExt for S {}

#[cold]
fn rewind_source<S: BitSource + ?Sized>(source: &mut S, start: S::Checkpoint) {
    source.rewind(start);
}
