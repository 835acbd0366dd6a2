//! The world the `bitpack::sync` tests replicate: a few scalar change
//! groups and a keyed collection of derived units (`World`), and the same
//! world with its units in a `Vec` kept sorted by id (`SortedWorld`). Both
//! are derived; `hand` holds `World`'s impls written by hand, the model the
//! derive was written from.
#![allow(dead_code)] // each test binary uses a different part

pub mod hand;
pub mod link;

use std::collections::BTreeMap;

use bitpack::BitPack;

pub use crate::change_groups_common::SplitMix64;

/// Most units in a world.
pub const UNITS_MAX: usize = 1024;

/// Largest unit id.
pub const ID_MAX: u32 = 1 << 20;

/// A unit, derived with today's `#[change_group]`s.
#[derive(BitPack, Clone, Debug, Default, PartialEq)]
pub struct Unit {
    /// The key it is stored under (the key of a sorted `Vec`).
    #[change_group(identity)]
    #[bits(min = 0, max = ID_MAX)]
    #[bitpack(key)]
    pub id: u32,
    #[change_group(identity)]
    #[bits(min = 0, max = 7)]
    pub kind: u8,
    #[change_group(motion)]
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    #[bitpack(relative)]
    pub position: [f32; 2],
    #[change_group(motion)]
    #[quantize(min = 0.0, max = 6.3, res = 0.001)]
    #[bitpack(relative)]
    pub yaw: f32,
    #[change_group(vitals)]
    #[bits(min = 0, max = 1000)]
    #[bitpack(relative)]
    pub health: u16,
    #[change_group(state)]
    pub firing: bool,
    #[change_group(state)]
    #[bits(min = 0, max = ID_MAX)]
    pub target: Option<u32>,
}

impl Unit {
    /// The spawn baseline: what new units are sent against.
    pub fn spawn() -> Unit {
        Unit { health: 1000, ..Unit::default() }
    }

    pub fn random(rng: &mut SplitMix64, id: u32) -> Unit {
        Unit {
            id,
            kind: rng.range(0, 7) as u8,
            position: [
                rng.range(-100_000, 100_000) as f32 * 0.01,
                rng.range(-100_000, 100_000) as f32 * 0.01,
            ],
            yaw: rng.range(0, 6283) as f32 * 0.001,
            health: if rng.chance(70) { 1000 } else { rng.range(1, 1000) as u16 },
            firing: rng.chance(10),
            target: if rng.chance(30) { Some(rng.range(0, ID_MAX as i32) as u32) } else { None },
        }
    }

    /// One tick: most move a little, some turn, a few are hurt or fire.
    pub fn step(&mut self, rng: &mut SplitMix64) {
        if rng.chance(60) {
            for axis in &mut self.position {
                *axis = (*axis + rng.range(-80, 80) as f32 * 0.01).clamp(-1000.0, 1000.0);
            }
            self.yaw = (self.yaw + rng.range(-100, 100) as f32 * 0.001).clamp(0.0, 6.0);
        }
        if rng.chance(5) {
            self.health = (i32::from(self.health) + rng.range(-60, 20)).clamp(0, 1000) as u16;
        }
        if rng.chance(3) {
            self.firing = !self.firing;
        }
    }

    /// Equal within the declared resolutions (what a receiver can hold).
    pub fn close_to(&self, other: &Unit) -> bool {
        let near = |a: f32, b: f32, res: f32| (a - b).abs() <= res * 0.51;
        self.id == other.id
            && self.kind == other.kind
            && self.position.iter().zip(&other.position).all(|(a, b)| near(*a, *b, 0.01))
            && near(self.yaw, other.yaw, 0.001)
            && self.health == other.health
            && self.firing == other.firing
            && self.target == other.target
    }
}

/// The key of a unit, as a sorted `Vec`'s code passes it.
pub const KEY: fn(&Unit) -> u32 = <Unit as ::bitpack::__private::keyed::KeyField>::key;

/// The world: a clock, the weather, a score and the units by id.
#[derive(BitPack, Clone, Debug, PartialEq)]
pub struct World {
    #[change_group(clock)]
    pub tick: u32,
    #[change_group(weather)]
    #[quantize(min = 0.0, max = 1.0, res = 0.01)]
    pub rain: f32,
    #[change_group(weather)]
    #[bits(min = 0, max = 359)]
    pub wind: u16,
    #[change_group(score)]
    #[bits(min = 0, max = 9999)]
    #[bitpack(relative)]
    pub red: u16,
    #[change_group(score)]
    #[bits(min = 0, max = 9999)]
    #[bitpack(relative)]
    pub blue: u16,
    #[change_group]
    #[bitpack(max_len = UNITS_MAX, spawn = Unit::spawn)]
    pub units: BTreeMap<u32, Unit>,
}

/// [`World`] with its units in a `Vec` sorted by id (`Unit::id` is the key).
#[derive(BitPack, Clone, Debug, PartialEq)]
pub struct SortedWorld {
    #[change_group(clock)]
    pub tick: u32,
    #[change_group(weather)]
    #[quantize(min = 0.0, max = 1.0, res = 0.01)]
    pub rain: f32,
    #[change_group(weather)]
    #[bits(min = 0, max = 359)]
    pub wind: u16,
    #[change_group(score)]
    #[bits(min = 0, max = 9999)]
    #[bitpack(relative)]
    pub red: u16,
    #[change_group(score)]
    #[bits(min = 0, max = 9999)]
    #[bitpack(relative)]
    pub blue: u16,
    #[change_group]
    #[bitpack(max_len = UNITS_MAX, spawn = Unit::spawn)]
    pub units: Vec<Unit>,
}

impl World {
    pub fn empty() -> World {
        World { tick: 0, rain: 0.0, wind: 0, red: 0, blue: 0, units: BTreeMap::new() }
    }

    /// A world of `count` random units with ascending, gapped ids.
    pub fn random(rng: &mut SplitMix64, count: usize) -> World {
        let mut world = World::empty();
        let mut id = 0;
        for _ in 0..count {
            id += rng.range(1, 20) as u32;
            world.units.insert(id, Unit::random(rng, id));
        }
        world
    }

    /// One tick: every unit steps; `spawns` units spawn and `despawns`
    /// despawn (fewer when the world is too small or too large).
    pub fn step(&mut self, rng: &mut SplitMix64, spawns: usize, despawns: usize) {
        self.tick += 1;
        if rng.chance(10) {
            self.rain = rng.range(0, 100) as f32 * 0.01;
            self.wind = rng.range(0, 359) as u16;
        }
        if rng.chance(20) {
            self.red = (self.red + 1).min(9999);
        }
        for unit in self.units.values_mut() {
            unit.step(rng);
        }
        for _ in 0..despawns {
            if self.units.len() <= 1 {
                break;
            }
            let at = rng.range(0, self.units.len() as i32 - 1) as usize;
            if let Some(id) = self.units.keys().nth(at).copied() {
                self.units.remove(&id);
            }
        }
        for _ in 0..spawns {
            if self.units.len() >= UNITS_MAX {
                break;
            }
            let id = rng.range(0, ID_MAX as i32) as u32;
            self.units.entry(id).or_insert_with(|| Unit::random(rng, id));
        }
    }

    /// Equal within the declared resolutions.
    pub fn close_to(&self, other: &World) -> bool {
        self.tick == other.tick
            && (self.rain - other.rain).abs() <= 0.0051
            && (self.wind, self.red, self.blue) == (other.wind, other.red, other.blue)
            && self.units.len() == other.units.len()
            && self.units.iter().zip(&other.units).all(|((k, a), (l, b))| k == l && a.close_to(b))
    }

    /// The units in a `Vec` sorted by id.
    pub fn sorted(&self) -> Vec<Unit> {
        self.units.values().cloned().collect()
    }

    /// The same world with its units in a sorted `Vec`.
    pub fn as_sorted(&self) -> SortedWorld {
        let World { tick, rain, wind, red, blue, .. } = *self;
        SortedWorld { tick, rain, wind, red, blue, units: self.sorted() }
    }
}
