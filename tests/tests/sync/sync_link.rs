//! A sender and a receiver over an in-process lossy link: packets lost
//! (0 to 30%), duplicated and reordered, acks late or lost, sequences
//! starting near 65535, units spawning and despawning every tick. After
//! every packet the receiver decodes, it holds what the sender recorded
//! for that packet (within the declared resolutions): the world of that
//! tick, or with a small packet budget the entries that fit over what the
//! client held. It never fails on a packet the sender wrote.
//!
//! Then the same world split into fragments of 64 bytes, each datagram
//! lost, duplicated and delayed on its own: every packet carries the whole
//! world, a packet is decoded exactly when all its fragments arrived (a lost
//! fragment loses that packet only), and packets are lost at the rate
//! `1 - (1 - p)^k` for `k` fragments.

use crate::sync_common;

use std::collections::{HashMap, HashSet};

use bitpack::sync::{Acks, Fragments, Reassembly, Receiver, Sender};
use proptest::prelude::*;
use sync_common::link::{Conditions, Link};
use sync_common::{SplitMix64, World};

struct Outcome {
    decoded: usize,
    deltas: usize,
    /// Packets that held some entries back for lack of room.
    partial: usize,
}

/// The link's conditions, the first sequence and the packet budget.
struct Setup {
    first_sequence: u16,
    packets: Conditions,
    acks: Conditions,
    budget: usize,
}

fn run(seed: u64, setup: &Setup, ticks: usize) -> Result<Outcome, TestCaseError> {
    let Setup { first_sequence, packets, acks, budget } = *setup;
    let fail = |e: bitpack::Error| TestCaseError::fail(e.to_string());
    let mut rng = SplitMix64(seed);
    let mut world = World::random(&mut rng, UNITS);
    let mut sender: Sender<World> = Sender::starting_at(first_sequence);
    let mut receiver: Receiver<World> = Receiver::new();
    let mut downlink = Link::new(seed ^ 1, packets);
    let mut uplink = Link::new(seed ^ 2, acks);
    // What each packet in flight carries, until it arrives or is given up.
    let mut expected: HashMap<u16, (usize, World)> = HashMap::new();
    let mut buf = vec![0u8; budget];
    let mut outcome = Outcome { decoded: 0, deltas: 0, partial: 0 };
    for tick in 0..ticks {
        for (_, bytes) in uplink.arrivals(tick) {
            sender.ack(&bitpack::decode::<Acks>(&bytes).map_err(fail)?);
        }
        world.step(&mut rng, 1 + tick % 2, 1 + tick % 2);
        prop_assert!((UNITS / 2..UNITS * 2).contains(&world.units.len()));
        let sequence = sender.next_sequence();
        let delta = sender.baseline().is_some();
        let used = sender.write(&world, &mut buf).map_err(fail)?;
        let recorded = &sender.sent(sequence).ok_or_else(|| TestCaseError::fail("not recorded"))?;
        outcome.partial += usize::from(recorded != &world);
        if budget >= ROOMY {
            // Everything fits: the recorded state is the world itself.
            prop_assert_eq!(recorded, &world);
        }
        expected.insert(sequence, (tick, recorded.clone()));
        expected.retain(|_, (sent, _)| tick - *sent <= packets.max_delay + 2);
        downlink.send(tick, sequence, &buf[..used]);
        outcome.deltas += usize::from(delta);

        for (sequence, bytes) in downlink.arrivals(tick) {
            let newer = receiver
                .latest_sequence()
                .is_none_or(|latest| bitpack::change::sequence_newer(sequence, latest));
            match receiver.read(&bytes) {
                Ok(Some(decoded)) => {
                    prop_assert!(newer, "packet {} decoded after a newer one", sequence);
                    let (_, sent) =
                        expected.get(&sequence).ok_or_else(|| TestCaseError::fail("unknown packet"))?;
                    prop_assert!(
                        decoded.close_to(sent),
                        "packet {} (tick {}) decoded differently",
                        sequence,
                        tick
                    );
                    outcome.decoded += 1;
                }
                Ok(None) => prop_assert!(!newer, "packet {} ignored though newer", sequence),
                Err(error) => return Err(TestCaseError::fail(format!("packet {sequence}: {error}"))),
            }
        }
        if let Some(latest) = receiver.latest_sequence() {
            uplink.send(tick, latest, &bitpack::encode(&receiver.acks()).map_err(fail)?);
        }
    }
    Ok(outcome)
}

/// Units in the world (one or two spawn and despawn every tick).
const UNITS: usize = 24;
/// A packet budget every world fits in.
const ROOMY: usize = 1 << 14;
/// A packet budget that holds about half the units' changes.
const TIGHT: usize = 100;

fn conditions(loss: u64, duplicate: u64, delay: u64, max_delay: usize) -> Conditions {
    Conditions { loss, duplicate, delay, max_delay }
}

proptest! {
    // Few cases, each long: 10,000 ticks of about 24 units (an eighth of
    // that unless BITPACK_DEEP_TESTS=1).
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(4)))]

    #[test]
    fn the_receiver_holds_what_each_decoded_packet_carried(
        seed in any::<u64>(),
        first_sequence in prop_oneof![65_400u16..=65_535, any::<u16>()],
        loss in 0u64..=30,
        duplicate in 0u64..=10,
        delay in 0u64..=30,
        max_delay in 0usize..=6,
        ack_loss in 0u64..=30,
        ack_delay in 0usize..=8,
        budget in prop_oneof![Just(ROOMY), Just(TIGHT)],
    ) {
        let packets = conditions(loss, duplicate, delay, max_delay);
        let acks = conditions(ack_loss, duplicate, 50, ack_delay);
        let ticks = bitpack_tests::cases(10_000) as usize;
        let outcome = run(seed, &Setup { first_sequence, packets, acks, budget }, ticks)?;
        // Most packets are deltas and most arrive.
        prop_assert!(outcome.deltas > ticks / 2, "{} deltas", outcome.deltas);
        prop_assert!(outcome.decoded > ticks * 3 / 10, "{} decoded", outcome.decoded);
    }
}

#[test]
fn a_perfect_link_decodes_every_packet_as_a_delta() {
    let setup = Setup {
        first_sequence: 65_530,
        packets: Conditions::PERFECT,
        acks: Conditions::PERFECT,
        budget: ROOMY,
    };
    let outcome = run(7, &setup, 300).map_err(|e| e.to_string());
    let outcome = outcome.expect("runs");
    // The last packet is still in flight.
    assert_eq!(outcome.decoded, 299);
    // The first packet is whole; acks arrive one tick later, so the second too.
    assert_eq!(outcome.deltas, 298);
}

#[test]
fn a_harsh_link_and_a_tight_budget_still_hold() {
    for budget in [ROOMY, TIGHT] {
        let setup = Setup {
            first_sequence: 65_500,
            packets: conditions(30, 10, 30, 6),
            acks: conditions(30, 10, 50, 8),
            budget,
        };
        let outcome = run(11, &setup, 2_000).map_err(|e| e.to_string()).expect("runs");
        assert!(outcome.decoded > 1_000, "{}", outcome.decoded);
        if budget == TIGHT {
            assert!(outcome.partial > 500, "{} packets held entries back", outcome.partial);
        }
    }
}

/// Fragments: datagrams of at most this many bytes...
const DATAGRAM: usize = 64;
/// ... and packets of at most this many of them.
const MAX_FRAGMENTS: usize = 16;

struct Fragmented {
    packets: usize,
    fragments: usize,
    decoded: usize,
    /// The packets expected to arrive whole: the sum over packets of the
    /// chance that none of its fragments is lost, `(1 - loss)^k`.
    expected_whole: f64,
}

/// `ticks` packets of a world of `UNITS` units in fragments over a link of
/// `packets` conditions, acks over a lossy and slow one. Every packet
/// carries the whole world; every packet decoded is the world of its tick.
/// When the link only loses (no delay, no copies), a packet is decoded
/// exactly when all its fragments arrived.
fn run_fragments(seed: u64, packets: Conditions, ticks: usize) -> Result<Fragmented, TestCaseError> {
    let fail = |e: bitpack::Error| TestCaseError::fail(e.to_string());
    let mut rng = SplitMix64(seed);
    let mut world = World::random(&mut rng, UNITS);
    let mut sender: Sender<World> = Sender::starting_at(65_500);
    let mut receiver: Receiver<World> = Receiver::new();
    let mut fragments = Fragments::new(DATAGRAM, MAX_FRAGMENTS);
    let mut reassembly: Reassembly = Reassembly::new(DATAGRAM, MAX_FRAGMENTS);
    let mut downlink = Link::new(seed ^ 1, packets);
    let mut uplink = Link::new(seed ^ 2, conditions(20, 5, 50, 4));
    let loses_only = packets.duplicate == 0 && packets.delay == 0;
    let mut expected: HashMap<u16, (usize, World)> = HashMap::new();
    let mut outcome = Fragmented { packets: 0, fragments: 0, decoded: 0, expected_whole: 0.0 };
    // The fragments of the packet sent last tick, to tell whether all arrived.
    let mut last_sent: Option<(u16, usize)> = None;
    for tick in 0..ticks {
        for (_, bytes) in uplink.arrivals(tick) {
            sender.ack(&bitpack::decode::<Acks>(&bytes).map_err(fail)?);
        }
        world.step(&mut rng, 1 + tick % 2, 1 + tick % 2);
        let sequence = sender.next_sequence();
        let count = fragments.write(&mut sender, &world).map_err(fail)?;
        prop_assert_eq!(count, fragments.iter().len());
        prop_assert!(fragments.iter().all(|datagram| datagram.len() <= DATAGRAM));
        // Nothing held back: the packet carries the world itself.
        let recorded = sender.sent(sequence).ok_or_else(|| TestCaseError::fail("not recorded"))?;
        prop_assert_eq!(&recorded, &world);
        expected.insert(sequence, (tick, recorded));
        expected.retain(|_, (sent, _)| tick - *sent <= packets.max_delay + 2);
        for datagram in fragments.iter() {
            downlink.send(tick, sequence, datagram);
        }
        outcome.packets += 1;
        outcome.fragments += count;
        outcome.expected_whole += (1.0 - packets.loss as f64 / 100.0).powi(count as i32);

        let mut arrived = HashSet::new();
        let mut decoded_now = None;
        for (sequence, bytes) in downlink.arrivals(tick) {
            arrived.insert(bytes.clone());
            match reassembly.read(&mut receiver, &bytes) {
                Ok(Some(decoded)) => {
                    let (_, sent) =
                        expected.get(&sequence).ok_or_else(|| TestCaseError::fail("unknown packet"))?;
                    prop_assert!(decoded.close_to(sent), "packet {} decoded differently", sequence);
                    prop_assert_eq!(receiver.latest_sequence(), Some(sequence));
                    outcome.decoded += 1;
                    decoded_now = Some(sequence);
                }
                Ok(None) => {}
                Err(error) => return Err(TestCaseError::fail(format!("packet {sequence}: {error}"))),
            }
        }
        if let (true, Some((sequence, count))) = (loses_only, last_sent) {
            let whole = arrived.len() == count;
            prop_assert_eq!(
                decoded_now == Some(sequence),
                whole,
                "packet {} of {} fragments",
                sequence,
                count
            );
        }
        last_sent = Some((sequence, count));
        if let Some(latest) = receiver.latest_sequence() {
            uplink.send(tick, latest, &bitpack::encode(&receiver.acks()).map_err(fail)?);
        }
    }
    Ok(outcome)
}

#[test]
fn fragments_carry_the_whole_world_and_a_lost_one_loses_only_its_packet() {
    for loss in [0, 5, 20] {
        let packets = conditions(loss, 0, 0, 0);
        let outcome = run_fragments(21 + loss, packets, 1_000).map_err(|e| e.to_string()).expect("runs");
        // The world takes several datagrams.
        let per_packet = outcome.fragments as f64 / outcome.packets as f64;
        assert!(per_packet > 2.5, "{per_packet} fragments per packet");
        // Packets whole at the rate (1 - p)^k, within 6% of the packets sent
        // (the last one is still in flight).
        let off = (outcome.decoded as f64 - outcome.expected_whole).abs() / outcome.packets as f64;
        assert!(off < 0.06, "{} decoded, {:.0} expected", outcome.decoded, outcome.expected_whole);
        if loss == 0 {
            assert_eq!(outcome.decoded, outcome.packets - 1);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn fragments_over_a_lossy_link_decode_what_was_sent(
        seed in any::<u64>(),
        loss in 0u64..=20,
        duplicate in 0u64..=10,
        delay in 0u64..=30,
        max_delay in 0usize..=4,
    ) {
        let packets = conditions(loss, duplicate, delay, max_delay);
        let outcome = run_fragments(seed, packets, 600)?;
        prop_assert!(outcome.decoded > 30, "{} decoded", outcome.decoded);
    }
}
