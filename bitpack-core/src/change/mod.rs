//! Change groups: send only the parts of a value that changed.
//!
//! Fields are gathered into groups (`#[change_group]`); each group costs one
//! flag bit, followed by its data only when it changed. Two mechanisms share
//! the groups ([`ChangeGroups`]):
//!
//! - **Tracked** (`write_changes` / `read_changes`): the sender keeps, per
//!   group, a [`GroupRecord`] (a version and a [`Fingerprint`] of the
//!   group's bits) for what the peer acknowledged (`confirmed`) and what
//!   was last written (`latest`); no copy of old values. [`SnapshotRing`]
//!   keeps the per-packet trackers until acknowledged. The receiver applies
//!   the sent groups in place and must drop packets older than the newest
//!   it decoded.
//! - **Delta** (`write_delta` / `read_delta`): both sides hold the same
//!   baseline value; a group is sent when its bits differ from the
//!   baseline's, and `#[bitpack(relative)]` integers are coded against it
//!   ([`write_relative_int`]).
//!
//! The helpers here ([`write_tracked_flag`], [`write_delta_flag`],
//! [`Fingerprint::of`], [`write_relative_int`]) are what derived
//! implementations call; hand-written ones may call them too.
//!
//! One tracked group (a health value) over three packets; the peer
//! acknowledges the first:
//!
//! ```
//! # extern crate bitpack_core as bitpack;
//! use bitpack::{BitCounter, BitWrite, SnapshotRing};
//! use bitpack::change::{Fingerprint, GroupRecord, write_tracked_flag};
//!
//! let health = Fingerprint::of(1, |s| s.write_int(90, 0, 100))?;
//! let mut ring: SnapshotRing<GroupRecord, 8> = SnapshotRing::new();
//! let mut latest = GroupRecord::default();
//! let mut send = |sequence: u16, ring: &mut SnapshotRing<GroupRecord, 8>| {
//!     let mut packet = BitCounter::new();
//!     let sent = write_tracked_flag(&mut packet, health, ring.confirmed(), &mut latest)?;
//!     ring.insert(sequence, latest);
//!     Ok::<_, bitpack::Error>(sent)
//! };
//! assert!(send(0, &mut ring)?); // never acknowledged: the flag and the data
//! assert!(send(1, &mut ring)?); // still not acknowledged: sent again
//! assert!(ring.ack(0));
//! assert!(!send(2, &mut ring)?); // acknowledged, unchanged: one 0 bit
//! # Ok::<(), bitpack::Error>(())
//! ```

mod record;
pub(crate) mod relative;
mod ring;
mod tracker;

pub use crate::sink::fingerprint::{BitFingerprint, EXACT_BITS, Fingerprint};
pub use record::{GroupRecord, write_delta_flag, write_tracked_flag};
pub use relative::{
    NEAR_BITS, NEAR_MAX, NEAR_MIN, mid_bits, read_relative_int, read_relative_steps, relative_int_bits,
    relative_steps_bits, write_relative_int, write_relative_steps,
};
pub use ring::{SnapshotRing, sequence_newer};
pub use tracker::GroupTracker;

use crate::error::Error;
use crate::pack::BitPack;
use crate::read::BitRead;
use crate::source::SourceExt;
use crate::write::BitWrite;

/// A [`BitPack`] type whose fields are gathered into change groups, so it
/// can send only what changed: tracked against acknowledged packets, or as a
/// delta against a baseline value. Derived from `#[change_group]`
/// attributes; see the [module docs](self) for the two mechanisms.
///
/// A hand-written implementation, for a position group and a health group:
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::change::{Fingerprint, GroupRecord, write_delta_flag, write_tracked_flag};
/// use bitpack::{BitPack, BitRead, BitReader, BitWrite, BitWriter, ChangeGroups, Error};
///
/// #[derive(Clone, Debug, PartialEq)]
/// struct Unit { x: i32, health: i32 }
///
/// impl BitPack for Unit {
///     const MAX_BITS: usize = 17;
///     const SCHEMA: u64 = 1;
///     fn write_to<W: BitWrite>(&self, w: &mut W) -> Result<(), Error> {
///         w.write_int(self.x, 0, 1023)?;
///         w.write_int(self.health, 0, 100)
///     }
///     fn read_from<R: BitRead>(r: &mut R) -> Result<Self, Error> {
///         Ok(Unit { x: r.read_int(0, 1023)?, health: r.read_int(0, 100)? })
///     }
/// }
///
/// impl ChangeGroups for Unit {
///     type Tracker = [GroupRecord; 2];
///     type Changes = (Option<i32>, Option<i32>);
///     fn write_changes<W: BitWrite>(&self, w: &mut W, confirmed: &Self::Tracker,
///                                   latest: &mut Self::Tracker) -> Result<(), Error> {
///         let x = Fingerprint::of(w.bits_written() + 1, |s| s.write_int(self.x, 0, 1023))?;
///         if write_tracked_flag(w, x, &confirmed[0], &mut latest[0])? {
///             w.write_int(self.x, 0, 1023)?;
///         }
///         let health = Fingerprint::of(w.bits_written() + 1, |s| s.write_int(self.health, 0, 100))?;
///         if write_tracked_flag(w, health, &confirmed[1], &mut latest[1])? {
///             w.write_int(self.health, 0, 100)?;
///         }
///         Ok(())
///     }
///     fn decode_changes<R: BitRead>(r: &mut R) -> Result<Self::Changes, Error> {
///         let x = if r.read_bool()? { Some(r.read_int(0, 1023)?) } else { None };
///         let health = if r.read_bool()? { Some(r.read_int(0, 100)?) } else { None };
///         Ok((x, health))
///     }
///     fn apply_changes(&mut self, (x, health): Self::Changes) {
///         if let Some(x) = x { self.x = x; }
///         if let Some(health) = health { self.health = health; }
///     }
///     fn write_delta<W: BitWrite>(&self, baseline: &Self, w: &mut W) -> Result<(), Error> {
///         let start = w.bits_written() + 1;
///         let now = Fingerprint::of(start, |s| s.write_int(self.x, 0, 1023))?;
///         let then = Fingerprint::of(start, |s| s.write_int(baseline.x, 0, 1023))?;
///         if write_delta_flag(w, now, then)? { w.write_int(self.x, 0, 1023)?; }
///         let start = w.bits_written() + 1;
///         let now = Fingerprint::of(start, |s| s.write_int(self.health, 0, 100))?;
///         let then = Fingerprint::of(start, |s| s.write_int(baseline.health, 0, 100))?;
///         if write_delta_flag(w, now, then)? { w.write_int(self.health, 0, 100)?; }
///         Ok(())
///     }
///     fn read_delta<R: BitRead>(baseline: &Self, r: &mut R) -> Result<Self, Error> {
///         let x = if r.read_bool()? { r.read_int(0, 1023)? } else { baseline.x };
///         let health = if r.read_bool()? { r.read_int(0, 100)? } else { baseline.health };
///         Ok(Unit { x, health })
///     }
/// }
///
/// let (mut confirmed, mut latest) = (<Unit as ChangeGroups>::Tracker::default(), Default::default());
/// let mut buf = [0u8; 8];
/// let sent = Unit { x: 500, health: 100 };
/// let mut w = BitWriter::new(&mut buf);
/// sent.write_changes(&mut w, &confirmed, &mut latest)?;
/// assert_eq!(w.bits_written(), 1 + 10 + 1 + 7);
/// w.finish()?;
/// let mut seen = Unit { x: 0, health: 0 };
/// seen.read_changes(&mut BitReader::new(&buf))?;
/// assert_eq!(seen, sent);
///
/// confirmed = latest.clone(); // the peer acknowledged that packet
/// let moved = Unit { x: 501, health: 100 };
/// let mut w = BitWriter::new(&mut buf);
/// moved.write_changes(&mut w, &confirmed, &mut latest)?;
/// assert_eq!(w.bits_written(), 1 + 10 + 1); // health unchanged: one 0 bit
/// # Ok::<(), bitpack::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no change groups",
    label = "a bare #[change_group] on this field nests the groups of `{Self}`",
    note = "give the group a name, as in #[change_group(state)], to send the field whole as one group",
    note = "or mark fields of `{Self}` with #[change_group] so that it derives `ChangeGroups`"
)]
pub trait ChangeGroups: BitPack {
    /// The sender's per-group records for one value (`Default` = nothing
    /// written yet).
    type Tracker: Default + Clone;

    /// The groups one packet carried, decoded but not yet applied.
    type Changes;

    /// Writes each group's flag, and the data of the groups that may differ
    /// from what the peer holds (see [`write_tracked_flag`]); `latest`
    /// records what was sent. On `Err` the packet must not be sent;
    /// `latest` may have moved, which only makes later packets resend more.
    fn write_changes<W: BitWrite>(
        &self,
        writer: &mut W,
        confirmed: &Self::Tracker,
        latest: &mut Self::Tracker,
    ) -> Result<(), Error>;

    /// Reads what [`ChangeGroups::write_changes`] wrote, without applying it.
    fn decode_changes<R: BitRead>(reader: &mut R) -> Result<Self::Changes, Error>;

    /// Applies decoded changes in place.
    fn apply_changes(&mut self, changes: Self::Changes);

    /// Reads what [`ChangeGroups::write_changes`] wrote and updates the sent
    /// groups in place: all of them, or on `Err` none (the value and the
    /// reader's position are left as they were).
    #[inline]
    fn read_changes<R: BitRead>(&mut self, reader: &mut R) -> Result<(), Error> {
        let changes = reader.rolled_back(Self::decode_changes)?;
        self.apply_changes(changes);
        Ok(())
    }

    /// Writes each group's flag, and the data of the groups whose bits
    /// differ from `baseline`'s; relative fields are coded against it.
    fn write_delta<W: BitWrite>(&self, baseline: &Self, writer: &mut W) -> Result<(), Error>;

    /// Reads what [`ChangeGroups::write_delta`] wrote against the same
    /// `baseline`: unsent groups are taken from it.
    fn read_delta<R: BitRead>(baseline: &Self, reader: &mut R) -> Result<Self, Error>;

    /// `Some(n)` when [`ChangeGroups::write_delta`] of any value against
    /// itself is `n` 0 bits and every delta that changes something is
    /// longer: derived for a type whose fields all sit in change groups
    /// (a 0 flag each). A keyed collection then tells an entry's delta that
    /// changes nothing (never sent, refused on read) by its length alone.
    /// `None`, the default: by its bits, which costs fingerprinting both.
    #[doc(hidden)]
    const UNCHANGED_DELTA_BITS: Option<usize> = None;

    /// How many words of group prints [`ChangeGroups::write_delta_cached`]
    /// records for one value: one per group, two for a derived group of
    /// relative floats (its bits themselves when they fit in 128, so that a
    /// delta against the value reads their steps instead of quantizing
    /// them); 0, the default: none, and a sender's cache then holds nothing
    /// for the type.
    #[cfg(feature = "alloc")]
    const PRINTS: usize = 0;

    /// [`ChangeGroups::write_delta`] for a [`crate::sync::Sender`], which
    /// keeps the [`Fingerprint::digest`] of each group of the states it
    /// recorded: the same bits, judged against `baseline_prints` (the
    /// baseline's, [`ChangeGroups::PRINTS`] long, or empty when not known)
    /// instead of fingerprinting the baseline again, and recording this
    /// value's into `prints`. The default ignores both.
    #[cfg(feature = "alloc")]
    #[inline]
    fn write_delta_cached<W: BitWrite>(
        &self,
        baseline: &Self,
        baseline_prints: &[u64],
        prints: &mut [u64],
        writer: &mut W,
    ) -> Result<(), Error> {
        let _ = (baseline_prints, prints);
        self.write_delta(baseline, writer)
    }

    /// The group prints [`ChangeGroups::write_delta_cached`] records for
    /// this value, into `prints` ([`ChangeGroups::PRINTS`] long).
    #[cfg(feature = "alloc")]
    #[inline]
    fn group_prints(&self, prints: &mut [u64]) -> Result<(), Error> {
        let _ = prints;
        Ok(())
    }

    /// [`BitPack::write_to`] for a [`crate::sync::Sender`]: the same bits,
    /// except that keyed collections may leave out entries `budget` holds
    /// back from a packet that cannot carry them all. Types with keyed
    /// collections (or fields that hold some) pass `budget` on; the default
    /// writes everything.
    #[cfg(feature = "alloc")]
    #[inline]
    fn write_to_within<W: BitWrite>(
        &self,
        writer: &mut W,
        budget: &mut crate::sync::Budget,
    ) -> Result<(), Error> {
        let _ = budget;
        self.write_to(writer)
    }

    /// [`ChangeGroups::write_delta`] for a [`crate::sync::Sender`], as
    /// [`ChangeGroups::write_to_within`] is `write_to`.
    #[cfg(feature = "alloc")]
    #[inline]
    fn write_delta_within<W: BitWrite>(
        &self,
        baseline: &Self,
        writer: &mut W,
        budget: &mut crate::sync::Budget,
    ) -> Result<(), Error> {
        let _ = budget;
        self.write_delta(baseline, writer)
    }

    /// Makes `state`, a copy of `self`, the value a receiver holds after
    /// reading the packet `budget` last wrote: a delta against `baseline`,
    /// or whole. The default (nothing held back) leaves it as it is; keyed
    /// collections put back the baseline's value of every entry the packet
    /// left out (and types that hold some pass `budget` on).
    #[cfg(feature = "alloc")]
    #[inline]
    fn sent_state(
        &self,
        state: &mut Self,
        baseline: Option<&Self>,
        budget: &mut crate::sync::Budget,
    ) -> Result<(), Error> {
        let _ = (state, baseline, budget);
        Ok(())
    }

    /// Makes `state` equal to `self` reusing what `state` holds, and
    /// returns `true`: how a [`crate::sync::Sender`] records a packet's
    /// state in the storage of one it no longer needs. `false`, the
    /// default, when the type cannot (the sender then `clone_from`s, which
    /// a `Vec` does in its own allocation). A derived type without type
    /// parameters updates its keyed `BTreeMap`s in place (entries
    /// removed, overwritten and inserted, not the whole tree rebuilt) and
    /// `clone_from`s its other fields; with a field that is not `Clone`,
    /// `false`.
    #[cfg(feature = "alloc")]
    #[inline]
    fn record_state(&self, state: &mut Self) -> bool {
        let _ = state;
        false
    }

    /// Whether a [`crate::sync::Sender`] holds this type's states with its
    /// keyed map as a flat list beside each (and the map itself empty; see
    /// [`ChangeGroups::hold_state`]): derived for a type without generics
    /// whose one keyed collection is a `BTreeMap` and which nests no
    /// change groups. A delta then walks the baseline's list instead of
    /// its tree, and the world's entries are copied into a list once
    /// instead of recorded into a third tree. `false`, the default: the
    /// sender holds whole copies.
    #[doc(hidden)]
    #[cfg(feature = "alloc")]
    const FLAT_MAP: bool = false;

    /// Keeps only the keyed entries `keep` answers `true` for, each named
    /// by its collection (numbered from `first` in the order the type's
    /// deltas meet its keyed collections, nested types' included) and key;
    /// returns the number after the type's last collection. How a
    /// [`crate::sync::Sender`] leaves out of a client's world the entries
    /// a [`crate::sync::View`] puts out of its scope. The default, for a
    /// type without keyed collections, keeps everything.
    #[doc(hidden)]
    #[cfg(feature = "alloc")]
    #[inline]
    fn retain_entries(&mut self, first: usize, keep: &mut dyn FnMut(crate::sync::Entry) -> bool) -> usize {
        let _ = keep;
        first
    }

    /// Calls `f` with each keyed entry `self` holds (numbered from `first`
    /// as [`ChangeGroups::retain_entries`] numbers them), collection by
    /// collection, each in key order; returns the number after the type's
    /// last collection.
    #[doc(hidden)]
    #[cfg(feature = "alloc")]
    #[inline]
    fn each_entry(&self, first: usize, f: &mut dyn FnMut(crate::sync::Entry)) -> usize {
        let _ = f;
        first
    }

    /// Whether a packet's list of the entries it left stale can name them
    /// (see [`crate::sync::Receiver::updated_at`]): derived `false` for a
    /// type that nests change groups, whose deltas number their keyed
    /// collections by the nested groups they visit.
    #[doc(hidden)]
    #[cfg(feature = "alloc")]
    const LISTS_STALE: bool = true;

    /// Whether `self` holds keyed entry `entry` (see
    /// [`ChangeGroups::retain_entries`] for the numbering, from `first`):
    /// `Ok(Some(equal))`, `equal` when `baseline` holds it `==`;
    /// `Ok(None)` when its collection does not hold it; `Err(next)` when
    /// the type has no collection numbered `entry.collection`, `next`
    /// the number after its last. How a [`crate::sync::Receiver`] knows
    /// the entries it holds, and checks a packet's list of stale ones.
    #[doc(hidden)]
    #[cfg(feature = "alloc")]
    #[inline]
    fn holds_entry(
        &self,
        baseline: Option<&Self>,
        first: usize,
        entry: crate::sync::Entry,
    ) -> Result<Option<bool>, usize> {
        let _ = (baseline, entry);
        Err(first)
    }

    /// [`ChangeGroups::record_state`] for a sender that holds the type's
    /// states flat ([`ChangeGroups::FLAT_MAP`]): every field but the keyed
    /// map, which is left empty (its entries are in the list beside the
    /// state).
    #[doc(hidden)]
    #[cfg(feature = "alloc")]
    #[inline]
    fn hold_state(&self, state: &mut Self) -> bool {
        self.record_state(state)
    }
}
