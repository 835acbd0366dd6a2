//! Keyed collections: what `#[change_group] entities: BTreeMap<K, V>` (with
//! `#[bitpack(max_len = N)]`), and a `Vec<V>` kept sorted by a
//! `#[bitpack(key)]` field, generate calls to. [`map`] and [`sorted_vec`]
//! hold the same functions for the two collections.
//!
//! # Wire format
//!
//! A key goes on the wire as an adaptive integer of its own type (see
//! [`crate::adaptive`]): the first key as it is, every later one as the gap
//! after the previous one, minus one (so consecutive keys cost the bare
//! length prefix, and keys need no declared range).
//!
//! **Whole** (`write`): the length as `int(len, 0, max_len)`, then each
//! entry in key order: its key, then the value's `write_to`.
//!
//! **Delta** (`write_delta`, against a baseline collection both sides
//! hold): one bit, 0 when nothing changed. Otherwise two sections.
//!
//! 1. *The baseline's entries that changed or were removed*, in key order:
//!    one bit for their form, then either (1) a mark for every entry of the
//!    baseline, 1 for a touched one, or (0) their number as
//!    `int(count, 0, max_len)` and for each its rank gap (how many baseline
//!    entries it skips, as an adaptive `u64`), whichever is fewer bits (the
//!    marks when more than about one entry in eight changed). Each touched
//!    entry is then a bit: 0 for a changed entry, followed by the value's
//!    `write_delta` against the baseline's; 1 for a removed one.
//! 2. *The new entries*: their number as `int(count, 0, max_len)`, then
//!    each one's key (the first as it is, then the gap after the previous
//!    new key, minus one) and the value's `write_delta` against the spawn
//!    value (`V::default()`, or the `#[bitpack(spawn = path)]` function's).
//!
//! An entry equal (`==`) to the baseline's is not touched, so an unchanged
//! collection costs one bit whatever its size; nor is one whose delta would
//! change nothing (equal bits: it differs in a skipped field, say), which
//! the bit would not tell the receiver. Placing the baseline's
//! entries by their rank rather than their key is what both sides can do
//! (each holds the baseline), and costs less: on the benchmark world's
//! deltas 38 bytes per tick instead of 121 for the keys as gaps.
//!
//! # Hostile input
//!
//! Readers refuse a length over `max_len`, a count larger than the
//! baseline (touched entries) or than the remaining input can hold, a rank
//! past the baseline's last entry, a key past its type's maximum, a result
//! longer than `max_len`, and (for [`sorted_vec`]) a value whose key field
//! differs from the key it was sent under. They refuse what the writer
//! never writes (`NonCanonical`), so that every delta read re-encodes to
//! the bits it came from: a delta flagged as changed that touches no entry
//! and adds none, touched entries in the form (marks or list) the writer
//! does not pick, a changed entry whose delta changes nothing, a new key
//! the baseline holds (even one the delta removes). A failed read leaves
//! the reader where it was, and nothing is allocated beyond `max_len`
//! entries and the bits the input holds. A failed write leaves the writer
//! as it was.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use crate::adaptive::{AdaptiveInt, Signs, adaptive_bits, read_adaptive, write_adaptive};
use crate::change::{BitFingerprint, ChangeGroups, Fingerprint};
use crate::error::{Error, ErrorKind};
use crate::pack::BitPack;
use crate::private::{len_bits, read_len, schema, sum, times, write_atomic, write_len};
use crate::read::BitRead;
use crate::sink::counter::BitCounter;
use crate::source::SourceExt;
/// The entry type `retain_entries` names entries by.
pub use crate::sync::Entry;
use crate::sync::budget::{Candidate, Edit, ItemKind, Pass};
use crate::write::BitWrite;

pub use crate::sync::Budget;

mod sealed {
    pub trait Sealed {}
}

/// A key type: an unsigned integer. Sealed.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot key a keyed collection",
    label = "keys are unsigned integers: u8, u16, u32, u64, u128 or usize",
    note = "key the collection by an unsigned integer id, and keep other key types in the entries"
)]
pub trait Key: AdaptiveInt + Ord + Default + sealed::Sealed {
    /// The key widened.
    fn to_u128(self) -> u128;
    /// The key for `value`, if the type holds it.
    fn from_u128(value: u128) -> Option<Self>;
}

macro_rules! keys {
    ($($ty:ty),*) => {$(
        impl sealed::Sealed for $ty {}
        impl Key for $ty {
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(value: u128) -> Option<Self> {
                <$ty>::try_from(value).ok()
            }
        }
    )*};
}

keys!(u8, u16, u32, u64, u128, usize);

/// A value that carries its own key: what `#[bitpack(key)]` on one of its
/// fields derives, so the code of a collection of such values (a `Vec`
/// kept sorted by key, [`sorted_vec`]) passes `<V as KeyField>::key`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no key field",
    label = "a bare #[change_group] on a `Vec` of `{Self}` keys the entries by their #[bitpack(key)] field",
    note = "mark the id field of `{Self}` with #[bitpack(key)] (an unsigned integer the `Vec` is sorted by)",
    note = "or give the group a name, as in #[change_group(items)], to send the `Vec` whole as one group"
)]
pub trait KeyField {
    /// The key field's type.
    type Key: Key;
    /// The key field's value.
    fn key(&self) -> Self::Key;
}

/// The fingerprint kind of a keyed collection (apart from the core's own codes).
const KEYED: u64 = 0x4B45_5945_4400;

/// Bits of a key sent as the gap `gap` (for the budget's selection).
fn gap_bits<K: Key>(gap: u128) -> usize {
    K::from_u128(gap).and_then(|gap| adaptive_bits(gap, Signs::NonNegative).ok()).unwrap_or(K::MAX_BITS)
}

#[inline(always)]
fn write_key<K: Key, W: BitWrite>(writer: &mut W, previous: Option<K>, key: K) -> Result<(), Error> {
    let gap = match previous {
        // Keys arrive in strictly increasing order, so this cannot wrap.
        Some(previous) => key.to_u128().wrapping_sub(previous.to_u128()).wrapping_sub(1),
        None => key.to_u128(),
    };
    let gap = K::from_u128(gap).ok_or(Error::new(ErrorKind::NotIncreasing, writer.bits_written()))?;
    write_adaptive(writer, gap, Signs::NonNegative)
}

#[inline(always)]
fn read_key<K: Key>(reader: &mut impl BitRead, previous: Option<K>) -> Result<K, Error> {
    let start = reader.bits_read();
    let gap: K = read_adaptive(reader, Signs::NonNegative)?;
    let key = match previous {
        Some(previous) => previous.to_u128().checked_add(1).and_then(|next| next.checked_add(gap.to_u128())),
        None => Some(gap.to_u128()),
    };
    key.and_then(K::from_u128).ok_or(Error::new(ErrorKind::OutOfRange, start))
}

/// Runs a read of several parts as one: on `Err` the reader stays put.
#[inline(always)]
fn atomically<R: BitRead, T>(
    reader: &mut R,
    read: impl FnOnce(&mut R) -> Result<T, Error>,
) -> Result<T, Error> {
    reader.rolled_back(read)
}

/// One step of walking a world's entries and a baseline's in key order.
enum Step<'a, K, V> {
    /// In both: the world's value, then the baseline's.
    Both(K, &'a V, &'a V),
    /// In the world only.
    New(K, &'a V),
    /// In the baseline only.
    Removed(K, &'a V),
}

// By hand: a step is a key and references, `Copy` whatever `V` is.
impl<K: Copy, V> Clone for Step<'_, K, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K: Copy, V> Copy for Step<'_, K, V> {}

impl<K: Key, V> Step<'_, K, V> {
    fn key(&self) -> K {
        match *self {
            Step::Both(key, ..) | Step::New(key, _) | Step::Removed(key, _) => key,
        }
    }
}

/// Two sorted entry iterators walked together.
struct Merge<'a, K, V, I: Iterator<Item = (K, &'a V)>, J: Iterator<Item = (K, &'a V)>> {
    now: I,
    base: J,
    next_now: Option<(K, &'a V)>,
    next_base: Option<(K, &'a V)>,
}

fn merge<'a, K: Key, V, I, J>(mut now: I, mut base: J) -> Merge<'a, K, V, I, J>
where
    I: Iterator<Item = (K, &'a V)>,
    J: Iterator<Item = (K, &'a V)>,
{
    let (next_now, next_base) = (now.next(), base.next());
    Merge { now, base, next_now, next_base }
}

impl<'a, K: Key, V, I, J> Iterator for Merge<'a, K, V, I, J>
where
    I: Iterator<Item = (K, &'a V)>,
    J: Iterator<Item = (K, &'a V)>,
{
    type Item = Step<'a, K, V>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        match (self.next_now, self.next_base) {
            (Some((key, now)), Some((base_key, base))) => {
                if key < base_key {
                    self.next_now = self.now.next();
                    Some(Step::New(key, now))
                } else if base_key < key {
                    self.next_base = self.base.next();
                    Some(Step::Removed(base_key, base))
                } else {
                    self.next_now = self.now.next();
                    self.next_base = self.base.next();
                    Some(Step::Both(key, now, base))
                }
            }
            (Some((key, now)), None) => {
                self.next_now = self.now.next();
                Some(Step::New(key, now))
            }
            (None, Some((key, base))) => {
                self.next_base = self.base.next();
                Some(Step::Removed(key, base))
            }
            (None, None) => None,
        }
    }
}

/// Whether a step is an item of the delta: a `Both` only when changed
/// (not `==`) and its delta changes something (see [`delta_changes`]).
#[inline(always)]
fn is_item<K: Key, V: ChangeGroups + PartialEq>(step: &Step<'_, K, V>) -> Result<bool, Error> {
    match step {
        Step::Both(_, now, base) => Ok(now != base && delta_changes(*now, *base)?),
        Step::New(..) | Step::Removed(..) => Ok(true),
    }
}

/// [`is_item`] in a sender's measure pass: an entry's delta judged, as
/// `write_delta_cached` judges it, on the baseline's prints (those of the
/// `rank`th entry, `per` words each) when kept.
#[inline(always)]
fn is_item_cached<K: Key, V: ChangeGroups + PartialEq>(
    step: &Step<'_, K, V>,
    rank: usize,
    baseline_prints: &[u64],
    per: usize,
) -> Result<bool, Error> {
    match (step, V::UNCHANGED_DELTA_BITS) {
        (Step::Both(_, now, base), Some(unchanged)) if now != base => {
            let held = baseline_prints.get(rank * per..(rank + 1) * per).unwrap_or(&[]);
            let mut counter = BitCounter::new();
            now.write_delta_cached(base, held, &mut [], &mut counter)?;
            Ok(counter.bits_written() != unchanged)
        }
        _ => is_item(step),
    }
}

/// Whether `now`'s delta against `base` differs from `base`'s against
/// itself. Two values can differ (`!=`) and write the same bits (in a
/// skipped field, say): such an entry is not touched, since its delta
/// would change nothing, and a reader refuses one that is.
fn delta_changes<V: ChangeGroups>(now: &V, base: &V) -> Result<bool, Error> {
    match V::UNCHANGED_DELTA_BITS {
        // Any delta that changes something is longer.
        Some(unchanged) => {
            let mut counter = BitCounter::new();
            now.write_delta(base, &mut counter)?;
            Ok(counter.bits_written() != unchanged)
        }
        None => Ok(Fingerprint::of(0, |sink| now.write_delta(base, sink))?
            != Fingerprint::of(0, |sink| base.write_delta(base, sink))?),
    }
}

/// Whether `value`, read as `bits` bits of delta against `held`, changes
/// it: `false` for the delta `held` writes against itself (by its length,
/// or by re-encoding `value`, which writes the bits it was read from).
fn read_changes<V: ChangeGroups>(value: &V, held: &V, bits: usize) -> bool {
    match V::UNCHANGED_DELTA_BITS {
        Some(unchanged) => bits != unchanged,
        None => delta_changes(value, held).unwrap_or(false),
    }
}

fn kind_of<K, V>(step: &Step<'_, K, V>) -> ItemKind {
    match step {
        Step::Both(..) => ItemKind::Changed,
        Step::New(..) => ItemKind::New,
        Step::Removed(..) => ItemKind::Removed,
    }
}

/// Whether a step is the item `candidate` names, after a measure pass
/// decided which `Both` steps are items: `Ok(false)` for an unchanged
/// entry, `Err` when the walk no longer matches the measured one.
#[inline(always)]
fn is_candidate<K: Key, V>(
    step: &Step<'_, K, V>,
    candidate: Option<&Candidate>,
    at: usize,
) -> Result<bool, Error> {
    let named = candidate.is_some_and(|candidate| candidate.key == step.key().to_u128());
    match step {
        Step::Both(..) if !named => Ok(false),
        _ if named && candidate.is_some_and(|candidate| candidate.kind == kind_of(step)) => Ok(true),
        _ => Err(Error::new(ErrorKind::InvalidDeclaration, at)),
    }
}

/// `Err` unless a walk met all `candidates` (it met `met` of them).
fn all_met(met: usize, candidates: &[Candidate], at: usize) -> Result<(), Error> {
    if met == candidates.len() { Ok(()) } else { Err(Error::new(ErrorKind::InvalidDeclaration, at)) }
}

/// Writes one item's data: for an entry of the baseline its kind bit (0
/// changed, followed by its `write_delta_cached` against the baseline
/// entry's prints, empty when not known, recording its own into `prints`;
/// 1 removed), for a new entry its `write_delta_cached` against the spawn
/// value. Returns the bits written. (Without prints, the bits of
/// `write_delta`: every pass judges groups alike.)
#[inline(always)]
fn write_data<K: Key, V: ChangeGroups, W: BitWrite>(
    writer: &mut W,
    step: &Step<'_, K, V>,
    spawn: fn() -> V,
    spawned: &mut Option<V>,
    baseline_prints: &[u64],
    prints: &mut [u64],
) -> Result<usize, Error> {
    let start = writer.bits_written();
    match *step {
        Step::Both(_, now, base) => {
            writer.write_bool(false)?;
            now.write_delta_cached(base, baseline_prints, prints, writer)?;
        }
        Step::Removed(..) => writer.write_bool(true)?,
        Step::New(_, now) => {
            now.write_delta_cached(spawned.get_or_insert_with(spawn), &[], prints, writer)?
        }
    }
    Ok(writer.bits_written() - start)
}

/// A delta's two sections, as a first walk counts them: the baseline's
/// entries it touches (changed or removed) and the new entries.
#[derive(Clone, Copy, Default)]
struct Sections {
    /// Steps that are items (sent or held back by a budget).
    items: usize,
    touched: usize,
    new: usize,
    /// Bits of the touched entries' rank gaps (how many baseline entries
    /// each skips), as a list sends them.
    gap_bits: usize,
    /// The rank of the last touched entry.
    last: Option<usize>,
}

impl Sections {
    /// Counts `step` (the `rank`th entry of the baseline, unless new) if it is sent.
    #[inline(always)]
    fn count<K, V>(&mut self, step: &Step<'_, K, V>, rank: usize, sent: bool) -> Result<(), Error> {
        match (step, sent) {
            (Step::New(..), true) => self.new += 1,
            (_, true) => self.touch(rank)?,
            _ => {}
        }
        Ok(())
    }

    /// Counts a touched entry, the `rank`th of the baseline (after those
    /// counted before it).
    #[inline(always)]
    fn touch(&mut self, rank: usize) -> Result<(), Error> {
        self.touched += 1;
        let gap = self.last.map_or(rank, |last| rank - last - 1);
        self.gap_bits += rank_gap_bits(gap)?;
        self.last = Some(rank);
        Ok(())
    }

    /// Whether the touched entries go as marks (see [`marks_fewer`]).
    fn marks(&self, base_len: usize, max_len: usize) -> bool {
        marks_fewer(base_len, self.gap_bits, max_len)
    }
}

/// Bits of a touched entry's rank gap in the list form (an adaptive `u64`).
#[inline(always)]
fn rank_gap_bits(gap: usize) -> Result<usize, Error> {
    adaptive_bits(gap as u64, Signs::NonNegative)
}

/// Whether touched entries whose rank gaps take `gap_bits` go as marks (a
/// bit per baseline entry): when that is fewer bits than the list (its
/// count, then the gaps).
#[inline(always)]
fn marks_fewer(base_len: usize, gap_bits: usize, max_len: usize) -> bool {
    base_len < gap_bits.saturating_add(len_bits(max_len))
}

/// Where a step stands: its number among the walk's items, among the
/// world's entries (`now`) and among the baseline's (`rank`).
#[derive(Clone, Copy)]
struct Place {
    item: usize,
    now: usize,
    rank: usize,
}

/// What one kind of delta writer decides and writes at each step (see
/// [`write_sections`]).
trait Items<'a, K, V, W> {
    /// `Some(send)` for an item (sent, or held back by a budget), `None`
    /// for an unchanged entry; `item` counts the items before it.
    fn pick(&mut self, step: &Step<'a, K, V>, item: usize) -> Result<Option<bool>, Error>;
    /// [`Items::pick`] in the walk over the new entries, where only theirs
    /// matter (a writer that counts nothing need not compare the others).
    fn pick_new(&mut self, step: &Step<'a, K, V>, item: usize) -> Result<Option<bool>, Error> {
        self.pick(step, item)
    }
    /// Writes a sent item's data.
    fn data(&mut self, writer: &mut W, step: &Step<'a, K, V>, place: Place) -> Result<(), Error>;
    /// An entry of both not sent.
    fn kept(&mut self, _step: &Step<'a, K, V>, _place: Place) -> Result<(), Error> {
        Ok(())
    }
    /// For a writer that knows its items: the first new entry to send at
    /// item `from` or after, as its key and item number, so that the walk
    /// over the new entries need not merge the baseline in again.
    fn new_item(&self, _from: usize) -> Option<Option<(u128, usize)>> {
        None
    }
}

/// The first candidate from `from` on that is a new entry to send.
fn new_candidate(candidates: &[Candidate], from: usize) -> Option<(u128, usize)> {
    let rest = candidates.get(from..).unwrap_or(&[]);
    rest.iter()
        .position(|c| c.kind == ItemKind::New && c.send)
        .map(|offset| (rest[offset].key, from + offset))
}

/// Writes the delta (see the module docs) of `now` against `base` in three
/// walks: the sections counted, the baseline's touched entries, the new
/// ones. Returns the number of items met.
#[allow(clippy::too_many_arguments)]
fn write_sections<'a, K, V, W, I, J>(
    writer: &mut W,
    now: I,
    base: J,
    base_len: usize,
    max_len: usize,
    counted: Option<Sections>,
    items: &mut impl Items<'a, K, V, W>,
) -> Result<usize, Error>
where
    K: Key,
    V: 'a,
    W: BitWrite,
    I: Iterator<Item = (K, &'a V)> + Clone,
    J: Iterator<Item = (K, &'a V)> + Clone,
{
    let sections = match counted {
        Some(sections) => sections,
        None => {
            let mut sections = Sections::default();
            let mut rank = 0;
            for step in merge(now.clone(), base.clone()) {
                let sent = items.pick(&step, sections.items)?;
                sections.items += usize::from(sent.is_some());
                sections.count(&step, rank, sent == Some(true))?;
                rank += usize::from(!matches!(step, Step::New(..)));
            }
            sections
        }
    };
    writer.write_bool(sections.touched + sections.new > 0)?;
    if sections.touched + sections.new == 0 {
        // Nothing sent: the entries the walk met are all kept.
        let mut place = Place { item: 0, now: 0, rank: 0 };
        for step in merge(now, base) {
            if let Step::Both(..) = step {
                items.kept(&step, place)?;
            }
            place.item += usize::from(items.pick(&step, place.item)?.is_some());
            place.now += usize::from(!matches!(step, Step::Removed(..)));
            place.rank += usize::from(!matches!(step, Step::New(..)));
        }
        return Ok(sections.items);
    }
    // The baseline's entries, as marks or as a list of rank gaps.
    let marks = sections.marks(base_len, max_len);
    writer.write_bool(marks)?;
    if !marks {
        write_len(writer, sections.touched, max_len)?;
    }
    let mut place = Place { item: 0, now: 0, rank: 0 };
    let mut last = None;
    for step in merge(now.clone(), base.clone()) {
        let sent = items.pick(&step, place.item)?;
        if !matches!(step, Step::New(..)) {
            if marks {
                writer.write_bool(sent == Some(true))?;
            } else if sent == Some(true) {
                let gap = last.map_or(place.rank, |last: usize| place.rank - last - 1);
                write_adaptive(writer, gap as u64, Signs::NonNegative)?;
                last = Some(place.rank);
            }
            match (&step, sent) {
                (_, Some(true)) => items.data(writer, &step, place)?,
                (Step::Both(..), _) => items.kept(&step, place)?,
                _ => {}
            }
        }
        place.item += usize::from(sent.is_some());
        place.now += usize::from(!matches!(step, Step::Removed(..)));
        place.rank += usize::from(!matches!(step, Step::New(..)));
    }
    // The new entries, each key the gap after the previous new one.
    write_len(writer, sections.new, max_len)?;
    let mut previous = None;
    if let Some(mut next) = items.new_item(0) {
        // The writer knows them: a walk over the world's entries alone.
        for (index, (key, value)) in now.enumerate() {
            let Some((new_key, item)) = next else { break };
            if key.to_u128() != new_key {
                continue;
            }
            write_key(writer, previous, key)?;
            previous = Some(key);
            items.data(writer, &Step::New(key, value), Place { item, now: index, rank: 0 })?;
            next = items.new_item(item + 1).flatten();
        }
        return match next {
            None => Ok(sections.items),
            Some(_) => Err(Error::new(ErrorKind::InvalidDeclaration, writer.bits_written())),
        };
    }
    let mut place = Place { item: 0, now: 0, rank: 0 };
    for step in merge(now, base) {
        let sent = items.pick_new(&step, place.item)?;
        if let (Step::New(key, _), Some(true)) = (&step, sent) {
            write_key(writer, previous, *key)?;
            previous = Some(*key);
            items.data(writer, &step, place)?;
        }
        place.item += usize::from(sent.is_some());
        place.now += usize::from(!matches!(step, Step::Removed(..)));
        place.rank += usize::from(!matches!(step, Step::New(..)));
    }
    Ok(sections.items)
}

/// A collection's entries by their index in key order, as [`write_items`]
/// reaches the ones its items name (always forward).
trait Reach<'a, K, V>: Clone {
    fn reach(&mut self, index: usize) -> Option<(K, &'a V)>;
    /// Makes the entry at `index`, whose key is `key`, the next one
    /// reached, for a collection that finds a key faster than it walks to it.
    fn seek(&mut self, _index: usize, _key: K) {}
}

/// A map: its entries in a range, moved forward to each index asked, or
/// started again at a key (a lookup, not a walk from the first entry).
struct MapWalk<'a, K, V> {
    map: &'a BTreeMap<K, V>,
    range: alloc::collections::btree_map::Range<'a, K, V>,
    /// The index `range` yields next.
    next: usize,
}

// By hand: a reference and a range, `Clone` whatever `K` and `V` are.
impl<K, V> Clone for MapWalk<'_, K, V> {
    fn clone(&self) -> Self {
        MapWalk { map: self.map, range: self.range.clone(), next: self.next }
    }
}

impl<'a, K: Key, V> MapWalk<'a, K, V> {
    fn new(map: &'a BTreeMap<K, V>) -> Self {
        MapWalk { map, range: map.range(..), next: 0 }
    }
}

impl<'a, K: Key, V: 'a> Reach<'a, K, V> for MapWalk<'a, K, V> {
    #[inline(always)]
    fn reach(&mut self, index: usize) -> Option<(K, &'a V)> {
        let skip = index.checked_sub(self.next)?;
        self.next = index + 1;
        self.range.nth(skip).map(|(key, value)| (*key, value))
    }

    fn seek(&mut self, index: usize, key: K) {
        self.range = self.map.range(key..);
        self.next = index;
    }
}

/// A map's entries as a flat list (see `flat_map`): by index.
struct Pairs<'a, K, V> {
    pairs: &'a [(K, V)],
}

impl<K, V> Clone for Pairs<'_, K, V> {
    fn clone(&self) -> Self {
        Pairs { pairs: self.pairs }
    }
}

impl<'a, K: Copy, V> Reach<'a, K, V> for Pairs<'a, K, V> {
    #[inline(always)]
    fn reach(&mut self, index: usize) -> Option<(K, &'a V)> {
        self.pairs.get(index).map(|(key, value)| (*key, value))
    }
}

/// A sorted `Vec`: its entries by index, the key read from each.
struct Slice<'a, V, F> {
    values: &'a [V],
    key: F,
}

impl<V, F: Copy> Clone for Slice<'_, V, F> {
    fn clone(&self) -> Self {
        Slice { values: self.values, key: self.key }
    }
}

impl<'a, K, V, F: Fn(&V) -> K + Copy> Reach<'a, K, V> for Slice<'a, V, F> {
    #[inline(always)]
    fn reach(&mut self, index: usize) -> Option<(K, &'a V)> {
        self.values.get(index).map(|value| ((self.key)(value), value))
    }
}

/// [`write_sections`] for a sender's measure pass that kept the baseline's
/// prints: the same bits, from the items the counting walk met (`items`,
/// each with its place) instead of walking every entry twice more. The
/// entries between two items are unchanged entries of both, in a run: their
/// marks are zeros pushed together, and their prints copied from the
/// baseline's in one go.
fn write_items<'a, K, V, W, RN, RB>(
    writer: &mut W,
    (now, base): (RN, RB),
    items: &[([usize; 3], ItemKind)],
    sections: Sections,
    (len, base_len, max_len): (usize, usize, usize),
    cached: &mut Cached<'_, V>,
) -> Result<(), Error>
where
    K: Key,
    V: ChangeGroups + 'a,
    W: BitWrite,
    RN: Reach<'a, K, V>,
    RB: Reach<'a, K, V>,
{
    let mismatch = |at: usize| Error::new(ErrorKind::InvalidDeclaration, at);
    let step_of = |now: &mut RN, base: &mut RB, at_now: usize, rank: usize, kind| match kind {
        ItemKind::Changed => match (now.reach(at_now), base.reach(rank)) {
            (Some((key, value)), Some((base_key, held))) if key == base_key => {
                Some(Step::Both(key, value, held))
            }
            _ => None,
        },
        ItemKind::New => now.reach(at_now).map(|(key, value)| Step::New(key, value)),
        ItemKind::Removed => base.reach(rank).map(|(key, held)| Step::Removed(key, held)),
    };
    writer.write_bool(sections.touched + sections.new > 0)?;
    if sections.touched + sections.new == 0 {
        return keep_run(cached, (0, 0), base_len);
    }
    let marks = sections.marks(base_len, max_len);
    writer.write_bool(marks)?;
    if !marks {
        write_len(writer, sections.touched, max_len)?;
    }
    // (world index, baseline rank) after the last step handled: between two
    // items of the walk there are only unchanged entries of both, a run
    // as long in the world as in the baseline.
    let mut kept = (0, 0);
    let mut last = None;
    let (mut now_at, mut base_at) = (now.clone(), base);
    for &([item, at_now, rank], kind) in items {
        let place = Place { item, now: at_now, rank };
        let run = rank - kept.1;
        if at_now - kept.0 != run {
            return Err(mismatch(writer.bits_written()));
        }
        keep_run(cached, kept, rank)?;
        if marks {
            zeros(writer, run)?;
        }
        kept = (at_now + usize::from(kind != ItemKind::Removed), rank + usize::from(kind != ItemKind::New));
        // A new entry's data goes in the second section.
        if kind == ItemKind::New {
            continue;
        }
        let step = step_of(&mut now_at, &mut base_at, at_now, rank, kind)
            .ok_or_else(|| mismatch(writer.bits_written()))?;
        if marks {
            writer.write_bool(true)?;
        } else {
            let gap = last.map_or(rank, |last: usize| rank - last - 1);
            write_adaptive(writer, gap as u64, Signs::NonNegative)?;
            last = Some(rank);
        }
        <Cached<'_, V> as Items<'a, K, V, W>>::data(cached, writer, &step, place)?;
    }
    if len - kept.0 != base_len - kept.1 {
        return Err(mismatch(writer.bits_written()));
    }
    keep_run(cached, kept, base_len)?;
    if marks {
        zeros(writer, base_len - kept.1)?;
    }
    let mut now = now;
    write_new_items(writer, |_, at_now| now.reach(at_now), items, sections, max_len, cached)
}

/// The prints of a run of unchanged entries (from `kept`, the world index
/// and baseline rank after the last item, to baseline rank `to_rank`),
/// copied from the baseline's in one go.
#[inline(always)]
fn keep_run<V: ChangeGroups>(
    cached: &mut Cached<'_, V>,
    kept: (usize, usize),
    to_rank: usize,
) -> Result<(), Error> {
    // The type's constant, so that one entry's prints are a copy of a
    // known size (inline, no `memcpy` call).
    let per = V::PRINTS;
    debug_assert_eq!(per, cached.per);
    let count = to_rank - kept.1;
    let mine = cached.prints.get_mut(kept.0 * per..(kept.0 + count) * per);
    let held = cached.baseline_prints.get(kept.1 * per..to_rank * per);
    match (mine, held) {
        (Some(mine), Some(held)) => {
            // Most runs between two items of a changing world hold no
            // entry or one: those without a call.
            match count {
                0 => {}
                1 => mine[..per].copy_from_slice(&held[..per]),
                _ => mine.copy_from_slice(held),
            }
            Ok(())
        }
        _ => Err(Error::new(ErrorKind::InvalidDeclaration, 0)),
    }
}

/// The marks of `count` untouched baseline entries: zeros, pushed together.
#[inline(always)]
fn zeros<W: BitWrite>(writer: &mut W, mut count: usize) -> Result<(), Error> {
    while count > 0 {
        let chunk = count.min(32);
        writer.write_bits(0, chunk as u32)?;
        count -= chunk;
    }
    Ok(())
}

/// The second section from the items met: the new entries' count, then
/// each one's key (the gap after the previous new one) and data. `entry`
/// finds the `n`th new entry, at world index `at_now`.
fn write_new_items<'a, K, V, W>(
    writer: &mut W,
    mut entry: impl FnMut(usize, usize) -> Option<(K, &'a V)>,
    items: &[([usize; 3], ItemKind)],
    sections: Sections,
    max_len: usize,
    cached: &mut Cached<'_, V>,
) -> Result<(), Error>
where
    K: Key,
    V: ChangeGroups + 'a,
    W: BitWrite,
{
    write_len(writer, sections.new, max_len)?;
    let mut previous = None;
    let news = items.iter().filter(|(_, kind)| *kind == ItemKind::New);
    for (n, &([item, at_now, rank], _)) in news.enumerate() {
        let Some((key, value)) = entry(n, at_now) else {
            return Err(Error::new(ErrorKind::InvalidDeclaration, writer.bits_written()));
        };
        write_key(writer, previous, key)?;
        previous = Some(key);
        let place = Place { item, now: at_now, rank };
        <Cached<'_, V> as Items<'a, K, V, W>>::data(cached, writer, &Step::New(key, value), place)?;
    }
    Ok(())
}

/// How many new entries the one walk keeps as it meets them (on the stack),
/// so that the second section need not reach them again (a map's walk to
/// each from the first new one costs as much as their deltas).
const FEW_NEW: usize = 8;

/// A sender's first attempt with the baseline's prints kept, in one walk:
/// the delta written as [`write_items`] writes it when the touched entries
/// go as marks (the usual form), each changed entry's data as the walk
/// meets it, the new entries' places kept in `met` for the second section.
/// `false`, the writer rewound, when the counted sections call for the
/// list form or any write fails: the counting walk and [`write_items`]
/// then write it (or fail) as before. Nothing changed: the one bit, every
/// print copied.
fn write_marked<'a, K, V, W, I, J, RN>(
    writer: &mut W,
    (now, base): (I, J),
    reach: RN,
    (len, base_len, max_len): (usize, usize, usize),
    met: &mut Vec<([usize; 3], ItemKind)>,
    cached: &mut Cached<'_, V>,
    unordered: bool,
) -> bool
where
    K: Key,
    V: ChangeGroups + PartialEq + 'a,
    W: BitWrite,
    I: Iterator<Item = (K, &'a V)>,
    J: Iterator<Item = (K, &'a V)>,
    RN: Reach<'a, K, V>,
{
    let start = writer.checkpoint();
    let mut kept = (0, 0);
    // The first new entry: where the second section starts reaching, unless
    // the first few new entries, kept as met, are all of them.
    let mut first_new = None;
    let mut news: [Option<(K, &'a V)>; FEW_NEW] = [None; FEW_NEW];
    let walk = |writer: &mut W| -> Result<Sections, Error> {
        // Something sent, as marks: rewound below if not.
        writer.write_bits(0b11, 2)?;
        let mut sections = Sections::default();
        let mut place = Place { item: 0, now: 0, rank: 0 };
        // `merge` by hand: an unchanged entry of both (most of a world)
        // only moves the places on, without a `Step` made and matched.
        let (mut now, mut base) = (now, base);
        let (mut next_now, mut next_base) = (now.next(), base.next());
        loop {
            let step = match (next_now, next_base) {
                (Some((key, value)), Some((base_key, held))) if key == base_key => {
                    next_now = after(now.next(), key, unordered)?;
                    next_base = base.next();
                    // Without the unchanged delta's length, an entry whose
                    // delta changes nothing is found before it is written.
                    if value == held || (V::UNCHANGED_DELTA_BITS.is_none() && !delta_changes(value, held)?) {
                        place.now += 1;
                        place.rank += 1;
                        continue;
                    }
                    Step::Both(key, value, held)
                }
                (Some((key, value)), Some((base_key, _))) if key < base_key => {
                    next_now = after(now.next(), key, unordered)?;
                    Step::New(key, value)
                }
                (_, Some((base_key, held))) => {
                    next_base = base.next();
                    Step::Removed(base_key, held)
                }
                (Some((key, value)), None) => {
                    next_now = after(now.next(), key, unordered)?;
                    Step::New(key, value)
                }
                (None, None) => break,
            };
            // The unchanged entries since the last item (entries of
            // both: a run as long in the world as in the baseline).
            keep_run(cached, kept, place.rank)?;
            let run = writer.checkpoint();
            zeros(writer, place.rank - kept.1)?;
            if let Step::New(key, value) = step {
                sections.count(&step, place.rank, true)?;
                // Its data goes in the second section.
                // (`count` has counted it: the `new`th, from 1.)
                if let Some(slot) = news.get_mut(sections.new - 1) {
                    *slot = Some((key, value));
                }
                met.push(([place.item, place.now, place.rank], ItemKind::New));
                first_new = first_new.or(Some((place.now, key)));
            } else {
                writer.write_bool(true)?;
                let bits = cached.write(writer, &step, place)?;
                // Its kind bit and the unchanged delta: the entry changes
                // nothing (`!=` but the same bits), so it is not touched:
                // the run's marks and its own taken back (written with the
                // next item's run; its prints, just recorded, are the
                // baseline's), and it is not counted.
                if let (Step::Both(..), Some(unchanged)) = (step, V::UNCHANGED_DELTA_BITS)
                    && bits == unchanged + 1
                {
                    writer.rewind(run);
                    place.now += 1;
                    place.rank += 1;
                    continue;
                }
                sections.count(&step, place.rank, true)?;
            }
            place.now += usize::from(!matches!(step, Step::Removed(..)));
            place.rank += usize::from(!matches!(step, Step::New(..)));
            kept = (place.now, place.rank);
            sections.items += 1;
            place.item += 1;
        }
        Ok(sections)
    };
    let mut reach = reach;
    let done = match walk(writer) {
        // Nothing changed: one bit, and every entry's prints the baseline's.
        Ok(sections) if sections.touched + sections.new == 0 => {
            writer.rewind(start);
            writer.write_bool(false).and_then(|()| keep_run(cached, (0, 0), base_len))
        }
        Ok(sections) if sections.marks(base_len, max_len) && len - kept.0 == base_len - kept.1 => {
            let few = sections.new <= FEW_NEW;
            if let Some((index, key)) = first_new.filter(|_| !few) {
                reach.seek(index, key);
            }
            let entry =
                |n: usize, at_now| if few { news.get(n).copied().flatten() } else { reach.reach(at_now) };
            keep_run(cached, kept, base_len)
                .and_then(|()| zeros(writer, base_len - kept.1))
                .and_then(|()| write_new_items(writer, entry, met, sections, max_len, cached))
        }
        Ok(_) => Err(Error::new(ErrorKind::InvalidDeclaration, 0)),
        Err(error) => Err(error),
    };
    if done.is_ok() {
        return true;
    }
    writer.rewind(start);
    false
}

/// The world's entry after the one under `key`, `Err` when `unordered`
/// (its keys not known to increase) and its key does not (the one walk's
/// check of a sorted `Vec`, see `sorted_vec::write_delta`; any `Err` sends
/// the delta through the walks that check first).
#[inline(always)]
fn after<K: Key, V>(next: Option<(K, &V)>, key: K, unordered: bool) -> Result<Option<(K, &V)>, Error> {
    match next {
        Some((next_key, _)) if unordered && next_key <= key => Err(Error::new(ErrorKind::NotIncreasing, 0)),
        next => Ok(next),
    }
}

/// A delta without a budget: every item, each entry compared with `==`.
struct Plain<V> {
    spawn: fn() -> V,
    spawned: Option<V>,
}

impl<'a, K: Key, V: ChangeGroups + PartialEq + 'a, W: BitWrite> Items<'a, K, V, W> for Plain<V> {
    #[inline(always)]
    fn pick(&mut self, step: &Step<'a, K, V>, _: usize) -> Result<Option<bool>, Error> {
        Ok(is_item(step)?.then_some(true))
    }

    #[inline(always)]
    fn pick_new(&mut self, step: &Step<'a, K, V>, _: usize) -> Result<Option<bool>, Error> {
        Ok(matches!(step, Step::New(..)).then_some(true))
    }

    #[inline(always)]
    fn data(&mut self, writer: &mut W, step: &Step<'a, K, V>, _: Place) -> Result<(), Error> {
        write_data(writer, step, self.spawn, &mut self.spawned, &[], &mut []).map(drop)
    }
}

/// A budget's measure pass: every candidate, each one's bits recorded.
struct Measured<'c, V> {
    budget: &'c mut Budget,
    at: usize,
    spawn: fn() -> V,
    spawned: Option<V>,
}

impl<'a, K: Key, V: ChangeGroups + 'a, W: BitWrite> Items<'a, K, V, W> for Measured<'_, V> {
    #[inline(always)]
    fn pick(&mut self, step: &Step<'a, K, V>, item: usize) -> Result<Option<bool>, Error> {
        Ok(is_candidate(step, self.budget.open_candidates().get(item), self.at)?.then_some(true))
    }

    #[inline(always)]
    fn data(&mut self, writer: &mut W, step: &Step<'a, K, V>, place: Place) -> Result<(), Error> {
        let bits = write_data(writer, step, self.spawn, &mut self.spawned, &[], &mut [])?;
        self.budget.set_bits(place.item, bits);
        Ok(())
    }

    fn new_item(&self, from: usize) -> Option<Option<(u128, usize)>> {
        Some(new_candidate(self.budget.open_candidates(), from))
    }
}

/// A budget's measure pass for entries with group prints (`per` of them):
/// each changed entry written against the baseline's prints (when the
/// sender kept them), and the world's prints recorded for the state the
/// packet leaves (an unchanged entry's copied from the baseline's).
struct Cached<'c, V> {
    measured: Measured<'c, V>,
    per: usize,
    baseline_prints: &'c [u64],
    prints: &'c mut [u64],
}

impl<V: ChangeGroups> Cached<'_, V> {
    /// Writes a sent item's data, returning its bits.
    #[inline(always)]
    fn write<K: Key, W: BitWrite>(
        &mut self,
        writer: &mut W,
        step: &Step<'_, K, V>,
        place: Place,
    ) -> Result<usize, Error> {
        let per = self.per;
        let held = self.baseline_prints.get(place.rank * per..(place.rank + 1) * per).unwrap_or(&[]);
        let held = if matches!(step, Step::Both(..)) { held } else { &[] };
        let mine = if matches!(step, Step::Removed(..)) {
            &mut []
        } else {
            self.prints.get_mut(place.now * per..(place.now + 1) * per).unwrap_or(&mut [])
        };
        let measured = &mut self.measured;
        let bits = write_data(writer, step, measured.spawn, &mut measured.spawned, held, mine)?;
        measured.budget.set_bits(place.item, bits);
        Ok(bits)
    }
}

impl<'a, K: Key, V: ChangeGroups + 'a, W: BitWrite> Items<'a, K, V, W> for Cached<'_, V> {
    #[inline(always)]
    fn pick(&mut self, step: &Step<'a, K, V>, item: usize) -> Result<Option<bool>, Error> {
        <Measured<'_, V> as Items<'a, K, V, W>>::pick(&mut self.measured, step, item)
    }

    #[inline(always)]
    fn data(&mut self, writer: &mut W, step: &Step<'a, K, V>, place: Place) -> Result<(), Error> {
        self.write(writer, step, place).map(drop)
    }

    fn new_item(&self, from: usize) -> Option<Option<(u128, usize)>> {
        <Measured<'_, V> as Items<'a, K, V, W>>::new_item(&self.measured, from)
    }

    #[inline(always)]
    fn kept(&mut self, step: &Step<'a, K, V>, place: Place) -> Result<(), Error> {
        let per = self.per;
        let Some(mine) = self.prints.get_mut(place.now * per..(place.now + 1) * per) else { return Ok(()) };
        match self.baseline_prints.get(place.rank * per..(place.rank + 1) * per) {
            // A few words: a loop, not a call to `memcpy`.
            Some(held) => {
                for (mine, held) in mine.iter_mut().zip(held) {
                    *mine = *held;
                }
                Ok(())
            }
            None => match step {
                Step::Both(_, now, _) => now.group_prints(mine),
                _ => Ok(()),
            },
        }
    }
}

/// A budget's apply pass: the selected candidates only.
struct Applied<'c, V> {
    candidates: &'c [Candidate],
    at: usize,
    spawn: fn() -> V,
    spawned: Option<V>,
}

impl<'a, K: Key, V: ChangeGroups + 'a, W: BitWrite> Items<'a, K, V, W> for Applied<'_, V> {
    #[inline(always)]
    fn pick(&mut self, step: &Step<'a, K, V>, item: usize) -> Result<Option<bool>, Error> {
        let candidate = self.candidates.get(item);
        Ok(is_candidate(step, candidate, self.at)?.then(|| candidate.is_some_and(|c| c.send)))
    }

    #[inline(always)]
    fn data(&mut self, writer: &mut W, step: &Step<'a, K, V>, _: Place) -> Result<(), Error> {
        write_data(writer, step, self.spawn, &mut self.spawned, &[], &mut []).map(drop)
    }

    fn new_item(&self, from: usize) -> Option<Option<(u128, usize)>> {
        Some(new_candidate(self.candidates, from))
    }
}

fn too_long(len: usize, max_len: usize, at: usize) -> Result<(), Error> {
    if len > max_len { Err(Error::new(ErrorKind::TooLong, at)) } else { Ok(()) }
}

/// Writes a whole collection: every entry, or in an apply pass the
/// selected ones.
fn write_whole<'a, K, V, W, I>(
    writer: &mut W,
    entries: I,
    len: usize,
    max_len: usize,
    budget: Option<&mut Budget>,
) -> Result<(), Error>
where
    K: Key,
    V: BitPack + 'a,
    W: BitWrite,
    I: Iterator<Item = (K, &'a V)>,
{
    too_long(len, max_len, writer.bits_written())?;
    write_atomic(writer, |writer| {
        let mut previous = None;
        match budget {
            None => {
                write_len(writer, len, max_len)?;
                for (key, value) in entries {
                    write_key(writer, previous, key)?;
                    previous = Some(key);
                    value.write_to(writer)?;
                }
            }
            Some(budget) => match budget.pass() {
                Pass::Measure => {
                    write_len(writer, len, max_len)?;
                    budget.open_visit(gap_bits::<K>);
                    for (index, (key, value)) in entries.enumerate() {
                        budget.push(key.to_u128(), ItemKind::New);
                        write_key(writer, previous, key)?;
                        previous = Some(key);
                        let start = writer.bits_written();
                        value.write_to(writer)?;
                        budget.set_bits(index, writer.bits_written() - start);
                    }
                }
                Pass::Apply => {
                    let at = writer.bits_written();
                    let candidates = budget.take_visit(at)?;
                    write_len(writer, candidates.iter().filter(|c| c.send).count(), max_len)?;
                    for (index, (key, value)) in entries.enumerate() {
                        let candidate = candidates.get(index);
                        is_candidate(&Step::New(key, value), candidate, at)?;
                        if candidate.is_some_and(|c| c.send) {
                            write_key(writer, previous, key)?;
                            previous = Some(key);
                            value.write_to(writer)?;
                        }
                    }
                    all_met(len, candidates, at)?;
                }
                Pass::State | Pass::Restore => {
                    return Err(Error::new(ErrorKind::InvalidDeclaration, writer.bits_written()));
                }
            },
        }
        Ok(())
    })
}

/// Writes a delta of `now` against `base` (see the module docs); in a
/// budget's apply pass, only the selected items. `order`, for a world whose
/// keys are not known to increase (a sorted `Vec`), checks them: before
/// anything else, its error coming first, but in a sender's one walk
/// (`write_marked`), which checks them as it meets them so that the world
/// is read once, and checks them first when that walk fails.
#[allow(clippy::too_many_arguments)]
fn write_delta<'a, K, V, W, I, J, RN, RB>(
    writer: &mut W,
    (now, base): (I, J),
    reach: (RN, RB),
    (len, base_len): (usize, usize),
    max_len: usize,
    spawn: fn() -> V,
    budget: Option<&mut Budget>,
    order: Option<impl Fn(usize) -> Result<(), Error>>,
) -> Result<(), Error>
where
    K: Key,
    V: ChangeGroups + PartialEq + 'a,
    W: BitWrite,
    I: Iterator<Item = (K, &'a V)> + Clone,
    J: Iterator<Item = (K, &'a V)> + Clone,
    RN: Reach<'a, K, V>,
    RB: Reach<'a, K, V>,
{
    let at = writer.bits_written();
    let ordered = |at| order.as_ref().map_or(Ok(()), |check| check(at));
    let measure = budget.as_deref().is_some_and(|budget| matches!(budget.pass(), Pass::Measure));
    if !measure || len > max_len {
        ordered(at)?;
    }
    too_long(len, max_len, at)?;
    write_atomic(writer, |writer| {
        let Some(budget) = budget else {
            let mut plain = Plain { spawn, spawned: None };
            return write_sections(writer, now, base, base_len, max_len, None, &mut plain).map(drop);
        };
        match budget.pass() {
            Pass::Measure => {
                let number = budget.next_visit_number();
                budget.open_visit(gap_bits::<K>);
                budget.set_baseline_len(base_len);
                let per = V::PRINTS;
                let mut prints = budget.prints.take(number);
                let baseline_prints =
                    budget.baseline_prints.take_if_holds(number, base_len.saturating_mul(per));
                // With the baseline's prints kept, the items met here are
                // all the later walks need (see `write_items`).
                let keep_items = per > 0 && !baseline_prints.is_empty();
                // Written from the items alone, straight into the packet: no
                // later pass reads the candidates (a packet that does not fit
                // is measured again), so they are not recorded.
                let candidates = !(keep_items && budget.direct);
                // The items met, kept in the budget's scratch (no allocation once warm).
                let mut met = core::mem::take(&mut budget.met);
                met.clear();
                let lens = (len, base_len, max_len);
                // One walk when the touched entries go as marks (see
                // `write_marked`), unless they went as a list last time.
                let hint = 1u64.checked_shl(number as u32).unwrap_or(0);
                let marked = !candidates && budget.listed & hint == 0 && {
                    prints.resize(len.saturating_mul(per), 0);
                    let measured = Measured { budget: &mut *budget, at, spawn, spawned: None };
                    let mut cached =
                        Cached { measured, per, baseline_prints: &baseline_prints, prints: &mut prints };
                    write_marked(
                        writer,
                        (now.clone(), base.clone()),
                        reach.0.clone(),
                        lens,
                        &mut met,
                        &mut cached,
                        order.is_some(),
                    )
                };
                // The candidates, and the sections they make when all are sent.
                let mut count_items = || -> Result<Sections, Error> {
                    met.clear();
                    let (mut sections, mut place) = (Sections::default(), Place { item: 0, now: 0, rank: 0 });
                    for step in merge(now.clone(), base.clone()) {
                        let item = is_item_cached(&step, place.rank, &baseline_prints, per)?;
                        if item {
                            if candidates {
                                budget.push(step.key().to_u128(), kind_of(&step));
                                budget.set_rank(place.rank);
                            }
                            if keep_items {
                                met.push(([place.item, place.now, place.rank], kind_of(&step)));
                            }
                            sections.items += 1;
                            place.item += 1;
                        }
                        sections.count(&step, place.rank, item)?;
                        place.now += usize::from(!matches!(step, Step::Removed(..)));
                        place.rank += usize::from(!matches!(step, Step::New(..)));
                    }
                    Ok(sections)
                };
                let counted = if marked { None } else { Some(ordered(at).and_then(|()| count_items())) };
                let written = match counted {
                    None => Ok(()),
                    // The scratch and the baseline's prints still go back below.
                    Some(Err(error)) => Err(error),
                    Some(Ok(sections)) => {
                        if !candidates {
                            let listed =
                                sections.touched + sections.new > 0 && !sections.marks(base_len, max_len);
                            budget.listed = if listed { budget.listed | hint } else { budget.listed & !hint };
                        }
                        let measured = Measured { budget: &mut *budget, at, spawn, spawned: None };
                        let written = if per == 0 {
                            let mut measured = measured;
                            write_sections(
                                writer,
                                now,
                                base,
                                base_len,
                                max_len,
                                Some(sections),
                                &mut measured,
                            )
                        } else {
                            // The buffer's old prints stay where they are: every
                            // entry's are written below (copied, or recorded by its
                            // delta), so only a longer world's new room is zeroed.
                            prints.resize(len.saturating_mul(per), 0);
                            let mut cached = Cached {
                                measured,
                                per,
                                baseline_prints: &baseline_prints,
                                prints: &mut prints,
                            };
                            if keep_items {
                                write_items(writer, reach, &met, sections, lens, &mut cached)
                                    .map(|()| sections.items)
                            } else {
                                write_sections(
                                    writer,
                                    now,
                                    base,
                                    base_len,
                                    max_len,
                                    Some(sections),
                                    &mut cached,
                                )
                            }
                        };
                        written.map(drop)
                    }
                };
                budget.met = met;
                if per > 0 && written.is_ok() {
                    budget.prints.put(number, prints);
                }
                if !baseline_prints.is_empty() {
                    budget.baseline_prints.put(number, baseline_prints);
                }
                written
            }
            Pass::Apply => {
                let candidates = budget.take_visit(at)?;
                let mut applied = Applied { candidates, at, spawn, spawned: None };
                let met = write_sections(writer, now, base, base_len, max_len, None, &mut applied)?;
                all_met(met, candidates, at)
            }
            Pass::State | Pass::Restore => Err(Error::new(ErrorKind::InvalidDeclaration, at)),
        }
    })
}

/// Collects a whole collection's entries, in key order.
trait Put<K, V> {
    /// An entry, after every entry put before it.
    fn put(&mut self, key: K, value: V, at: usize) -> Result<(), Error>;
    fn len(&self) -> usize;
}

/// Builds a collection from a baseline: the baseline's entries in key
/// order, then the new ones.
trait Build<K, V>: Put<K, V> {
    /// An entry kept from the baseline.
    fn kept(&mut self, key: K, value: &V);
    /// An entry of the baseline removed.
    fn removed(&mut self, key: K);
    /// A new entry (after every entry of the baseline): `Err` for a key
    /// the collection holds.
    fn insert(&mut self, key: K, value: V, at: usize) -> Result<(), Error>;
}

/// A whole map's entries gathered in a `Vec`, then built into the map at
/// once: a `BTreeMap` collected from entries in key order is built bottom
/// up (a stable sort finds them in order), where inserting each entry
/// searches from the root.
struct MapBuild<K, V>(Vec<(K, V)>);

impl<K: Key, V> Put<K, V> for MapBuild<K, V> {
    #[inline(always)]
    fn put(&mut self, key: K, value: V, _at: usize) -> Result<(), Error> {
        self.0.push((key, value));
        Ok(())
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

/// A map built by editing a copy of the baseline: a delta changes some of
/// its entries, and rebuilding the map from every entry (as [`MapBuild`])
/// costs more than finding those.
struct MapEdit<K, V>(BTreeMap<K, V>);

impl<K: Key, V> Put<K, V> for MapEdit<K, V> {
    #[inline(always)]
    fn put(&mut self, key: K, value: V, _at: usize) -> Result<(), Error> {
        self.0.insert(key, value);
        Ok(())
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

impl<K: Key, V> Build<K, V> for MapEdit<K, V> {
    #[inline(always)]
    fn kept(&mut self, _key: K, _value: &V) {}

    #[inline(always)]
    fn removed(&mut self, key: K) {
        self.0.remove(&key);
    }

    #[inline(always)]
    fn insert(&mut self, key: K, value: V, at: usize) -> Result<(), Error> {
        match self.0.entry(key) {
            alloc::collections::btree_map::Entry::Vacant(entry) => {
                entry.insert(value);
                Ok(())
            }
            alloc::collections::btree_map::Entry::Occupied(_) => Err(Error::new(ErrorKind::NonCanonical, at)),
        }
    }
}

/// A sorted `Vec` built entry by entry; every value must carry its key.
struct VecBuild<V, F> {
    values: Vec<V>,
    key: F,
}

impl<K: Key, V, F: Fn(&V) -> K> Put<K, V> for VecBuild<V, F> {
    #[inline(always)]
    fn put(&mut self, key: K, value: V, at: usize) -> Result<(), Error> {
        if (self.key)(&value) != key {
            return Err(Error::new(ErrorKind::KeyMismatch, at));
        }
        self.values.push(value);
        Ok(())
    }

    fn len(&self) -> usize {
        self.values.len()
    }
}

impl<K: Key, V: Clone, F: Fn(&V) -> K> Build<K, V> for VecBuild<V, F> {
    #[inline(always)]
    fn kept(&mut self, _key: K, value: &V) {
        self.values.push(value.clone());
    }

    #[inline(always)]
    fn removed(&mut self, _key: K) {}

    #[inline(always)]
    fn insert(&mut self, key: K, value: V, at: usize) -> Result<(), Error> {
        if (self.key)(&value) != key {
            return Err(Error::new(ErrorKind::KeyMismatch, at));
        }
        match self.values.binary_search_by(|held| (self.key)(held).cmp(&key)) {
            Ok(_) => Err(Error::new(ErrorKind::NonCanonical, at)),
            Err(position) => {
                self.values.insert(position, value);
                Ok(())
            }
        }
    }
}

/// Reads a whole collection into `build` (empty).
fn read_whole<K: Key, V: BitPack, B: Put<K, V>>(
    reader: &mut impl BitRead,
    max_len: usize,
    mut build: B,
) -> Result<B, Error> {
    atomically(reader, |reader| {
        let len = read_len(reader, max_len, (K::PREFIX_BITS as usize).saturating_add(V::MIN_BITS))?;
        let mut previous = None;
        for _ in 0..len {
            let at = reader.bits_read();
            let key = read_key(reader, previous)?;
            previous = Some(key);
            build.put(key, V::read_from(reader)?, at)?;
        }
        Ok(build)
    })
}

/// Reads a delta against `base` (the baseline's entries, `base_len` of
/// them, `holds` telling its keys) into `build`. Refuses what
/// `write_delta` never writes (`NonCanonical`): a delta flagged as changed
/// that touches no entry and adds none, touched entries placed in the form
/// (marks or list) it would not pick, a changed entry whose delta changes
/// nothing, a new entry under a key the baseline holds (removed or not).
fn read_delta<'a, R: BitRead, K, V, J, B>(
    reader: &mut R,
    base: J,
    (base_len, holds): (usize, impl Fn(K) -> bool),
    max_len: usize,
    spawn: fn() -> V,
    mut build: B,
) -> Result<B, Error>
where
    K: Key,
    V: ChangeGroups + 'a,
    J: Iterator<Item = (K, &'a V)>,
    B: Build<K, V>,
{
    atomically(reader, |reader| {
        let flag = reader.bits_read();
        if !reader.read_bool()? {
            for (kept, value) in base {
                build.kept(kept, value);
            }
            return Ok(build);
        }
        // The baseline's entries: a mark each, or a list of rank gaps.
        let form = reader.bits_read();
        let marks = reader.read_bool()?;
        let mut listed = if marks {
            0
        } else {
            let at = reader.bits_read();
            // Every listed entry holds at least its gap's prefix and its kind bit.
            let listed = read_len(reader, max_len, u64::PREFIX_BITS as usize + 1)?;
            if listed > base_len {
                return Err(Error::new(ErrorKind::TooLong, at));
            }
            listed
        };
        // The rank of the next listed entry, after the one at `last`.
        let next_rank = |reader: &mut R, last: Option<usize>| {
            let at = reader.bits_read();
            let gap: u64 = read_adaptive(reader, Signs::NonNegative)?;
            let first = last.map_or(0, |last| last + 1);
            usize::try_from(gap)
                .ok()
                .and_then(|gap| first.checked_add(gap))
                .filter(|rank| *rank < base_len)
                .ok_or(Error::new(ErrorKind::OutOfRange, at))
        };
        let mut next = None;
        if listed > 0 {
            next = Some(next_rank(reader, None)?);
            listed -= 1;
        }
        // The touched entries' rank gaps' bits, as the writer counts them
        // to pick the form (see `Sections`), counted only until they decide
        // it (the marks); 0 when none is touched. A gap counts from `first`.
        let (mut gap_bits, mut first) = (0, 0);
        let undecided = base_len.saturating_sub(len_bits(max_len));
        for (rank, (key, held)) in base.enumerate() {
            let at = reader.bits_read();
            let sent = if marks { reader.read_bool()? } else { next == Some(rank) };
            if !sent {
                build.kept(key, held);
                continue;
            }
            if gap_bits <= undecided {
                gap_bits += rank_gap_bits(rank - first)?;
                first = rank + 1;
            }
            if reader.read_bool()? {
                build.removed(key);
            } else {
                let start = reader.bits_read();
                let value = V::read_delta(held, reader)?;
                if !read_changes(&value, held, reader.bits_read() - start) {
                    return Err(Error::new(ErrorKind::NonCanonical, at));
                }
                build.put(key, value, at)?;
            }
            if listed > 0 {
                next = Some(next_rank(reader, Some(rank))?);
                listed -= 1;
            }
        }
        if marks != marks_fewer(base_len, gap_bits, max_len) {
            return Err(Error::new(ErrorKind::NonCanonical, form));
        }
        // The new entries: each under a key the baseline does not hold.
        let new = read_len(reader, max_len, K::PREFIX_BITS as usize)?;
        if gap_bits == 0 && new == 0 {
            return Err(Error::new(ErrorKind::NonCanonical, flag));
        }
        let (mut previous, mut spawned) = (None, None);
        for _ in 0..new {
            let at = reader.bits_read();
            let key = read_key(reader, previous)?;
            previous = Some(key);
            if holds(key) {
                return Err(Error::new(ErrorKind::NonCanonical, at));
            }
            let value = V::read_delta(spawned.get_or_insert_with(spawn), reader)?;
            build.insert(key, value, at)?;
        }
        too_long(build.len(), max_len, reader.bits_read())?;
        Ok(build)
    })
}

/// The entries the packet the budget's last apply pass wrote held back,
/// each given to `held_back` in key order: the steps of `now` against
/// `base` that were candidates and not sent.
fn held_back<'a, K, V, I, J>(
    now: I,
    base: J,
    budget: &mut Budget,
    mut held_back: impl FnMut(Step<'a, K, V>),
) -> Result<(), Error>
where
    K: Key,
    V: 'a,
    I: Iterator<Item = (K, &'a V)>,
    J: Iterator<Item = (K, &'a V)>,
{
    if budget.pass() != Pass::State {
        return Err(Error::new(ErrorKind::InvalidDeclaration, 0));
    }
    let candidates = budget.take_visit(0)?;
    let mut index = 0;
    for step in merge(now, base) {
        let candidate = candidates.get(index);
        if is_candidate(&step, candidate, 0)? {
            index += 1;
            if candidate.is_some_and(|c| !c.send) {
                held_back(step);
            }
        }
    }
    all_met(index, candidates, 0)
}

/// `sent_state` of a nested change-group field: whether `delta_group`
/// sends it (the bits `now` writes differ from those `then` writes), so
/// that the nested type's keyed collections are visited only when the
/// packet wrote them.
#[inline]
pub fn nested_sent(
    now: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
    then: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
) -> Result<bool, Error> {
    Ok(Fingerprint::of(1, now)? != Fingerprint::of(1, then)?)
}

/// `record_state`'s question about a field's type: `Some(clone_from)` when
/// it is `Clone`, else `None`, by autoref (for a concrete type, which is
/// all the derive asks about): `(&&CloneProbe::<T>::new()).clone_from_fn()`
/// finds [`ViaClone`] on `&CloneProbe<T>` when `T: Clone`, else
/// [`NotClone`] on `CloneProbe<T>`. A `where T: Clone` would not compile
/// for a type that is not.
pub struct CloneProbe<T>(core::marker::PhantomData<fn() -> T>);

impl<T> CloneProbe<T> {
    #[inline(always)]
    pub const fn new() -> Self {
        CloneProbe(core::marker::PhantomData)
    }
}

impl<T> Default for CloneProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// The answer for a `Clone` type (see [`CloneProbe`]).
pub trait ViaClone<T> {
    fn clone_from_fn(&self) -> Option<fn(&mut T, &T)>;
}

impl<T: Clone> ViaClone<T> for &CloneProbe<T> {
    #[inline(always)]
    fn clone_from_fn(&self) -> Option<fn(&mut T, &T)> {
        Some(T::clone_from)
    }
}

/// The answer for any other type (see [`CloneProbe`]).
pub trait NotClone<T> {
    fn clone_from_fn(&self) -> Option<fn(&mut T, &T)>;
}

impl<T> NotClone<T> for CloneProbe<T> {
    #[inline(always)]
    fn clone_from_fn(&self) -> Option<fn(&mut T, &T)> {
        None
    }
}

/// `#[change_group] field: BTreeMap<K, V>` with `#[bitpack(max_len = N)]`.
///
/// The writers take the [`Budget`] of the `*_within` method they serve
/// (`write_to_within`, `write_delta_within`), or `None` for `write_to` and
/// `write_delta`: a type writes both from one body.
pub mod map {
    use super::*;

    /// `retain_entries`: keeps the entries `keep` answers `true` for, as
    /// entries of collection `collection`.
    #[inline]
    pub fn retain<K: Key, V>(
        map: &mut BTreeMap<K, V>,
        collection: usize,
        keep: &mut dyn FnMut(Entry) -> bool,
    ) {
        map.retain(|key, _| keep(Entry { collection, key: key.to_u128() }));
    }

    /// `each_entry`: `f` with each entry, as collection `collection`.
    #[inline]
    pub fn each<K: Key, V>(map: &BTreeMap<K, V>, collection: usize, f: &mut dyn FnMut(Entry)) {
        for key in map.keys() {
            f(Entry { collection, key: key.to_u128() });
        }
    }

    /// `holds_entry`: whether `map` holds `key`, and if so whether
    /// `baseline` holds it equal.
    #[inline]
    pub fn holds<K: Key, V: PartialEq>(
        map: &BTreeMap<K, V>,
        baseline: Option<&BTreeMap<K, V>>,
        key: u128,
    ) -> Option<bool> {
        let key = K::from_u128(key)?;
        let value = map.get(&key)?;
        Some(baseline.and_then(|baseline| baseline.get(&key)) == Some(value))
    }

    /// `MAX_BITS` of the field: the length and `max_len` of the longest entries.
    pub const fn max_bits<K: Key, V: BitPack>(max_len: usize) -> usize {
        sum(&[len_bits(max_len), times(max_len, sum(&[K::MAX_BITS, V::MAX_BITS]))])
    }

    /// `MIN_BITS` of the field: an empty collection's length.
    pub const fn min_bits(max_len: usize) -> usize {
        len_bits(max_len)
    }

    /// `SCHEMA` of the field.
    pub const fn schema<K: Key, V: BitPack>(max_len: usize) -> u64 {
        schema::node(KEYED, &[max_len as u64, K::PREFIX_BITS as u64, V::SCHEMA])
    }

    /// `write_to` and `write_to_within`: the length, then each entry's key
    /// gap and value (only those `budget` lets through, if any).
    #[inline]
    pub fn write<K: Key, V: BitPack, W: BitWrite>(
        writer: &mut W,
        map: &BTreeMap<K, V>,
        max_len: usize,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error> {
        write_whole(writer, entries(map), map.len(), max_len, budget)
    }

    /// `read_from`: what [`write`] wrote.
    #[inline]
    pub fn read<K: Key, V: BitPack>(
        reader: &mut impl BitRead,
        max_len: usize,
    ) -> Result<BTreeMap<K, V>, Error> {
        Ok(read_whole(reader, max_len, MapBuild(Vec::new()))?.0.into_iter().collect())
    }

    /// `write_delta` and `write_delta_within`: the changed, new and removed
    /// entries, in key order (only those `budget` lets through, if any).
    #[inline]
    pub fn write_delta<K: Key, V: ChangeGroups + PartialEq, W: BitWrite>(
        writer: &mut W,
        now: &BTreeMap<K, V>,
        baseline: &BTreeMap<K, V>,
        max_len: usize,
        spawn: fn() -> V,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error> {
        let lens = (now.len(), baseline.len());
        let reach = (super::MapWalk::new(now), super::MapWalk::new(baseline));
        let ranged = (
            now.range(..).map(|(key, value)| (*key, value)),
            baseline.range(..).map(|(key, value)| (*key, value)),
        );
        // A map's keys increase.
        let order = None::<fn(usize) -> Result<(), Error>>;
        super::write_delta(writer, ranged, reach, lens, max_len, spawn, budget, order)
    }

    /// `read_delta`: what [`write_delta`] wrote against the same baseline.
    #[inline]
    pub fn read_delta<K: Key, V: ChangeGroups + Clone>(
        reader: &mut impl BitRead,
        baseline: &BTreeMap<K, V>,
        max_len: usize,
        spawn: fn() -> V,
    ) -> Result<BTreeMap<K, V>, Error> {
        let build = MapEdit(baseline.clone());
        let base = (baseline.len(), |key| baseline.contains_key(&key));
        Ok(super::read_delta(reader, entries(baseline), base, max_len, spawn, build)?.0)
    }

    /// `sent_state`: makes `state`, a copy of `now`, the map the receiver
    /// holds after the packet the budget's last apply pass wrote (against
    /// `baseline`, or whole): the entries held back as in the baseline.
    #[inline]
    pub fn sent_state<K: Key, V: Clone>(
        now: &BTreeMap<K, V>,
        state: &mut BTreeMap<K, V>,
        baseline: Option<&BTreeMap<K, V>>,
        budget: &mut Budget,
    ) -> Result<(), Error> {
        let base = baseline.into_iter().flat_map(|baseline| entries(baseline));
        held_back(entries(now), base, budget, |step| match step {
            Step::Both(key, _, base) | Step::Removed(key, base) => {
                state.insert(key, base.clone());
            }
            Step::New(key, _) => {
                state.remove(&key);
            }
        })
    }

    /// `record_state`: makes `state` equal to `now` in place, its nodes
    /// reused: one walk of both overwrites the values of the keys both
    /// hold and notes the keys only one holds, which are then removed or
    /// inserted; with more than a few of either, a clone. A sender records
    /// into a state a tick or two old, whose keys are nearly the world's; a
    /// clone rebuilds (and the old state's drop frees) every node.
    pub fn record<K: Key, V: Clone>(now: &BTreeMap<K, V>, state: &mut BTreeMap<K, V>) {
        // Stack arrays of keys only, no allocation: the few keys to insert
        // look their values up again, cheaper than an `Option` and a value's
        // reference per slot (90 instructions a tick on the benchmark's map).
        const FEW: usize = 16;
        let (mut stale, mut missing) = ([K::default(); FEW], [K::default(); FEW]);
        let (mut stales, mut missings) = (0, 0);
        // Ranges, not `iter`/`iter_mut` (+5.3 K instructions a tick on the
        // benchmark's map of about 260 entries).
        let mut entries = now.range(..);
        let mut next = entries.next();
        for (key, value) in state.range_mut(..) {
            loop {
                match next {
                    Some((now_key, now_value)) if now_key == key => {
                        value.clone_from(now_value);
                        next = entries.next();
                        break;
                    }
                    Some((now_key, _)) if now_key < key => {
                        if let Some(slot) = missing.get_mut(missings) {
                            *slot = *now_key;
                        }
                        missings += 1;
                        next = entries.next();
                    }
                    _ => {
                        if let Some(slot) = stale.get_mut(stales) {
                            *slot = *key;
                        }
                        stales += 1;
                        break;
                    }
                }
            }
        }
        for (key, _) in next.into_iter().chain(entries) {
            if let Some(slot) = missing.get_mut(missings) {
                *slot = *key;
            }
            missings += 1;
        }
        if stales > FEW || missings > FEW {
            state.clone_from(now);
            return;
        }
        for key in stale.iter().take(stales) {
            state.remove(key);
        }
        for key in missing.iter().take(missings) {
            if let Some(value) = now.get(key) {
                state.insert(*key, value.clone());
            }
        }
    }

    fn entries<K: Key, V>(map: &BTreeMap<K, V>) -> impl Iterator<Item = (K, &V)> + Clone {
        map.iter().map(|(key, value)| (*key, value))
    }
}

/// `#[change_group] field: BTreeMap<K, V>` in a type whose sender holds
/// its states flat ([`ChangeGroups::FLAT_MAP`]: the type's one keyed
/// collection, with nothing nested): [`map`]'s functions and wire, except
/// that within a flat sender's passes the baseline's entries come from the
/// list kept beside it (its tree is empty, see `release`) and the
/// world's are copied into a list first, which the walk reads and which
/// becomes the packet's state. Anywhere else, [`map`]'s functions.
pub mod flat_map {
    use super::*;

    /// The budget, when it is a flat sender's.
    fn flat(budget: Option<&mut Budget>) -> Option<&mut Budget> {
        budget.filter(|budget| budget.flat)
    }

    /// In a measure pass, the world's entries copied into the visit's list.
    fn copy_world<K: Key + Send + Sync + 'static, V: Clone + Send + Sync + 'static>(
        budget: &mut Budget,
        map: &BTreeMap<K, V>,
    ) {
        if budget.pass() == Pass::Measure {
            let number = budget.visit_at();
            budget.mirrors.fill(number, map.len(), map.iter().map(|(key, value)| (*key, value)));
        }
    }

    fn pairs<K: Copy, V>(list: &[(K, V)]) -> impl Iterator<Item = (K, &V)> + Clone {
        list.iter().map(|(key, value)| (*key, value))
    }

    /// `write_to_within`: as [`map::write`].
    #[inline]
    pub fn write<K: Key + Send + Sync + 'static, V: BitPack + Clone + Send + Sync + 'static, W: BitWrite>(
        writer: &mut W,
        map: &BTreeMap<K, V>,
        max_len: usize,
        mut budget: Option<&mut Budget>,
    ) -> Result<(), Error> {
        if let Some(budget) = flat(budget.as_deref_mut()) {
            copy_world(budget, map);
        }
        map::write(writer, map, max_len, budget)
    }

    /// `write_delta_within`: as [`map::write_delta`], walking the two
    /// lists.
    #[inline]
    pub fn write_delta<
        K: Key + Send + Sync + 'static,
        V: ChangeGroups + PartialEq + Clone + Send + Sync + 'static,
        W: BitWrite,
    >(
        writer: &mut W,
        now: &BTreeMap<K, V>,
        baseline: &BTreeMap<K, V>,
        max_len: usize,
        spawn: fn() -> V,
        mut budget: Option<&mut Budget>,
    ) -> Result<(), Error> {
        let Some(budget) = flat(budget.as_deref_mut()) else {
            return map::write_delta(writer, now, baseline, max_len, spawn, budget);
        };
        copy_world(budget, now);
        let number = budget.visit_at();
        let (world, held) =
            (budget.mirrors.take::<K, V>(number), budget.baseline_mirrors.take::<K, V>(number));
        let written = match (&world, &held) {
            (Some(world), Some(held)) => {
                let lens = (world.len(), held.len());
                let reach = (super::Pairs { pairs: world }, super::Pairs { pairs: held });
                // A map's keys increase.
                let order = None::<fn(usize) -> Result<(), Error>>;
                let entries = (pairs(world), pairs(held));
                super::write_delta(writer, entries, reach, lens, max_len, spawn, Some(&mut *budget), order)
            }
            // Every state a flat sender holds has its list.
            _ => Err(Error::new(ErrorKind::InvalidDeclaration, writer.bits_written())),
        };
        if let Some(world) = world {
            budget.mirrors.put(number, world);
        }
        if let Some(held) = held {
            budget.baseline_mirrors.put(number, held);
        }
        written
    }

    /// `sent_state`: as [`map::sent_state`], on the world's list (the
    /// packet's state): the entries held back put back as in the
    /// baseline's. In a restore pass, `state`'s map rebuilt from the held
    /// state's list (the budget's baseline lists).
    #[inline]
    pub fn sent_state<K: Key + Send + Sync + 'static, V: Clone + Send + Sync + 'static>(
        now: &BTreeMap<K, V>,
        state: &mut BTreeMap<K, V>,
        baseline: Option<&BTreeMap<K, V>>,
        budget: &mut Budget,
    ) -> Result<(), Error> {
        if !budget.flat {
            return map::sent_state(now, state, baseline, budget);
        }
        let number = budget.visit_at();
        let missing = Error::new(ErrorKind::InvalidDeclaration, 0);
        if budget.pass() == Pass::Restore {
            let held = budget.baseline_mirrors.take::<K, V>(number).ok_or(missing)?;
            *state = held.iter().cloned().collect();
            budget.baseline_mirrors.put(number, held);
            budget.restored_visit();
            return Ok(());
        }
        let mut world = budget.mirrors.take::<K, V>(number).ok_or(missing)?;
        let held = match baseline {
            Some(_) => match budget.baseline_mirrors.take::<K, V>(number) {
                Some(held) => Some(held),
                None => {
                    budget.mirrors.put(number, world);
                    return Err(missing);
                }
            },
            None => None,
        };
        let base: &[(K, V)] = held.as_deref().map_or(&[], Vec::as_slice);
        let mut edits = core::mem::take(&mut budget.edits);
        let walked = held_edits(pairs(&world), pairs(base), budget, &mut edits);
        let applied = walked.and_then(|()| apply_edits(&mut world, base, &edits));
        budget.edits = edits;
        budget.mirrors.put(number, world);
        if let Some(held) = held {
            budget.baseline_mirrors.put(number, held);
        }
        applied
    }

    /// `hold_state`: a flat sender's state keeps its entries in the list
    /// beside it, and its tree empty.
    #[inline]
    pub fn release<K: Key, V>(state: &mut BTreeMap<K, V>) {
        if !state.is_empty() {
            state.clear();
        }
    }
}

/// Whether a sender holds a map of `K` to `V` flat, and its functions, by
/// autoref (for concrete types, which is all the derive asks about): a
/// list held flat is type-erased as `Box<dyn Any + Send + Sync>`, so that
/// a `Sender` is `Send + Sync` whenever its world is, and only entries that
/// are `Send + Sync` can be. `FlatProbe::<K, V>::FLAT` is the inherent
/// `true` when they are, else [`HeldWhole`]'s `false`;
/// `(&&FlatProbe::<K, V>::new()).write(..)` finds [`ViaFlat`] (the
/// [`flat_map`] functions) when they are, else [`ViaTree`] (the [`map`]
/// functions). A `where V: Send` would not compile for a type that is not.
pub struct FlatProbe<K, V>(core::marker::PhantomData<fn() -> (K, V)>);

impl<K, V> FlatProbe<K, V> {
    #[inline(always)]
    pub const fn new() -> Self {
        FlatProbe(core::marker::PhantomData)
    }
}

impl<K, V> Default for FlatProbe<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Send + Sync, V: Send + Sync> FlatProbe<K, V> {
    /// A sender holds the map flat (see [`FlatProbe`]).
    pub const FLAT: bool = true;
}

/// The answer for entries that are not `Send + Sync` (see [`FlatProbe`]).
pub trait HeldWhole {
    /// A sender holds the map whole.
    const FLAT: bool = false;
}

impl<K, V> HeldWhole for FlatProbe<K, V> {}

/// [`flat_map`]'s functions, for entries that are `Send + Sync` (see
/// [`FlatProbe`]).
pub trait ViaFlat<K, V> {
    fn write<W: BitWrite>(
        &self,
        writer: &mut W,
        map: &BTreeMap<K, V>,
        max_len: usize,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error>
    where
        V: BitPack + Clone;

    fn write_delta<W: BitWrite>(
        &self,
        writer: &mut W,
        now: &BTreeMap<K, V>,
        baseline: &BTreeMap<K, V>,
        max_len: usize,
        spawn: fn() -> V,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error>
    where
        V: ChangeGroups + PartialEq + Clone;

    fn sent_state(
        &self,
        now: &BTreeMap<K, V>,
        state: &mut BTreeMap<K, V>,
        baseline: Option<&BTreeMap<K, V>>,
        budget: &mut Budget,
    ) -> Result<(), Error>
    where
        V: Clone;

    fn release(&self, state: &mut BTreeMap<K, V>);
}

impl<K: Key + Send + Sync + 'static, V: Send + Sync + 'static> ViaFlat<K, V> for &FlatProbe<K, V> {
    #[inline(always)]
    fn write<W: BitWrite>(
        &self,
        writer: &mut W,
        map: &BTreeMap<K, V>,
        max_len: usize,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error>
    where
        V: BitPack + Clone,
    {
        flat_map::write(writer, map, max_len, budget)
    }

    #[inline(always)]
    fn write_delta<W: BitWrite>(
        &self,
        writer: &mut W,
        now: &BTreeMap<K, V>,
        baseline: &BTreeMap<K, V>,
        max_len: usize,
        spawn: fn() -> V,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error>
    where
        V: ChangeGroups + PartialEq + Clone,
    {
        flat_map::write_delta(writer, now, baseline, max_len, spawn, budget)
    }

    #[inline(always)]
    fn sent_state(
        &self,
        now: &BTreeMap<K, V>,
        state: &mut BTreeMap<K, V>,
        baseline: Option<&BTreeMap<K, V>>,
        budget: &mut Budget,
    ) -> Result<(), Error>
    where
        V: Clone,
    {
        flat_map::sent_state(now, state, baseline, budget)
    }

    #[inline(always)]
    fn release(&self, state: &mut BTreeMap<K, V>) {
        flat_map::release(state)
    }
}

/// [`map`]'s functions, for entries that are not `Send + Sync` (see
/// [`FlatProbe`]); such a map is held whole (`hold_state` records it).
pub trait ViaTree<K, V> {
    fn write<W: BitWrite>(
        &self,
        writer: &mut W,
        map: &BTreeMap<K, V>,
        max_len: usize,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error>
    where
        V: BitPack + Clone;

    fn write_delta<W: BitWrite>(
        &self,
        writer: &mut W,
        now: &BTreeMap<K, V>,
        baseline: &BTreeMap<K, V>,
        max_len: usize,
        spawn: fn() -> V,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error>
    where
        V: ChangeGroups + PartialEq + Clone;

    fn sent_state(
        &self,
        now: &BTreeMap<K, V>,
        state: &mut BTreeMap<K, V>,
        baseline: Option<&BTreeMap<K, V>>,
        budget: &mut Budget,
    ) -> Result<(), Error>
    where
        V: Clone;

    fn release(&self, state: &mut BTreeMap<K, V>);
}

impl<K: Key, V> ViaTree<K, V> for FlatProbe<K, V> {
    #[inline(always)]
    fn write<W: BitWrite>(
        &self,
        writer: &mut W,
        map: &BTreeMap<K, V>,
        max_len: usize,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error>
    where
        V: BitPack + Clone,
    {
        map::write(writer, map, max_len, budget)
    }

    #[inline(always)]
    fn write_delta<W: BitWrite>(
        &self,
        writer: &mut W,
        now: &BTreeMap<K, V>,
        baseline: &BTreeMap<K, V>,
        max_len: usize,
        spawn: fn() -> V,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error>
    where
        V: ChangeGroups + PartialEq + Clone,
    {
        map::write_delta(writer, now, baseline, max_len, spawn, budget)
    }

    #[inline(always)]
    fn sent_state(
        &self,
        now: &BTreeMap<K, V>,
        state: &mut BTreeMap<K, V>,
        baseline: Option<&BTreeMap<K, V>>,
        budget: &mut Budget,
    ) -> Result<(), Error>
    where
        V: Clone,
    {
        map::sent_state(now, state, baseline, budget)
    }

    /// Never called: `hold_state` records a map held whole.
    #[inline(always)]
    fn release(&self, _state: &mut BTreeMap<K, V>) {}
}

/// `#[change_group] field: Vec<V>` kept sorted by a `#[bitpack(key)]` field
/// of `V` (with `#[bitpack(max_len = N)]`): the same functions and wire as
/// [`map`], the key read from each value by `key`. A `Vec` not strictly
/// sorted by key is refused on write (`NotIncreasing`); a received value
/// whose key field differs from the key it came under is refused on read
/// (`KeyMismatch`).
pub mod sorted_vec {
    use super::*;

    /// `retain_entries`: keeps the entries `keep` answers `true` for, as
    /// entries of collection `collection`.
    #[inline]
    pub fn retain<K: Key, V>(
        entries: &mut Vec<V>,
        collection: usize,
        keep: &mut dyn FnMut(Entry) -> bool,
        key: fn(&V) -> K,
    ) {
        entries.retain(|value| keep(Entry { collection, key: key(value).to_u128() }));
    }

    /// `each_entry`: `f` with each entry, as collection `collection`.
    #[inline]
    pub fn each<K: Key, V>(entries: &[V], collection: usize, f: &mut dyn FnMut(Entry), key: fn(&V) -> K) {
        for value in entries {
            f(Entry { collection, key: key(value).to_u128() });
        }
    }

    /// `holds_entry`: whether `entries` hold `key`, and if so whether
    /// `baseline` holds it equal.
    #[inline]
    pub fn holds<K: Key, V: PartialEq>(
        entries: &[V],
        baseline: Option<&Vec<V>>,
        wanted: u128,
        key: fn(&V) -> K,
    ) -> Option<bool> {
        let find = |entries: &[V]| entries.binary_search_by(|value| key(value).to_u128().cmp(&wanted)).ok();
        let value = &entries[find(entries)?];
        Some(baseline.and_then(|baseline| find(baseline).map(|at| &baseline[at])) == Some(value))
    }

    pub use super::map::{max_bits, min_bits, schema};

    /// `Err(NotIncreasing)` unless the keys strictly increase.
    fn check_sorted<K: Key, V>(values: &[V], key: impl Fn(&V) -> K + Copy, at: usize) -> Result<(), Error> {
        if values.windows(2).all(|pair| key(&pair[0]) < key(&pair[1])) {
            Ok(())
        } else {
            Err(Error::new(ErrorKind::NotIncreasing, at))
        }
    }

    fn entries<K: Key, V>(
        values: &[V],
        key: impl Fn(&V) -> K + Copy,
    ) -> impl Iterator<Item = (K, &V)> + Clone {
        values.iter().map(move |value| (key(value), value))
    }

    /// `write_to` and `write_to_within`: as [`map::write`].
    #[inline]
    pub fn write<K: Key, V: BitPack, W: BitWrite>(
        writer: &mut W,
        values: &[V],
        max_len: usize,
        key: impl Fn(&V) -> K + Copy,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error> {
        check_sorted(values, key, writer.bits_written())?;
        write_whole(writer, entries(values, key), values.len(), max_len, budget)
    }

    /// `read_from`: as [`map::read`]; each value's key must be the one it came under.
    #[inline]
    pub fn read<K: Key, V: BitPack + Clone>(
        reader: &mut impl BitRead,
        max_len: usize,
        key: impl Fn(&V) -> K + Copy,
    ) -> Result<Vec<V>, Error> {
        Ok(read_whole(reader, max_len, VecBuild { values: Vec::new(), key })?.values)
    }

    /// `write_delta` and `write_delta_within`: as [`map::write_delta`].
    #[inline]
    pub fn write_delta<K: Key, V: ChangeGroups + PartialEq, W: BitWrite>(
        writer: &mut W,
        now: &[V],
        baseline: &[V],
        max_len: usize,
        spawn: fn() -> V,
        key: impl Fn(&V) -> K + Copy,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error> {
        // A sender's baselines are states it recorded from sorted worlds.
        // (Either check's error is `NotIncreasing` here.)
        if budget.is_none() {
            check_sorted(baseline, key, writer.bits_written())?;
        }
        // The world's keys, checked by `write_delta` (with a budget, by a
        // sender's one walk as it goes: a first pass over a world not yet
        // in cache costs the sender about 7% of its time).
        let order = Some(|at| check_sorted(now, key, at));
        let entries = (entries(now, key), entries(baseline, key));
        let reach = (super::Slice { values: now, key }, super::Slice { values: baseline, key });
        super::write_delta(writer, entries, reach, (now.len(), baseline.len()), max_len, spawn, budget, order)
    }

    /// `read_delta`: as [`map::read_delta`]; each value's key must be the one it came under.
    #[inline]
    pub fn read_delta<K: Key, V: ChangeGroups + Clone>(
        reader: &mut impl BitRead,
        baseline: &[V],
        max_len: usize,
        spawn: fn() -> V,
        key: impl Fn(&V) -> K + Copy,
    ) -> Result<Vec<V>, Error> {
        check_sorted(baseline, key, reader.bits_read())?;
        let build = VecBuild { values: Vec::with_capacity(baseline.len().min(max_len)), key };
        let holds = |wanted: K| baseline.binary_search_by(|held| key(held).cmp(&wanted)).is_ok();
        Ok(super::read_delta(reader, entries(baseline, key), (baseline.len(), holds), max_len, spawn, build)?
            .values)
    }

    /// `sent_state`: as [`map::sent_state`].
    #[inline]
    pub fn sent_state<K: Key, V: Clone>(
        now: &[V],
        state: &mut Vec<V>,
        baseline: Option<&[V]>,
        key: impl Fn(&V) -> K + Copy,
        budget: &mut Budget,
    ) -> Result<(), Error> {
        let base_values = baseline.unwrap_or(&[]);
        let mut edits = core::mem::take(&mut budget.edits);
        let walked = held_edits(entries(now, key), entries(base_values, key), budget, &mut edits);
        let applied = apply_edits(state, base_values, &edits);
        budget.edits = edits;
        walked.and(applied)
    }
}

/// The entries the budget's last apply pass held back from a sorted list
/// (`now`, against `base`), as `edits` of a copy of `now`.
fn held_edits<'a, K, V, I, J>(
    now: I,
    base: J,
    budget: &mut Budget,
    edits: &mut Vec<Edit>,
) -> Result<(), Error>
where
    K: Key,
    V: 'a,
    I: Iterator<Item = (K, &'a V)> + Clone,
    J: Iterator<Item = (K, &'a V)> + Clone,
{
    edits.clear();
    // Where each entry held back is, in `now` and in the baseline.
    let (mut at, mut from) = (0, 0);
    let mut now_keys = now.clone().map(|(key, _)| key).peekable();
    let mut base_keys = base.clone().map(|(key, _)| key).peekable();
    held_back(now, base, budget, |step| {
        while now_keys.next_if(|now_key| *now_key < step.key()).is_some() {
            at += 1;
        }
        while base_keys.next_if(|base_key| *base_key < step.key()).is_some() {
            from += 1;
        }
        edits.push(match step {
            Step::Both(..) => Edit { at, from: Some(from), in_now: true },
            Step::New(..) => Edit { at, from: None, in_now: true },
            Step::Removed(..) => Edit { at, from: Some(from), in_now: false },
        });
    })
}

/// Applies [`held_edits`] to `state`, a copy of the list they were found
/// in: each entry held back put back as in `base` (or taken out, when new).
fn apply_edits<T: Clone>(state: &mut Vec<T>, base: &[T], edits: &[Edit]) -> Result<(), Error> {
    // From the last, so that each edit finds the entries before it in place.
    let mut applied = Ok(());
    for edit in edits.iter().rev() {
        let fits = if edit.in_now { edit.at < state.len() } else { edit.at <= state.len() };
        let value = edit.from.and_then(|from| base.get(from));
        match (fits, edit.in_now, value) {
            (true, true, None) => drop(state.remove(edit.at)),
            (true, true, Some(value)) => state[edit.at] = value.clone(),
            (true, false, Some(value)) => state.insert(edit.at, value.clone()),
            _ => applied = Err(Error::new(ErrorKind::InvalidDeclaration, 0)),
        }
    }
    applied
}
