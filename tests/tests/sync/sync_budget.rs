//! The packet budget: a world whose full delta is several kilobytes, sent
//! in 1200-byte packets. Every packet fits, every unit's update waits a
//! bounded number of ticks (less for the ones a priority function favours),
//! and once the world stops changing the client converges and the packets
//! shrink to the unchanged world's few bytes.

use crate::sync_common;

use bitpack::sync::{Entry, Receiver, Sender};
use bitpack::{BitCounter, BitRead, BitWrite, ChangeGroups, ErrorKind};
use sync_common::{SplitMix64, World};

const DATAGRAM: usize = 1200;
const UNITS: usize = 600;

/// Every unit moves and is stamped with the tick (in `target`), so the
/// client's copy tells how old it is.
fn churn(world: &mut World, rng: &mut SplitMix64) {
    world.tick += 1;
    for unit in world.units.values_mut() {
        for axis in &mut unit.position {
            *axis = (*axis + rng.range(-50, 50) as f32 * 0.01).clamp(-1000.0, 1000.0);
        }
        unit.target = Some(world.tick);
    }
}

/// The oldest unit the client holds (or misses), in ticks behind `world`;
/// and the same over the units `near` picks.
fn ages(world: &World, held: Option<&World>, near: impl Fn(&sync_common::Unit) -> bool) -> (u32, u32) {
    let (mut oldest, mut oldest_near) = (0, 0);
    for (id, unit) in &world.units {
        let stamp = held.and_then(|held| held.units.get(id)).and_then(|unit| unit.target).unwrap_or(0);
        let age = world.tick - stamp;
        oldest = oldest.max(age);
        if near(unit) {
            oldest_near = oldest_near.max(age);
        }
    }
    (oldest, oldest_near)
}

struct Run {
    /// The oldest copy after the first fill, overall and of near units.
    oldest: u32,
    oldest_near: u32,
    /// Ticks after the world froze until the client held it.
    converged_after: usize,
    /// The last packet's length, the world unchanged.
    unchanged_bytes: usize,
}

fn near(unit: &sync_common::Unit) -> bool {
    unit.position[0] < -500.0
}

fn run(prioritize: bool) -> Run {
    let mut rng = SplitMix64(99);
    let mut world = World::random(&mut rng, UNITS);
    churn(&mut world, &mut rng);
    let mut sender: Sender<World> = Sender::starting_at(65_000);
    let mut receiver: Receiver<World> = Receiver::new();
    let mut buf = [0u8; DATAGRAM];
    let mut previous = world.clone();
    let (mut oldest, mut oldest_near) = (0, 0);
    let mut converged_after = usize::MAX;
    let mut unchanged_bytes = usize::MAX;
    for tick in 0..260 {
        let frozen = tick >= 200;
        if !frozen {
            churn(&mut world, &mut rng);
        }
        if tick == 100 {
            // The full delta against the tick before is several kilobytes.
            let mut counter = BitCounter::new();
            world.write_delta(&previous, &mut counter).expect("measures");
            assert!(counter.bits_written() > 3 * 8 * DATAGRAM, "{} bits", counter.bits_written());
        }
        previous = world.clone();
        let sequence = sender.next_sequence();
        let used = if prioritize {
            sender.write_prioritized(&world, &mut buf, |world: &World, entry: Entry| {
                let unit = world.units.get(&(entry.key as u32));
                if entry.collection == 0 && unit.is_some_and(near) { 8.0 } else { 1.0 }
            })
        } else {
            sender.write(&world, &mut buf)
        };
        let used = used.expect("every world gets a packet that fits");
        assert!(used <= DATAGRAM);
        let decoded = receiver.read(&buf[..used]).expect("decodes").expect("newer");
        assert!(decoded.close_to(&sender.sent(sequence).expect("recorded")), "tick {tick}");
        sender.ack(&receiver.acks());
        if (20..200).contains(&tick) {
            let (all, near) = ages(&world, receiver.latest(), near);
            oldest = oldest.max(all);
            oldest_near = oldest_near.max(near);
        }
        if frozen
            && converged_after == usize::MAX
            && receiver.latest().is_some_and(|held| held.close_to(&world))
        {
            converged_after = tick - 200;
        }
        unchanged_bytes = used;
    }
    Run { oldest, oldest_near, converged_after, unchanged_bytes }
}

#[test]
fn every_packet_fits_and_no_unit_waits_long() {
    let run = run(false);
    // About a quarter of the 600 changed units fit a packet: each is sent
    // every 4 ticks (measured: at most 3 ticks old).
    assert!(run.oldest <= 5, "a unit waited {} ticks", run.oldest);
    assert!(run.converged_after <= 4, "converged {} ticks after the world froze", run.converged_after);
    assert!(run.unchanged_bytes <= 8, "the unchanged world took {} bytes", run.unchanged_bytes);
}

#[test]
fn a_priority_function_sends_favoured_units_more_often() {
    let fair = run(false);
    let favoured = run(true);
    // Near units (a quarter of them) wait less; the others a little more,
    // but still a bounded time.
    assert!(favoured.oldest_near < fair.oldest_near, "{} vs {}", favoured.oldest_near, fair.oldest_near);
    // Measured: near units at most 1 tick old, the others 8.
    assert!(favoured.oldest_near <= 2, "{}", favoured.oldest_near);
    assert!(favoured.oldest <= 12, "{}", favoured.oldest);
    assert!(favoured.converged_after <= 12, "{}", favoured.converged_after);
}

#[test]
fn a_packet_that_cannot_hold_even_one_entry_is_refused_and_not_recorded() {
    let mut rng = SplitMix64(5);
    let world = World::random(&mut rng, 10);
    let mut sender: Sender<World> = Sender::new();
    // A whole world without units: a 65-bit header, 32 + 7 + 9 + 14 + 14
    // bits of scalars and an 11-bit length, 19 bytes. A unit takes more
    // than the 0 bits left.
    let mut buf = [0u8; 19];
    assert_eq!(sender.write(&world, &mut buf), Ok(19));
    assert!(sender.sent(0).expect("recorded").units.is_empty());
    let mut buf = [0u8; 18];
    let error = sender.write(&world, &mut buf).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::BufferFull);
    assert_eq!(sender.next_sequence(), 1);
    assert!(sender.sent(1).is_none());
}

/// A world whose impl passes the budget on when writing but leaves
/// `sent_state` to its default, which would record entries it held back.
#[derive(Clone, Debug, PartialEq)]
struct Forgetful(World);

impl bitpack::BitPack for Forgetful {
    const MAX_BITS: usize = World::MAX_BITS;
    const SCHEMA: u64 = World::SCHEMA;
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), bitpack::Error> {
        self.0.write_to(writer)
    }
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, bitpack::Error> {
        World::read_from(reader).map(Forgetful)
    }
}

impl ChangeGroups for Forgetful {
    type Tracker = <World as ChangeGroups>::Tracker;
    type Changes = <World as ChangeGroups>::Changes;
    fn write_changes<W: BitWrite>(
        &self,
        writer: &mut W,
        confirmed: &Self::Tracker,
        latest: &mut Self::Tracker,
    ) -> Result<(), bitpack::Error> {
        self.0.write_changes(writer, confirmed, latest)
    }
    fn decode_changes<R: BitRead>(reader: &mut R) -> Result<Self::Changes, bitpack::Error> {
        World::decode_changes(reader)
    }
    fn apply_changes(&mut self, changes: Self::Changes) {
        self.0.apply_changes(changes)
    }
    fn write_delta<W: BitWrite>(&self, baseline: &Self, writer: &mut W) -> Result<(), bitpack::Error> {
        self.0.write_delta(&baseline.0, writer)
    }
    fn read_delta<R: BitRead>(baseline: &Self, reader: &mut R) -> Result<Self, bitpack::Error> {
        World::read_delta(&baseline.0, reader).map(Forgetful)
    }
    fn write_to_within<W: BitWrite>(
        &self,
        writer: &mut W,
        budget: &mut bitpack::sync::Budget,
    ) -> Result<(), bitpack::Error> {
        self.0.write_to_within(writer, budget)
    }
}

#[test]
fn an_impl_that_does_not_build_the_sent_state_is_refused_not_trusted() {
    let mut rng = SplitMix64(6);
    let world = Forgetful(World::random(&mut rng, 200));
    let mut sender: Sender<Forgetful> = Sender::new();
    let mut buf = [0u8; DATAGRAM];
    let error = sender.write(&world, &mut buf).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidDeclaration);
    assert!(sender.sent(0).is_none());
}
