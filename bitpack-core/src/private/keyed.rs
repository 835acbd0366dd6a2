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
//! hold): one bit, 0 when nothing changed. Otherwise the number of items
//! as `int(items - 1, 0, 2 * max_len - 1)`, then the items in key order,
//! each its key, then:
//!
//! - for a key the baseline holds, one bit: 0 for an entry whose value
//!   changed, followed by the value's `write_delta` against the baseline's;
//!   1 for a removed entry, followed by nothing;
//! - for a key the baseline does not hold (a new entry): the value's
//!   `write_delta` against the spawn value (`V::default()`, or the
//!   `#[bitpack(spawn = path)]` function's).
//!
//! An entry equal (`==`) to the baseline's is not an item, so an unchanged
//! collection costs one bit whatever its size. A receiver tells a changed
//! entry from a new one by looking the key up in its baseline.
//!
//! # Hostile input
//!
//! Readers refuse a length over `max_len`, an item count over `2 * max_len`
//! or larger than the remaining input can hold, a key past its type's
//! maximum, a result longer than `max_len`, and (for [`sorted_vec`]) a
//! value whose key field differs from the key it was sent under. A failed
//! read leaves the reader where it was, and nothing is allocated beyond
//! `max_len` entries and the bits the input holds. A failed write leaves
//! the writer as it was.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use crate::adaptive::{AdaptiveInt, Signs, adaptive_bits, read_adaptive, write_adaptive};
use crate::change::ChangeGroups;
use crate::error::{Error, ErrorKind};
use crate::pack::BitPack;
use crate::private::{len_bits, read_len, schema, sum, times, write_atomic, write_len};
use crate::read::BitRead;
use crate::source::SourceExt;
use crate::sync::budget::{Candidate, ItemKind, Pass};
use crate::write::BitWrite;

pub use crate::sync::Budget;

mod sealed {
    pub trait Sealed {}
}

/// A key type: an unsigned integer. Sealed.
pub trait Key: AdaptiveInt + Ord + sealed::Sealed {
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
#[derive(Clone, Copy)]
enum Step<'a, K, V> {
    /// In both: the world's value, then the baseline's.
    Both(K, &'a V, &'a V),
    /// In the world only.
    New(K, &'a V),
    /// In the baseline only.
    Removed(K, &'a V),
}

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

    #[inline]
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

/// Whether a step is an item of the delta (a `Both` only when changed).
#[inline(always)]
fn is_item<K: Key, V: PartialEq>(step: &Step<'_, K, V>) -> bool {
    match step {
        Step::Both(_, now, base) => now != base,
        Step::New(..) | Step::Removed(..) => true,
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

/// Writes one item: its key, then its kind bit and data.
#[inline(always)]
fn write_item<K: Key, V: ChangeGroups, W: BitWrite>(
    writer: &mut W,
    previous: &mut Option<K>,
    step: &Step<'_, K, V>,
    spawn: fn() -> V,
    spawned: &mut Option<V>,
) -> Result<usize, Error> {
    write_key(writer, *previous, step.key())?;
    *previous = Some(step.key());
    let start = writer.bits_written();
    match *step {
        Step::Both(_, now, base) => {
            writer.write_bool(false)?;
            now.write_delta(base, writer)?;
        }
        Step::Removed(..) => writer.write_bool(true)?,
        Step::New(_, now) => now.write_delta(spawned.get_or_insert_with(spawn), writer)?,
    }
    Ok(writer.bits_written() - start)
}

/// The delta's item count: a 0 bit for none, else a 1 bit and `items - 1`.
fn write_count<W: BitWrite>(writer: &mut W, items: usize, max_len: usize) -> Result<(), Error> {
    writer.write_bool(items > 0)?;
    if items > 0 {
        write_len(writer, items - 1, max_len.saturating_mul(2).saturating_sub(1))?;
    }
    Ok(())
}

fn read_count<K: Key>(reader: &mut impl BitRead, max_len: usize) -> Result<usize, Error> {
    let start = reader.bits_read();
    if !reader.read_bool()? {
        return Ok(0);
    }
    let Some(last) = max_len.saturating_mul(2).checked_sub(1) else {
        return Err(Error::new(ErrorKind::TooLong, start));
    };
    // Every item holds at least a key's length prefix.
    Ok(read_len(reader, last, K::PREFIX_BITS as usize)? + 1)
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
                Pass::State => return Err(Error::new(ErrorKind::InvalidDeclaration, writer.bits_written())),
            },
        }
        Ok(())
    })
}

/// Writes a delta of `now` against `base` (see the module docs); in a
/// budget's apply pass, only the selected items.
#[allow(clippy::too_many_arguments)]
fn write_delta<'a, K, V, W, I, J>(
    writer: &mut W,
    now: I,
    base: J,
    len: usize,
    max_len: usize,
    spawn: fn() -> V,
    budget: Option<&mut Budget>,
) -> Result<(), Error>
where
    K: Key,
    V: ChangeGroups + PartialEq + 'a,
    W: BitWrite,
    I: Iterator<Item = (K, &'a V)> + Clone,
    J: Iterator<Item = (K, &'a V)> + Clone,
{
    let at = writer.bits_written();
    too_long(len, max_len, at)?;
    write_atomic(writer, |writer| {
        let mut previous = None;
        let mut spawned = None;
        match budget {
            None => {
                write_count(writer, merge(now.clone(), base.clone()).filter(is_item).count(), max_len)?;
                for step in merge(now, base).filter(is_item) {
                    write_item(writer, &mut previous, &step, spawn, &mut spawned)?;
                }
            }
            Some(budget) => match budget.pass() {
                Pass::Measure => {
                    budget.open_visit(gap_bits::<K>);
                    for step in merge(now.clone(), base.clone()).filter(is_item) {
                        budget.push(step.key().to_u128(), kind_of(&step));
                    }
                    write_count(writer, budget.open_candidates().len(), max_len)?;
                    // The items are known: walk again without comparing values.
                    let mut index = 0;
                    for step in merge(now, base) {
                        if !is_candidate(&step, budget.open_candidates().get(index), at)? {
                            continue;
                        }
                        let bits = write_item(writer, &mut previous, &step, spawn, &mut spawned)?;
                        budget.set_bits(index, bits);
                        index += 1;
                    }
                }
                Pass::Apply => {
                    let candidates = budget.take_visit(at)?;
                    write_count(writer, candidates.iter().filter(|c| c.send).count(), max_len)?;
                    let mut index = 0;
                    for step in merge(now, base) {
                        let candidate = candidates.get(index);
                        if !is_candidate(&step, candidate, at)? {
                            continue;
                        }
                        index += 1;
                        if candidate.is_some_and(|c| c.send) {
                            write_item(writer, &mut previous, &step, spawn, &mut spawned)?;
                        }
                    }
                    all_met(index, candidates, at)?;
                }
                Pass::State => return Err(Error::new(ErrorKind::InvalidDeclaration, at)),
            },
        }
        Ok(())
    })
}

/// Builds a collection in key order.
trait Build<K, V> {
    /// An entry kept from the baseline.
    fn kept(&mut self, key: K, value: &V);
    /// An entry with a new value (changed or new).
    fn put(&mut self, key: K, value: V, at: usize) -> Result<(), Error>;
    /// An entry of the baseline removed.
    fn removed(&mut self, key: K);
    fn len(&self) -> usize;
}

/// A map built by editing a copy of the baseline (or an empty map).
struct MapBuild<K, V>(BTreeMap<K, V>);

impl<K: Key, V> Build<K, V> for MapBuild<K, V> {
    #[inline(always)]
    fn kept(&mut self, _key: K, _value: &V) {}

    #[inline(always)]
    fn put(&mut self, key: K, value: V, _at: usize) -> Result<(), Error> {
        self.0.insert(key, value);
        Ok(())
    }

    #[inline(always)]
    fn removed(&mut self, key: K) {
        self.0.remove(&key);
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

/// A sorted `Vec` built entry by entry; every value must carry its key.
struct VecBuild<K, V> {
    values: Vec<V>,
    key: fn(&V) -> K,
}

impl<K: Key, V: Clone> Build<K, V> for VecBuild<K, V> {
    #[inline(always)]
    fn kept(&mut self, _key: K, value: &V) {
        self.values.push(value.clone());
    }

    #[inline(always)]
    fn put(&mut self, key: K, value: V, at: usize) -> Result<(), Error> {
        if (self.key)(&value) != key {
            return Err(Error::new(ErrorKind::KeyMismatch, at));
        }
        self.values.push(value);
        Ok(())
    }

    #[inline(always)]
    fn removed(&mut self, _key: K) {}

    fn len(&self) -> usize {
        self.values.len()
    }
}

/// Reads a whole collection into `build` (empty).
fn read_whole<K: Key, V: BitPack, B: Build<K, V>>(
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

/// Reads a delta against `base` (the baseline's entries) into `build`.
fn read_delta<'a, R: BitRead, K, V, J, B>(
    reader: &mut R,
    mut base: core::iter::Peekable<J>,
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
        let items = read_count::<K>(reader, max_len)?;
        let mut previous = None;
        let mut spawned = None;
        for _ in 0..items {
            let at = reader.bits_read();
            let key = read_key(reader, previous)?;
            previous = Some(key);
            while let Some((kept, value)) = base.next_if(|(kept, _)| *kept < key) {
                build.kept(kept, value);
            }
            match base.next_if(|(held, _)| *held == key) {
                Some((_, held)) => {
                    if reader.read_bool()? {
                        build.removed(key);
                    } else {
                        build.put(key, V::read_delta(held, reader)?, at)?;
                    }
                }
                None => {
                    let value = V::read_delta(spawned.get_or_insert_with(spawn), reader)?;
                    build.put(key, value, at)?;
                }
            }
        }
        for (kept, value) in base {
            build.kept(kept, value);
        }
        too_long(build.len(), max_len, reader.bits_read())?;
        Ok(build)
    })
}

/// Builds what the receiver holds after the applied packet: `build`
/// starts from the baseline (or empty, for a whole packet).
fn sent<'a, K, V, I, J, B>(now: I, base: J, budget: &mut Budget, mut build: B) -> Result<B, Error>
where
    K: Key,
    V: Clone + 'a,
    I: Iterator<Item = (K, &'a V)>,
    J: Iterator<Item = (K, &'a V)>,
    B: Build<K, V>,
{
    if budget.pass() != Pass::State {
        return Err(Error::new(ErrorKind::InvalidDeclaration, 0));
    }
    let candidates = budget.take_visit(0)?;
    let mut index = 0;
    for step in merge(now, base) {
        let candidate = candidates.get(index);
        let item = is_candidate(&step, candidate, 0)?;
        if item {
            index += 1;
        }
        let send = item && candidate.is_some_and(|c| c.send);
        match step {
            Step::Both(key, now, _) | Step::New(key, now) if send => build.put(key, now.clone(), 0)?,
            Step::Removed(key, _) if send => build.removed(key),
            Step::Both(key, _, base) | Step::Removed(key, base) => build.kept(key, base),
            Step::New(..) => {}
        }
    }
    all_met(index, candidates, 0)?;
    Ok(build)
}

/// `#[change_group] field: BTreeMap<K, V>` with `#[bitpack(max_len = N)]`.
///
/// The writers take the [`Budget`] of the `*_within` method they serve
/// (`write_to_within`, `write_delta_within`), or `None` for `write_to` and
/// `write_delta`: a type writes both from one body.
pub mod map {
    use super::*;

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
        Ok(read_whole(reader, max_len, MapBuild(BTreeMap::new()))?.0)
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
        super::write_delta(writer, entries(now), entries(baseline), now.len(), max_len, spawn, budget)
    }

    /// `read_delta`: what [`write_delta`] wrote against the same baseline.
    #[inline]
    pub fn read_delta<R: BitRead, K: Key, V: ChangeGroups + Clone>(
        reader: &mut R,
        baseline: &BTreeMap<K, V>,
        max_len: usize,
        spawn: fn() -> V,
    ) -> Result<BTreeMap<K, V>, Error> {
        let build = MapBuild(baseline.clone());
        Ok(super::read_delta(reader, entries(baseline).peekable(), max_len, spawn, build)?.0)
    }

    /// `sent_state`: the map the receiver holds after the packet the
    /// budget's last apply pass wrote (against `baseline`, or whole).
    #[inline]
    pub fn sent_state<K: Key, V: Clone>(
        now: &BTreeMap<K, V>,
        baseline: Option<&BTreeMap<K, V>>,
        budget: &mut Budget,
    ) -> Result<BTreeMap<K, V>, Error> {
        let build = MapBuild(baseline.cloned().unwrap_or_default());
        let base = baseline.into_iter().flat_map(|baseline| entries(baseline));
        Ok(sent(entries(now), base, budget, build)?.0)
    }

    fn entries<K: Key, V>(map: &BTreeMap<K, V>) -> impl Iterator<Item = (K, &V)> + Clone {
        map.iter().map(|(key, value)| (*key, value))
    }
}

/// `#[change_group] field: Vec<V>` kept sorted by a `#[bitpack(key)]` field
/// of `V` (with `#[bitpack(max_len = N)]`): the same functions and wire as
/// [`map`], the key read from each value by `key`. A `Vec` not strictly
/// sorted by key is refused on write (`NotIncreasing`); a received value
/// whose key field differs from the key it came under is refused on read
/// (`KeyMismatch`).
pub mod sorted_vec {
    use super::*;

    pub use super::map::{max_bits, min_bits, schema};

    /// `Err(NotIncreasing)` unless the keys strictly increase.
    fn check_sorted<K: Key, V>(values: &[V], key: fn(&V) -> K, at: usize) -> Result<(), Error> {
        if values.windows(2).all(|pair| key(&pair[0]) < key(&pair[1])) {
            Ok(())
        } else {
            Err(Error::new(ErrorKind::NotIncreasing, at))
        }
    }

    fn entries<K: Key, V>(values: &[V], key: fn(&V) -> K) -> impl Iterator<Item = (K, &V)> + Clone {
        values.iter().map(move |value| (key(value), value))
    }

    /// `write_to` and `write_to_within`: as [`map::write`].
    #[inline]
    pub fn write<K: Key, V: BitPack, W: BitWrite>(
        writer: &mut W,
        values: &[V],
        max_len: usize,
        key: fn(&V) -> K,
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
        key: fn(&V) -> K,
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
        key: fn(&V) -> K,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error> {
        check_sorted(now, key, writer.bits_written())?;
        // A sender's baselines are states it recorded from sorted worlds.
        if budget.is_none() {
            check_sorted(baseline, key, writer.bits_written())?;
        }
        let (now_entries, base) = (entries(now, key), entries(baseline, key));
        super::write_delta(writer, now_entries, base, now.len(), max_len, spawn, budget)
    }

    /// `read_delta`: as [`map::read_delta`]; each value's key must be the one it came under.
    #[inline]
    pub fn read_delta<R: BitRead, K: Key, V: ChangeGroups + Clone>(
        reader: &mut R,
        baseline: &[V],
        max_len: usize,
        spawn: fn() -> V,
        key: fn(&V) -> K,
    ) -> Result<Vec<V>, Error> {
        check_sorted(baseline, key, reader.bits_read())?;
        let build = VecBuild { values: Vec::with_capacity(baseline.len().min(max_len)), key };
        Ok(super::read_delta(reader, entries(baseline, key).peekable(), max_len, spawn, build)?.values)
    }

    /// `sent_state`: as [`map::sent_state`].
    #[inline]
    pub fn sent_state<K: Key, V: Clone>(
        now: &[V],
        baseline: Option<&[V]>,
        key: fn(&V) -> K,
        budget: &mut Budget,
    ) -> Result<Vec<V>, Error> {
        let build = VecBuild { values: Vec::with_capacity(now.len()), key };
        let base = baseline.into_iter().flat_map(move |values| entries(values, key));
        Ok(sent(entries(now, key), base, budget, build)?.values)
    }
}
