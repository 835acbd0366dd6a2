//! A sink held in locals for a stretch of pushes (a derived block's
//! elements): pushes through `&mut` of a writer keep its state in memory,
//! and every word stored into its buffer, which may alias that state for
//! all the compiler knows, makes it store and load the state again. A
//! [`Local`] is the sink moved out by value (the writer's buffer taken, the
//! rest copied) and moved back when it is dropped, so in between its state
//! lives in registers. The bits and checks are the sink's own.

use super::counter::BitCounter;
use super::fingerprint::BitFingerprint;
use super::reserved::Reserved;
use super::writer::BitWriter;
use super::{BitSink, Reserve};
use crate::error::Error;

/// A base sink that can be moved out of its place for a while.
pub trait Detach: BitSink + Reserve + Sized {
    /// This sink by value, leaving a husk that [`Local`]'s drop overwrites.
    fn detach(&mut self) -> Self;
}

impl Detach for BitWriter<'_> {
    #[inline(always)]
    fn detach(&mut self) -> Self {
        self.take_buffer()
    }
}

impl Detach for BitCounter {
    #[inline(always)]
    fn detach(&mut self) -> Self {
        *self
    }
}

impl Detach for BitFingerprint {
    #[inline(always)]
    fn detach(&mut self) -> Self {
        *self
    }
}

/// A base sink moved out of `origin` until this is dropped.
#[derive(Debug)]
pub struct Local<'s, S: Detach> {
    origin: &'s mut S,
    sink: S,
}

impl<'s, S: Detach> Local<'s, S> {
    #[inline(always)]
    pub(crate) fn new(origin: &'s mut S) -> Self {
        let sink = origin.detach();
        Local { origin, sink }
    }
}

impl<S: Detach> Drop for Local<'_, S> {
    #[inline(always)]
    fn drop(&mut self) {
        core::mem::swap(self.origin, &mut self.sink);
    }
}

impl<S: Detach> BitSink for Local<'_, S> {
    type Checkpoint = S::Checkpoint;

    forward_pushes!();

    #[inline(always)]
    fn reserve(&self, bits: usize) -> Result<(), Error> {
        self.sink.reserve(bits)
    }
}

impl<S: Detach> Reserve for Local<'_, S> {
    type Reserved<'t>
        = Reserved<'t, Self>
    where
        Self: 't;
    type Local<'t>
        = Local<'t, S>
    where
        Self: 't;

    #[inline(always)]
    fn reserve_all(&mut self, bits: usize) -> Option<Self::Reserved<'_>> {
        self.reserve(bits).ok()?;
        Some(Reserved { sink: self })
    }

    #[inline(always)]
    fn local(&mut self) -> Local<'_, S> {
        Local::new(&mut self.sink)
    }

    forward_window!(S);
}

/// A sink inside a reservation, held by value (a [`Reserved`] sink's
/// [`Reserve::local`]): room checks pass, as [`Reserved`]'s do.
#[derive(Debug)]
pub struct ReservedLocal<L: BitSink + Reserve> {
    pub(crate) sink: L,
}

impl<L: BitSink + Reserve> BitSink for ReservedLocal<L> {
    type Checkpoint = L::Checkpoint;

    forward_pushes!();

    #[inline(always)]
    fn reserve(&self, _bits: usize) -> Result<(), Error> {
        Ok(())
    }
}

impl<L: BitSink + Reserve> Reserve for ReservedLocal<L> {
    type Reserved<'t>
        = Reserved<'t, L>
    where
        Self: 't;
    type Local<'t>
        = ReservedLocal<L::Local<'t>>
    where
        Self: 't;

    #[inline(always)]
    fn reserve_all(&mut self, _bits: usize) -> Option<Self::Reserved<'_>> {
        Some(Reserved { sink: &mut self.sink })
    }

    #[inline(always)]
    fn local(&mut self) -> Self::Local<'_> {
        ReservedLocal { sink: self.sink.local() }
    }

    forward_window!(L);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pushes through a reserved writer's local, with a rewind inside and
    /// the local dropped mid-stream after every number of pushes, land as
    /// the same pushes through the writer itself (its position back with
    /// it); and a counter's local counts as the counter.
    #[test]
    fn locals_write_as_their_sink_and_move_back_on_drop() {
        let pushes: [(u64, u32); 6] =
            [(5, 3), (0xABCD, 16), (u64::MAX >> 1, 63), (1, 1), (0x1234_5678_9ABC, 48), (7, 64)];
        let mut direct = [0u8; 64];
        let mut writer = BitWriter::new(&mut direct);
        for (value, bits) in pushes {
            writer.push(value, bits);
        }
        let direct_len = writer.finish().unwrap();
        for split in 0..=pushes.len() {
            let mut through = [0u8; 64];
            let mut writer = BitWriter::new(&mut through);
            let (before, after) = pushes.split_at(split);
            for &(value, bits) in before {
                writer.push(value, bits);
            }
            {
                let mut reserved = writer.reserve_all(256).unwrap();
                let mut local = reserved.local();
                let start = local.checkpoint();
                local.push(0x3FF, 10);
                local.rewind(start);
                for &(value, bits) in after {
                    local.push(value, bits);
                }
            }
            assert_eq!(writer.position(), 3 + 16 + 63 + 1 + 48 + 64, "split {split}");
            let len = writer.finish().unwrap();
            assert_eq!((len, through), (direct_len, direct), "split {split}");
        }
        let mut counter = BitCounter::new();
        counter.push(0, 5);
        {
            let mut local = counter.local();
            local.push(0, 7);
            assert_eq!(local.position(), 12);
        }
        assert_eq!(counter.position(), 12);
    }
}
