//! The sender's bookkeeping of trackers per packet, until acknowledged.

/// `true` when sequence `a` comes after `b` on the u16 circle (within half
/// of it), so numbering may wrap past 65535.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::change::sequence_newer;
/// assert!(sequence_newer(5, 3));
/// assert!(sequence_newer(2, 65530)); // wrapped
/// assert!(!sequence_newer(65530, 2));
/// assert!(!sequence_newer(7, 7));
/// ```
#[inline]
pub const fn sequence_newer(a: u16, b: u16) -> bool {
    let ahead = a.wrapping_sub(b);
    ahead != 0 && ahead < 0x8000
}

/// A fixed-size ring of the trackers written with the last `N` packets,
/// keyed by u16 packet sequence, plus the confirmed tracker: the one of the
/// newest packet the peer acknowledged.
///
/// Typical sender loop: write with `ring.confirmed()` and your `latest`
/// tracker, `insert(sequence, latest.clone())`, and `ack(sequence)` when
/// the peer acknowledges. A packet older than `N` sends ago (behind the
/// newest inserted one) is forgotten: its ack is ignored, which only means
/// groups are resent a little longer. The confirmed packet is forgotten
/// the same way: once it is older than the ring, any stored packet's ack is
/// newer than it, however long the peer stayed silent. Storage is inline
/// (`N` slots), so it allocates nothing itself.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::SnapshotRing;
///
/// let mut ring: SnapshotRing<u32, 4> = SnapshotRing::new();
/// ring.insert(65535, 10);
/// ring.insert(0, 20); // wraps
/// assert!(ring.ack(0));
/// assert_eq!(*ring.confirmed(), 20);
/// assert!(!ring.ack(65535)); // older than the confirmed packet: ignored
/// assert_eq!(ring.confirmed_sequence(), Some(0));
/// ```
#[derive(Clone, Debug)]
pub struct SnapshotRing<T, const N: usize> {
    slots: [Option<(u16, T)>; N],
    confirmed: T,
    confirmed_sequence: Option<u16>,
    /// The newest packet inserted: the ring holds the `N` before it.
    newest: Option<u16>,
}

impl<T: Default, const N: usize> Default for SnapshotRing<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Default, const N: usize> SnapshotRing<T, N> {
    /// An empty ring; the confirmed tracker is `T::default()` (nothing
    /// acknowledged, so every group is sent).
    #[inline]
    pub fn new() -> Self {
        SnapshotRing {
            slots: core::array::from_fn(|_| None),
            confirmed: T::default(),
            confirmed_sequence: None,
            newest: None,
        }
    }
}

impl<T, const N: usize> SnapshotRing<T, N> {
    /// Stores the tracker written with packet `sequence`, replacing
    /// whatever packet shared its slot.
    #[inline]
    pub fn insert(&mut self, sequence: u16, tracker: T) {
        if self.newest.is_none_or(|newest| sequence_newer(sequence, newest)) {
            self.newest = Some(sequence);
        }
        if let Some(slot) = self.slots.get_mut(usize::from(sequence) % N.max(1)) {
            *slot = Some((sequence, tracker));
        }
    }

    /// Whether `sequence` is one of the last `N` packets up to the newest
    /// inserted (at most half the u16 circle, where `sequence_newer` holds).
    #[inline]
    fn in_ring(&self, sequence: u16) -> bool {
        let window = N.min(0x8000);
        self.newest.is_some_and(|newest| usize::from(newest.wrapping_sub(sequence)) < window)
    }

    /// The peer acknowledged packet `sequence`: its tracker becomes the
    /// confirmed one if that packet is still stored (one of the last `N`)
    /// and newer than the confirmed one, or the confirmed one is older
    /// than the ring. Returns whether it did.
    #[inline]
    pub fn ack(&mut self, sequence: u16) -> bool {
        if !self.in_ring(sequence) {
            return false;
        }
        // A confirmed packet older than the ring is forgotten: compared with
        // it, `sequence_newer` would see the newest packets as old ones
        // after half the circle.
        if let Some(confirmed) = self.confirmed_sequence
            && self.in_ring(confirmed)
            && !sequence_newer(sequence, confirmed)
        {
            return false;
        }
        let Some(slot) = self.slots.get_mut(usize::from(sequence) % N.max(1)) else { return false };
        match slot.take() {
            Some((stored, tracker)) if stored == sequence => {
                self.confirmed = tracker;
                self.confirmed_sequence = Some(sequence);
                true
            }
            other => {
                *slot = other;
                false
            }
        }
    }

    /// The tracker of the newest acknowledged packet.
    #[inline]
    pub fn confirmed(&self) -> &T {
        &self.confirmed
    }

    /// The newest acknowledged packet, if any.
    #[inline]
    pub fn confirmed_sequence(&self) -> Option<u16> {
        self.confirmed_sequence
    }

    /// The tracker stored for packet `sequence`, if still there.
    #[inline]
    pub fn get(&self, sequence: u16) -> Option<&T> {
        match self.slots.get(usize::from(sequence) % N.max(1)) {
            Some(Some((stored, tracker))) if *stored == sequence => Some(tracker),
            _ => None,
        }
    }

    /// Slots in the ring.
    #[inline]
    pub const fn capacity(&self) -> usize {
        N
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_reused_by_a_newer_packet_does_not_answer_for_the_old_one() {
        let mut ring: SnapshotRing<u32, 4> = SnapshotRing::new();
        ring.insert(1, 1);
        ring.insert(5, 5);
        assert!(!ring.ack(1));
        assert_eq!(ring.get(5), Some(&5));
        assert!(ring.ack(5));
        assert_eq!(*ring.confirmed(), 5);
    }

    #[test]
    fn acks_move_forward_only_across_the_wrap() {
        let mut ring: SnapshotRing<u16, 8> = SnapshotRing::new();
        for sequence in [65533u16, 65534, 65535, 0, 1] {
            ring.insert(sequence, sequence);
        }
        assert!(ring.ack(65535));
        assert!(!ring.ack(65534));
        assert!(ring.ack(1));
        assert!(!ring.ack(0));
        assert_eq!(*ring.confirmed(), 1);
        assert_eq!(ring.confirmed_sequence(), Some(1));
    }

    #[test]
    fn acks_are_taken_again_after_a_long_silence() {
        // Packet 0 acknowledged, then 40,000 packets the peer never acked:
        // against the stale confirmed 0, `sequence_newer(40_000, 0)` is false,
        // which refused every genuine ack for about 32,768 packets.
        let mut ring: SnapshotRing<u32, 64> = SnapshotRing::new();
        ring.insert(0, 0);
        assert!(ring.ack(0));
        for sequence in 1..=40_000u16 {
            ring.insert(sequence, u32::from(sequence));
        }
        assert!(ring.ack(39_990));
        assert_eq!(*ring.confirmed(), 39_990);
        // From then on, order holds again.
        assert!(!ring.ack(39_980));
        assert!(ring.ack(40_000));
        // And the same just past the wrap of the circle.
        for sequence in 40_001..=65_535u16 {
            ring.insert(sequence, u32::from(sequence));
        }
        ring.insert(0, 65_536);
        ring.insert(1, 65_537);
        assert!(ring.ack(1));
        assert_eq!(*ring.confirmed(), 65_537);
    }

    #[test]
    fn a_stored_packet_older_than_the_ring_is_not_taken() {
        // Slot 1 still holds packet 1 after a jump to 100: 99 packets old.
        let mut ring: SnapshotRing<u32, 4> = SnapshotRing::new();
        ring.insert(1, 1);
        ring.insert(100, 100);
        assert_eq!(ring.get(1), Some(&1));
        assert!(!ring.ack(1));
        assert!(ring.ack(100));
    }

    #[test]
    fn zero_slots_never_panics() {
        let mut ring: SnapshotRing<u8, 0> = SnapshotRing::new();
        ring.insert(3, 3);
        assert!(!ring.ack(3));
        assert_eq!(ring.get(3), None);
    }
}
