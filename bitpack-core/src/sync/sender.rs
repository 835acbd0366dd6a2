//! The server's side of one client: the states sent, and which the client holds.

use core::fmt;

use super::acks::Acks;
use super::budget::{Budget, ItemKind, Mirrors, Pass, Prints};
use super::packet::{Header, Sequence, seal, wire};
use super::view::View;
use crate::change::ChangeGroups;
use crate::error::{Error, ErrorKind};
use crate::sink::counter::BitCounter;
use crate::sink::writer::BitWriter;
use crate::write::BitWrite;

/// A keyed entry a packet may hold back, as a priority function sees it:
/// the collection (numbered from 0 in the order the world writes its keyed
/// collections) and the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entry {
    /// Which keyed collection of the world.
    pub collection: usize,
    /// The entry's key, widened.
    pub key: u128,
}

/// The least and most weight a priority function's answer counts for: an
/// entry never waits more than `MAX_WEIGHT / MIN_WEIGHT` times as long as
/// the most urgent one.
const MIN_WEIGHT: f32 = 1.0 / 64.0;
const MAX_WEIGHT: f32 = 64.0;

/// A removal's weight: above any answer, so removals go first.
const REMOVAL_WEIGHT: f32 = 2.0 * MAX_WEIGHT;

/// One state sent, kept until `N` newer packets replace it, with the
/// group prints of its keyed entries (empty unless the packet carried the
/// world whole as a delta: see [`Prints`]) and, for a world held flat
/// ([`ChangeGroups::FLAT_MAP`]), its keyed map's entries (see [`Mirrors`]).
struct Sent<W> {
    sequence: Sequence,
    state: W,
    acked: bool,
    prints: Prints,
    mirrors: Mirrors,
}

/// Sends a world to one client (see the `sync` module docs): every
/// [`write`](Sender::write) is a packet holding the world as a delta
/// against the newest state the client acknowledged (or whole, when the
/// sender keeps none), and never longer than the buffer.
///
/// It keeps the states it sent in the last `N` packets (what the client
/// holds after each), at most `N` world copies (for a derived world whose
/// one keyed collection is a `BTreeMap`, its entries as a flat list beside
/// each, the map itself empty); acknowledgements older than that are
/// ignored. A state older than the newest acknowledged one can no
/// longer be a baseline: its storage records the next packet's state
/// ([`ChangeGroups::record_state`], cheaper than a clone and a drop), and
/// [`Sender::sent`] no longer answers for it.
pub struct Sender<W, const N: usize = 32> {
    sent: [Option<Sent<W>>; N],
    next: Sequence,
    budget: Budget,
    /// [`Sender::write_view`]'s copy of the world less what is out of
    /// scope, kept so that the next copy reuses its storage.
    scoped: Option<W>,
}

impl<W: ChangeGroups + Clone, const N: usize> Default for Sender<W, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<W, const N: usize> fmt::Debug for Sender<W, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sender")
            .field("next_sequence", &wire(self.next))
            .field(
                "held",
                &self
                    .sent
                    .iter()
                    .flatten()
                    .map(|sent| (wire(sent.sequence), sent.acked))
                    .collect::<alloc::vec::Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl<W: ChangeGroups + Clone, const N: usize> Sender<W, N> {
    /// A sender that has sent nothing; its first packet is sequence 0.
    pub fn new() -> Self {
        Self::starting_at(0)
    }

    /// A sender whose first packet is `sequence`.
    pub fn starting_at(sequence: u16) -> Self {
        const { assert!(N > 0 && N <= 32_768, "a Sender keeps between 1 and 32768 states") };
        let mut budget = Budget::new();
        budget.flat = W::FLAT_MAP;
        budget.lists_stale = W::LISTS_STALE;
        Sender { sent: core::array::from_fn(|_| None), next: Sequence::from(sequence), budget, scoped: None }
    }

    /// The sequence the next packet gets.
    pub fn next_sequence(&self) -> u16 {
        wire(self.next)
    }

    /// The sequence the next packet gets, all 32 bits (a fragment carries
    /// them: see `fragments.rs`).
    pub(crate) fn next_packet(&self) -> Sequence {
        self.next
    }

    /// How many keyed entries (changed, spawned or removed) the last
    /// packet written left out for lack of room, to send in later ones; 0
    /// when it carried everything. The client's copies of those entries
    /// are older than the packet (see the `sync` guide on freshness).
    pub fn held_back(&self) -> usize {
        self.budget.waiting()
    }

    /// The state the next packet is a delta against: the newest one the
    /// client acknowledged that is still kept.
    pub fn baseline(&self) -> Option<u16> {
        self.newest_acked().and_then(|index| self.sent[index].as_ref()).map(|sent| wire(sent.sequence))
    }

    /// A copy of what the client holds after decoding packet `sequence`,
    /// while kept: one of the last `N` packets, not older than the newest
    /// acknowledged one (whose storage the next packet's state reuses). A
    /// copy, not a reference: a world held flat has its map rebuilt from
    /// the list beside it.
    pub fn sent(&mut self, sequence: u16) -> Option<W> {
        let sent =
            self.sent[slot::<N>(sequence.into())].as_mut().filter(|sent| wire(sent.sequence) == sequence)?;
        let mut state = sent.state.clone();
        if W::FLAT_MAP {
            let budget = &mut self.budget;
            core::mem::swap(&mut budget.baseline_mirrors, &mut sent.mirrors);
            budget.begin(Pass::Restore);
            let restored = sent.state.sent_state(&mut state, None, budget);
            core::mem::swap(&mut budget.baseline_mirrors, &mut sent.mirrors);
            restored.ok()?;
        }
        Some(state)
    }

    /// Whether packet `sequence`'s state is kept (see [`Sender::sent`]).
    fn holds(&self, sequence: u16) -> bool {
        matches!(&self.sent[slot::<N>(sequence.into())], Some(sent) if wire(sent.sequence) == sequence)
    }

    /// Takes the client's acknowledgements: what it holds now. The newest
    /// acknowledged state still kept becomes the next packets' baseline.
    /// A state an earlier ack listed but this one does not (a forged or
    /// mistaken ack, or one the client no longer holds) is not used again
    /// unless a later ack lists it. An ack whose newest packet is no
    /// longer kept, or was never sent, only withdraws: it names sequences
    /// that other packets may have reused.
    pub fn ack(&mut self, acks: &Acks) {
        let Some(newest) = acks.newest() else {
            // The client holds nothing.
            self.sent.iter_mut().flatten().for_each(|sent| sent.acked = false);
            return;
        };
        let kept = self.holds(newest);
        for sent in self.sent.iter_mut().flatten() {
            let listed = acks.contains(wire(sent.sequence));
            sent.acked = listed && (kept || sent.acked);
        }
    }

    /// Writes the next packet for `world` into `buf` and returns its length.
    ///
    /// When the world does not fit, keyed collections send the removals
    /// (despawned entries), then the entries that have waited longest, and
    /// leave the rest for later packets (every entry's priority grows by 1
    /// each packet it is held back; [`Sender::held_back`] says how many);
    /// the state recorded for the packet is what the client will hold.
    /// `Err` when even a packet without any entry does not fit
    /// (`BufferFull`), or the world cannot be written (a value out of
    /// range, a collection over its `max_len`); then nothing is recorded
    /// and the sequence is not used.
    pub fn write(&mut self, world: &W, buf: &mut [u8]) -> Result<usize, Error> {
        self.write_prioritized(world, buf, |_, _| 1.0)
    }

    /// [`Sender::write`] for a client that sees the world through `view`:
    /// the entries out of its scope are, for this client, despawned (sent
    /// as removals, removals first when the packet cannot carry
    /// everything) and spawned again when they come back in scope; held
    /// back entries' priorities grow by `view.priority`. It writes a copy
    /// of the world without the entries out of scope (recorded into the
    /// storage of the last one: `ChangeGroups::record_state`).
    pub fn write_view(&mut self, world: &W, buf: &mut [u8], view: &mut impl View<W>) -> Result<usize, Error> {
        let mut scoped = match self.scoped.take() {
            Some(mut scoped) => {
                if !world.record_state(&mut scoped) {
                    scoped.clone_from(world);
                }
                scoped
            }
            None => world.clone(),
        };
        scoped.retain_entries(0, &mut |entry| view.in_scope(world, entry));
        let written = self.write_prioritized(&scoped, buf, |_, entry| view.priority(world, entry));
        self.scoped = Some(scoped);
        written
    }

    /// [`Sender::write`], with each held-back entry's priority growing by
    /// `priority(world, entry)` per packet instead of 1 (for example more
    /// for entities near the client). Answers are clamped to
    /// `1/64..=64` (not finite: 1/64), so no entry waits more than 4096
    /// times as long as the most urgent one. Called only for packets that
    /// cannot carry everything, and not for removals, which go first.
    pub fn write_prioritized(
        &mut self,
        world: &W,
        buf: &mut [u8],
        mut priority: impl FnMut(&W, Entry) -> f32,
    ) -> Result<usize, Error> {
        let sequence = self.next;
        let baseline_slot = self.newest_acked().filter(|&index| self.sent[index].is_some());
        // The storage the new state is recorded into (see `spare`).
        let spare_slot = self.spare(baseline_slot);
        let (mut spare, spare_prints) = match spare_slot.and_then(|index| self.sent[index].take()) {
            Some(Sent { sequence, state, acked, prints, mirrors }) => {
                (Some(state), Some((sequence, acked, prints, mirrors)))
            }
            None => (None, None),
        };
        // The baseline's prints and lists go to the budget for the packet,
        // and back.
        match baseline_slot.and_then(|index| self.sent[index].as_mut()) {
            Some(sent) => {
                core::mem::swap(&mut self.budget.baseline_prints, &mut sent.prints);
                core::mem::swap(&mut self.budget.baseline_mirrors, &mut sent.mirrors);
            }
            None => self.budget.baseline_prints.clear(),
        }
        let written = self.write_packet(sequence, baseline_slot, world, buf, &mut spare, &mut priority);
        if let Some(sent) = baseline_slot.and_then(|index| self.sent[index].as_mut()) {
            core::mem::swap(&mut self.budget.baseline_prints, &mut sent.prints);
            core::mem::swap(&mut self.budget.baseline_mirrors, &mut sent.mirrors);
        }
        let (used, state, whole) = match written {
            Ok(written) => written,
            Err(error) => {
                // Put back a spare not yet written into (one written into is
                // gone: a state older than the baseline, or the one this
                // packet's slot drops anyway).
                if let (Some(index), Some(state), Some((sequence, acked, prints, mirrors))) =
                    (spare_slot, spare, spare_prints)
                {
                    self.sent[index] = Some(Sent { sequence, state, acked, prints, mirrors });
                }
                return Err(error);
            }
        };
        let baseline = baseline_slot.and_then(|index| self.sent[index].as_ref()).map(|sent| sent.sequence);
        seal(&mut buf[..used], W::SCHEMA, &Header { sequence, baseline });
        // Reuse the spare's (or the slot's) buffers for the new prints; a
        // packet that held entries back keeps none (its state is not the
        // world written).
        let slot = &mut self.sent[slot::<N>(sequence)];
        let old = slot.take().map(|old| (old.prints, old.mirrors));
        let (mut prints, mut mirrors) =
            spare_prints.map(|(_, _, prints, mirrors)| (prints, mirrors)).or(old).unwrap_or_default();
        if whole {
            core::mem::swap(&mut prints, &mut self.budget.prints);
        } else {
            prints.clear();
        }
        // The world's list, as the packet left it, is the state's; the old
        // state's buffer is the next packet's scratch.
        if W::FLAT_MAP {
            core::mem::swap(&mut mirrors, &mut self.budget.mirrors);
        }
        *slot = Some(Sent { sequence, state, acked: false, prints, mirrors });
        self.next = sequence.wrapping_add(1);
        Ok(used)
    }

    /// Writes the packet against the state in `baseline_slot` (or whole):
    /// its length, the state to record, and whether it carried everything.
    fn write_packet(
        &mut self,
        sequence: Sequence,
        baseline_slot: Option<usize>,
        world: &W,
        buf: &mut [u8],
        spare: &mut Option<W>,
        priority: &mut impl FnMut(&W, Entry) -> f32,
    ) -> Result<(usize, W, bool), Error> {
        let baseline = baseline_slot.and_then(|index| self.sent[index].as_ref());
        let header = Header { sequence, baseline: baseline.map(|sent| sent.sequence) };
        let baseline = baseline.map(|sent| &sent.state);
        let budget = &mut self.budget;

        // Everything, straight into the buffer: the common case. After a
        // packet that held entries back, the next one likely cannot carry
        // everything either: measure first.
        let attempt = if budget.is_waiting() {
            Err(Error::new(ErrorKind::BufferFull, 0))
        } else {
            budget.begin_direct();
            let mut writer = BitWriter::new(buf);
            write_packet(&header, world, baseline, &mut writer, budget).and_then(|()| writer.finish())
        };
        match attempt {
            Ok(used) => Ok((used, record(world, spare), true)),
            Err(error) if error.kind() == ErrorKind::BufferFull => {
                let (used, state) = write_budgeted(&header, world, baseline, buf, budget, spare, priority)?;
                Ok((used, state, false))
            }
            Err(error) => Err(error),
        }
    }

    /// The slot of the state whose storage the next packet's state reuses
    /// (see [`ChangeGroups::record_state`]): the newest one kept that is
    /// older than the baseline, which is never a baseline again (the
    /// baseline only moves forward), else the one the new packet's slot
    /// would drop. A state a tick or two old is nearly the world, so
    /// bringing it up to date costs less than a clone and the old state's
    /// drop.
    fn spare(&self, baseline_slot: Option<usize>) -> Option<usize> {
        let age = |index: usize| self.sent[index].as_ref().map(|sent| self.next.wrapping_sub(sent.sequence));
        let dead = baseline_slot.and_then(age).and_then(|baseline_age| {
            (0..N).filter_map(|index| Some((age(index).filter(|&age| age > baseline_age)?, index))).min()
        });
        let evicted = slot::<N>(self.next);
        dead.map(|(_, index)| index)
            .or((Some(evicted) != baseline_slot && self.sent[evicted].is_some()).then_some(evicted))
    }

    /// The slot of the newest acknowledged state kept.
    fn newest_acked(&self) -> Option<usize> {
        (0..N)
            .filter_map(|index| match &self.sent[index] {
                Some(sent) if sent.acked => Some((self.next.wrapping_sub(sent.sequence), index)),
                _ => None,
            })
            .min()
            .map(|(_, index)| index)
    }
}

/// The ring slot of `sequence`.
fn slot<const N: usize>(sequence: Sequence) -> usize {
    usize::from(wire(sequence)) % N
}

/// A copy of `world`, recorded into `spare`'s storage when there is one
/// (`clone_from` where the type does not record). A world held flat keeps
/// its map empty: its entries are the packet's list.
fn record<W: ChangeGroups + Clone>(world: &W, spare: &mut Option<W>) -> W {
    match spare.take() {
        Some(mut state) => {
            // `record_state` unless the type is held flat (the default).
            if !world.hold_state(&mut state) {
                state.clone_from(world);
            }
            state
        }
        None => {
            let mut state = world.clone();
            if W::FLAT_MAP {
                // The sender's first packets only: the clone's map emptied.
                world.hold_state(&mut state);
            }
            state
        }
    }
}

/// The header, then the world whole or as a delta, through `budget`.
fn write_packet<W: ChangeGroups, S: BitWrite>(
    header: &Header,
    world: &W,
    baseline: Option<&W>,
    writer: &mut S,
    budget: &mut Budget,
) -> Result<(), Error> {
    header.write(writer, W::SCHEMA)?;
    match baseline {
        Some(baseline) => world.write_delta_within(baseline, writer, budget)?,
        None => world.write_to_within(writer, budget)?,
    }
    budget.write_stale(writer)
}

/// A packet that cannot hold everything: measure every candidate entry,
/// select by priority what fits, write that, and build the state the
/// client will hold.
fn write_budgeted<W: ChangeGroups + Clone>(
    header: &Header,
    world: &W,
    baseline: Option<&W>,
    buf: &mut [u8],
    budget: &mut Budget,
    spare: &mut Option<W>,
    priority: &mut impl FnMut(&W, Entry) -> f32,
) -> Result<(usize, W), Error> {
    budget.begin(Pass::Measure);
    write_packet(header, world, baseline, &mut BitCounter::new(), budget)?;
    // The packet without any entry, measured: how a keyed collection places
    // its entries (marks or gaps) depends on which it carries.
    budget.select_none();
    budget.begin(Pass::Apply);
    // Without the list of the entries left stale, which the selection
    // decides.
    budget.listing = false;
    let mut counter = BitCounter::new();
    let measured = write_packet(header, world, baseline, &mut counter, budget);
    budget.listing = true;
    measured?;
    budget.check_complete()?;
    let fixed = counter.bits_written();
    let room = buf.len().saturating_mul(8);
    if fixed > room {
        return Err(Error::new(ErrorKind::BufferFull, room));
    }
    // Removals first: a despawned entry (or one out of a view's scope)
    // leaves the client's world at once, for a few bits.
    budget.prioritize(|collection, key, kind| {
        if kind == ItemKind::Removed {
            return REMOVAL_WEIGHT;
        }
        let weight = priority(world, Entry { collection, key });
        if weight.is_finite() { weight.clamp(MIN_WEIGHT, MAX_WEIGHT) } else { MIN_WEIGHT }
    });
    // The list of stale entries takes room too: select again in less
    // until the selection and its list fit (the write below drops entries
    // should they still not).
    let mut listed = 0;
    for _ in 0..4 {
        let selected = budget.select(fixed, room.saturating_sub(listed));
        // Its last bit is in `fixed`.
        let list = budget.stale_bits().saturating_sub(1);
        if selected.saturating_add(list) <= room || list <= listed {
            break;
        }
        listed = list;
    }
    let used = loop {
        budget.begin(Pass::Apply);
        let mut writer = BitWriter::new(buf);
        let written =
            write_packet(header, world, baseline, &mut writer, budget).and_then(|()| budget.check_complete());
        match written.and_then(|()| writer.finish()) {
            Ok(used) => break used,
            // Longer than measured (padding moves with the position): one
            // entry fewer.
            Err(error) if error.kind() == ErrorKind::BufferFull && budget.drop_lowest() => {}
            Err(error) => return Err(error),
        }
    };
    budget.begin(Pass::State);
    let mut state = record(world, spare);
    world.sent_state(&mut state, baseline, budget)?;
    budget.check_complete()?;
    budget.remember_waiting();
    Ok((used, state))
}
