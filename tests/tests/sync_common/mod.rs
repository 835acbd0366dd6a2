//! The world the `bitpack::sync` tests replicate: a few scalar change
//! groups and a keyed collection of derived units, and the same world with
//! its units in a `Vec` kept sorted by id.
//!
//! `World`'s `BitPack` and `ChangeGroups` impls are written by hand in the
//! shape `#[derive(BitPack)]` is to generate for
//!
//! ```ignore
//! #[derive(BitPack, Clone, Debug, PartialEq)]
//! pub struct World {
//!     #[change_group(clock)]
//!     pub tick: u32,
//!     #[change_group(weather)]
//!     #[quantize(min = 0.0, max = 1.0, res = 0.01)]
//!     pub rain: f32,
//!     #[change_group(weather)]
//!     #[bits(min = 0, max = 359)]
//!     pub wind: u16,
//!     #[change_group(score)]
//!     #[bits(min = 0, max = 9999)]
//!     #[bitpack(relative)]
//!     pub red: u16,
//!     #[change_group(score)]
//!     #[bits(min = 0, max = 9999)]
//!     #[bitpack(relative)]
//!     pub blue: u16,
//!     #[change_group]
//!     #[bitpack(max_len = 1024, spawn = Unit::spawn)]
//!     pub units: BTreeMap<u32, Unit>,
//! }
//! ```
//!
//! (full paths, `__`-prefixed locals, one body behind each pair of
//! methods that differ only in the budget). The units also go in a `Vec`
//! sorted by id, the form of `units: Vec<Unit>` with `#[bitpack(key)]` on
//! `Unit::id`.
#![allow(dead_code)] // each test binary uses a different part

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
    /// The key it is stored under (the `#[bitpack(key)]` of a sorted `Vec`).
    #[change_group(identity)]
    #[bits(min = 0, max = ID_MAX)]
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

// What `#[bitpack(key)]` on `id` is to generate.
#[automatically_derived]
impl ::bitpack::__private::keyed::KeyField for Unit {
    type Key = u32;
    #[inline]
    fn key(&self) -> u32 {
        self.id
    }
}

/// The key of a unit, as a sorted `Vec`'s code passes it.
pub const KEY: fn(&Unit) -> u32 = <Unit as ::bitpack::__private::keyed::KeyField>::key;

/// The world: see the module docs for what it stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    pub tick: u32,
    pub rain: f32,
    pub wind: u16,
    pub red: u16,
    pub blue: u16,
    pub units: BTreeMap<u32, Unit>,
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
}

// Generated for `World`.
const _: () = {
    use ::bitpack::__private as __p;

    /// `write_to` and `write_to_within`.
    #[inline]
    fn __write_to<__W: __p::BitWrite>(
        __self: &World,
        __writer: &mut __W,
        __budget: __p::Option<&mut __p::keyed::Budget>,
    ) -> __p::Result<(), __p::Error> {
        <u32 as __p::BitPack>::write_to(&__self.tick, __writer)?;
        __p::BitWrite::write_compressed_float(__writer, __self.rain, 0.0, 1.0, 0.01)?;
        __p::ranged_u16::write(__writer, __self.wind, 0, 359)?;
        __p::ranged_u16::write(__writer, __self.red, 0, 9999)?;
        __p::ranged_u16::write(__writer, __self.blue, 0, 9999)?;
        __p::keyed::map::write(__writer, &__self.units, UNITS_MAX, __budget)
    }

    /// `write_delta` and `write_delta_within`.
    #[inline]
    fn __write_delta<__W: __p::BitWrite>(
        __self: &World,
        __baseline: &World,
        __writer: &mut __W,
        __budget: __p::Option<&mut __p::keyed::Budget>,
    ) -> __p::Result<(), __p::Error> {
        if __p::delta_group(
            __writer,
            |__writer: &mut __p::BitFingerprint| <u32 as __p::BitPack>::write_to(&__self.tick, __writer),
            |__writer: &mut __p::BitFingerprint| <u32 as __p::BitPack>::write_to(&__baseline.tick, __writer),
        )? {
            <u32 as __p::BitPack>::write_to(&__self.tick, __writer)?;
        }
        if __p::delta_group(
            __writer,
            |__writer: &mut __p::BitFingerprint| {
                __p::BitWrite::write_compressed_float(__writer, __self.rain, 0.0, 1.0, 0.01)?;
                __p::ranged_u16::write(__writer, __self.wind, 0, 359)
            },
            |__writer: &mut __p::BitFingerprint| {
                __p::BitWrite::write_compressed_float(__writer, __baseline.rain, 0.0, 1.0, 0.01)?;
                __p::ranged_u16::write(__writer, __baseline.wind, 0, 359)
            },
        )? {
            __p::BitWrite::write_compressed_float(__writer, __self.rain, 0.0, 1.0, 0.01)?;
            __p::ranged_u16::write(__writer, __self.wind, 0, 359)?;
        }
        if __p::delta_group(
            __writer,
            |__writer: &mut __p::BitFingerprint| {
                __p::ranged_u16::write(__writer, __self.red, 0, 9999)?;
                __p::ranged_u16::write(__writer, __self.blue, 0, 9999)
            },
            |__writer: &mut __p::BitFingerprint| {
                __p::ranged_u16::write(__writer, __baseline.red, 0, 9999)?;
                __p::ranged_u16::write(__writer, __baseline.blue, 0, 9999)
            },
        )? {
            __p::relative_u16::write(__writer, __self.red, __baseline.red, 0, 9999)?;
            __p::relative_u16::write(__writer, __self.blue, __baseline.blue, 0, 9999)?;
        }
        // A keyed collection writes its own flag: an unchanged one is that bit.
        __p::keyed::map::write_delta(
            __writer,
            &__self.units,
            &__baseline.units,
            UNITS_MAX,
            Unit::spawn,
            __budget,
        )
    }

    #[automatically_derived]
    impl __p::BitPack for World {
        const MAX_BITS: usize = __p::sum(&[
            32,
            __p::quantize_bits(0.0, 1.0, 0.01),
            __p::ranged_u16::bits(0, 359),
            __p::ranged_u16::bits(0, 9999),
            __p::ranged_u16::bits(0, 9999),
            __p::keyed::map::max_bits::<u32, Unit>(UNITS_MAX),
        ]);
        const MIN_BITS: usize = __p::sum(&[
            32,
            __p::quantize_bits(0.0, 1.0, 0.01),
            __p::ranged_u16::bits(0, 359),
            __p::ranged_u16::bits(0, 9999),
            __p::ranged_u16::bits(0, 9999),
            __p::keyed::map::min_bits(UNITS_MAX),
        ]);
        const SCHEMA: u64 = __p::schema::sequence(&[
            <u32 as __p::BitPack>::SCHEMA,
            __p::schema::quantized(0.0, 1.0, 0.01),
            __p::ranged_u16::schema(0, 359),
            __p::ranged_u16::schema(0, 9999),
            __p::ranged_u16::schema(0, 9999),
            __p::keyed::map::schema::<u32, Unit>(UNITS_MAX),
        ]);

        #[inline]
        fn write_to<__W: __p::BitWrite>(&self, __writer: &mut __W) -> __p::Result<(), __p::Error> {
            __write_to(self, __writer, __p::None)
        }

        #[inline]
        fn read_from<__R: __p::BitRead>(__reader: &mut __R) -> __p::Result<Self, __p::Error> {
            __p::Ok(World {
                tick: <u32 as __p::BitPack>::read_from(__reader)?,
                rain: __reader.read_compressed_float(0.0, 1.0, 0.01)?,
                wind: __p::ranged_u16::read(__reader, 0, 359)?,
                red: __p::ranged_u16::read(__reader, 0, 9999)?,
                blue: __p::ranged_u16::read(__reader, 0, 9999)?,
                units: __p::keyed::map::read(__reader, UNITS_MAX)?,
            })
        }
    }

    #[automatically_derived]
    impl __p::ChangeGroups for World {
        type Tracker = __p::GroupTracker<4, ()>;
        #[allow(clippy::type_complexity)]
        type Changes = (
            __p::Option<(u32,)>,
            __p::Option<(f32, u16)>,
            __p::Option<(u16, u16)>,
            __p::Option<(BTreeMap<u32, Unit>,)>,
        );

        #[inline]
        fn write_changes<__W: __p::BitWrite>(
            &self,
            __writer: &mut __W,
            __confirmed: &<Self as __p::ChangeGroups>::Tracker,
            __latest: &mut <Self as __p::ChangeGroups>::Tracker,
        ) -> __p::Result<(), __p::Error> {
            if __p::tracked_group(
                __writer,
                &__confirmed.records[0],
                &mut __latest.records[0],
                |__writer: &mut __p::BitFingerprint| <u32 as __p::BitPack>::write_to(&self.tick, __writer),
            )? {
                <u32 as __p::BitPack>::write_to(&self.tick, __writer)?;
            }
            if __p::tracked_group(
                __writer,
                &__confirmed.records[1],
                &mut __latest.records[1],
                |__writer: &mut __p::BitFingerprint| {
                    __p::BitWrite::write_compressed_float(__writer, self.rain, 0.0, 1.0, 0.01)?;
                    __p::ranged_u16::write(__writer, self.wind, 0, 359)
                },
            )? {
                __p::BitWrite::write_compressed_float(__writer, self.rain, 0.0, 1.0, 0.01)?;
                __p::ranged_u16::write(__writer, self.wind, 0, 359)?;
            }
            if __p::tracked_group(
                __writer,
                &__confirmed.records[2],
                &mut __latest.records[2],
                |__writer: &mut __p::BitFingerprint| {
                    __p::ranged_u16::write(__writer, self.red, 0, 9999)?;
                    __p::ranged_u16::write(__writer, self.blue, 0, 9999)
                },
            )? {
                __p::ranged_u16::write(__writer, self.red, 0, 9999)?;
                __p::ranged_u16::write(__writer, self.blue, 0, 9999)?;
            }
            // Tracked, a keyed collection is one group sent whole.
            if __p::tracked_group(
                __writer,
                &__confirmed.records[3],
                &mut __latest.records[3],
                |__writer: &mut __p::BitFingerprint| {
                    __p::keyed::map::write(__writer, &self.units, UNITS_MAX, __p::None)
                },
            )? {
                __p::keyed::map::write(__writer, &self.units, UNITS_MAX, __p::None)?;
            }
            __p::Ok(())
        }

        #[inline]
        fn decode_changes<__R: __p::BitRead>(
            __reader: &mut __R,
        ) -> __p::Result<<Self as __p::ChangeGroups>::Changes, __p::Error> {
            let __item0 = if __p::BitRead::read_bool(__reader)? {
                __p::Some((<u32 as __p::BitPack>::read_from(__reader)?,))
            } else {
                __p::None
            };
            let __item1 = if __p::BitRead::read_bool(__reader)? {
                __p::Some((
                    __reader.read_compressed_float(0.0, 1.0, 0.01)?,
                    __p::ranged_u16::read(__reader, 0, 359)?,
                ))
            } else {
                __p::None
            };
            let __item2 = if __p::BitRead::read_bool(__reader)? {
                __p::Some((
                    __p::ranged_u16::read(__reader, 0, 9999)?,
                    __p::ranged_u16::read(__reader, 0, 9999)?,
                ))
            } else {
                __p::None
            };
            let __item3 = if __p::BitRead::read_bool(__reader)? {
                __p::Some((__p::keyed::map::read(__reader, UNITS_MAX)?,))
            } else {
                __p::None
            };
            __p::Ok((__item0, __item1, __item2, __item3))
        }

        #[inline]
        fn apply_changes(&mut self, __changes: <Self as __p::ChangeGroups>::Changes) {
            let (__item0, __item1, __item2, __item3) = __changes;
            if let __p::Some((__value0,)) = __item0 {
                self.tick = __value0;
            }
            if let __p::Some((__value0, __value1)) = __item1 {
                self.rain = __value0;
                self.wind = __value1;
            }
            if let __p::Some((__value0, __value1)) = __item2 {
                self.red = __value0;
                self.blue = __value1;
            }
            if let __p::Some((__value0,)) = __item3 {
                self.units = __value0;
            }
        }

        #[inline]
        fn write_delta<__W: __p::BitWrite>(
            &self,
            __baseline: &Self,
            __writer: &mut __W,
        ) -> __p::Result<(), __p::Error> {
            __write_delta(self, __baseline, __writer, __p::None)
        }

        #[inline]
        fn read_delta<__R: __p::BitRead>(
            __baseline: &Self,
            __reader: &mut __R,
        ) -> __p::Result<Self, __p::Error> {
            let (__field0,) = if __p::BitRead::read_bool(__reader)? {
                (<u32 as __p::BitPack>::read_from(__reader)?,)
            } else {
                (__baseline.tick,)
            };
            let (__field1, __field2) = if __p::BitRead::read_bool(__reader)? {
                (__reader.read_compressed_float(0.0, 1.0, 0.01)?, __p::ranged_u16::read(__reader, 0, 359)?)
            } else {
                (__baseline.rain, __baseline.wind)
            };
            let (__field3, __field4) = if __p::BitRead::read_bool(__reader)? {
                (
                    __p::relative_u16::read(__reader, __baseline.red, 0, 9999)?,
                    __p::relative_u16::read(__reader, __baseline.blue, 0, 9999)?,
                )
            } else {
                (__baseline.red, __baseline.blue)
            };
            let __field5 = __p::keyed::map::read_delta(__reader, &__baseline.units, UNITS_MAX, Unit::spawn)?;
            __p::Ok(World {
                tick: __field0,
                rain: __field1,
                wind: __field2,
                red: __field3,
                blue: __field4,
                units: __field5,
            })
        }

        #[inline]
        fn write_to_within<__W: __p::BitWrite>(
            &self,
            __writer: &mut __W,
            __budget: &mut __p::keyed::Budget,
        ) -> __p::Result<(), __p::Error> {
            __write_to(self, __writer, __p::Some(__budget))
        }

        #[inline]
        fn write_delta_within<__W: __p::BitWrite>(
            &self,
            __baseline: &Self,
            __writer: &mut __W,
            __budget: &mut __p::keyed::Budget,
        ) -> __p::Result<(), __p::Error> {
            __write_delta(self, __baseline, __writer, __p::Some(__budget))
        }

        #[inline]
        fn sent_state(
            &self,
            __baseline: __p::Option<&Self>,
            __budget: &mut __p::keyed::Budget,
        ) -> __p::Result<Self, __p::Error> {
            // Fields outside keyed collections are always sent: the world's.
            __p::Ok(World {
                tick: <u32 as __p::Clone>::clone(&self.tick),
                rain: <f32 as __p::Clone>::clone(&self.rain),
                wind: <u16 as __p::Clone>::clone(&self.wind),
                red: <u16 as __p::Clone>::clone(&self.red),
                blue: <u16 as __p::Clone>::clone(&self.blue),
                units: __p::keyed::map::sent_state(
                    &self.units,
                    __p::Option::map(__baseline, |__baseline| &__baseline.units),
                    __budget,
                )?,
            })
        }
    }
};
