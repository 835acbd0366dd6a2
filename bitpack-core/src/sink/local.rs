//! A sink held in locals for a stretch of pushes (a derived block's
//! elements): pushes through `&mut` of a writer keep its state in memory,
//! and every word stored into its buffer, which may alias that state for
//! all the compiler knows, makes it store and load the state again. A
//! [`Local`] is the sink moved out by value (the writer's buffer taken, the
//! rest copied) and moved back when it is dropped, so in between its state
//! lives in registers. The bits and checks are the sink's own; a writer
//! there lets up to 63 bits wait and stores 8 bytes at a time, and is put
//! back in its own form (fewer than 32 waiting) before it moves back.

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

    /// [`BitSink::push`] while held in a [`Local`]: the writer lets up to 63
    /// bits wait and stores 8 bytes at a time (its state is in registers
    /// there); [`Detach::settle`] puts it back in its own form.
    #[inline(always)]
    fn local_push(&mut self, value: u64, bits: u32) {
        self.push(value, bits);
    }

    /// [`BitSink::resume`] while held in a [`Local`].
    #[inline(always)]
    fn local_resume(&mut self, word: u64, bits: u32) {
        self.resume(word, bits);
    }

    /// Back to the sink's own form after [`Detach::local_push`], before
    /// anything else writes to it (its drop, a window, a long string).
    #[inline(always)]
    fn settle(&mut self) {}
}

impl Detach for BitWriter<'_> {
    #[inline(always)]
    fn detach(&mut self) -> Self {
        self.take_buffer()
    }

    #[inline(always)]
    fn local_push(&mut self, value: u64, bits: u32) {
        self.push_wide(value, bits);
    }

    #[inline(always)]
    fn local_resume(&mut self, word: u64, bits: u32) {
        self.resume_wide(word, bits);
    }

    #[inline(always)]
    fn settle(&mut self) {
        BitWriter::settle(self);
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
        self.sink.settle();
        core::mem::swap(self.origin, &mut self.sink);
    }
}

// Checkpoints are the sink's state as it is (a writer's in its wide form):
// taken and put back inside the local, never past its drop.
impl<S: Detach> BitSink for Local<'_, S> {
    type Checkpoint = S::Checkpoint;

    forward_state!(S);

    #[inline(always)]
    fn reserve(&self, bits: usize) -> Result<(), Error> {
        self.sink.reserve(bits)
    }

    #[inline(always)]
    fn push(&mut self, value: u64, bits: u32) {
        self.sink.local_push(value, bits);
    }

    #[inline(always)]
    fn push_aligned_bytes(&mut self, bytes: &[u8]) {
        self.sink.settle();
        self.sink.push_aligned_bytes(bytes);
    }

    // A counter's own addition; anything else's through the local's pushes
    // (a writer's in its wide form here).
    #[inline(always)]
    fn push_zeros(&mut self, bits: usize) {
        if S::COUNTS_ONLY {
            self.sink.push_zeros(bits);
        } else {
            super::push_zero_words(self, bits);
        }
    }

    #[inline(always)]
    fn resume(&mut self, word: u64, bits: u32) {
        self.sink.local_resume(word, bits);
    }

    // Leaves fewer than 32 bits waiting: the writer's own form, and so its
    // wide one too.
    #[inline(always)]
    fn store_text(&mut self, header: u64, header_bits: u32, bytes: &[u8]) -> bool {
        self.sink.store_text(header, header_bits, bytes)
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

    type Window<'t>
        = <S as Reserve>::Window<'t>
    where
        Self: 't;

    #[inline(always)]
    fn window(&mut self, bits: usize) -> Option<Self::Window<'_>> {
        // A window takes the writer in its own form.
        self.sink.settle();
        self.sink.window(bits)
    }

    // The sink's own, over its state here (a writer's held form copies it,
    // up to 63 bits waiting, and puts it back with fewer than 32).
    forward_hold!(S);

    detach_through!();
}

/// A sink inside a reservation, held by value (a [`Reserved`] sink's
/// [`Reserve::local`]): room checks pass, as [`Reserved`]'s do.
#[derive(Debug)]
pub struct ReservedLocal<L: BitSink + Reserve> {
    pub(crate) sink: L,
}

impl<L: BitSink + Reserve> BitSink for ReservedLocal<L> {
    type Checkpoint = L::Checkpoint;

    forward_pushes!(L);

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
    hold_reserved!(L);
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

    /// One step of a stream of pushes (see the test below).
    #[derive(Clone, Copy, Debug)]
    enum Step {
        Push(u64, u32),
        /// `suspend`, then `put` of these, then `resume`, as `words::Pending`.
        Gathered(u64, u32, u64),
        Aligned(usize),
        Window(u64, u32),
        Rewound(u64, u32),
    }

    fn run<S: BitSink + Reserve>(sink: &mut S, steps: &[Step], text: &[u8]) {
        for &step in steps {
            match step {
                Step::Push(value, bits) => sink.push(value, bits),
                Step::Gathered(value, bits, word) => {
                    let mut pending = crate::words::Pending::after(sink, value, bits);
                    pending.put(sink, word, 64);
                    pending.put(sink, value, bits);
                    pending.finish(sink);
                }
                Step::Aligned(len) => {
                    let padding = crate::bits::align_padding(sink.position());
                    sink.push(0, padding);
                    sink.push_aligned_bytes(&text[..len]);
                }
                // Near the buffer's end there is no window: the same bits.
                Step::Window(value, bits) => {
                    if let Some(mut window) = sink.window(64) {
                        window.push(value, bits);
                        continue;
                    }
                    sink.push(value, bits);
                }
                Step::Rewound(value, bits) => {
                    let start = sink.checkpoint();
                    sink.push(value, bits);
                    sink.push(u64::MAX, 64);
                    sink.rewind(start);
                }
            }
        }
    }

    /// A writer's local lets up to 63 bits wait and stores 8 bytes at a
    /// time; after every number of bits already written (0 to 63), every
    /// kind of push through it (widths 1 to 64, gathered words, long aligned
    /// bytes, a window, a rewind, a nested local) lands as the same pushes
    /// through the writer itself: bytes, position and length, into a buffer
    /// that ends where the bits do.
    #[test]
    fn a_writers_local_writes_as_the_writer() {
        let text: [u8; 80] = core::array::from_fn(|index| (index as u8).wrapping_mul(37) ^ 0x5A);
        let (mut all, mut count) = ([Step::Rewound(3, 2); 96], 1);
        let mut add = |step| {
            all[count] = step;
            count += 1;
        };
        for bits in 1..=64u32 {
            let value = 0x9E37_79B9_7F4A_7C15_u64.rotate_left(bits) & crate::bits::low_mask(bits);
            add(Step::Push(value, bits));
            if bits % 9 == 0 {
                add(Step::Gathered(value >> 1, bits - 1, value.rotate_left(7)));
                add(Step::Rewound(value, bits));
            }
            if bits % 21 == 0 {
                add(Step::Aligned(64 + bits as usize / 4));
                add(Step::Window(value, bits));
            }
        }
        let steps = &all[..count];
        for lead in 0..64u32 {
            let lead_value = 0x5555_5555_5555_5555 & crate::bits::low_mask(lead);
            let mut direct = [0u8; 1024];
            let mut writer = BitWriter::new(&mut direct);
            writer.push(lead_value, lead);
            run(&mut writer, steps, &text);
            let bits = writer.position();
            let len = writer.finish().unwrap();
            for split in [0, 1, steps.len() / 2, steps.len()] {
                let mut through = [0u8; 1024];
                let mut writer = BitWriter::new(&mut through[..len]);
                writer.push(lead_value, lead);
                {
                    let mut local = writer.local();
                    run(&mut local, &steps[..split], &text);
                    let mut nested = local.local();
                    run(&mut nested, &steps[split..], &text);
                    assert_eq!(nested.position(), bits, "after {lead}, split {split}");
                }
                assert_eq!(writer.position(), bits, "after {lead}, split {split}");
                assert_eq!(writer.finish(), Ok(len), "after {lead}, split {split}");
                assert_eq!(through[..len], direct[..len], "after {lead}, split {split}");
            }
        }
    }

    #[test]
    fn a_counters_local_counts_as_the_counter() {
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
