//! The packet budget: a world whose full delta is several kilobytes, sent
//! in 1200-byte packets. Every packet fits, every unit's update waits a
//! bounded number of ticks (less for the ones a priority function favours),
//! and once the world stops changing the client converges and the packets
//! shrink to the unchanged world's few bytes. Fragments take the budget
//! past their `max_fragments`.

use crate::sync_common;

use bitpack::sync::{Entry, Fragments, Reassembly, Receiver, Sender};
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
    let mut held_back = 0;
    let mut history = std::collections::BTreeMap::new();
    let mut entity_ages = Vec::new();
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
        let recorded = sender.sent(sequence).expect("recorded");
        // Each entry held back is one the recorded state does not hold as
        // the world does: changed, spawned or removed.
        let keys: std::collections::BTreeSet<_> = world.units.keys().chain(recorded.units.keys()).collect();
        let differ = keys.into_iter().filter(|&id| world.units.get(id) != recorded.units.get(id)).count();
        assert_eq!(sender.held_back(), differ, "tick {tick}");
        held_back += differ;
        history.insert(sequence, world.clone());
        let decoded = receiver.read(&buf[..used]).expect("decodes").expect("newer").clone();
        assert!(decoded.close_to(&recorded), "tick {tick}");
        // Each unit the client holds is the server's of its `updated_at`.
        for (id, unit) in &decoded.units {
            let at = receiver.updated_at(Entry { collection: 0, key: u128::from(*id) }).expect("held");
            let then = history.get(&at).and_then(|then| then.units.get(id)).expect("sent");
            assert!(unit.close_to(then), "tick {tick}: unit {id} as of {at}");
            entity_ages.push(sequence.wrapping_sub(at));
        }
        assert_eq!(receiver.updated_at(Entry { collection: 0, key: 1 << 40 }), None);
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
    assert!(held_back > 50_000, "{held_back} entries held back");
    // Units held back are older than their packet.
    assert!(
        entity_ages.iter().any(|&age| age > 0) && entity_ages.iter().all(|&age| age < 40),
        "{:?}",
        entity_ages.iter().max()
    );
    assert_eq!(sender.held_back(), 0, "the frozen world fits");
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
fn fragments_past_their_limit_hold_entries_back_as_the_budget_does() {
    let mut rng = SplitMix64(7);
    let mut world = World::random(&mut rng, UNITS);
    let mut sender: Sender<World> = Sender::new();
    let mut receiver: Receiver<World> = Receiver::new();
    // Two datagrams a packet; the delta of 600 units moving takes more.
    let mut fragments = Fragments::new(DATAGRAM, 2);
    let mut reassembly: Reassembly = Reassembly::new(DATAGRAM, 2);
    for tick in 0..30 {
        churn(&mut world, &mut rng);
        let sequence = sender.next_sequence();
        assert_eq!(fragments.write(&mut sender, &world), Ok(2));
        assert!(fragments.iter().all(|datagram| datagram.len() <= DATAGRAM));
        let recorded = sender.sent(sequence).expect("recorded");
        assert!(!recorded.close_to(&world), "tick {tick}: everything fit");
        let mut decoded = None;
        for datagram in fragments.iter() {
            if let Some(world) = reassembly.read(&mut receiver, datagram).expect("takes") {
                decoded = Some(world.clone());
            }
        }
        assert!(decoded.expect("decoded").close_to(&recorded), "tick {tick}");
        sender.ack(&receiver.acks());
    }
}

#[test]
fn a_packet_that_cannot_hold_even_one_entry_is_refused_and_not_recorded() {
    let mut rng = SplitMix64(5);
    let world = World::random(&mut rng, 10);
    let mut sender: Sender<World> = Sender::new();
    // A whole world without units: a 97-bit header, 32 + 7 + 9 + 14 + 14
    // bits of scalars, an 11-bit length and the empty list of stale
    // entries (1 bit), 24 bytes. A unit takes more than the 7 bits left.
    let mut buf = [0u8; 24];
    assert_eq!(sender.write(&world, &mut buf), Ok(24));
    assert!(sender.sent(0).expect("recorded").units.is_empty());
    let mut buf = [0u8; 23];
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

/// A client that sees the units within 250 of its observer (who walks
/// along x), the nearest 8 times as urgent.
struct Sight {
    x: f32,
}

impl bitpack::sync::View<World> for Sight {
    fn in_scope(&mut self, world: &World, entry: Entry) -> bool {
        world.units.get(&(entry.key as u32)).is_some_and(|unit| (unit.position[0] - self.x).abs() < 250.0)
    }

    fn priority(&mut self, world: &World, entry: Entry) -> f32 {
        let near =
            world.units.get(&(entry.key as u32)).is_some_and(|unit| (unit.position[0] - self.x).abs() < 60.0);
        if near { 8.0 } else { 1.0 }
    }
}

#[test]
fn a_view_scopes_each_client_and_entries_come_and_go_within_ten_packets() {
    let mut rng = SplitMix64(31);
    let mut world = World::random(&mut rng, 400);
    let mut sender: Sender<World> = Sender::new();
    let mut receiver: Receiver<World> = Receiver::new();
    let mut sight = Sight { x: -900.0 };
    let mut buf = [0u8; DATAGRAM];
    // Per unit, how many packets in a row it was in (or out of) scope.
    let mut runs: std::collections::BTreeMap<u32, (bool, u32)> = Default::default();
    let (mut checked_in, mut checked_out, mut late_acks) = (0, 0, Vec::new());
    for tick in 0..300u32 {
        world.step(&mut rng, 2, 2);
        sight.x = -900.0 + tick as f32 * 6.0;
        for (id, unit) in &world.units {
            let scoped = (unit.position[0] - sight.x).abs() < 250.0;
            let run = runs.entry(*id).or_insert((scoped, 0));
            *run = if run.0 == scoped { (scoped, run.1 + 1) } else { (scoped, 1) };
        }
        runs.retain(|id, _| world.units.contains_key(id));
        let used = sender.write_view(&world, &mut buf, &mut sight).expect("fits");
        assert!(used <= DATAGRAM);
        // 10% lost, acks a tick late.
        if rng.chance(10) {
            continue;
        }
        if let Some(held) = receiver.read(&buf[..used]).expect("decodes") {
            for (id, &(scoped, packets)) in &runs {
                if packets >= 10 && !scoped {
                    assert!(
                        !held.units.contains_key(id),
                        "tick {tick}: unit {id} out of scope for {packets}"
                    );
                    checked_out += 1;
                }
                if packets >= 10 && scoped {
                    assert!(held.units.contains_key(id), "tick {tick}: unit {id} in scope for {packets}");
                    checked_in += 1;
                }
            }
        }
        late_acks.push(receiver.acks());
        if late_acks.len() > 1 {
            sender.ack(&late_acks.remove(0));
        }
    }
    assert!(checked_in > 10_000 && checked_out > 10_000, "{checked_in} in, {checked_out} out");
}

#[test]
fn a_view_in_fragments_gives_each_packet_exactly_the_units_in_scope() {
    let mut rng = SplitMix64(33);
    let mut world = World::random(&mut rng, 400);
    let mut sender: Sender<World> = Sender::new();
    let mut receiver: Receiver<World> = Receiver::new();
    let mut fragments = Fragments::new(DATAGRAM, 16);
    let mut reassembly: Reassembly = Reassembly::new(DATAGRAM, 16);
    let mut sight = Sight { x: -900.0 };
    for tick in 0..100u32 {
        world.step(&mut rng, 2, 2);
        sight.x = -900.0 + tick as f32 * 18.0;
        fragments.write_view(&mut sender, &world, &mut sight).expect("fits");
        let mut decoded = None;
        for datagram in fragments.iter() {
            if let Some(held) = reassembly.read(&mut receiver, datagram).expect("takes") {
                decoded = Some(held.clone());
            }
        }
        // Nothing held back: the units in scope, as they are this tick.
        let held = decoded.expect("decoded");
        let in_scope = world.units.iter().filter(|(_, unit)| (unit.position[0] - sight.x).abs() < 250.0);
        let in_scope: Vec<u32> = in_scope.map(|(id, _)| *id).collect();
        assert!(in_scope.len() > 50, "tick {tick}: {} in scope", in_scope.len());
        assert_eq!(held.units.keys().copied().collect::<Vec<_>>(), in_scope, "tick {tick}");
        assert!(held.units.values().all(|unit| unit.close_to(&world.units[&unit.id])), "tick {tick}");
        sender.ack(&receiver.acks());
    }
}

#[test]
fn the_view_of_everything_writes_what_write_does() {
    let mut rng = SplitMix64(32);
    let mut world = World::random(&mut rng, 200);
    let (mut a, mut b): (Sender<World>, Sender<World>) = (Sender::new(), Sender::new());
    let mut receiver: Receiver<World> = Receiver::new();
    let (mut x, mut y) = ([0u8; 600], [0u8; 600]);
    for _ in 0..40 {
        world.step(&mut rng, 3, 3);
        let used = a.write(&world, &mut x).expect("fits");
        assert_eq!(b.write_view(&world, &mut y, &mut ()).expect("fits"), used);
        assert_eq!(x[..used], y[..used]);
        receiver.read(&x[..used]).expect("decodes");
        a.ack(&receiver.acks());
        b.ack(&receiver.acks());
    }
}
