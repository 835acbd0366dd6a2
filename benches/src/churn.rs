//! Issue 13: the issue-6 dataset as a world whose entities spawn and
//! despawn (about 1% of each per tick), keyed by entity id, and sent to a
//! client by `bitpack::sync` over a lossy link.
//!
//! The dataset's [`Entity`] derives its change groups; the world around it
//! is written by hand in the shape the derive is to generate for a keyed
//! collection (`#[change_group] #[bitpack(max_len = 1024, spawn = ..)]
//! entities: BTreeMap<u16, Entity>`), once over [`Entities`] so the
//! `BTreeMap` and the key-sorted `Vec` forms share it.

use std::collections::BTreeMap;

use bitpack::__private::keyed::{self, Budget};
use bitpack::__private::{BitFingerprint, GroupTracker, delta_group, schema, sum, tracked_group};
use bitpack::sync::{Acks, Receiver, Sender};
use bitpack::{BitPack, BitRead, BitWrite, ChangeGroups, Error};

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

// What `#[bitpack(key)]` on `Entity::id` is to generate.
impl keyed::KeyField for Entity {
    type Key = u16;
    fn key(&self) -> u16 {
        self.id
    }
}

/// The key a sorted `Vec`'s code passes.
const ENTITY_ID: fn(&Entity) -> u16 = <Entity as keyed::KeyField>::key;

/// A keyed collection of entities: a `BTreeMap` by id, or a `Vec` sorted by
/// id. Each method is the keyed runtime call generated code makes.
pub trait Entities: Clone + PartialEq + core::fmt::Debug + Sized {
    const MAX_BITS: usize;
    const MIN_BITS: usize;
    const SCHEMA: u64;
    /// The collection of `map`'s entities.
    fn from_map(map: &BTreeMap<u16, Entity>) -> Self;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn write<W: BitWrite>(&self, writer: &mut W, budget: Option<&mut Budget>) -> Result<(), Error>;
    fn read<R: BitRead>(reader: &mut R) -> Result<Self, Error>;
    fn write_delta<W: BitWrite>(
        &self,
        base: &Self,
        writer: &mut W,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error>;
    fn read_delta<R: BitRead>(base: &Self, reader: &mut R) -> Result<Self, Error>;
    fn sent_state(&self, base: Option<&Self>, budget: &mut Budget) -> Result<Self, Error>;
}

impl Entities for BTreeMap<u16, Entity> {
    const MAX_BITS: usize = keyed::map::max_bits::<u16, Entity>(MAX_ENTITIES);
    const MIN_BITS: usize = keyed::map::min_bits(MAX_ENTITIES);
    const SCHEMA: u64 = keyed::map::schema::<u16, Entity>(MAX_ENTITIES);
    fn from_map(map: &BTreeMap<u16, Entity>) -> Self {
        map.clone()
    }
    fn len(&self) -> usize {
        BTreeMap::len(self)
    }
    fn write<W: BitWrite>(&self, writer: &mut W, budget: Option<&mut Budget>) -> Result<(), Error> {
        keyed::map::write(writer, self, MAX_ENTITIES, budget)
    }
    fn read<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        keyed::map::read(reader, MAX_ENTITIES)
    }
    fn write_delta<W: BitWrite>(
        &self,
        base: &Self,
        writer: &mut W,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error> {
        keyed::map::write_delta(writer, self, base, MAX_ENTITIES, spawn_baseline, budget)
    }
    fn read_delta<R: BitRead>(base: &Self, reader: &mut R) -> Result<Self, Error> {
        keyed::map::read_delta(reader, base, MAX_ENTITIES, spawn_baseline)
    }
    fn sent_state(&self, base: Option<&Self>, budget: &mut Budget) -> Result<Self, Error> {
        keyed::map::sent_state(self, base, budget)
    }
}

impl Entities for Vec<Entity> {
    const MAX_BITS: usize = keyed::sorted_vec::max_bits::<u16, Entity>(MAX_ENTITIES);
    const MIN_BITS: usize = keyed::sorted_vec::min_bits(MAX_ENTITIES);
    const SCHEMA: u64 = keyed::sorted_vec::schema::<u16, Entity>(MAX_ENTITIES);
    fn from_map(map: &BTreeMap<u16, Entity>) -> Self {
        map.values().copied().collect()
    }
    fn len(&self) -> usize {
        <[Entity]>::len(self)
    }
    fn write<W: BitWrite>(&self, writer: &mut W, budget: Option<&mut Budget>) -> Result<(), Error> {
        keyed::sorted_vec::write(writer, self, MAX_ENTITIES, ENTITY_ID, budget)
    }
    fn read<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        keyed::sorted_vec::read(reader, MAX_ENTITIES, ENTITY_ID)
    }
    fn write_delta<W: BitWrite>(
        &self,
        base: &Self,
        writer: &mut W,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error> {
        keyed::sorted_vec::write_delta(writer, self, base, MAX_ENTITIES, spawn_baseline, ENTITY_ID, budget)
    }
    fn read_delta<R: BitRead>(base: &Self, reader: &mut R) -> Result<Self, Error> {
        keyed::sorted_vec::read_delta(reader, base, MAX_ENTITIES, spawn_baseline, ENTITY_ID)
    }
    fn sent_state(&self, base: Option<&Self>, budget: &mut Budget) -> Result<Self, Error> {
        keyed::sorted_vec::sent_state(self, base.map(Vec::as_slice), ENTITY_ID, budget)
    }
}

/// One tick of the world: its number (a change group) and its entities (a
/// keyed collection).
#[derive(Clone, Debug, PartialEq)]
pub struct World<E> {
    pub tick: u32,
    pub entities: E,
}

/// The world with its entities in a `BTreeMap`.
pub type MapWorld = World<BTreeMap<u16, Entity>>;
/// The world with its entities in a `Vec` sorted by id.
pub type VecWorld = World<Vec<Entity>>;

impl<E: Entities> World<E> {
    fn write_whole<W: BitWrite>(&self, writer: &mut W, budget: Option<&mut Budget>) -> Result<(), Error> {
        writer.write_u32(self.tick)?;
        self.entities.write(writer, budget)
    }

    fn write_changed<W: BitWrite>(
        &self,
        base: &Self,
        writer: &mut W,
        budget: Option<&mut Budget>,
    ) -> Result<(), Error> {
        if delta_group(
            writer,
            |w: &mut BitFingerprint| w.write_u32(self.tick),
            |w: &mut BitFingerprint| w.write_u32(base.tick),
        )? {
            writer.write_u32(self.tick)?;
        }
        self.entities.write_delta(&base.entities, writer, budget)
    }
}

impl<E: Entities> BitPack for World<E> {
    const MAX_BITS: usize = sum(&[32, E::MAX_BITS]);
    const MIN_BITS: usize = sum(&[32, E::MIN_BITS]);
    const SCHEMA: u64 = schema::sequence(&[<u32 as BitPack>::SCHEMA, E::SCHEMA]);

    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        self.write_whole(writer, None)
    }

    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        Ok(World { tick: reader.read_u32()?, entities: E::read(reader)? })
    }
}

impl<E: Entities> ChangeGroups for World<E> {
    type Tracker = GroupTracker<2, ()>;
    type Changes = (Option<u32>, Option<E>);

    fn write_changes<W: BitWrite>(
        &self,
        writer: &mut W,
        confirmed: &Self::Tracker,
        latest: &mut Self::Tracker,
    ) -> Result<(), Error> {
        let tick = |w: &mut BitFingerprint| w.write_u32(self.tick);
        if tracked_group(writer, &confirmed.records[0], &mut latest.records[0], tick)? {
            writer.write_u32(self.tick)?;
        }
        let entities = |w: &mut BitFingerprint| self.entities.write(w, None);
        if tracked_group(writer, &confirmed.records[1], &mut latest.records[1], entities)? {
            self.entities.write(writer, None)?;
        }
        Ok(())
    }

    fn decode_changes<R: BitRead>(reader: &mut R) -> Result<Self::Changes, Error> {
        let tick = if reader.read_bool()? { Some(reader.read_u32()?) } else { None };
        let entities = if reader.read_bool()? { Some(E::read(reader)?) } else { None };
        Ok((tick, entities))
    }

    fn apply_changes(&mut self, (tick, entities): Self::Changes) {
        if let Some(tick) = tick {
            self.tick = tick;
        }
        if let Some(entities) = entities {
            self.entities = entities;
        }
    }

    fn write_delta<W: BitWrite>(&self, baseline: &Self, writer: &mut W) -> Result<(), Error> {
        self.write_changed(baseline, writer, None)
    }

    fn read_delta<R: BitRead>(baseline: &Self, reader: &mut R) -> Result<Self, Error> {
        let tick = if reader.read_bool()? { reader.read_u32()? } else { baseline.tick };
        Ok(World { tick, entities: E::read_delta(&baseline.entities, reader)? })
    }

    fn write_to_within<W: BitWrite>(&self, writer: &mut W, budget: &mut Budget) -> Result<(), Error> {
        self.write_whole(writer, Some(budget))
    }

    fn write_delta_within<W: BitWrite>(
        &self,
        baseline: &Self,
        writer: &mut W,
        budget: &mut Budget,
    ) -> Result<(), Error> {
        self.write_changed(baseline, writer, Some(budget))
    }

    fn sent_state(&self, baseline: Option<&Self>, budget: &mut Budget) -> Result<Self, Error> {
        let entities = self.entities.sent_state(baseline.map(|b| &b.entities), budget)?;
        Ok(World { tick: self.tick, entities })
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
        worlds.push(World { tick: 90_000 + tick as u32, entities });
    }
    worlds
}

/// The same worlds with their entities in sorted `Vec`s.
pub fn as_vecs(worlds: &[MapWorld]) -> Vec<VecWorld> {
    worlds.iter().map(|world| World { tick: world.tick, entities: Vec::from_map(&world.entities) }).collect()
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
pub fn replicate<E: Entities>(worlds: &[World<E>], link: Link, seed: u64) -> Result<ClientRun, Error> {
    let mut rng = SplitMix64::new(seed);
    let mut sender: Sender<World<E>> = Sender::new();
    let mut receiver: Receiver<World<E>> = Receiver::new();
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
            let sent = sender.sent(sequence).map(|sent| sent.entities.len());
            if sent != Some(decoded.entities.len()) {
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
pub fn unchanged_bytes<E: Entities>(world: &World<E>) -> Result<usize, Error> {
    let mut sender: Sender<World<E>> = Sender::new();
    let mut receiver: Receiver<World<E>> = Receiver::new();
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
    /// Bytes of the keys (adaptive gaps) and of the changed/removed bits.
    pub key_bytes: f64,
    pub kind_bytes: f64,
    /// Bytes the keys of changed and removed entities would take as
    /// adaptive gaps in the baseline's order (how many baseline entries
    /// each skips) instead of key gaps: an alternative wire, measured.
    pub rank_gap_bytes: f64,
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
        for id in ids {
            let mut counter = BitCounter::new();
            match (now.get(&id), then.get(&id)) {
                (Some(now), Some(then)) if now == then => continue,
                (Some(now), Some(then)) => {
                    sum.changed += 1.0;
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
                previous_rank = Some(rank);
            } else {
                sum.rank_gap_bytes += adaptive_bits(gap, NonNegative)? as f64 / 8.0;
            }
        }
    }
    let ticks = worlds.len().saturating_sub(1).max(1) as f64;
    Ok(Breakdown {
        changed: sum.changed / ticks,
        spawned: sum.spawned / ticks,
        despawned: sum.despawned / ticks,
        changed_bytes: sum.changed_bytes / ticks,
        spawned_bytes: sum.spawned_bytes / ticks,
        key_bytes: sum.key_bytes / ticks,
        kind_bytes: sum.kind_bytes / ticks,
        rank_gap_bytes: sum.rank_gap_bytes / ticks,
    })
}
