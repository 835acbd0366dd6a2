//! Tracked change groups under loss: 20% of packets dropped, acks late (and
//! 20% of them lost), sequence numbers wrapping; the receiver decodes the
//! packets that arrive, in order, and must then hold exactly what the
//! sender wrote in that packet.

use crate::change_groups_common;

use change_groups_common::loss::{LossPattern, lost_20_percent, run_lossy};
use change_groups_common::{SplitMix64, World};
use proptest::prelude::*;

const ENTITIES: usize = 12;
const TICKS: usize = 80;
/// Trackers kept for unacknowledged packets: fewer than the longest ack
/// delay plus the loss runs, so some acks also find their slot reused.
const RING: usize = 8;

/// Runs the loss scenario on hand-written `World`s; returns how many
/// packets were decoded.
fn run(
    seed: u64,
    first_sequence: u16,
    packet_lost: &[bool],
    ack_lost: &[bool],
    ack_delay: &[usize],
) -> Result<usize, TestCaseError> {
    let mut rng = SplitMix64(seed);
    let mut sender = World::<ENTITIES>::random(&mut rng);
    let receiver = World::<ENTITIES> { entities: vec![Default::default(); ENTITIES] };
    let pattern = LossPattern { first_sequence, packet_lost, ack_lost, ack_delay };
    run_lossy::<_, RING>(receiver, &pattern, |_| {
        // Few values, so groups often change back to bits sent before.
        sender.tick(&mut rng, 30, 20, true);
        sender.clone()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(96)))]

    #[test]
    fn the_receiver_holds_what_the_decoded_packet_carried(
        seed in any::<u64>(),
        first_sequence in prop_oneof![65_500u16..=65_535, any::<u16>()],
        packet_lost in lost_20_percent(TICKS),
        ack_lost in lost_20_percent(TICKS),
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
