//! Issue 13: the issue-6 dataset as a world whose entities spawn and
//! despawn (about 1% of each per tick), keyed by entity id, and sent to a
//! client by `bitpack::sync` over a lossy link.
//!
//! The world is derived: its tick (a change group) and its entities, a
//! keyed collection (`#[change_group] #[bitpack(max_len = 1024, spawn =
//! ..)]`), in a `BTreeMap` by id ([`MapWorld`]) or a `Vec` sorted by the
//! entities' `#[bitpack(key)]` id ([`VecWorld`]).

use std::collections::BTreeMap;

use bitpack::sync::{Acks, Receiver, Sender};
use bitpack::{BitPack, BitWrite, ChangeGroups, Error};

use crate::dataset::{self, ENTITIES, Entity, EntityFlags, EntityKind, HEALTH_MAX};
use crate::rng::SplitMix64;

/// Ticks in the churning dataset: 20 seconds at 30 Hz.
pub const TICKS: usize = 600;
/// The most entities a world holds.
pub const MAX_ENTITIES: usize = 1024;
/// The churning dataset's seed.
pub const SEED: u64 = dataset::SEED ^ 0x13;
/// Percent of entities despawning per tick, and spawning (of [`ENTITIES`]).
pub const CHURN_PERCENT: u64 = 1;

/// What a new entity is sent against: standing at the origin, healthy.
pub fn spawn_baseline() -> Entity {
    Entity {
        id: 0,
        kind: EntityKind::Player,
        position: [0.0; 3],
        velocity: [0.0; 3],
        yaw: 0.0,
        health: HEALTH_MAX,
        armor: 0,
        flags: EntityFlags { on_ground: true, ..EntityFlags::default() },
        target: None,
    }
}

/// One tick of the world with its entities in a `BTreeMap` by id.
#[derive(BitPack, Clone, Debug, PartialEq)]
pub struct MapWorld {
    /// Coded against the baseline's tick (a few ticks on): 4 bits, not 32.
    #[change_group(clock)]
    #[bits(min = 0, max = u32::MAX)]
    #[bitpack(relative)]
    pub tick: u32,
    #[change_group]
    #[bitpack(max_len = MAX_ENTITIES, spawn = spawn_baseline)]
    pub entities: BTreeMap<u16, Entity>,
}

/// The same world with its entities in a `Vec` sorted by id.
#[derive(BitPack, Clone, Debug, PartialEq)]
pub struct VecWorld {
    /// Coded against the baseline's tick (a few ticks on): 4 bits, not 32.
    #[change_group(clock)]
    #[bits(min = 0, max = u32::MAX)]
    #[bitpack(relative)]
    pub tick: u32,
    #[change_group]
    #[bitpack(max_len = MAX_ENTITIES, spawn = spawn_baseline)]
    pub entities: Vec<Entity>,
}

/// Either form of the world, as the replication functions take it.
pub trait World: ChangeGroups + Clone + PartialEq + core::fmt::Debug {
    /// Entities in the world.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl World for MapWorld {
    fn len(&self) -> usize {
        self.entities.len()
    }
}

impl World for VecWorld {
    fn len(&self) -> usize {
        self.entities.len()
    }
}

/// The churning dataset: [`TICKS`] worlds. It starts as the dataset's
/// first snapshot would (256 entities, the same generator), then every
/// tick each entity steps as in the dataset, each despawns with
/// probability 1%, and on average 2.56 new ones spawn with unused ids.
///
/// ```
/// let worlds = bitpack_benches::churn::generate(10);
/// assert_eq!(worlds.len(), 10);
/// assert!((200..300).contains(&worlds[9].entities.len()));
/// ```
pub fn generate(ticks: usize) -> Vec<MapWorld> {
    let mut rng = SplitMix64::new(SEED);
    let ids = dataset::distinct_ids(&mut rng);
    let mut bodies: BTreeMap<u16, dataset::Body> =
        ids.iter().map(|&id| (id, dataset::spawn(&mut rng, id, &ids))).collect();
    let mut worlds = Vec::with_capacity(ticks);
    for tick in 0..ticks {
        if tick > 0 {
            for body in bodies.values_mut() {
                dataset::step(&mut rng, body, &ids);
            }
            bodies.retain(|_, _| !rng.percent(CHURN_PERCENT));
            for _ in 0..ENTITIES {
                if rng.percent(CHURN_PERCENT) && bodies.len() < MAX_ENTITIES {
                    let id = loop {
                        let id = rng.below(u64::from(dataset::ID_MAX) + 1) as u16;
                        if !bodies.contains_key(&id) {
                            break id;
                        }
                    };
                    bodies.insert(id, dataset::spawn(&mut rng, id, &ids));
                }
            }
        }
        let entities = bodies.iter().map(|(id, body)| (*id, body.entity)).collect();
        worlds.push(MapWorld { tick: 90_000 + tick as u32, entities });
    }
    worlds
}

/// The same worlds with their entities in sorted `Vec`s.
pub fn as_vecs(worlds: &[MapWorld]) -> Vec<VecWorld> {
    worlds
        .iter()
        .map(|world| VecWorld { tick: world.tick, entities: world.entities.values().copied().collect() })
        .collect()
}

/// How one client's link treats the packets and the acks.
#[derive(Clone, Copy, Debug)]
pub struct Link {
    /// Percent of packets lost, and of acks lost.
    pub loss: u64,
    /// Ticks after a packet is decoded before its ack reaches the sender
    /// (1: before the next packet is written).
    pub ack_delay: usize,
    /// The datagram size.
    pub datagram: usize,
}

/// What one client received over [`TICKS`] ticks.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClientRun {
    /// Packets written, and their bytes in all.
    pub packets: usize,
    pub bytes: usize,
    /// The longest packet.
    pub largest: usize,
    /// Packets that were deltas, and packets decoded.
    pub deltas: usize,
    pub decoded: usize,
}

impl ClientRun {
    /// Mean bytes per packet (one packet per tick).
    pub fn mean(&self) -> f64 {
        self.bytes as f64 / self.packets.max(1) as f64
    }
}

/// Sends `worlds` to one client over `link`, from a fixed seed; checks
/// that each decoded world has the entities the sender recorded for it.
pub fn replicate<W: World>(worlds: &[W], link: Link, seed: u64) -> Result<ClientRun, Error> {
    let mut rng = SplitMix64::new(seed);
    let mut sender: Sender<W> = Sender::new();
    let mut receiver: Receiver<W> = Receiver::new();
    let mut buf = vec![0u8; link.datagram];
    let mut acks_in_flight: Vec<(usize, Acks)> = Vec::new();
    let mut run = ClientRun::default();
    for (tick, world) in worlds.iter().enumerate() {
        for (_, acks) in acks_in_flight.iter().filter(|(due, _)| *due <= tick) {
            sender.ack(acks);
        }
        acks_in_flight.retain(|(due, _)| *due > tick);
        let sequence = sender.next_sequence();
        run.deltas += usize::from(sender.baseline().is_some());
        let used = sender.write(world, &mut buf)?;
        run.packets += 1;
        run.bytes += used;
        run.largest = run.largest.max(used);
        if rng.percent(link.loss) {
            continue;
        }
        if let Some(decoded) = receiver.read(&buf[..used])? {
            run.decoded += 1;
            if sender.sent(sequence).as_ref().map(W::len) != Some(decoded.len()) {
                return Err(Error::new(bitpack::ErrorKind::OutOfRange, 0));
            }
        }
        if !rng.percent(link.loss) {
            acks_in_flight.push((tick + link.ack_delay, receiver.acks()));
        }
    }
    Ok(run)
}

/// Bytes of a packet for a world the client already holds.
pub fn unchanged_bytes<W: World>(world: &W) -> Result<usize, Error> {
    let mut sender: Sender<W> = Sender::new();
    let mut receiver: Receiver<W> = Receiver::new();
    let mut buf = vec![0u8; 1 << 16];
    let used = sender.write(world, &mut buf)?;
    receiver.read(&buf[..used])?;
    sender.ack(&receiver.acks());
    sender.write(world, &mut buf)
}

/// Where a keyed delta's bytes go, per tick on average, each world
/// against the one before (no loss).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Breakdown {
    /// Entities changed, spawned and despawned per tick.
    pub changed: f64,
    pub spawned: f64,
    pub despawned: f64,
    /// Bytes of the changed entities' own `write_delta`s, and of the new
    /// ones' against the spawn baseline.
    pub changed_bytes: f64,
    pub spawned_bytes: f64,
    /// Bytes that place the items as the wire does: the baseline's touched
    /// entries as a list of rank gaps or a mark per entry (the fewer bits),
    /// the new entries' count and their keys as gaps among themselves.
    pub place_bytes: f64,
    /// Bytes the keys took as adaptive gaps in one list of every item (the
    /// wire before), and the changed/removed bits.
    pub key_bytes: f64,
    pub kind_bytes: f64,
    /// Bytes the keys of changed and removed entities would take as
    /// adaptive gaps in the baseline's order (how many baseline entries
    /// each skips) instead of key gaps: an alternative wire, measured.
    pub rank_gap_bytes: f64,
    /// Bytes of another alternative: a bitmap over the baseline's entries
    /// (one bit each: touched or not), and the new entries' keys as gaps
    /// with their count (11 bits).
    pub bitmap_bytes: f64,
    /// Bytes the changed entities' motion floats would save if their
    /// middle relative tier covered a declared per-tick span (position
    /// 0.7, velocity 0.5, yaw 0.1: 8, 7 and 8 bits) instead of about half
    /// their bits (10, 8 and 7): an estimate from their steps (positions
    /// against their prediction, as they are sent).
    pub span_saving_bytes: f64,
}

/// Bits of a quantized float's relative tiers for a difference of
/// `difference` steps: near (-4..=3), a middle tier of `mid` bits, or the
/// `bits` of the steps.
fn tier_bits(difference: i64, mid: u32, bits: u32) -> u32 {
    if (-4..=3).contains(&difference) {
        4
    } else if difference.unsigned_abs() < 1 << (mid - 1) {
        2 + mid
    } else {
        2 + bits
    }
}

/// The bits [`Breakdown::span_saving_bytes`] counts for one moved entity
/// (negative where a declared span is too narrow for a move).
fn span_saving_bits(now: &Entity, then: &Entity) -> i64 {
    let steps = |value: f32, (min, _, res): (f32, f32, f32)| ((value - min) / res).round() as i64;
    let mut saved = 0;
    // Positions are coded against the baseline moved by its velocity for a tick.
    let predicted = core::array::from_fn::<f32, 3, _>(|axis| {
        then.position[axis] + then.velocity[axis] / dataset::TICKS_PER_SECOND
    });
    // (range, bits of the steps, today's middle tier, the declared span's)
    let axes = [(dataset::POSITION_RANGE, 18, 10, 8), (dataset::VELOCITY_RANGE, 14, 8, 7)];
    for (index, (range, bits, today, declared)) in axes.iter().enumerate() {
        let (now_axes, then_axes) =
            if index == 0 { (now.position, predicted) } else { (now.velocity, then.velocity) };
        for (a, b) in now_axes.iter().zip(&then_axes) {
            let difference = steps(*a, *range) - steps(*b, *range);
            saved += i64::from(tier_bits(difference, *today, *bits))
                - i64::from(tier_bits(difference, *declared, *bits));
        }
    }
    let difference = steps(now.yaw, dataset::YAW_RANGE) - steps(then.yaw, dataset::YAW_RANGE);
    saved + i64::from(tier_bits(difference, 7, 13)) - i64::from(tier_bits(difference, 8, 13))
}

/// The [`Breakdown`] of `worlds`.
pub fn breakdown(worlds: &[MapWorld]) -> Result<Breakdown, Error> {
    use bitpack::BitCounter;
    use bitpack::adaptive::Signs::NonNegative;
    use bitpack::adaptive::adaptive_bits;

    let mut sum = Breakdown::default();
    for pair in worlds.windows(2) {
        let (then, now) = (&pair[0].entities, &pair[1].entities);
        let ranks: BTreeMap<u16, u16> = then.keys().zip(0u16..).map(|(id, rank)| (*id, rank)).collect();
        let mut ids: Vec<u16> = then.keys().chain(now.keys()).copied().collect();
        ids.sort_unstable();
        ids.dedup();
        let (mut previous, mut previous_rank) = (None, None);
        let mut previous_new = None;
        let (mut list_bits, mut new_bits) = (11, 11 + 1);
        sum.bitmap_bytes += (then.len() + 11) as f64 / 8.0;
        for id in ids {
            let mut counter = BitCounter::new();
            match (now.get(&id), then.get(&id)) {
                (Some(now), Some(then)) if now == then => continue,
                (Some(now), Some(then)) => {
                    sum.changed += 1.0;
                    if (now.position, now.velocity, now.yaw) != (then.position, then.velocity, then.yaw) {
                        sum.span_saving_bytes += span_saving_bits(now, then) as f64 / 8.0;
                    }
                    now.write_delta(then, &mut counter)?;
                    sum.changed_bytes += counter.bits_written() as f64 / 8.0;
                    sum.kind_bytes += 1.0 / 8.0;
                }
                (Some(now), None) => {
                    sum.spawned += 1.0;
                    now.write_delta(&spawn_baseline(), &mut counter)?;
                    sum.spawned_bytes += counter.bits_written() as f64 / 8.0;
                }
                (None, _) => {
                    sum.despawned += 1.0;
                    sum.kind_bytes += 1.0 / 8.0;
                }
            }
            let gap = previous.map_or(id, |previous: u16| id - previous - 1);
            sum.key_bytes += adaptive_bits(gap, NonNegative)? as f64 / 8.0;
            previous = Some(id);
            if let Some(&rank) = ranks.get(&id) {
                let gap = previous_rank.map_or(rank, |previous: u16| rank - previous - 1);
                sum.rank_gap_bytes += adaptive_bits(gap, NonNegative)? as f64 / 8.0;
                list_bits += adaptive_bits(u64::from(gap), NonNegative)?;
                previous_rank = Some(rank);
            } else {
                sum.rank_gap_bytes += adaptive_bits(gap, NonNegative)? as f64 / 8.0;
                let gap = previous_new.map_or(id, |previous: u16| id - previous - 1);
                sum.bitmap_bytes += adaptive_bits(gap, NonNegative)? as f64 / 8.0;
                new_bits += adaptive_bits(gap, NonNegative)?;
                previous_new = Some(id);
            }
        }
        sum.place_bytes += (list_bits.min(then.len()) + new_bits) as f64 / 8.0;
    }
    let ticks = worlds.len().saturating_sub(1).max(1) as f64;
    Ok(Breakdown {
        changed: sum.changed / ticks,
        spawned: sum.spawned / ticks,
        despawned: sum.despawned / ticks,
        changed_bytes: sum.changed_bytes / ticks,
        spawned_bytes: sum.spawned_bytes / ticks,
        place_bytes: sum.place_bytes / ticks,
        key_bytes: sum.key_bytes / ticks,
        kind_bytes: sum.kind_bytes / ticks,
        rank_gap_bytes: sum.rank_gap_bytes / ticks,
        bitmap_bytes: sum.bitmap_bytes / ticks,
        span_saving_bytes: sum.span_saving_bytes / ticks,
    })
}
