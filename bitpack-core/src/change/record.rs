//! The per-group record a sender keeps, and the flag bit decided from it.

use crate::error::Error;
use crate::sink::fingerprint::Fingerprint;
use crate::write::BitWrite;

/// What a sender remembers of one change group: a version that moves each
/// time the group is written with different bits, and the fingerprint of
/// those bits. The default record stands for "never written".
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::BitWrite;
/// use bitpack::change::{Fingerprint, GroupRecord};
///
/// let full = Fingerprint::of(1, |s| s.write_int(100, 0, 100))?;
/// let hurt = Fingerprint::of(1, |s| s.write_int(60, 0, 100))?;
/// let mut latest = GroupRecord::default();
/// latest.record(full);
/// latest.record(full); // the same bits: the same version
/// assert_eq!(latest.version(), 1);
/// let confirmed = latest; // the peer acknowledged it
/// assert!(GroupRecord::can_skip(&full, &confirmed, &latest));
/// assert!(!GroupRecord::can_skip(&hurt, &confirmed, &latest));
/// latest.record(hurt); // sent, not acknowledged yet
/// assert_eq!(latest.version(), 2);
/// // Back at full health, but the peer may hold either packet: sent again.
/// assert!(!GroupRecord::can_skip(&full, &confirmed, &latest));
/// # Ok::<(), bitpack::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupRecord {
    version: u32,
    fingerprint: Fingerprint,
}

impl GroupRecord {
    /// 0 until the group is first written, then counts its changes
    /// (wrapping past 0).
    #[inline]
    pub const fn version(&self) -> u32 {
        self.version
    }

    /// The fingerprint of the bits last written.
    #[inline]
    pub const fn fingerprint(&self) -> Fingerprint {
        self.fingerprint
    }

    /// `true` when a group whose bits fingerprint to `current` may be left
    /// out: the peer has acknowledged a packet with these bits, and every
    /// packet since then carried these same bits or left the group out, so
    /// whichever of them the peer decoded last, it holds these bits.
    #[inline]
    pub fn can_skip(current: &Fingerprint, confirmed: &GroupRecord, latest: &GroupRecord) -> bool {
        confirmed.version != 0 && confirmed == latest && latest.fingerprint == *current
    }

    /// Marks the group written with bits fingerprinting to `current`.
    #[inline]
    pub fn record(&mut self, current: Fingerprint) {
        if self.version == 0 || self.fingerprint != current {
            self.version = self.version.checked_add(1).unwrap_or(1);
            self.fingerprint = current;
        }
    }
}

/// Writes a tracked group's flag: 0 when [`GroupRecord::can_skip`], else 1
/// (and `latest` records `current`). Returns whether the group's data must
/// follow. If the flag does not fit, nothing changes.
///
/// `current` must fingerprint the group's data as written right after the
/// flag, i.e. starting at `writer.bits_written() + 1`.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitCounter, BitWrite};
/// use bitpack::change::{Fingerprint, GroupRecord, write_tracked_flag};
///
/// let mut counter = BitCounter::new();
/// let health = Fingerprint::of(1, |sink| sink.write_int(90, 0, 100))?;
/// let mut latest = GroupRecord::default();
/// // Never acknowledged: sent.
/// assert!(write_tracked_flag(&mut counter, health, &GroupRecord::default(), &mut latest)?);
/// // Acknowledged (confirmed == latest) and unchanged: one 0 bit.
/// let confirmed = latest;
/// assert!(!write_tracked_flag(&mut counter, health, &confirmed, &mut latest)?);
/// assert_eq!(counter.bits_written(), 2);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[inline]
pub fn write_tracked_flag<W: BitWrite>(
    writer: &mut W,
    current: Fingerprint,
    confirmed: &GroupRecord,
    latest: &mut GroupRecord,
) -> Result<bool, Error> {
    let send = !GroupRecord::can_skip(&current, confirmed, latest);
    writer.write_bool(send)?;
    if send {
        latest.record(current);
    }
    Ok(send)
}

/// Writes a delta group's flag: 1 when the group's bits differ from the
/// baseline's (so changes smaller than a quantization step are not
/// changes). Returns whether the group's data must follow.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitCounter, BitWrite};
/// use bitpack::change::{Fingerprint, write_delta_flag};
///
/// let mut counter = BitCounter::new();
/// let now = Fingerprint::of(1, |s| s.write_compressed_float(1.004, 0.0, 10.0, 0.01))?;
/// let before = Fingerprint::of(1, |s| s.write_compressed_float(1.001, 0.0, 10.0, 0.01))?;
/// assert!(!write_delta_flag(&mut counter, now, before)?);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[inline]
pub fn write_delta_flag<W: BitWrite>(
    writer: &mut W,
    current: Fingerprint,
    baseline: Fingerprint,
) -> Result<bool, Error> {
    let send = current != baseline;
    writer.write_bool(send)?;
    Ok(send)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::counter::BitCounter;

    fn print(value: i32) -> Fingerprint {
        Fingerprint::of(1, |sink| sink.write_int(value, 0, 100)).unwrap_or_default()
    }

    #[test]
    fn a_group_that_changed_and_changed_back_is_sent_until_acknowledged() {
        let mut counter = BitCounter::new();
        let mut latest = GroupRecord::default();
        assert!(
            write_tracked_flag(&mut counter, print(1), &GroupRecord::default(), &mut latest).unwrap_or(false)
        );
        let confirmed = latest; // packet A acknowledged, with value 1
        assert!(write_tracked_flag(&mut counter, print(2), &confirmed, &mut latest).unwrap_or(false));
        // Back to 1: equal to confirmed bits, but the peer may hold 2.
        assert!(write_tracked_flag(&mut counter, print(1), &confirmed, &mut latest).unwrap_or(false));
        assert_eq!(latest.version(), 3);
        assert!(write_tracked_flag(&mut counter, print(1), &confirmed, &mut latest).unwrap_or(false));
        let confirmed = latest;
        assert!(!write_tracked_flag(&mut counter, print(1), &confirmed, &mut latest).unwrap_or(true));
    }

    #[test]
    fn resending_the_same_bits_keeps_the_version() {
        let mut latest = GroupRecord::default();
        latest.record(print(5));
        latest.record(print(5));
        assert_eq!(latest.version(), 1);
        latest.record(print(6));
        assert_eq!(latest.version(), 2);
    }

    #[test]
    fn a_change_past_the_exact_bits_of_a_long_group_is_sent() {
        let long = |last: u32| {
            Fingerprint::of(1, |sink| {
                sink.write_u128(u128::MAX)?;
                sink.write_u32(7)?;
                sink.write_u32(last)
            })
            .unwrap_or_default()
        };
        let mut counter = BitCounter::new();
        let mut latest = GroupRecord::default();
        assert!(
            write_tracked_flag(&mut counter, long(1), &GroupRecord::default(), &mut latest).unwrap_or(false)
        );
        let confirmed = latest;
        assert!(!write_tracked_flag(&mut counter, long(1), &confirmed, &mut latest).unwrap_or(true));
        assert!(write_tracked_flag(&mut counter, long(1 << 31), &confirmed, &mut latest).unwrap_or(false));
        assert_eq!(long(1).len(), 192);
    }
}
