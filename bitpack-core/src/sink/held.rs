//! A writer's state copied into a value for a derived `write_to`'s fields
//! (`Reserve::hold`), room for them reserved. Pushes through `&mut
//! BitWriter` keep its state in memory, and every word stored into its
//! buffer, which may alias that state for all the compiler knows, makes it
//! store and load the state again between fields. A [`Held`] writer is the
//! state and the buffer's bounds by value, in a local whose address no call
//! takes (no `Drop`, so no landing pad that would), so the compiler keeps
//! them in registers across the fields. Like a local (`sink::local`) it lets
//! up to 63 bits wait and stores 8 bytes at a time; `Reserve::keep` puts
//! the state back (fewer than 32 bits waiting, the writer's own form) after
//! writes that succeeded. Dropped without it, the writer is as it was.

use super::local::Detach;
use super::reserved::Reserved;
use super::window::Window;
use super::writer::{BitWriter, WriterCheckpoint, long_aligned_bytes};
use super::{BitSink, Reserve};
use crate::error::Error;
use crate::unchecked::Words;

/// A writer's buffer and state, held by value; see the module.
#[derive(Debug)]
pub struct Held<'s> {
    buf: Words<'s>,
    state: WriterCheckpoint,
    origin: &'s mut WriterCheckpoint,
}

impl<'a> BitWriter<'a> {
    /// This writer held (see the module) with `bits` reserved, or `None`
    /// (nothing changed) when they may not fit.
    #[inline(always)]
    pub(crate) fn hold(&mut self, bits: usize) -> Option<Held<'_>> {
        self.reserve(bits).ok()?;
        let (buf, origin) = self.words_and_state();
        Some(Held { buf, state: *origin, origin })
    }
}

impl Held<'_> {
    /// The writes kept: the state back in the writer, in its own form.
    #[inline(always)]
    pub(crate) fn keep(mut self) {
        self.state.settle(&mut self.buf);
        *self.origin = self.state;
    }
}

impl BitSink for Held<'_> {
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
        let (_, scratch_bits) = self.state.scratch();
        self.state.word_index() * 8 + scratch_bits as usize
    }

    #[inline(always)]
    fn reserve(&self, _bits: usize) -> Result<(), Error> {
        Ok(())
    }

    #[inline(always)]
    fn push(&mut self, value: u64, bits: u32) {
        self.state.push_wide(&mut self.buf, value, bits);
    }

    #[inline(always)]
    fn push_aligned_bytes(&mut self, bytes: &[u8]) {
        self.state.settle(&mut self.buf);
        if bytes.len() < 64 {
            self.state.push_bytes(&mut self.buf, bytes);
        } else {
            self.state = long_aligned_bytes(self.state, self.buf.buf(), bytes);
        }
    }

    #[inline(always)]
    fn suspend(&mut self) -> (u64, u32) {
        let waiting = self.state.scratch();
        self.state.resume_wide(0, 0);
        waiting
    }

    #[inline(always)]
    fn push_word(&mut self, word: u64) {
        self.state.store_word(&mut self.buf, word);
    }

    #[inline(always)]
    fn resume(&mut self, word: u64, bits: u32) {
        self.state.resume_wide(word, bits);
    }

    #[inline(always)]
    fn store_text(&mut self, header: u64, header_bits: u32, bytes: &[u8]) -> bool {
        self.state.store_text(self.buf.buf(), header, header_bits, bytes)
    }
}

impl<'s> Reserve for Held<'s> {
    type Reserved<'t>
        = Reserved<'t, Self>
    where
        Self: 't;
    type Local<'t>
        = Reserved<'t, Self>
    where
        Self: 't;
    type Window<'t>
        = Window<'t>
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

    #[inline(always)]
    fn window(&mut self, bits: usize) -> Option<Self::Window<'_>> {
        // A window takes the writer in its own form; the room is reserved.
        self.state.settle(&mut self.buf);
        Window::over(self.buf.buf(), &mut self.state, bits)
    }

    hold_reserved!(Self);
}

/// A counter's (or fingerprint's) held form: the sink copied by value (a
/// local whose address no call takes, so its count stays in registers),
/// room checks passed, no `Drop` (a counter's local had one, and its
/// landing pad); [`HeldCount::keep`] copies it back.
#[derive(Debug)]
pub struct HeldCount<'s, S: Detach> {
    sink: S,
    origin: &'s mut S,
}

impl<'s, S: Detach> HeldCount<'s, S> {
    /// `origin` held with `bits` reserved, or `None` (nothing changed)
    /// when they may not fit.
    #[inline(always)]
    pub(crate) fn hold(origin: &'s mut S, bits: usize) -> Option<Self> {
        origin.reserve(bits).ok()?;
        Some(HeldCount { sink: origin.detach(), origin })
    }

    /// The writes kept: the count back in the sink.
    #[inline(always)]
    pub(crate) fn keep(self) {
        *self.origin = self.sink;
    }
}

impl<S: Detach> BitSink for HeldCount<'_, S> {
    type Checkpoint = S::Checkpoint;

    forward_pushes!(S);

    #[inline(always)]
    fn reserve(&self, _bits: usize) -> Result<(), Error> {
        Ok(())
    }
}

impl<S: Detach> Reserve for HeldCount<'_, S> {
    reserve_in_place!();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Pending;

    /// Every kind of push a derived field makes: widths 1 to 64, words
    /// gathered outside the sink, a string stored straight or (near the
    /// end) pushed, long aligned bytes, a window, a rewind.
    fn run<S: BitSink + Reserve>(sink: &mut S, text: &[u8; 96]) {
        for bits in 1..=64u32 {
            let value = 0x9E37_79B9_7F4A_7C15_u64.rotate_left(bits) & crate::bits::low_mask(bits);
            sink.push(value, bits);
            if bits % 9 == 0 {
                let mut pending = Pending::after(sink, value >> 1, bits - 1);
                pending.put(sink, value.rotate_left(7), 64);
                pending.put_bytes(sink, &text[..bits as usize / 3]);
                pending.finish(sink);
                let start = sink.checkpoint();
                sink.push(u64::MAX, 64);
                sink.rewind(start);
            }
            if bits % 13 == 0 {
                let padding = crate::bits::align_padding(sink.position() + 5);
                if !sink.store_text(bits as u64 & 31, 5 + padding, &text[..bits as usize / 2]) {
                    let mut pending = Pending::after(sink, bits as u64 & 31, 5 + padding);
                    pending.put_bytes(sink, &text[..bits as usize / 2]);
                    pending.finish(sink);
                }
            }
            if bits % 21 == 0 {
                let padding = crate::bits::align_padding(sink.position());
                sink.push(0, padding);
                sink.push_aligned_bytes(&text[..60 + bits as usize / 2]);
                if let Some(mut window) = sink.window(64) {
                    window.push(value, bits);
                    continue;
                }
                sink.push(value, bits);
            }
        }
    }

    /// After 0 to 63 bits already counted (or fingerprinted), the pushes
    /// through a held counter (fingerprint), kept, count (hash) as the same
    /// pushes through the sink itself; one dropped without `keep` leaves
    /// the sink as it was; and one that may not fit is not held.
    #[test]
    fn a_held_count_counts_as_the_sink_and_is_undone_unless_kept() {
        use crate::sink::counter::BitCounter;
        use crate::sink::fingerprint::BitFingerprint;
        let text: [u8; 96] = core::array::from_fn(|index| (index as u8).wrapping_mul(37) ^ 0x5A);
        for lead in 0..64u32 {
            let lead_value = 0x5555_5555_5555_5555 & crate::bits::low_mask(lead);
            let mut direct = BitCounter::new();
            direct.push(lead_value, lead);
            run(&mut direct, &text);
            let bits = direct.position();
            let mut counter = BitCounter::new();
            counter.push(lead_value, lead);
            // A count past `usize::MAX` may not fit.
            if lead > 0 {
                assert!(HeldCount::hold(&mut counter, usize::MAX).is_none(), "after {lead}");
            }
            let mut held = HeldCount::hold(&mut counter, bits - lead as usize).unwrap();
            run(&mut held, &text);
            assert_eq!(held.position(), bits, "after {lead}");
            held.keep();
            assert_eq!(counter, direct, "after {lead}");
            {
                let mut held = HeldCount::hold(&mut counter, bits).unwrap();
                run(&mut held, &text);
            }
            assert_eq!(counter, direct, "after {lead}: undone");

            let mut direct = BitFingerprint::starting_at(lead as usize);
            direct.push(lead_value, lead);
            run(&mut direct, &text);
            let mut fingerprint = BitFingerprint::starting_at(lead as usize);
            fingerprint.push(lead_value, lead);
            let before = fingerprint.finish();
            {
                let mut held = HeldCount::hold(&mut fingerprint, bits).unwrap();
                run(&mut held, &text);
            }
            assert_eq!(fingerprint.finish(), before, "after {lead}: undone");
            let mut held = HeldCount::hold(&mut fingerprint, bits).unwrap();
            run(&mut held, &text);
            held.keep();
            assert_eq!(fingerprint.position(), direct.position(), "after {lead}");
            assert_eq!(fingerprint.finish(), direct.finish(), "after {lead}");
        }
    }

    /// After 0 to 63 bits already written, the pushes through a held
    /// writer, kept, land as the same pushes through the writer itself
    /// (bytes, position, length), into a buffer that ends where the bits
    /// do (no window, strings pushed near the end) or well past them; a
    /// held writer dropped without `keep` leaves the writer as it was.
    #[test]
    fn a_held_writer_writes_as_the_writer_and_is_undone_unless_kept() {
        let text: [u8; 96] = core::array::from_fn(|index| (index as u8).wrapping_mul(37) ^ 0x5A);
        for lead in 0..64u32 {
            let lead_value = 0x5555_5555_5555_5555 & crate::bits::low_mask(lead);
            let mut direct = [0u8; 2048];
            let mut writer = BitWriter::new(&mut direct);
            writer.push(lead_value, lead);
            run(&mut writer, &text);
            let bits = writer.position();
            let len = writer.finish().unwrap();
            for room in [0, 1, 300] {
                let mut through = [0u8; 2048];
                let mut writer = BitWriter::new(&mut through[..len + room]);
                writer.push(lead_value, lead);
                assert!(writer.hold((len + room) * 8 - lead as usize + 1).is_none(), "no room: not held");
                let mut held = writer.hold(bits - lead as usize).unwrap();
                run(&mut held, &text);
                assert_eq!(held.position(), bits, "after {lead}, room {room}");
                held.keep();
                assert_eq!(writer.position(), bits, "after {lead}, room {room}");
                assert_eq!(writer.finish(), Ok(len), "after {lead}, room {room}");
                assert_eq!(through[..len], direct[..len], "after {lead}, room {room}");
            }
            let mut undone = [0u8; 2048];
            let mut writer = BitWriter::new(&mut undone);
            writer.push(lead_value, lead);
            {
                let mut held = writer.hold(bits).unwrap();
                run(&mut held, &text);
            }
            assert_eq!(writer.position(), lead as usize, "after {lead}");
            writer.push(0x2A, 7);
            let len = writer.finish().unwrap();
            let mut expected = [0u8; 16];
            let mut plain = BitWriter::new(&mut expected);
            plain.push(lead_value, lead);
            plain.push(0x2A, 7);
            assert_eq!(plain.finish(), Ok(len));
            assert_eq!(undone[..len], expected[..len], "after {lead}");
        }
    }
}
