//! Hand-written `ChangeGroups` types shared by the change-group tests
//! (stand-ins for what `#[change_group]` will derive), and a PRNG.
#![allow(dead_code)] // each test binary uses a different part

pub mod loss;
pub mod seed;

use bitpack::change::{
    BitFingerprint, Fingerprint, GroupRecord, read_relative_int, write_delta_flag, write_relative_int,
    write_tracked_flag,
};
use bitpack::{BitPack, BitRead, BitWrite, ChangeGroups, Error, ErrorKind};

/// splitmix64: a deterministic PRNG of our own, so figures never move.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `low..=high` (the tiny modulo bias does not matter here).
    pub fn range(&mut self, low: i32, high: i32) -> i32 {
        low + (self.next_u64() % (high - low + 1) as u64) as i32
    }

    /// `true` with probability `percent / 100`.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// Writes a tracked group's flag, fingerprinting `group` where its data
/// would start; returns whether the data must follow.
pub fn tracked<W: BitWrite>(
    writer: &mut W,
    confirmed: &GroupRecord,
    latest: &mut GroupRecord,
    group: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
) -> Result<bool, Error> {
    let current = Fingerprint::of(writer.bits_written() + 1, group)?;
    write_tracked_flag(writer, current, confirmed, latest)
}

/// Writes a delta group's flag, judged on the bits `now` and `then` write.
pub fn delta<W: BitWrite>(
    writer: &mut W,
    now: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
    then: impl FnOnce(&mut BitFingerprint) -> Result<(), Error>,
) -> Result<bool, Error> {
    let start = writer.bits_written() + 1;
    write_delta_flag(writer, Fingerprint::of(start, now)?, Fingerprint::of(start, then)?)
}

/// Reads a group flag, then the group when it is set.
pub fn sent<R: BitRead, T>(
    reader: &mut R,
    read: impl FnOnce(&mut R) -> Result<T, Error>,
) -> Result<Option<T>, Error> {
    if reader.read_bool()? { read(reader).map(Some) } else { Ok(None) }
}

// ---------------------------------------------------------------------------
// Combat: two groups of its own; nested inside Entity's `combat` group.

pub const AMMO: (i32, i32) = (0, 63);
pub const STANCE: (i32, i32) = (0, 3);

/// `#[change_group] ammo`, `#[change_group] stance`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Combat {
    pub ammo: i32,
    pub stance: i32,
}

#[derive(Clone, Debug, Default)]
pub struct CombatTracker {
    pub ammo: GroupRecord,
    pub stance: GroupRecord,
}

impl BitPack for Combat {
    const MAX_BITS: usize = 8;
    const SCHEMA: u64 = 0xC0;
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.write_int(self.ammo, AMMO.0, AMMO.1)?;
        writer.write_int(self.stance, STANCE.0, STANCE.1)
    }
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        Ok(Combat { ammo: reader.read_int(AMMO.0, AMMO.1)?, stance: reader.read_int(STANCE.0, STANCE.1)? })
    }
}

impl ChangeGroups for Combat {
    type Tracker = CombatTracker;
    type Changes = (Option<i32>, Option<i32>);

    fn write_changes<W: BitWrite>(
        &self,
        writer: &mut W,
        confirmed: &CombatTracker,
        latest: &mut CombatTracker,
    ) -> Result<(), Error> {
        if tracked(writer, &confirmed.ammo, &mut latest.ammo, |s| s.write_int(self.ammo, AMMO.0, AMMO.1))? {
            writer.write_int(self.ammo, AMMO.0, AMMO.1)?;
        }
        if tracked(writer, &confirmed.stance, &mut latest.stance, |s| {
            s.write_int(self.stance, STANCE.0, STANCE.1)
        })? {
            writer.write_int(self.stance, STANCE.0, STANCE.1)?;
        }
        Ok(())
    }

    fn decode_changes<R: BitRead>(reader: &mut R) -> Result<Self::Changes, Error> {
        let ammo = sent(reader, |r| r.read_int(AMMO.0, AMMO.1))?;
        let stance = sent(reader, |r| r.read_int(STANCE.0, STANCE.1))?;
        Ok((ammo, stance))
    }

    fn apply_changes(&mut self, (ammo, stance): Self::Changes) {
        if let Some(ammo) = ammo {
            self.ammo = ammo;
        }
        if let Some(stance) = stance {
            self.stance = stance;
        }
    }

    fn write_delta<W: BitWrite>(&self, baseline: &Self, writer: &mut W) -> Result<(), Error> {
        if delta(
            writer,
            |s| s.write_int(self.ammo, AMMO.0, AMMO.1),
            |s| s.write_int(baseline.ammo, AMMO.0, AMMO.1),
        )? {
            writer.write_int(self.ammo, AMMO.0, AMMO.1)?;
        }
        if delta(
            writer,
            |s| s.write_int(self.stance, STANCE.0, STANCE.1),
            |s| s.write_int(baseline.stance, STANCE.0, STANCE.1),
        )? {
            writer.write_int(self.stance, STANCE.0, STANCE.1)?;
        }
        Ok(())
    }

    fn read_delta<R: BitRead>(baseline: &Self, reader: &mut R) -> Result<Self, Error> {
        let ammo = sent(reader, |r| r.read_int(AMMO.0, AMMO.1))?.unwrap_or(baseline.ammo);
        let stance = sent(reader, |r| r.read_int(STANCE.0, STANCE.1))?.unwrap_or(baseline.stance);
        Ok(Combat { ammo, stance })
    }
}

// ---------------------------------------------------------------------------
// Entity: `#[change_group(motion)] #[bitpack(relative)] x, y`,
// `#[change_group] health`, `#[change_group] combat: Combat` (nested).

pub const COORD: (i32, i32) = (0, 1023);
pub const HEALTH: (i32, i32) = (0, 100);
/// Bits of one entity written whole: 10 + 10 + 7 + 6 + 2.
pub const ENTITY_BITS: usize = 35;
/// Top-level groups of an entity: motion, health, combat.
pub const ENTITY_GROUPS: usize = 3;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entity {
    pub x: i32,
    pub y: i32,
    pub health: i32,
    pub combat: Combat,
}

#[derive(Clone, Debug, Default)]
pub struct EntityTracker {
    pub motion: GroupRecord,
    pub health: GroupRecord,
    pub combat: GroupRecord,
    pub combat_groups: CombatTracker,
}

#[derive(Clone, Debug, Default)]
pub struct EntityChanges {
    motion: Option<(i32, i32)>,
    health: Option<i32>,
    combat: Option<(Option<i32>, Option<i32>)>,
}

impl Entity {
    fn write_motion<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.write_int(self.x, COORD.0, COORD.1)?;
        writer.write_int(self.y, COORD.0, COORD.1)
    }
    fn write_health<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.write_int(self.health, HEALTH.0, HEALTH.1)
    }
}

fn read_coord_relative<R: BitRead>(reader: &mut R, baseline: i32) -> Result<i32, Error> {
    let value = read_relative_int(reader, i64::from(baseline), i64::from(COORD.0), i64::from(COORD.1))?;
    i32::try_from(value).map_err(|_| Error::new(ErrorKind::OutOfRange, reader.bits_read()))
}

impl BitPack for Entity {
    const MAX_BITS: usize = ENTITY_BITS;
    const SCHEMA: u64 = 0xE0;
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        self.write_motion(writer)?;
        self.write_health(writer)?;
        self.combat.write_to(writer)
    }
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        Ok(Entity {
            x: reader.read_int(COORD.0, COORD.1)?,
            y: reader.read_int(COORD.0, COORD.1)?,
            health: reader.read_int(HEALTH.0, HEALTH.1)?,
            combat: Combat::read_from(reader)?,
        })
    }
}

impl ChangeGroups for Entity {
    type Tracker = EntityTracker;
    type Changes = EntityChanges;

    fn write_changes<W: BitWrite>(
        &self,
        writer: &mut W,
        confirmed: &EntityTracker,
        latest: &mut EntityTracker,
    ) -> Result<(), Error> {
        if tracked(writer, &confirmed.motion, &mut latest.motion, |s| self.write_motion(s))? {
            self.write_motion(writer)?;
        }
        if tracked(writer, &confirmed.health, &mut latest.health, |s| self.write_health(s))? {
            self.write_health(writer)?;
        }
        // Nested: the outer flag is judged on all of Combat's bits; when
        // set, Combat's own groups follow with their own flags.
        if tracked(writer, &confirmed.combat, &mut latest.combat, |s| self.combat.write_to(s))? {
            self.combat.write_changes(writer, &confirmed.combat_groups, &mut latest.combat_groups)?;
        }
        Ok(())
    }

    fn decode_changes<R: BitRead>(reader: &mut R) -> Result<EntityChanges, Error> {
        let motion = sent(reader, |r| Ok((r.read_int(COORD.0, COORD.1)?, r.read_int(COORD.0, COORD.1)?)))?;
        let health = sent(reader, |r| r.read_int(HEALTH.0, HEALTH.1))?;
        let combat = sent(reader, Combat::decode_changes)?;
        Ok(EntityChanges { motion, health, combat })
    }

    fn apply_changes(&mut self, changes: EntityChanges) {
        if let Some((x, y)) = changes.motion {
            self.x = x;
            self.y = y;
        }
        if let Some(health) = changes.health {
            self.health = health;
        }
        if let Some(combat) = changes.combat {
            self.combat.apply_changes(combat);
        }
    }

    fn write_delta<W: BitWrite>(&self, baseline: &Self, writer: &mut W) -> Result<(), Error> {
        if delta(writer, |s| self.write_motion(s), |s| baseline.write_motion(s))? {
            let (low, high) = (i64::from(COORD.0), i64::from(COORD.1));
            write_relative_int(writer, i64::from(self.x), i64::from(baseline.x), low, high)?;
            write_relative_int(writer, i64::from(self.y), i64::from(baseline.y), low, high)?;
        }
        if delta(writer, |s| self.write_health(s), |s| baseline.write_health(s))? {
            self.write_health(writer)?;
        }
        if delta(writer, |s| self.combat.write_to(s), |s| baseline.combat.write_to(s))? {
            self.combat.write_delta(&baseline.combat, writer)?;
        }
        Ok(())
    }

    fn read_delta<R: BitRead>(baseline: &Self, reader: &mut R) -> Result<Self, Error> {
        let (x, y) =
            sent(reader, |r| Ok((read_coord_relative(r, baseline.x)?, read_coord_relative(r, baseline.y)?)))?
                .unwrap_or((baseline.x, baseline.y));
        let health = sent(reader, |r| r.read_int(HEALTH.0, HEALTH.1))?.unwrap_or(baseline.health);
        let combat = sent(reader, |r| Combat::read_delta(&baseline.combat, r))?.unwrap_or(baseline.combat);
        Ok(Entity { x, y, health, combat })
    }
}

// ---------------------------------------------------------------------------
// World: N entities in a row, each with its own groups (no world flag).

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct World<const N: usize> {
    pub entities: Vec<Entity>,
}

#[derive(Clone, Debug)]
pub struct WorldTracker<const N: usize>(pub Vec<EntityTracker>);

impl<const N: usize> Default for WorldTracker<N> {
    fn default() -> Self {
        WorldTracker(vec![EntityTracker::default(); N])
    }
}

impl<const N: usize> World<N> {
    pub fn random(rng: &mut SplitMix64) -> Self {
        let entities = (0..N)
            .map(|_| Entity {
                x: rng.range(COORD.0, COORD.1),
                y: rng.range(COORD.0, COORD.1),
                health: rng.range(HEALTH.0, HEALTH.1),
                combat: Combat { ammo: rng.range(AMMO.0, AMMO.1), stance: rng.range(STANCE.0, STANCE.1) },
            })
            .collect();
        World { entities }
    }

    /// One tick: `move_percent` of entities step up to 3 units on each
    /// axis (clamped to the world), `health_percent` get a new health, 1%
    /// change ammo or stance. With `few_values`, health and ammo take one
    /// of three values, so groups often change back to earlier bits.
    pub fn tick(&mut self, rng: &mut SplitMix64, move_percent: u64, health_percent: u64, few_values: bool) {
        for entity in &mut self.entities {
            if rng.chance(move_percent) {
                entity.x = (entity.x + rng.range(-3, 3)).clamp(COORD.0, COORD.1);
                entity.y = (entity.y + rng.range(-3, 3)).clamp(COORD.0, COORD.1);
            }
            if rng.chance(health_percent) {
                entity.health =
                    if few_values { [0, 50, 100][rng.range(0, 2) as usize] } else { rng.range(0, 100) };
            }
            if rng.chance(if few_values { 20 } else { 1 }) {
                entity.combat.ammo = if few_values { rng.range(0, 2) } else { rng.range(AMMO.0, AMMO.1) };
            }
            if rng.chance(if few_values { 20 } else { 1 }) {
                entity.combat.stance = rng.range(STANCE.0, STANCE.1);
            }
        }
    }
}

impl<const N: usize> BitPack for World<N> {
    const MAX_BITS: usize = N * ENTITY_BITS;
    const SCHEMA: u64 = 0x3E;
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        self.entities.iter().try_for_each(|entity| entity.write_to(writer))
    }
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        let entities = (0..N).map(|_| Entity::read_from(reader)).collect::<Result<_, _>>()?;
        Ok(World { entities })
    }
}

impl<const N: usize> ChangeGroups for World<N> {
    type Tracker = WorldTracker<N>;
    type Changes = Vec<EntityChanges>;

    fn write_changes<W: BitWrite>(
        &self,
        writer: &mut W,
        confirmed: &WorldTracker<N>,
        latest: &mut WorldTracker<N>,
    ) -> Result<(), Error> {
        for ((entity, confirmed), latest) in self.entities.iter().zip(&confirmed.0).zip(&mut latest.0) {
            entity.write_changes(writer, confirmed, latest)?;
        }
        Ok(())
    }

    fn decode_changes<R: BitRead>(reader: &mut R) -> Result<Vec<EntityChanges>, Error> {
        (0..N).map(|_| Entity::decode_changes(reader)).collect()
    }

    fn apply_changes(&mut self, changes: Vec<EntityChanges>) {
        for (entity, changes) in self.entities.iter_mut().zip(changes) {
            entity.apply_changes(changes);
        }
    }

    fn write_delta<W: BitWrite>(&self, baseline: &Self, writer: &mut W) -> Result<(), Error> {
        for (entity, baseline) in self.entities.iter().zip(&baseline.entities) {
            entity.write_delta(baseline, writer)?;
        }
        Ok(())
    }

    fn read_delta<R: BitRead>(baseline: &Self, reader: &mut R) -> Result<Self, Error> {
        let entities = baseline
            .entities
            .iter()
            .map(|baseline| Entity::read_delta(baseline, reader))
            .collect::<Result<_, _>>()?;
        Ok(World { entities })
    }
}
