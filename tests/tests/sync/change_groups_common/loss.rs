//! The lossy link both loss tests (hand-written and derived types) run:
//! packets dropped, acks late or lost, sequence numbers wrapping.

use std::fmt::Debug;

use bitpack::{BitReader, BitWriter, ChangeGroups, SnapshotRing};
use proptest::prelude::*;

/// What happens to each tick's packet and ack.
pub struct LossPattern<'a> {
    pub first_sequence: u16,
    pub packet_lost: &'a [bool],
    pub ack_lost: &'a [bool],
    /// Ticks an ack takes to arrive (after the tick it answers).
    pub ack_delay: &'a [usize],
}

/// Sends `next(tick)` every tick as tracked changes against the newest
/// acknowledged tracker (kept in a ring of `RING`); after every packet that
/// arrives, `receiver` must equal what was sent in it. Returns the packets
/// decoded.
pub fn run_lossy<T, const RING: usize>(
    mut receiver: T,
    pattern: &LossPattern<'_>,
    mut next: impl FnMut(usize) -> T,
) -> Result<usize, TestCaseError>
where
    T: ChangeGroups + PartialEq + Debug,
{
    let fail = |e: bitpack::Error| TestCaseError::fail(e.to_string());
    let mut latest = T::Tracker::default();
    let mut ring: SnapshotRing<T::Tracker, RING> = SnapshotRing::new();
    let mut acks_in_flight: Vec<(usize, u16)> = Vec::new();
    let mut buf = vec![0u8; 4096];
    let mut decoded = 0;
    for tick in 0..pattern.packet_lost.len() {
        for &(_, sequence) in acks_in_flight.iter().filter(|(due, _)| *due == tick) {
            ring.ack(sequence);
        }
        let sender = next(tick);
        let sequence = pattern.first_sequence.wrapping_add(tick as u16);
        let mut writer = BitWriter::new(&mut buf);
        sender.write_changes(&mut writer, ring.confirmed(), &mut latest).map_err(fail)?;
        let used = writer.finish().map_err(fail)?;
        ring.insert(sequence, latest.clone());
        if pattern.packet_lost[tick] {
            continue;
        }
        receiver.read_changes(&mut BitReader::new(&buf[..used])).map_err(fail)?;
        prop_assert_eq!(&receiver, &sender, "after packet {} (tick {})", sequence, tick);
        decoded += 1;
        if !pattern.ack_lost[tick] {
            acks_in_flight.push((tick + 1 + pattern.ack_delay[tick], sequence));
        }
    }
    Ok(decoded)
}

/// 20% of `ticks` lost.
pub fn lost_20_percent(ticks: usize) -> impl Strategy<Value = Vec<bool>> {
    proptest::collection::vec((0u8..100).prop_map(|roll| roll < 20), ticks)
}
