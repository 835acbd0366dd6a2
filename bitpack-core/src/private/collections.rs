//! What the derive's `max_len` calls for the collections beyond `String`
//! and `Vec`: `Box<str>` and `Cow<str>` (and `Rc<str>`, `Arc<str>`),
//! `Box<[T]>` and `VecDeque<T>`, `BTreeMap`/`HashMap` and
//! `BTreeSet`/`HashSet`. Element encodings come as closures, so an
//! element's own attributes (`#[bits]`, `#[quantize]`, nested `max_len`)
//! are generated inline as for a `Vec`.
//!
//! - Strings write as `String` (`write_str(s, max_len)`), sequences as
//!   `Vec` (`int(len, 0, max_len)` then the elements): the same bits and
//!   `SCHEMA` (`schema::string`, `schema::vec`) as the `String` or `Vec`.
//! - Maps and sets write their length, then their entries in ascending key
//!   order, so the same map is always the same bytes: a `HashMap` is sorted
//!   on write (a `BTreeMap` already is). Readers refuse keys that are not
//!   strictly ascending (which refuses duplicates too), so decoding is
//!   canonical. Keys must decode to what was written (their order is judged
//!   on the decoded keys). `MAX_BITS` is
//!   `vec_max_bits(max_len, key + value)`, `MIN_BITS` `len_bits(max_len)`;
//!   `SCHEMA` is `schema::map(max_len, key, value)` / `schema::set(max_len,
//!   element)`, the same for the `BTree` and `Hash` forms.
//!
//! Readers refuse a length whose elements cannot be in the remaining input
//! before allocating for them (`read_len` with the element's `MIN_BITS`).
//! Each write and read fails whole: on `Err` the writer is as it was, the
//! reader where it was. Writing a `HashMap` or `HashSet` whose iteration
//! order is not ascending (almost always) allocates a `Vec` of references
//! to sort them; every other write allocates nothing.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::{read_counted, read_len, read_rust_string, read_vec, write_atomic, write_len, write_rust_string};
use crate::columns::{column_len_max_bits, read_column_len, write_column_len};
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::source::SourceExt;
use crate::write::BitWrite;

/// Writes a `Box<str>`, `Cow<str>`, `Rc<str>` or `Arc<str>` as a derived
/// `String` with the same `max_len` ([`write_rust_string`]: NUL allowed).
#[inline(always)]
pub fn write_text<W: BitWrite, S: AsRef<str> + ?Sized>(
    writer: &mut W,
    text: &S,
    max_len: usize,
) -> Result<(), Error> {
    write_rust_string(writer, text.as_ref(), max_len)
}

/// Reads what [`write_text`] wrote, as any string type made from a `String`
/// (`Box<str>` and `Cow<str>` take its buffer as it is), its bytes claimed
/// from the reader's allocation budget first (once: an `Rc<str>` copies
/// them into its own allocation and frees the `String`'s).
#[inline(always)]
pub fn read_text<S: From<String>>(reader: &mut impl BitRead, max_len: usize) -> Result<S, Error> {
    Ok(S::from(read_rust_string(reader, max_len)?))
}

/// Writes a sequence (`VecDeque`, `Box<[T]>`: pass `&*boxed`) as a `Vec`:
/// its length as `int(len, 0, max_len)`, then each element.
#[inline]
pub fn write_sequence<W: BitWrite, I>(
    writer: &mut W,
    items: I,
    max_len: usize,
    write_element: impl FnMut(&mut W, I::Item) -> Result<(), Error>,
) -> Result<(), Error>
where
    I: IntoIterator,
    I::IntoIter: ExactSizeIterator,
{
    write_counted(writer, items, max_len, write_len, write_element)
}

/// Reads what [`write_sequence`] wrote into any collection made from a
/// `Vec` (`VecDeque` and `Box<[T]>` take its buffer as it is), through
/// [`read_vec`]: elements take at least `min_element_bits` each, and
/// `len` `T`s are claimed from the allocation budget first
/// (`BitRead::claim_allocation`).
#[inline]
pub fn read_sequence<R: BitRead, C: From<Vec<T>>, T>(
    reader: &mut R,
    max_len: usize,
    min_element_bits: usize,
    mut read_element: impl FnMut(&mut R) -> Result<T, Error>,
) -> Result<C, Error> {
    Ok(C::from(read_vec(reader, max_len, min_element_bits, &mut read_element)?))
}

/// Writes a sequence with `#[bitpack(adaptive_len)]` (`Vec`, `VecDeque`,
/// `Box<[T]>`: pass `&*boxed`): its length in the bounded-adaptive form of
/// columns ([`write_column_len`]: `bit_length(len)` in
/// `bit_length(bit_length(max_len))` bits, then the bits below its leading
/// 1), then each element. `max_len` bounds it (`TooLong` above) but a
/// generous one costs a bit or two, not a bit per doubling.
#[inline]
pub fn write_adaptive_len_sequence<W: BitWrite, I>(
    writer: &mut W,
    items: I,
    max_len: usize,
    write_element: impl FnMut(&mut W, I::Item) -> Result<(), Error>,
) -> Result<(), Error>
where
    I: IntoIterator,
    I::IntoIter: ExactSizeIterator,
{
    write_counted(writer, items, max_len, write_column_len, write_element)
}

/// A sequence's length in `write_length`'s form, then each element, all or
/// nothing: what [`write_sequence`] and [`write_adaptive_len_sequence`]
/// share.
#[inline(always)]
fn write_counted<W: BitWrite, I>(
    writer: &mut W,
    items: I,
    max_len: usize,
    write_length: impl FnOnce(&mut W, usize, usize) -> Result<(), Error>,
    mut write_element: impl FnMut(&mut W, I::Item) -> Result<(), Error>,
) -> Result<(), Error>
where
    I: IntoIterator,
    I::IntoIter: ExactSizeIterator,
{
    let items = items.into_iter();
    write_atomic(writer, |writer| {
        write_length(writer, items.len(), max_len)?;
        for item in items {
            write_element(writer, item)?;
        }
        Ok(())
    })
}

/// Reads what [`write_adaptive_len_sequence`] wrote into any collection made
/// from a `Vec`: the length (refused over `max_len`, and unless `len`
/// elements of `min_element_bits` can still be in the input), then `len`
/// `T`s claimed from the allocation budget (`BitRead::claim_allocation`),
/// then the elements. On `Err` the reader is back where it was.
#[inline]
pub fn read_adaptive_len_sequence<R: BitRead, C: From<Vec<T>>, T>(
    reader: &mut R,
    max_len: usize,
    min_element_bits: usize,
    mut read_element: impl FnMut(&mut R) -> Result<T, Error>,
) -> Result<C, Error> {
    let read_length = |reader: &mut R| {
        let start = reader.bits_read();
        let len = read_column_len(reader, max_len)?;
        if len.saturating_mul(min_element_bits) > reader.bits_remaining() {
            return Err(Error::new(ErrorKind::UnexpectedEnd, start));
        }
        reader.claim_allocation::<T>(len).map_err(|error| Error::new(error.kind(), start))?;
        Ok(len)
    };
    Ok(C::from(read_counted(reader, read_length, &mut read_element)?))
}

/// The most bits [`write_adaptive_len_sequence`] takes: the longest length,
/// then `max_len` elements of at most `element_bits`.
#[inline]
pub const fn adaptive_len_vec_max_bits(max_len: usize, element_bits: usize) -> usize {
    column_len_max_bits(max_len).saturating_add(super::times(max_len, element_bits))
}

/// Whether `keys` are strictly ascending.
#[inline(always)]
fn strictly_ascending<'a, K: Ord + 'a>(mut keys: impl Iterator<Item = &'a K>) -> bool {
    let Some(mut last) = keys.next() else { return true };
    for key in keys {
        if last >= key {
            return false;
        }
        last = key;
    }
    true
}

/// `None` when `items` come in ascending order of `key` (a `BTreeMap`),
/// else them sorted (a `HashMap`). Keys that compare equal (an `Ord` that
/// disagrees with `Eq`) are refused: a reader would refuse them.
#[inline]
fn sorted_unless_ascending<'a, T: Copy, K: Ord + 'a>(
    items: impl Iterator<Item = T> + Clone,
    key: impl Fn(&T) -> &'a K,
    at: usize,
) -> Result<Option<Vec<T>>, Error> {
    if strictly_ascending(items.clone().map(|item| key(&item))) {
        return Ok(None);
    }
    let mut sorted: Vec<T> = items.collect();
    sorted.sort_unstable_by(|a, b| key(a).cmp(key(b)));
    if sorted.windows(2).any(|pair| key(&pair[0]).cmp(key(&pair[1])) == Ordering::Equal) {
        return Err(Error::new(ErrorKind::NotIncreasing, at));
    }
    Ok(Some(sorted))
}

/// Writes a map (`&BTreeMap` or `&HashMap`): its length as
/// `int(len, 0, max_len)`, then each key and value, in ascending key order.
#[inline]
pub fn write_map<'a, W: BitWrite, K: Ord + 'a, V: 'a, I>(
    writer: &mut W,
    entries: I,
    max_len: usize,
    mut write_key: impl FnMut(&mut W, &'a K) -> Result<(), Error>,
    mut write_value: impl FnMut(&mut W, &'a V) -> Result<(), Error>,
) -> Result<(), Error>
where
    I: IntoIterator<Item = (&'a K, &'a V)>,
    I::IntoIter: ExactSizeIterator + Clone,
{
    let entries = entries.into_iter();
    let sorted = sorted_unless_ascending(entries.clone(), |(key, _)| *key, writer.bits_written())?;
    let mut write_entry = |writer: &mut W, (key, value): (&'a K, &'a V)| {
        write_key(writer, key)?;
        write_value(writer, value)
    };
    write_atomic(writer, |writer| {
        write_len(writer, entries.len(), max_len)?;
        match sorted {
            None => entries.into_iter().try_for_each(|entry| write_entry(writer, entry)),
            Some(sorted) => sorted.into_iter().try_for_each(|entry| write_entry(writer, entry)),
        }
    })
}

/// Writes a set (`&BTreeSet` or `&HashSet`): its length, then each element
/// in ascending order.
#[inline]
pub fn write_set<'a, W: BitWrite, K: Ord + 'a, I>(
    writer: &mut W,
    elements: I,
    max_len: usize,
    mut write_element: impl FnMut(&mut W, &'a K) -> Result<(), Error>,
) -> Result<(), Error>
where
    I: IntoIterator<Item = &'a K>,
    I::IntoIter: ExactSizeIterator + Clone,
{
    let elements = elements.into_iter();
    let sorted = sorted_unless_ascending(elements.clone(), |key| *key, writer.bits_written())?;
    write_atomic(writer, |writer| {
        write_len(writer, elements.len(), max_len)?;
        match sorted {
            None => elements.into_iter().try_for_each(|key| write_element(writer, key)),
            Some(sorted) => sorted.into_iter().try_for_each(|key| write_element(writer, key)),
        }
    })
}

/// A map a reader fills in ascending key order: `BTreeMap`, and `HashMap`
/// with any default-made hasher.
pub trait ReadMap<K, V>: Sized {
    /// An empty map for `len` entries.
    fn with_len(len: usize) -> Self;
    /// Adds an entry whose key is above every key so far.
    fn insert_entry(&mut self, key: K, value: V);
}

/// A set a reader fills in ascending order: `BTreeSet`, and `HashSet`
/// with any default-made hasher.
pub trait ReadSet<K>: Sized {
    /// An empty set for `len` elements.
    fn with_len(len: usize) -> Self;
    /// Adds an element above every element so far.
    fn insert_element(&mut self, element: K);
}

impl<K: Ord, V> ReadMap<K, V> for BTreeMap<K, V> {
    #[inline(always)]
    fn with_len(_len: usize) -> Self {
        BTreeMap::new()
    }

    #[inline(always)]
    fn insert_entry(&mut self, key: K, value: V) {
        self.insert(key, value);
    }
}

impl<K: Ord> ReadSet<K> for BTreeSet<K> {
    #[inline(always)]
    fn with_len(_len: usize) -> Self {
        BTreeSet::new()
    }

    #[inline(always)]
    fn insert_element(&mut self, element: K) {
        self.insert(element);
    }
}

#[cfg(feature = "std")]
impl<K: Eq + core::hash::Hash, V, S: core::hash::BuildHasher + Default> ReadMap<K, V>
    for std::collections::HashMap<K, V, S>
{
    #[inline(always)]
    fn with_len(len: usize) -> Self {
        std::collections::HashMap::with_capacity_and_hasher(len, S::default())
    }

    #[inline(always)]
    fn insert_entry(&mut self, key: K, value: V) {
        self.insert(key, value);
    }
}

#[cfg(feature = "std")]
impl<K: Eq + core::hash::Hash, S: core::hash::BuildHasher + Default> ReadSet<K>
    for std::collections::HashSet<K, S>
{
    #[inline(always)]
    fn with_len(len: usize) -> Self {
        std::collections::HashSet::with_capacity_and_hasher(len, S::default())
    }

    #[inline(always)]
    fn insert_element(&mut self, element: K) {
        self.insert(element);
    }
}

/// Reads keys with `read_key` (and whatever follows each with `read_rest`)
/// into `insert`, refusing a key not strictly above the one before. Holds
/// one entry back, so keys need not be `Clone`.
#[inline(always)]
fn read_ascending<Rd: BitRead, K: Ord, R>(
    reader: &mut Rd,
    len: usize,
    mut read_key: impl FnMut(&mut Rd) -> Result<K, Error>,
    mut read_rest: impl FnMut(&mut Rd) -> Result<R, Error>,
    mut insert: impl FnMut(K, R),
) -> Result<(), Error> {
    let mut pending: Option<(K, R)> = None;
    for _ in 0..len {
        let at = reader.bits_read();
        let key = read_key(reader)?;
        if let Some((last, rest)) = pending.take() {
            if last >= key {
                return Err(Error::new(ErrorKind::NotIncreasing, at));
            }
            insert(last, rest);
        }
        pending = Some((key, read_rest(reader)?));
    }
    if let Some((last, rest)) = pending {
        insert(last, rest);
    }
    Ok(())
}

/// Reads what [`write_map`] wrote. Entries take at least `min_entry_bits`
/// each (the key's and value's `MIN_BITS`).
#[inline]
pub fn read_map<R: BitRead, M: ReadMap<K, V>, K: Ord, V>(
    reader: &mut R,
    max_len: usize,
    min_entry_bits: usize,
    read_key: impl FnMut(&mut R) -> Result<K, Error>,
    read_value: impl FnMut(&mut R) -> Result<V, Error>,
) -> Result<M, Error> {
    reader.rolled_back(|reader| {
        let start = reader.bits_read();
        let len = read_len(reader, max_len, min_entry_bits)?;
        // A `BTreeMap` grows node by node, but holds at least its entries.
        reader.claim_allocation::<(K, V)>(len).map_err(|error| Error::new(error.kind(), start))?;
        let mut map = M::with_len(len);
        read_ascending(reader, len, read_key, read_value, |key, value| map.insert_entry(key, value))?;
        Ok(map)
    })
}

/// Reads what [`write_set`] wrote.
#[inline]
pub fn read_set<R: BitRead, S: ReadSet<K>, K: Ord>(
    reader: &mut R,
    max_len: usize,
    min_element_bits: usize,
    read_element: impl FnMut(&mut R) -> Result<K, Error>,
) -> Result<S, Error> {
    reader.rolled_back(|reader| {
        let start = reader.bits_read();
        let len = read_len(reader, max_len, min_element_bits)?;
        reader.claim_allocation::<K>(len).map_err(|error| Error::new(error.kind(), start))?;
        let mut set = S::with_len(len);
        read_ascending(reader, len, read_element, |_| Ok(()), |key, ()| set.insert_element(key))?;
        Ok(set)
    })
}
