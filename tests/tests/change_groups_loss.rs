//! Tracked change groups under loss: 20% of packets dropped, acks late (and
//! 20% of them lost), sequence numbers wrapping; the receiver decodes the
//! packets that arrive, in order, and must then hold exactly what the
//! sender wrote in that packet.

mod change_groups_common;

use bitpack::{BitReader, BitWriter, ChangeGroups, SnapshotRing};
use change_groups_common::{SplitMix64, World};
use proptest::prelude::*;

const ENTITIES: usize = 12;
const TICKS: usize = 80;
/// Trackers kept for unacknowledged packets: fewer than the longest ack
/// delay plus the loss runs, so some acks also find their slot reused.
const RING: usize = 8;

/// Runs the loss scenario; returns how many packets were decoded.
fn run(
    seed: u64,
    first_sequence: u16,
    packet_lost: &[bool],
    ack_lost: &[bool],
    ack_delay: &[usize],
) -> Result<usize, TestCaseError> {
    let mut rng = SplitMix64(seed);
    let mut sender = World::<ENTITIES>::random(&mut rng);
    let mut receiver = World::<ENTITIES> { entities: vec![Default::default(); ENTITIES] };
    let mut latest = <World<ENTITIES> as ChangeGroups>::Tracker::default();
    let mut ring: SnapshotRing<_, RING> = SnapshotRing::new();
    let mut acks_in_flight: Vec<(usize, u16)> = Vec::new();
    let mut buf = vec![0u8; 1024];
    let mut decoded = 0;

    for tick in 0..TICKS {
        let arrived: Vec<u16> =
            acks_in_flight.iter().filter(|(due, _)| *due == tick).map(|&(_, s)| s).collect();
        for sequence in arrived {
            ring.ack(sequence);
        }
        // Few values, so groups often change back to bits sent before.
        sender.tick(&mut rng, 30, 20, true);
        let sequence = first_sequence.wrapping_add(tick as u16);
        let mut writer = BitWriter::new(&mut buf);
        sender
            .write_changes(&mut writer, ring.confirmed(), &mut latest)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let used = writer.finish().map_err(|e| TestCaseError::fail(e.to_string()))?;
        ring.insert(sequence, latest.clone());

        if packet_lost[tick] {
            continue;
        }
        receiver
            .read_changes(&mut BitReader::new(&buf[..used]))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&receiver, &sender, "after packet {} (tick {})", sequence, tick);
        decoded += 1;
        if !ack_lost[tick] {
            acks_in_flight.push((tick + 1 + ack_delay[tick], sequence));
        }
    }
    Ok(decoded)
}

fn lost_20_percent() -> impl Strategy<Value = Vec<bool>> {
    proptest::collection::vec((0u8..100).prop_map(|roll| roll < 20), TICKS)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn the_receiver_holds_what_the_decoded_packet_carried(
        seed in any::<u64>(),
        first_sequence in prop_oneof![65_500u16..=65_535, any::<u16>()],
        packet_lost in lost_20_percent(),
        ack_lost in lost_20_percent(),
        ack_delay in proptest::collection::vec(0usize..10, TICKS),
    ) {
        let decoded = run(seed, first_sequence, &packet_lost, &ack_lost, &ack_delay)?;
        prop_assert_eq!(decoded, packet_lost.iter().filter(|lost| !**lost).count());
    }
}

#[test]
fn a_fixed_hard_pattern_also_holds() {
    // Every other packet lost, acks 9 ticks late: confirmed lags far behind.
    let packet_lost: Vec<bool> = (0..TICKS).map(|t| t % 2 == 1).collect();
    let result = run(42, 65_530, &packet_lost, &[false; TICKS], &[9; TICKS]);
    assert_eq!(result.ok(), Some(TICKS / 2));
}
