//! The client's side: the states decoded, and what to acknowledge.

use core::fmt;

use alloc::vec::Vec;

use super::acks::{ACK_BITS, Acks};
use super::packet::{Digest, Incoming, Sequence, carried, fold, nearest, newer, wire};
use super::sender::Entry;
use super::stale::read_stale;
use crate::change::ChangeGroups;
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::reader::BitReader;

/// Receives a world from a [`Sender`](super::Sender) (see the
/// `sync` module docs): decodes each packet against the state its header
/// names and keeps the last `N` states decoded (`N` world values), which
/// the sender may name as baselines.
pub struct Receiver<W, const N: usize = 32> {
    held: [Option<Held<W>>; N],
    latest: Option<Sequence>,
    /// Scratch for a packet's list of stale entries (and the baseline's
    /// entries it names them among), and the buffer its state's list is
    /// built in (a dropped state's, reused).
    listed: Vec<(usize, usize)>,
    entries: Vec<Entry>,
    stale: Vec<(Entry, Sequence)>,
}

/// A state decoded, and the entries in it older than its packet.
struct Held<W> {
    sequence: Sequence,
    world: W,
    /// The entries the packet left as in its baseline though the server's
    /// had changed (or gone): each with the sequence of the packet whose
    /// server state its value equals, in entry order. Every other entry's
    /// value is the server's of this packet.
    stale: Vec<(Entry, Sequence)>,
}

impl<W> Held<W> {
    /// The sequence of the packet whose server state `entry`'s value
    /// equals, for an entry this state holds.
    fn since(&self, entry: Entry) -> Sequence {
        match self.stale.binary_search_by(|(held, _)| held.cmp(&entry)) {
            Ok(index) => self.stale[index].1,
            Err(_) => self.sequence,
        }
    }
}

/// Laps of the 16-bit sequence a delta's check is tried at beyond the
/// nearest, so that a delta against a state of another lap (a link lost
/// one way for 65,536 packets) is told apart from a corrupt packet. Only
/// the nearest lap can decode; the others only name the error.
const LAPS_AHEAD: i32 = 256;

impl<W: ChangeGroups, const N: usize> Default for Receiver<W, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<W, const N: usize> fmt::Debug for Receiver<W, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Receiver")
            .field("latest", &self.latest.map(wire))
            .field(
                "held",
                &self.held.iter().flatten().map(|held| wire(held.sequence)).collect::<alloc::vec::Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl<W: ChangeGroups, const N: usize> Receiver<W, N> {
    /// A receiver that holds nothing.
    pub fn new() -> Self {
        const { assert!(N > 0 && N <= 32_768, "a Receiver keeps between 1 and 32768 states") };
        Receiver {
            held: core::array::from_fn(|_| None),
            latest: None,
            listed: Vec::new(),
            entries: Vec::new(),
            stale: Vec::new(),
        }
    }

    /// Decodes a packet: `Ok(Some(world))` for a state newer than any
    /// decoded before (kept, and acknowledged from now on); `Ok(None)` for
    /// a stale or duplicate packet, which is ignored. `Err` for bytes that
    /// are not a packet (`ChecksumMismatch`, `UnexpectedEnd`, ...), a whole
    /// state written for another world type, another `SCHEMA`
    /// (`SchemaMismatch`; a delta for one is `ChecksumMismatch`: this
    /// receiver holds no state of that type), or a delta against a state this receiver does
    /// not hold (`MissingBaseline`), including one that has the same 16-bit
    /// sequence from another lap of the counter. Only `Ok(Some)` changes
    /// the receiver.
    pub fn read(&mut self, bytes: &[u8]) -> Result<Option<&W>, Error> {
        let carried = carried(bytes)?;
        let mut reader = BitReader::new(bytes);
        let corrupt = Error::new(ErrorKind::ChecksumMismatch, 0);
        let read = Incoming::read(&mut reader).ok_or(corrupt)?;
        let digest = Digest::of(bytes);
        let header = match read {
            Incoming::Whole { schema, .. } => {
                let header = read.with_baseline(0);
                if digest.check(&header, W::SCHEMA) != carried {
                    return Err(corrupt);
                }
                if schema != fold(W::SCHEMA) {
                    return Err(Error::new(ErrorKind::SchemaMismatch, 0));
                }
                Some(header)
            }
            Incoming::Delta { baseline, .. } => {
                // The baseline's lap: the nearest, where the state held is,
                // else the lap the check holds for.
                let near = self.latest.map_or(Sequence::from(baseline), |latest| nearest(baseline, latest));
                let laps = [0, -1].into_iter().chain(1..=LAPS_AHEAD);
                laps.map(|lap| read.with_baseline(near.wrapping_add_signed(lap << 16)))
                    .find(|header| digest.check(header, W::SCHEMA) == carried)
            }
        }
        .ok_or(corrupt)?;
        if self.latest.is_some_and(|latest| !newer(header.sequence, latest)) {
            return Ok(None);
        }
        let Receiver { held, listed, entries, stale, .. } = self;
        let baseline = match header.baseline {
            Some(baseline) => Some(
                Self::held_in(held, baseline)
                    .ok_or(Error::new(ErrorKind::MissingBaseline, reader.bits_read()))?,
            ),
            None => None,
        };
        let world = match baseline {
            Some(baseline) => W::read_delta(&baseline.world, &mut reader)?,
            None => W::read_from(&mut reader)?,
        };
        read_stale_entries(&mut reader, &world, baseline, (listed, entries), stale)?;
        // Whole bytes left over: another layout; the last byte's unused
        // bits must be the writer's zeros.
        let left = reader.bits_remaining();
        if left >= 8 {
            return Err(Error::new(ErrorKind::TrailingBytes, reader.bits_read()));
        }
        if left > 0 && reader.read_bits(left as u32)? != 0 {
            return Err(Error::new(ErrorKind::NonZeroPadding, bytes.len() * 8 - left));
        }
        let slot = &mut self.held[usize::from(wire(header.sequence)) % N];
        let list = core::mem::take(&mut self.stale);
        if let Some(old) = slot.take() {
            // The dropped state's list is the next packet's buffer.
            self.stale = old.stale;
        }
        *slot = Some(Held { sequence: header.sequence, world, stale: list });
        self.latest = Some(header.sequence);
        Ok(slot.as_ref().map(|held| &held.world))
    }

    /// The newest state decoded.
    pub fn latest(&self) -> Option<&W> {
        self.held(self.latest?).map(|held| &held.world)
    }

    /// The newest sequence decoded, all 32 bits.
    pub(crate) fn newest(&self) -> Option<Sequence> {
        self.latest
    }

    /// The newest sequence decoded.
    pub fn latest_sequence(&self) -> Option<u16> {
        self.latest.map(wire)
    }

    /// The state decoded from packet `sequence`, while kept.
    pub fn get(&self, sequence: u16) -> Option<&W> {
        self.held(nearest(sequence, self.latest?)).map(|held| &held.world)
    }

    /// How fresh `entry` of the newest state is: the sequence of the
    /// packet whose server state its value equals (within the declared
    /// resolutions), so that a game knows each entity's age and can
    /// extrapolate it; `None` for an entry the newest state does not hold.
    /// The packet's own sequence for every entry it carried or found
    /// unchanged; an older one for an entry it left as it was for lack of
    /// room (see [`Sender::held_back`](super::Sender::held_back)). A game
    /// maps sequences to its ticks with
    /// [`Sender::next_sequence`](super::Sender::next_sequence) before each
    /// write.
    ///
    /// Exact for a world whose keyed collections are its own fields; for
    /// a world that nests change-group types, whose packets cannot list
    /// their stale entries, `None`.
    pub fn updated_at(&self, entry: Entry) -> Option<u16> {
        if !W::LISTS_STALE {
            return None;
        }
        let newest = self.held(self.latest?)?;
        match newest.world.holds_entry(None, 0, entry) {
            Ok(Some(_)) => Some(wire(newest.since(entry))),
            _ => None,
        }
    }

    /// The state decoded from packet `sequence` (all 32 bits), while kept.
    fn held(&self, sequence: Sequence) -> Option<&Held<W>> {
        Self::held_in(&self.held, sequence)
    }

    fn held_in(held: &[Option<Held<W>>; N], sequence: Sequence) -> Option<&Held<W>> {
        match &held[usize::from(wire(sequence)) % N] {
            Some(held) if held.sequence == sequence => Some(held),
            _ => None,
        }
    }

    /// What to send back: the newest sequence decoded, and which of the 32
    /// before it this receiver still holds.
    pub fn acks(&self) -> Acks {
        let Some(latest) = self.latest else { return Acks::none() };
        let earlier = (1..=ACK_BITS)
            .filter(|&behind| self.held(latest.wrapping_sub(behind.into())).is_some())
            .fold(0u32, |field, behind| field | 1 << (behind - 1));
        Acks::new(wire(latest), earlier)
    }
}

/// Reads the packet's list of entries left stale into `stale`: each one
/// the new state holds equal to the baseline's (a whole state has none),
/// with the sequence its value is the server's of (`scratch`: the ranks
/// listed, and the baseline's entries they rank).
fn read_stale_entries<W: ChangeGroups>(
    reader: &mut BitReader<'_>,
    world: &W,
    baseline: Option<&Held<W>>,
    scratch: (&mut Vec<(usize, usize)>, &mut Vec<Entry>),
    stale: &mut Vec<(Entry, Sequence)>,
) -> Result<(), Error> {
    let (listed, entries) = scratch;
    let at = reader.bits_read();
    stale.clear();
    entries.clear();
    // The baseline's entries by collection, gathered for a list that
    // names some.
    let mut gathered = false;
    let len_of = |collection: usize| {
        let baseline = baseline.filter(|_| W::LISTS_STALE)?;
        if !gathered {
            baseline.world.each_entry(0, &mut |entry| entries.push(entry));
            gathered = true;
        }
        let first = entries.partition_point(|entry| entry.collection < collection);
        let end = entries.partition_point(|entry| entry.collection <= collection);
        Some(end - first)
    };
    read_stale(reader, len_of, listed)?;
    for &(collection, rank) in listed.iter() {
        let refuse = Error::new(ErrorKind::NonCanonical, at);
        let Some(baseline) = baseline else { return Err(refuse) };
        let first = entries.partition_point(|entry| entry.collection < collection);
        let entry = *entries.get(first + rank).ok_or(refuse)?;
        // Left as in the baseline.
        if world.holds_entry(Some(&baseline.world), 0, entry) != Ok(Some(true)) {
            return Err(refuse);
        }
        stale.push((entry, baseline.since(entry)));
    }
    Ok(())
}
