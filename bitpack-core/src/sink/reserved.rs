//! A sink inside a reservation, and the list of sinks that can reserve.

use super::counter::BitCounter;
use super::detached::{DetachedWriter, Through};
use super::fingerprint::BitFingerprint;
use super::held::{Held, HeldCount};
use super::local::{Detach, Local, ReservedLocal};
use super::window::Window;
use super::writer::BitWriter;
use super::{BitSink, Reserve};
use crate::error::Error;

/// A sink inside a reservation: pushes go to the inner sink, room checks
/// pass. Values are still validated by [`crate::BitWrite`]'s methods,
/// and the position still counts every bit, so a reserved write writes
/// and refuses exactly what a checked one does. Should a `MAX_BITS`
/// lie and the writes overrun, `BitWriter` drops the words past its
/// buffer and `finish` refuses with `BufferFull`.
#[derive(Debug)]
pub struct Reserved<'s, S: BitSink> {
    pub(crate) sink: &'s mut S,
}

impl<S: BitSink> BitSink for Reserved<'_, S> {
    type Checkpoint = S::Checkpoint;

    forward_pushes!(S);

    #[inline(always)]
    fn reserve(&self, _bits: usize) -> Result<(), Error> {
        Ok(())
    }
}

impl<'r, S: BitSink + Reserve> Reserve for Reserved<'r, S> {
    type Reserved<'s>
        = Reserved<'s, S>
    where
        Self: 's;
    type Local<'s>
        = ReservedLocal<S::Local<'s>>
    where
        Self: 's;

    #[inline(always)]
    fn reserve_all(&mut self, _bits: usize) -> Option<Self::Reserved<'_>> {
        Some(Reserved { sink: &mut *self.sink })
    }

    #[inline(always)]
    fn local(&mut self) -> Self::Local<'_> {
        ReservedLocal { sink: self.sink.local() }
    }

    forward_window!(S);

    type Held<'t>
        = ReservedLocal<S::Held<'t>>
    where
        Self: 't;

    // The inner sink's (a writer's held form, `sink::held`): the state in
    // registers for a loop of derived items inside the reservation. In a
    // wrapper of its own: an item's `write_to` through it is then not the
    // same function as through the inner sink's held form outside a
    // reservation, and each, called once, is inlined into its loop.
    #[inline(always)]
    fn hold(&mut self, bits: usize) -> Option<Self::Held<'_>> {
        Some(ReservedLocal { sink: self.sink.hold(bits)? })
    }

    #[inline(always)]
    fn keep<'t>(held: Self::Held<'t>)
    where
        Self: 't,
    {
        S::keep(held.sink);
    }

    detach_through!();
}

/// `Reserve` for a checked sink: one room check for all the bits.
macro_rules! reserve_checked {
    ($($sink:ty: $window:ty = $make:ident, $held:ty = $hold:ident, $keep:ident, $detached:ty = $detach:ident, $close:ident),*) => {$(
        impl<'a> Reserve for $sink {
            type Reserved<'s>
                = Reserved<'s, $sink>
            where
                Self: 's;
            type Local<'s>
                = Local<'s, $sink>
            where
                Self: 's;

            #[inline(always)]
            fn local(&mut self) -> Self::Local<'_> {
                Local::new(self)
            }

            #[inline(always)]
            fn reserve_all(&mut self, bits: usize) -> Option<Self::Reserved<'_>> {
                self.reserve(bits).ok()?;
                Some(Reserved { sink: self })
            }

            type Window<'s>
                = $window
            where
                Self: 's;

            #[inline(always)]
            fn window(&mut self, bits: usize) -> Option<Self::Window<'_>> {
                $make(self, bits)
            }

            type Held<'s>
                = $held
            where
                Self: 's;

            #[inline(always)]
            fn hold(&mut self, bits: usize) -> Option<Self::Held<'_>> {
                $hold(self, bits)
            }

            #[inline(always)]
            fn keep<'t>(held: Self::Held<'t>)
            where
                Self: 't,
            {
                $keep(held);
            }

            type Detached<'s>
                = $detached
            where
                Self: 's;

            #[inline(always)]
            fn detached(&mut self) -> Self::Detached<'_> {
                $detach(self)
            }

            #[inline(always)]
            fn close_detached<'t>(detached: Self::Detached<'t>, kept: bool)
            where
                Self: 't,
            {
                $close(detached, kept);
            }
        }
    )*};
}

/// A writer's window (checked: `reserve` then the window's own test).
#[inline(always)]
fn writer_window<'s>(writer: &'s mut BitWriter<'_>, bits: usize) -> Option<Window<'s>> {
    writer.reserve(bits).ok()?;
    writer.window(bits)
}

/// Any other sink's: its local, reserved (it has no buffer).
#[inline(always)]
fn local_window<S: Detach>(sink: &mut S, bits: usize) -> Option<ReservedLocal<Local<'_, S>>> {
    sink.reserve(bits).ok()?;
    Some(ReservedLocal { sink: Local::new(sink) })
}

/// A writer held (`sink::held`).
#[inline(always)]
fn writer_hold<'s>(writer: &'s mut BitWriter<'_>, bits: usize) -> Option<Held<'s>> {
    writer.hold(bits)
}

#[inline(always)]
fn writer_keep(held: Held<'_>) {
    held.keep();
}

/// Any other sink held (`sink::held`): copied by value, so its count stays
/// in registers (through `&mut` a measure of records took a third more
/// instructions), copied back by `keep`.
#[inline(always)]
fn count_hold<S: Detach>(sink: &mut S, bits: usize) -> Option<HeldCount<'_, S>> {
    HeldCount::hold(sink, bits)
}

#[inline(always)]
fn count_keep<S: Detach>(held: HeldCount<'_, S>) {
    held.keep();
}

/// A writer detached (`sink::detached`): a copy of it by value.
#[inline(always)]
fn writer_detach<'s>(writer: &'s mut BitWriter<'_>) -> DetachedWriter<'s> {
    writer.detach_copy()
}

#[inline(always)]
fn writer_close(detached: DetachedWriter<'_>, kept: bool) {
    detached.close(kept);
}

/// Any other sink detached: itself, rewound when the write fails.
#[inline(always)]
fn through<S: BitSink>(sink: &mut S) -> Through<'_, S> {
    Through::new(sink)
}

#[inline(always)]
fn through_close<S: BitSink>(detached: Through<'_, S>, kept: bool) {
    detached.close(kept);
}

reserve_checked!(
    BitWriter<'a>: Window<'s> = writer_window, Held<'s> = writer_hold, writer_keep,
        DetachedWriter<'s> = writer_detach, writer_close,
    BitCounter: ReservedLocal<Local<'s, BitCounter>> = local_window, HeldCount<'s, BitCounter> = count_hold, count_keep,
        Through<'s, BitCounter> = through, through_close,
    BitFingerprint: ReservedLocal<Local<'s, BitFingerprint>> = local_window, HeldCount<'s, BitFingerprint> = count_hold, count_keep,
        Through<'s, BitFingerprint> = through, through_close
);
