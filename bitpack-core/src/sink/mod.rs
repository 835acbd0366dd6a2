//! The raw bit sinks under [`crate::BitWrite`]: the writer, the measure
//! stream, the fingerprint sink, and a sink inside a reservation. Each
//! implements [`BitSink`]'s raw pushes and nothing else; every check of a
//! value is `BitWrite`'s, so the sinks cannot drift apart. Both traits are
//! sealed: this module is private to the crate.

/// [`BitSink`]'s methods but `reserve` for a sink that passes everything to
/// its `sink` field, of type `$inner` (a reservation).
macro_rules! forward_pushes {
    ($inner:ty) => {
        forward_state!($inner);

        #[inline(always)]
        fn push(&mut self, value: u64, bits: u32) {
            self.sink.push(value, bits);
        }

        #[inline(always)]
        fn push_aligned_bytes(&mut self, bytes: &[u8]) {
            self.sink.push_aligned_bytes(bytes);
        }

        #[inline(always)]
        fn push_zeros(&mut self, bits: usize) {
            self.sink.push_zeros(bits);
        }

        #[inline(always)]
        fn resume(&mut self, word: u64, bits: u32) {
            self.sink.resume(word, bits);
        }

        #[inline(always)]
        fn store_text(&mut self, header: u64, header_bits: u32, bytes: &[u8]) -> bool {
            self.sink.store_text(header, header_bits, bytes)
        }
    };
}

/// [`BitSink`]'s methods that read or move the state of the `sink` field,
/// of type `$inner`, as it is (a reservation's, a local's), and whether it
/// only counts.
macro_rules! forward_state {
    ($inner:ty) => {
        const COUNTS_ONLY: bool = <$inner as BitSink>::COUNTS_ONLY;

        #[inline(always)]
        fn checkpoint(&self) -> Self::Checkpoint {
            self.sink.checkpoint()
        }

        #[inline(always)]
        fn rewind(&mut self, checkpoint: Self::Checkpoint) {
            self.sink.rewind(checkpoint);
        }

        #[inline(always)]
        fn position(&self) -> usize {
            self.sink.position()
        }

        #[inline(always)]
        fn overran(&self) -> bool {
            self.sink.overran()
        }

        #[inline(always)]
        fn suspend(&mut self) -> (u64, u32) {
            self.sink.suspend()
        }

        #[inline(always)]
        fn push_word(&mut self, word: u64) {
            self.sink.push_word(word);
        }
    };
}

/// [`Reserve`]'s types of a sink that passes them to its `sink` field, of
/// type `$inner`.
macro_rules! forward_types {
    ($inner:ty: $($name:ident),*) => {$(
        type $name<'t>
            = <$inner as Reserve>::$name<'t>
        where
            Self: 't;
    )*};
}

/// [`Reserve`]'s window for a sink that passes it to its `sink` field,
/// of type `$inner`.
macro_rules! forward_window {
    ($inner:ty) => {
        forward_types!($inner: Window);

        #[inline(always)]
        fn window(&mut self, bits: usize) -> Option<Self::Window<'_>> {
            self.sink.window(bits)
        }
    };
}

/// [`Reserve`]'s `hold` for a sink that passes it to its `sink` field, of
/// type `$inner`.
macro_rules! forward_hold {
    ($inner:ty) => {
        forward_types!($inner: Held);

        #[inline(always)]
        fn hold(&mut self, bits: usize) -> Option<Self::Held<'_>> {
            self.sink.hold(bits)
        }

        #[inline(always)]
        fn keep<'t>(held: Self::Held<'t>)
        where
            Self: 't,
        {
            <$inner as Reserve>::keep(held);
        }
    };
}

/// [`Reserve`]'s `hold` for a sink already inside a reservation: its
/// `reserve_all`, kept as it goes.
macro_rules! hold_reserved {
    ($inner:ty) => {
        type Held<'t>
            = Reserved<'t, $inner>
        where
            Self: 't;

        #[inline(always)]
        fn hold(&mut self, bits: usize) -> Option<Self::Held<'_>> {
            self.reserve_all(bits)
        }

        #[inline(always)]
        fn keep<'t>(_held: Self::Held<'t>)
        where
            Self: 't,
        {
        }

        detach_through!();
    };
}

/// [`Reserve`]'s `detached` for a sink with no detached form of its own:
/// itself, rewound when the write fails (`sink::detached::Through`).
macro_rules! detach_through {
    () => {
        type Detached<'t>
            = $crate::sink::detached::Through<'t, Self>
        where
            Self: 't;

        #[inline(always)]
        fn detached(&mut self) -> Self::Detached<'_> {
            $crate::sink::detached::Through::new(self)
        }

        #[inline(always)]
        fn close_detached<'t>(detached: Self::Detached<'t>, kept: bool)
        where
            Self: 't,
        {
            detached.close(kept);
        }
    };
}

/// `Reserve` for a sink whose room is already reserved (a window, a held
/// counter): every form of it is itself, reserved.
macro_rules! reserve_in_place {
    () => {
        type Reserved<'t>
            = Reserved<'t, Self>
        where
            Self: 't;
        type Local<'t>
            = Reserved<'t, Self>
        where
            Self: 't;
        type Window<'t>
            = Reserved<'t, Self>
        where
            Self: 't;

        #[inline(always)]
        fn reserve_all(&mut self, _bits: usize) -> Option<Self::Reserved<'_>> {
            Some(Reserved { sink: self })
        }

        /// Already in locals.
        #[inline(always)]
        fn local(&mut self) -> Self::Local<'_> {
            Reserved { sink: self }
        }

        /// No buffer of its own to window: the room is reserved.
        #[inline(always)]
        fn window(&mut self, _bits: usize) -> Option<Self::Window<'_>> {
            Some(Reserved { sink: self })
        }

        hold_reserved!(Self);
    };
}

pub(crate) mod counter;
#[macro_use]
pub(crate) mod detached;
pub(crate) mod fingerprint;
pub(crate) mod held;
pub(crate) mod local;
pub(crate) mod reserved;
pub(crate) mod window;
pub(crate) mod writer;

use crate::error::Error;

/// The raw bit sink under [`crate::BitWrite`]. Callers have validated
/// every value and reserved room before pushing.
pub trait BitSink {
    /// Whether the sink keeps nothing of the bits but their count (a
    /// counter, and every sink that wraps one): the values pushed then do
    /// not matter, and a bulk write, its checks made as ever, counts its
    /// bits with [`BitSink::push_zeros`] instead of building their words.
    const COUNTS_ONLY: bool = false;

    /// A saved state of the sink: what [`BitSink::rewind`] puts back.
    type Checkpoint: Copy;
    /// The sink's state now: a few words, copied.
    fn checkpoint(&self) -> Self::Checkpoint;
    /// Puts the sink back to `checkpoint`, taken from it earlier: its
    /// position and the bits it held then, as if nothing had been
    /// pushed since.
    fn rewind(&mut self, checkpoint: Self::Checkpoint);
    /// Bits pushed so far.
    fn position(&self) -> usize;
    /// `Ok` when `bits` more bits fit; nothing is written either way.
    fn reserve(&self, bits: usize) -> Result<(), Error>;
    /// Appends the low `bits` bits of `value` (`bits` in `0..=64`, the
    /// bits above them zero), low bit first.
    fn push(&mut self, value: u64, bits: u32);
    /// Appends whole bytes; the position is a multiple of 8.
    fn push_aligned_bytes(&mut self, bytes: &[u8]);

    /// Appends `bits` zero bits (any number): on a sink that only counts,
    /// one addition, and the count of any `bits` bits.
    #[inline(always)]
    fn push_zeros(&mut self, bits: usize) {
        push_zero_words(self, bits);
    }
    /// Whether pushes since [`Reserve::window`] went past the window, so
    /// that some of its words may be wrong (only a window's can).
    #[inline(always)]
    fn overran(&self) -> bool {
        false
    }

    /// Hands the bits waiting in the sink (fewer than 64, zero above
    /// them) to a word gathered outside it (`words::Pending`), which sends
    /// whole words through [`BitSink::push_word`] and gives the rest back
    /// through [`BitSink::resume`] before any other call: one shift per
    /// word where a push shifts again into the sink's own scratch. By
    /// default none are handed out, and the other two push.
    #[inline(always)]
    fn suspend(&mut self) -> (u64, u32) {
        (0, 0)
    }

    /// A whole word after the bits [`BitSink::suspend`] handed out and
    /// the words since.
    #[inline(always)]
    fn push_word(&mut self, word: u64) {
        self.push(word, 64);
    }

    /// The low `bits` (under 64) bits of `word` gathered after the
    /// suspended ones, back in the sink.
    #[inline(always)]
    fn resume(&mut self, word: u64, bits: u32) {
        if bits > 0 {
            self.push(word, bits);
        }
    }

    /// A string straight into the sink's buffer: the low `header_bits`
    /// (under 64, ending on a byte boundary) of `header` (its length and
    /// padding), then `bytes`, nothing waiting after them (a writer's:
    /// always `true`). `false`, nothing written, when the sink has no such
    /// path: the caller then pushes them.
    #[inline(always)]
    fn store_text(&mut self, header: u64, header_bits: u32, bytes: &[u8]) -> bool {
        let _ = (header, header_bits, bytes);
        false
    }
}

/// [`BitSink::push_zeros`] as pushes of up to 64 bits.
#[inline(always)]
fn push_zero_words<S: BitSink + ?Sized>(sink: &mut S, bits: usize) {
    for _ in 0..bits / 64 {
        sink.push(0, 64);
    }
    sink.push(0, (bits % 64) as u32);
}

/// Room for many writes checked at once: what a derived `write_to` asks
/// for its whole `MAX_BITS` before writing its fields.
pub trait Reserve {
    /// The sink with the room already checked: a sink that reserves in
    /// turn, and so a [`crate::BitWrite`] (every `BitSink + Reserve` is one).
    type Reserved<'s>: BitSink + Reserve
    where
        Self: 's;

    /// The sink with its per-write room checks turned off, or `None`
    /// when `bits` more bits may not fit (then nothing changes: the
    /// caller writes through the checked sink instead). On an already
    /// reserved sink this is always `Some`: the outer reservation
    /// covers every nested one.
    fn reserve_all(&mut self, bits: usize) -> Option<Self::Reserved<'_>>;

    /// The sink moved into a value of its own (room checks as its own),
    /// moved back when that is dropped (see `local`).
    type Local<'s>: BitSink + Reserve
    where
        Self: 's;

    /// This sink as a [`Reserve::Local`], for a stretch of pushes whose
    /// state the compiler can then keep in registers (a derived block's).
    fn local(&mut self) -> Self::Local<'_>;

    /// The sink of [`Reserve::window`].
    type Window<'s>: BitSink + Reserve
    where
        Self: 's;

    /// [`Reserve::local`] with `bits` reserved, for a derived block: a
    /// writer's stores then go into a fixed window of its buffer with no
    /// bounds check of their own (`sink::window`). `None` when `bits` may
    /// not fit (or the window does not). After the writes the caller asks
    /// [`BitSink::overran`] and writes them again another way if so.
    fn window(&mut self, bits: usize) -> Option<Self::Window<'_>>;

    /// The sink of [`Reserve::hold`].
    type Held<'s>: BitSink + Reserve
    where
        Self: 's;

    /// [`Reserve::reserve_all`] for a derived `write_to`'s fields, with a
    /// writer's state copied into the value returned (`sink::held`), so
    /// that the compiler can keep it in registers across the fields; no
    /// `Drop` puts it back (a drop's landing pad would take its address):
    /// [`Reserve::keep`] does, after writes that succeeded. Dropped without
    /// it, the writes are undone (the writer is as it was before `hold`).
    /// On other sinks `keep` does nothing: a counter's is its local,
    /// reserved (its window), moved back when dropped; an already reserved
    /// sink's is its `reserve_all`, or its inner writer's held form.
    fn hold(&mut self, bits: usize) -> Option<Self::Held<'_>>;

    /// The writes through `held` kept: a held writer's state back in it.
    fn keep<'s>(held: Self::Held<'s>)
    where
        Self: 's;

    /// The sink of [`Reserve::detached`].
    type Detached<'s>: BitSink + Reserve
    where
        Self: 's;

    /// This sink for one write that fails whole (`sink::detached`): a
    /// writer's copy by value, its state kept in registers and put back
    /// only when [`Reserve::close_detached`] keeps the writes; any other
    /// sink itself, rewound when it does not. Room checks as the sink's.
    fn detached(&mut self) -> Self::Detached<'_>;

    /// Ends a [`Reserve::detached`] write: its writes kept (`kept`), or the
    /// sink as it was before it.
    fn close_detached<'s>(detached: Self::Detached<'s>, kept: bool)
    where
        Self: 's;
}
