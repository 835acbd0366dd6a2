//! The packet budget: which keyed entries a packet that cannot carry them
//! all sends, and the bookkeeping that lets the sender record exactly what
//! the receiver will hold.
//!
//! A [`Sender`](super::Sender) drives a world through up to three passes of
//! the same traversal ([`ChangeGroups::write_delta_within`] or
//! [`ChangeGroups::write_to_within`], then [`ChangeGroups::sent_state`]);
//! each keyed collection it meets is one *visit*, numbered in traversal
//! order, and each entry it would send is one *candidate*:
//!
//! 1. **measure**: every candidate is written and its cost recorded;
//! 2. **apply**: only the selected candidates are written;
//! 3. **state**: the value the receiver holds after the packet is built.
//!
//! [`ChangeGroups::write_delta_within`]: crate::ChangeGroups::write_delta_within
//! [`ChangeGroups::write_to_within`]: crate::ChangeGroups::write_to_within
//! [`ChangeGroups::sent_state`]: crate::ChangeGroups::sent_state

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::any::Any;
use core::fmt;

use super::stale::write_stale;
use crate::error::{Error, ErrorKind};
use crate::write::BitWrite;

/// What the current pass does at each keyed collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    /// Write every candidate, recording each one and its cost.
    Measure,
    /// Write the selected candidates only.
    Apply,
    /// Build the state the receiver holds after the applied packet.
    State,
    /// Rebuild a held state's keyed maps from its flat lists (see
    /// [`Mirrors`]), for [`Sender::sent`](super::Sender::sent).
    Restore,
}

/// What a candidate does to the receiver's collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ItemKind {
    /// An entry in both the world and the baseline, not equal.
    Changed,
    /// An entry in the world only.
    New,
    /// An entry in the baseline only.
    Removed,
}

/// One entry a packet may carry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate {
    pub(crate) key: u128,
    pub(crate) kind: ItemKind,
    /// Bits after the key: the kind bit (if any) and the entry's data.
    pub(crate) bits: usize,
    /// Accumulated priority (set by the sender before selection).
    pub(crate) priority: f32,
    pub(crate) send: bool,
    /// Its place among the baseline's entries (changed and removed ones).
    pub(crate) rank: usize,
}

/// One keyed collection met by the traversal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Visit {
    /// Its candidates: `candidates[first..first + len]`, in key order.
    pub(crate) first: usize,
    pub(crate) len: usize,
    /// Bits of a key written as the gap `gap` from the previous one.
    pub(crate) gap_bits: fn(u128) -> usize,
    /// The baseline's entries (in a delta; 0 whole).
    pub(crate) baseline_len: usize,
}

impl Visit {
    /// Bits of `key`'s gap after `previous` (the first key's from 0).
    fn key_bits(&self, previous: Option<u128>, key: u128) -> usize {
        let gap = match previous {
            Some(previous) => key.wrapping_sub(previous).wrapping_sub(1),
            None => key,
        };
        (self.gap_bits)(gap)
    }
}

/// The state a [`Sender`](super::Sender) passes through
/// [`ChangeGroups::write_delta_within`], [`ChangeGroups::write_to_within`]
/// and [`ChangeGroups::sent_state`] so that keyed collections can leave
/// entries out of a packet that cannot hold them all, and the sender can
/// record what the receiver will then hold.
///
/// Implementations never look inside it: they pass it on to the keyed
/// collection runtime (generated code does), or ignore it (the default
/// methods do, and then every entry is always sent). It keeps its buffers
/// from packet to packet, so a warmed-up sender does not allocate for it.
///
/// [`ChangeGroups::write_delta_within`]: crate::ChangeGroups::write_delta_within
/// [`ChangeGroups::write_to_within`]: crate::ChangeGroups::write_to_within
/// [`ChangeGroups::sent_state`]: crate::ChangeGroups::sent_state
#[derive(Clone, Debug)]
pub struct Budget {
    pass: Pass,
    /// The next visit number in an apply or state pass.
    next_visit: usize,
    /// Where the last opened visit's candidates start.
    open: usize,
    visits: Vec<Visit>,
    candidates: Vec<Candidate>,
    /// Scratch for the selection order.
    order: Vec<u32>,
    /// Entries held back from earlier packets, by visit and key, with the
    /// priority they accumulated; and the buffer for the next such list.
    waiting: Vec<Waiting>,
    spare: Vec<Waiting>,
    /// Scratch for a sorted `Vec`'s state: the entries held back.
    pub(crate) edits: Vec<Edit>,
    /// Scratch for a measure pass: the items its counting walk met, where
    /// each stands (item, world index, baseline rank) and its kind.
    pub(crate) met: Vec<([usize; 3], ItemKind)>,
    /// The sender's cache (see [`Prints`]): the baseline's, read by a
    /// measure pass, and the one it records for the world.
    pub(crate) baseline_prints: Prints,
    pub(crate) prints: Prints,
    /// The sender holds its states' keyed map as flat lists
    /// ([`crate::ChangeGroups::FLAT_MAP`]): the baseline's, walked instead
    /// of its tree, and the scratch the world's is copied into, which
    /// becomes the packet's state.
    pub(crate) flat: bool,
    pub(crate) baseline_mirrors: Mirrors,
    pub(crate) mirrors: Mirrors,
    /// The measure pass under way writes straight into the packet
    /// ([`Budget::begin_direct`]): should the packet not fit, a new measure
    /// pass counts every candidate again, so this one need not record those
    /// it can skip (see `keyed::write_delta`).
    pub(crate) direct: bool,
    /// Bit `n`: visit `n`'s last direct measure pass found its touched
    /// entries fewer bits as a list than as marks, so the next one counts
    /// before it writes (see `keyed::write_marked`) rather than writing
    /// them as marks first, likely in vain.
    pub(crate) listed: u64,
    /// An apply pass lists the stale entries (see [`Budget::write_stale`]);
    /// off to measure a packet without them.
    pub(crate) listing: bool,
    /// The world type's `ChangeGroups::LISTS_STALE`.
    pub(crate) lists_stale: bool,
}

/// The group prints of every entry of each keyed collection of a state,
/// by visit: `entries x V::PRINTS` digests in key order (see
/// [`crate::ChangeGroups::write_delta_cached`]), or not known. A sender
/// keeps one beside each state it recorded, so that a delta against it
/// compares the world's groups with the baseline's prints instead of
/// fingerprinting the baseline again.
#[derive(Clone, Debug, Default)]
pub(crate) struct Prints {
    /// Each visit's buffer, and whether it holds that visit's prints. A
    /// buffer forgotten keeps its contents, so that the next visit given it
    /// need not zero what it writes over anyway.
    pub(crate) visits: Vec<(bool, Vec<u64>)>,
}

impl Prints {
    /// Forgets every print, keeping the buffers.
    pub(crate) fn clear(&mut self) {
        for (known, _) in &mut self.visits {
            *known = false;
        }
    }

    /// A buffer for the prints of visit `number`, to fill: its old contents,
    /// any length (a visit writes every print it keeps).
    pub(crate) fn take(&mut self, number: usize) -> Vec<u64> {
        if self.visits.len() <= number {
            self.visits.resize_with(number + 1, Default::default);
        }
        self.visits[number].0 = false;
        core::mem::take(&mut self.visits[number].1)
    }

    pub(crate) fn put(&mut self, number: usize, prints: Vec<u64>) {
        if let Some(slot) = self.visits.get_mut(number) {
            *slot = (true, prints);
        }
    }

    /// Visit `number`'s prints, taken out, if they are known and hold `len`
    /// of them (and some); else an empty buffer.
    pub(crate) fn take_if_holds(&mut self, number: usize, len: usize) -> Vec<u64> {
        match self.visits.get_mut(number) {
            Some((known @ true, prints)) if prints.len() == len && len > 0 => {
                *known = false;
                core::mem::take(prints)
            }
            _ => Vec::new(),
        }
    }
}

/// A state's keyed maps as flat lists, by visit: each a `Vec<(K, V)>` in
/// key order, type-erased (the budget serves every world type), and
/// whether it holds that state's entries. A sender whose world has
/// [`crate::ChangeGroups::FLAT_MAP`] keeps one beside each state it
/// recorded (whose tree is then empty): a delta walks the baseline's list,
/// and the world's entries are copied into a list once (where recording
/// them into a tree cost more than the whole delta's other work with
/// them), then walked as a slice.
#[derive(Default)]
pub(crate) struct Mirrors {
    visits: Vec<(bool, Option<Box<dyn Any + Send + Sync>>)>,
}

// A budget is `Clone`: a clone starts without lists (a sender never
// clones its budget).
impl Clone for Mirrors {
    fn clone(&self) -> Self {
        Mirrors::default()
    }
}

impl fmt::Debug for Mirrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.visits.iter().map(|(known, _)| known)).finish()
    }
}

// The lists travel in the boxes their slots erase them in (`Box<dyn Any + Send + Sync>`
// downcast), not re-boxed each packet.
#[allow(clippy::box_collection)]
impl Mirrors {
    /// Visit `number`'s list, taken out, if it holds the state's entries.
    pub(crate) fn take<K: Send + Sync + 'static, V: Send + Sync + 'static>(
        &mut self,
        number: usize,
    ) -> Option<Box<Vec<(K, V)>>> {
        match self.visits.get_mut(number) {
            Some((true, list)) => list.take()?.downcast().ok(),
            _ => None,
        }
    }

    /// Puts back a list [`Mirrors::take`] took, as visit `number`'s.
    pub(crate) fn put<K: Send + Sync + 'static, V: Send + Sync + 'static>(
        &mut self,
        number: usize,
        list: Box<Vec<(K, V)>>,
    ) {
        if self.visits.len() <= number {
            self.visits.resize_with(number + 1, || (false, None));
        }
        self.visits[number] = (true, Some(list));
    }

    /// Makes visit `number`'s list a copy of `entries`, in its old buffer
    /// (values `clone_from`ed over the old ones where it has them).
    pub(crate) fn fill<'a, K: Copy + Send + Sync + 'static, V: Clone + Send + Sync + 'static>(
        &mut self,
        number: usize,
        len: usize,
        entries: impl Iterator<Item = (K, &'a V)>,
    ) {
        let old = self.visits.get_mut(number).and_then(|(_, list)| list.take());
        let mut list = match old.map(|list| list.downcast::<Vec<(K, V)>>()) {
            Some(Ok(list)) => list,
            _ => Box::new(Vec::new()),
        };
        let kept = list.len().min(len);
        list.truncate(kept);
        list.reserve(len - kept);
        let mut entries = entries;
        for (slot, (key, value)) in list.iter_mut().zip(entries.by_ref()) {
            slot.0 = key;
            slot.1.clone_from(value);
        }
        list.extend(entries.map(|(key, value)| (key, value.clone())));
        self.put(number, list);
    }
}

/// An entry a packet held back from a sorted `Vec`, to undo in the state
/// recorded for the packet (a copy of the world's): at index `at` of the
/// world's entries, the baseline's entry `from` (none for a new entry),
/// replacing the world's (`in_now`) or put back before it (a removal).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edit {
    pub(crate) at: usize,
    pub(crate) from: Option<usize>,
    pub(crate) in_now: bool,
}

/// An entry held back, and the priority it accumulated.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    visit: usize,
    key: u128,
    priority: f32,
}

/// How many candidates in a row may fail to fit before the selection stops
/// looking for smaller ones.
const MISSES: usize = 32;

impl Budget {
    pub(crate) const fn new() -> Self {
        Budget {
            pass: Pass::Measure,
            next_visit: 0,
            open: 0,
            visits: Vec::new(),
            candidates: Vec::new(),
            order: Vec::new(),
            waiting: Vec::new(),
            spare: Vec::new(),
            edits: Vec::new(),
            met: Vec::new(),
            baseline_prints: Prints { visits: Vec::new() },
            prints: Prints { visits: Vec::new() },
            flat: false,
            baseline_mirrors: Mirrors { visits: Vec::new() },
            mirrors: Mirrors { visits: Vec::new() },
            direct: false,
            listed: 0,
            listing: true,
            lists_stale: true,
        }
    }

    /// Starts a measure pass that writes straight into the packet (see
    /// [`Budget::direct`]).
    pub(crate) fn begin_direct(&mut self) {
        self.begin(Pass::Measure);
        self.direct = true;
    }

    pub(crate) fn pass(&self) -> Pass {
        self.pass
    }

    /// Starts a pass: a measure forgets the last packet's candidates.
    pub(crate) fn begin(&mut self, pass: Pass) {
        self.pass = pass;
        self.next_visit = 0;
        self.direct = false;
        if pass == Pass::Measure {
            self.visits.clear();
            self.candidates.clear();
            self.prints.clear();
        }
    }

    /// The number of the visit under way, in any pass (before the visit
    /// opens or takes its candidates).
    pub(crate) fn visit_at(&self) -> usize {
        match self.pass {
            Pass::Measure => self.visits.len(),
            Pass::Apply | Pass::State | Pass::Restore => self.next_visit,
        }
    }

    /// Restore pass: the visit under way is done.
    pub(crate) fn restored_visit(&mut self) {
        self.next_visit += 1;
    }

    /// Measure pass: the number the next visit gets.
    pub(crate) fn next_visit_number(&self) -> usize {
        self.visits.len()
    }

    /// Measure pass: a new visit, whose candidates follow.
    pub(crate) fn open_visit(&mut self, gap_bits: fn(u128) -> usize) {
        self.open = self.candidates.len();
        self.visits.push(Visit { first: self.open, len: 0, gap_bits, baseline_len: 0 });
    }

    /// Measure pass: a candidate of the last opened visit.
    #[inline]
    pub(crate) fn push(&mut self, key: u128, kind: ItemKind) {
        self.candidates.push(Candidate { key, kind, bits: 0, priority: 0.0, send: true, rank: 0 });
        if let Some(visit) = self.visits.last_mut() {
            visit.len += 1;
        }
    }

    /// Measure pass: the last opened visit's baseline holds `len` entries.
    pub(crate) fn set_baseline_len(&mut self, len: usize) {
        if let Some(visit) = self.visits.last_mut() {
            visit.baseline_len = len;
        }
    }

    /// Measure pass: the last candidate's place among the baseline's entries.
    #[inline]
    pub(crate) fn set_rank(&mut self, rank: usize) {
        if let Some(candidate) = self.candidates.last_mut() {
            candidate.rank = rank;
        }
    }

    /// Measure pass: the cost of the candidate `index` of the last visit.
    #[inline]
    pub(crate) fn set_bits(&mut self, index: usize, bits: usize) {
        if let Some(candidate) = self.candidates.get_mut(self.open + index) {
            candidate.bits = bits;
        }
    }

    /// Apply and state passes: the next visit's candidates, in key order.
    /// `Err` when the traversal does not match the measured one (the world
    /// or the baseline changed between passes, or an implementation visits
    /// its collections in another order).
    pub(crate) fn take_visit(&mut self, at: usize) -> Result<&[Candidate], Error> {
        let visit = self.visits.get(self.next_visit).ok_or(Error::new(ErrorKind::InvalidDeclaration, at))?;
        self.next_visit += 1;
        self.candidates
            .get(visit.first..visit.first + visit.len)
            .ok_or(Error::new(ErrorKind::InvalidDeclaration, at))
    }

    /// Apply and state passes: `Ok` when the traversal met every visit the
    /// measure did (an implementation that does not pass the budget on, or
    /// leaves `sent_state` to its default, meets none).
    pub(crate) fn check_complete(&self) -> Result<(), Error> {
        if self.next_visit == self.visits.len() {
            Ok(())
        } else {
            Err(Error::new(ErrorKind::InvalidDeclaration, 0))
        }
    }

    /// Measure pass, last visit: the candidates recorded so far.
    #[inline]
    pub(crate) fn open_candidates(&self) -> &[Candidate] {
        self.candidates.get(self.open..).unwrap_or(&[])
    }

    #[cfg(test)]
    fn candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    #[cfg(test)]
    fn candidates_mut(&mut self) -> &mut [Candidate] {
        &mut self.candidates
    }

    /// Sets each candidate's priority: what it had accumulated while held
    /// back from earlier packets, plus `weight(visit, key, kind)`.
    pub(crate) fn prioritize(&mut self, mut weight: impl FnMut(usize, u128, ItemKind) -> f32) {
        let Budget { visits, candidates, waiting, .. } = self;
        let mut waited = waiting.iter().peekable();
        for (number, visit) in visits.iter().enumerate() {
            for candidate in candidates.get_mut(visit.first..visit.first + visit.len).unwrap_or(&mut []) {
                let id = (number, candidate.key);
                while waited.next_if(|w| (w.visit, w.key) < id).is_some() {}
                let before = waited.next_if(|w| (w.visit, w.key) == id).map_or(0.0, |w| w.priority);
                candidate.priority = before + weight(number, candidate.key, candidate.kind);
            }
        }
    }

    /// After a packet that held candidates back: they keep their priority.
    pub(crate) fn remember_waiting(&mut self) {
        let Budget { visits, candidates, waiting, spare, .. } = self;
        spare.clear();
        for (number, visit) in visits.iter().enumerate() {
            for candidate in candidates.get(visit.first..visit.first + visit.len).unwrap_or(&[]) {
                if !candidate.send {
                    spare.push(Waiting { visit: number, key: candidate.key, priority: candidate.priority });
                }
            }
        }
        core::mem::swap(waiting, spare);
    }

    /// Whether the last packet held entries back (that wait still).
    pub(crate) fn is_waiting(&self) -> bool {
        !self.waiting.is_empty()
    }

    /// How many entries the last packet held back.
    pub(crate) fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// Writes the list of the baseline's entries the packet under way
    /// leaves as they were though they changed or were removed (in an
    /// apply pass that lists them: see [`Budget::listing`]), so that a
    /// receiver knows how old each entry it holds is: see [`write_stale`].
    pub(crate) fn write_stale<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        let listing = self.pass == Pass::Apply && self.listing && self.lists_stale;
        let visits = self.visits.iter().enumerate().filter(|_| listing).map(|(number, visit)| {
            let stale = self.candidates[visit.first..visit.first + visit.len]
                .iter()
                .filter(|candidate| !candidate.send && candidate.kind != ItemKind::New)
                .map(|candidate| candidate.rank);
            (number, visit.baseline_len, stale)
        });
        write_stale(writer, visits)
    }

    /// The bits [`Budget::write_stale`] writes for the current selection.
    pub(crate) fn stale_bits(&self) -> usize {
        let mut counter = crate::sink::counter::BitCounter::new();
        match self.write_stale(&mut counter) {
            Ok(()) => counter.bits_written(),
            Err(_) => usize::MAX,
        }
    }

    /// Unselects every candidate (a packet without any entry, to measure).
    pub(crate) fn select_none(&mut self) {
        for candidate in &mut self.candidates {
            candidate.send = false;
        }
    }

    /// Selects candidates by priority, highest first, while the packet
    /// (`fixed` bits without any candidate) stays within `room` bits. A
    /// candidate that does not fit is passed over for smaller ones after
    /// it, up to [`MISSES`] in a row. Returns the bits of the selection.
    pub(crate) fn select(&mut self, fixed: usize, room: usize) -> usize {
        for candidate in &mut self.candidates {
            candidate.send = false;
        }
        self.order.clear();
        self.order.extend(0..self.candidates.len() as u32);
        let candidates = &self.candidates;
        // Stable: equal priorities go in traversal (key) order.
        self.order.sort_by(|&a, &b| {
            let (a, b) = (&candidates[a as usize], &candidates[b as usize]);
            b.priority.total_cmp(&a.priority)
        });
        let mut used = fixed;
        let mut misses = 0;
        for position in 0..self.order.len() {
            let index = self.order[position] as usize;
            let cost = self.added_bits(index);
            if used.saturating_add(cost) <= room {
                used += cost;
                self.candidates[index].send = true;
                misses = 0;
            } else {
                misses += 1;
                if misses >= MISSES {
                    break;
                }
            }
        }
        used
    }

    /// Unselects the selected candidate of lowest priority; `false` when
    /// none is selected. For a packet that came out longer than measured
    /// (alignment padding moves with the position).
    pub(crate) fn drop_lowest(&mut self) -> bool {
        let lowest = (0..self.order.len())
            .rev()
            .map(|position| self.order[position] as usize)
            .find(|&index| self.candidates[index].send);
        match lowest {
            Some(index) => {
                self.candidates[index].send = false;
                true
            }
            None => false,
        }
    }

    /// The bits selecting candidate `index` adds: its own, its key's gap
    /// from the selected candidate before it, and the change to the gap of
    /// the selected candidate after it. An estimate: the keyed delta places
    /// the baseline's entries by marks or rank gaps (a rank gap is never
    /// longer than the key gap it replaces) and the new ones by key gaps
    /// among themselves, but adds a form
    /// bit and two counts once anything is sent, so a packet can come out
    /// a few bits longer than selected; the write then drops an entry.
    fn added_bits(&self, index: usize) -> usize {
        let Some(visit) =
            self.visits.iter().find(|visit| (visit.first..visit.first + visit.len).contains(&index))
        else {
            return usize::MAX;
        };
        let candidates = &self.candidates;
        let key = candidates[index].key;
        let previous = candidates[visit.first..index].iter().rev().find(|c| c.send).map(|c| c.key);
        let next = candidates[index + 1..visit.first + visit.len].iter().find(|c| c.send).map(|c| c.key);
        let mut bits = candidates[index].bits + visit.key_bits(previous, key);
        if let Some(next) = next {
            // The next one's gap now starts here: never longer than before.
            bits = (bits + visit.key_bits(Some(key), next)).saturating_sub(visit.key_bits(previous, next));
        }
        bits
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_gaps(_gap: u128) -> usize {
        4
    }

    fn budget(bits: &[usize], priorities: &[f32]) -> Budget {
        let mut budget = Budget::new();
        budget.begin(Pass::Measure);
        budget.open_visit(unit_gaps);
        for (index, (&bits, &priority)) in bits.iter().zip(priorities).enumerate() {
            budget.push(index as u128 * 10, ItemKind::Changed);
            budget.set_bits(index, bits);
            budget.candidates_mut()[index].priority = priority;
        }
        budget
    }

    #[test]
    fn selection_takes_the_highest_priorities_that_fit() {
        let mut budget = budget(&[10, 10, 10, 10], &[1.0, 4.0, 3.0, 2.0]);
        // Room for two candidates of 14 bits after 8 fixed ones.
        assert_eq!(budget.select(8, 8 + 28), 8 + 28);
        let sent: Vec<bool> = budget.candidates().iter().map(|c| c.send).collect();
        assert_eq!(sent, [false, true, true, false]);
        assert!(budget.drop_lowest());
        let sent: Vec<bool> = budget.candidates().iter().map(|c| c.send).collect();
        assert_eq!(sent, [false, true, false, false]);
    }

    #[test]
    fn a_candidate_too_large_is_passed_over_for_smaller_ones() {
        let mut budget = budget(&[100, 10, 10], &[5.0, 1.0, 1.0]);
        assert_eq!(budget.select(0, 30), 28);
        let sent: Vec<bool> = budget.candidates().iter().map(|c| c.send).collect();
        assert_eq!(sent, [false, true, true]);
    }

    #[test]
    fn a_traversal_that_does_not_match_is_an_error() {
        let mut budget = budget(&[1], &[1.0]);
        budget.begin(Pass::Apply);
        assert!(budget.take_visit(0).is_ok());
        assert_eq!(
            budget.take_visit(0).map(|c| c.len()).map_err(|e| e.kind()),
            Err(ErrorKind::InvalidDeclaration)
        );
    }
}
