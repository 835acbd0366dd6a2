//! The replicated state: the tick, the players by id and the mobs (projectiles and NPCs) by id.
//!
//! The world is declared twice from one definition (the `world_types!` macro): [`relative`] codes
//! positions, yaws and health against the client's baseline (`#[bitpack(relative)]`), and
//! [`absolute`] sends a changed group's values whole, for comparing the two.

use bitpack::BitPack;

/// Positions lie in `[-ARENA, ARENA]` on x and z.
pub const ARENA: f32 = 512.0;
/// The lowest position that can be sent, per axis (y is height: 64 m of it).
pub const MIN_POSITION: [f32; 3] = [-ARENA, -8.0, -ARENA];
/// The highest position that can be sent, per axis.
pub const MAX_POSITION: [f32; 3] = [ARENA, 56.0, ARENA];
/// Positions are sent to the centimetre.
pub const POSITION_RES: f32 = 0.01;
/// A mob's heading in `[-pi, pi]`, to 0.005 rad.
pub const YAW_RES: f32 = 0.005;
/// The lowest yaw a mob can be sent with.
pub const MIN_YAW: f32 = -core::f32::consts::PI;
/// The highest yaw a mob can be sent with.
pub const MAX_YAW: f32 = core::f32::consts::PI;
/// Bits per smallest-three component of a player's orientation (2 + 3 x 11 = 35 bits).
pub const ROTATION_BITS: u32 = 11;
/// Health runs from 0 (dead) to this.
pub const MAX_HEALTH: u8 = 100;
/// The most players a world holds.
pub const MAX_PLAYERS: usize = 64;
/// The most mobs a world holds.
pub const MAX_MOBS: usize = 512;
/// The longest chat line, in bytes.
pub const MAX_CHAT: usize = 48;
/// The last tick a world can be sent at (about 6 days at 30 Hz).
pub const MAX_TICK: i32 = (1 << 24) - 1;

/// What a player is doing, as the clients see it.
#[derive(BitPack, Clone, Debug, Default, PartialEq)]
pub enum Action {
    /// Walking about.
    #[default]
    Idle,
    /// Fired a projectile in the last few ticks.
    Firing,
    /// Said something; shown over the player's head for a while.
    Chat {
        /// The line, at most [`MAX_CHAT`] bytes.
        #[bitpack(max_len = 48)]
        text: String,
    },
}

/// What a mob is.
#[derive(BitPack, Clone, Copy, Debug, Default, PartialEq)]
pub enum MobKind {
    /// A shot: fast, straight, short-lived.
    #[default]
    Projectile,
    /// A creature wandering the arena.
    Npc,
}

/// Declares `Player`, `Mob` and `World`; `$relative` is `all()` to code steps against the
/// baseline, `any()` not to; `$other` is the sibling module a `World` converts from.
macro_rules! world_types {
    ($relative:meta, $other:ident) => {
        use std::collections::BTreeMap;

        use bitpack::__private::{self as p, keyed, keyed::Budget};
        use bitpack::{BitPack, BitRead, BitWrite, ChangeGroups, Error};

        use super::{
            Action, MAX_HEALTH, MAX_MOBS, MAX_PLAYERS, MAX_POSITION, MAX_TICK, MAX_YAW, MIN_POSITION,
            MIN_YAW, MobKind, POSITION_RES, ROTATION_BITS, YAW_RES,
        };
        use glam::{Quat, Vec3};

        /// A player, keyed by its id in [`World::players`].
        #[derive(BitPack, Clone, Debug, Default, PartialEq)]
        pub struct Player {
            /// Where it stands, to [`POSITION_RES`] (17 + 13 + 17 bits whole).
            #[change_group(motion)]
            #[quantize(min = MIN_POSITION, max = MAX_POSITION, res = POSITION_RES)]
            #[cfg_attr($relative, bitpack(relative))]
            pub position: Vec3,
            /// Where it looks: smallest three, 2 + 3 x [`ROTATION_BITS`] bits whole.
            #[change_group(motion)]
            #[quantize(bits = ROTATION_BITS)]
            #[cfg_attr($relative, bitpack(relative))]
            pub orientation: Quat,
            /// 0 to [`MAX_HEALTH`].
            #[change_group(health)]
            #[bits(min = 0, max = MAX_HEALTH)]
            #[cfg_attr($relative, bitpack(relative))]
            pub health: u8,
            /// What the clients show it doing.
            #[change_group(action)]
            pub action: Action,
        }

        /// A projectile or NPC, keyed by its id in [`World::mobs`].
        #[derive(BitPack, Clone, Debug, Default, PartialEq)]
        pub struct Mob {
            /// What it is.
            #[change_group(identity)]
            pub kind: MobKind,
            /// Where it is, to [`POSITION_RES`].
            #[change_group(motion)]
            #[quantize(min = MIN_POSITION, max = MAX_POSITION, res = POSITION_RES)]
            #[cfg_attr($relative, bitpack(relative))]
            pub position: Vec3,
            /// Its heading, to [`YAW_RES`].
            #[change_group(motion)]
            #[quantize(min = MIN_YAW, max = MAX_YAW, res = YAW_RES)]
            #[cfg_attr($relative, bitpack(relative))]
            pub yaw: f32,
            /// 0 to [`MAX_HEALTH`].
            #[change_group(health)]
            #[bits(min = 0, max = MAX_HEALTH)]
            #[cfg_attr($relative, bitpack(relative))]
            pub health: u8,
        }

        /// Everything the server replicates.
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct World {
            /// The server tick this is the state of.
            pub tick: i32,
            /// The players alive, by id.
            pub players: BTreeMap<u32, Player>,
            /// The mobs, by id.
            pub mobs: BTreeMap<u32, Mob>,
        }

        // Hand-written until the derive supports keyed collections: what
        // `#[change_group(clock)] tick` and `#[change_group] #[bitpack(max_len = N)]` on the
        // maps generate.
        fn write_world<W: BitWrite>(
            world: &World,
            writer: &mut W,
            mut budget: Option<&mut Budget>,
        ) -> Result<(), Error> {
            writer.write_int(world.tick, 0, MAX_TICK)?;
            keyed::map::write(writer, &world.players, MAX_PLAYERS, budget.as_deref_mut())?;
            keyed::map::write(writer, &world.mobs, MAX_MOBS, budget)
        }

        fn write_world_delta<W: BitWrite>(
            world: &World,
            baseline: &World,
            writer: &mut W,
            mut budget: Option<&mut Budget>,
        ) -> Result<(), Error> {
            let now = |sink: &mut p::BitFingerprint| sink.write_int(world.tick, 0, MAX_TICK);
            let then = |sink: &mut p::BitFingerprint| sink.write_int(baseline.tick, 0, MAX_TICK);
            if p::delta_group(writer, now, then)? {
                writer.write_int(world.tick, 0, MAX_TICK)?;
            }
            let (players, mobs) = (&baseline.players, &baseline.mobs);
            let spawn_player = Player::default;
            keyed::map::write_delta(
                writer,
                &world.players,
                players,
                MAX_PLAYERS,
                spawn_player,
                budget.as_deref_mut(),
            )?;
            keyed::map::write_delta(writer, &world.mobs, mobs, MAX_MOBS, Mob::default, budget)
        }

        impl BitPack for World {
            const MAX_BITS: usize = p::bits_required(0, MAX_TICK) as usize
                + keyed::map::max_bits::<u32, Player>(MAX_PLAYERS)
                + keyed::map::max_bits::<u32, Mob>(MAX_MOBS);
            const MIN_BITS: usize = p::bits_required(0, MAX_TICK) as usize
                + keyed::map::min_bits(MAX_PLAYERS)
                + keyed::map::min_bits(MAX_MOBS);
            const SCHEMA: u64 = p::schema::sequence(&[
                p::schema::int(0, MAX_TICK as u128),
                keyed::map::schema::<u32, Player>(MAX_PLAYERS),
                keyed::map::schema::<u32, Mob>(MAX_MOBS),
            ]);

            fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
                write_world(self, writer, None)
            }

            fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
                Ok(World {
                    tick: reader.read_int(0, MAX_TICK)?,
                    players: keyed::map::read(reader, MAX_PLAYERS)?,
                    mobs: keyed::map::read(reader, MAX_MOBS)?,
                })
            }
        }

        impl ChangeGroups for World {
            type Tracker = p::GroupTracker<3, ()>;
            type Changes = (Option<i32>, Option<BTreeMap<u32, Player>>, Option<BTreeMap<u32, Mob>>);

            fn write_changes<W: BitWrite>(
                &self,
                writer: &mut W,
                confirmed: &Self::Tracker,
                latest: &mut Self::Tracker,
            ) -> Result<(), Error> {
                let tick = |sink: &mut p::BitFingerprint| sink.write_int(self.tick, 0, MAX_TICK);
                if p::tracked_group(writer, &confirmed.records[0], &mut latest.records[0], tick)? {
                    writer.write_int(self.tick, 0, MAX_TICK)?;
                }
                let players =
                    |sink: &mut p::BitFingerprint| keyed::map::write(sink, &self.players, MAX_PLAYERS, None);
                if p::tracked_group(writer, &confirmed.records[1], &mut latest.records[1], players)? {
                    keyed::map::write(writer, &self.players, MAX_PLAYERS, None)?;
                }
                let mobs = |sink: &mut p::BitFingerprint| keyed::map::write(sink, &self.mobs, MAX_MOBS, None);
                if p::tracked_group(writer, &confirmed.records[2], &mut latest.records[2], mobs)? {
                    keyed::map::write(writer, &self.mobs, MAX_MOBS, None)?;
                }
                Ok(())
            }

            fn decode_changes<R: BitRead>(reader: &mut R) -> Result<Self::Changes, Error> {
                let tick = if reader.read_bool()? { Some(reader.read_int(0, MAX_TICK)?) } else { None };
                let players =
                    if reader.read_bool()? { Some(keyed::map::read(reader, MAX_PLAYERS)?) } else { None };
                let mobs = if reader.read_bool()? { Some(keyed::map::read(reader, MAX_MOBS)?) } else { None };
                Ok((tick, players, mobs))
            }

            fn apply_changes(&mut self, (tick, players, mobs): Self::Changes) {
                if let Some(tick) = tick {
                    self.tick = tick;
                }
                if let Some(players) = players {
                    self.players = players;
                }
                if let Some(mobs) = mobs {
                    self.mobs = mobs;
                }
            }

            fn write_delta<W: BitWrite>(&self, baseline: &Self, writer: &mut W) -> Result<(), Error> {
                write_world_delta(self, baseline, writer, None)
            }

            fn read_delta<R: BitRead>(baseline: &Self, reader: &mut R) -> Result<Self, Error> {
                let tick = if reader.read_bool()? { reader.read_int(0, MAX_TICK)? } else { baseline.tick };
                let players =
                    keyed::map::read_delta(reader, &baseline.players, MAX_PLAYERS, Player::default)?;
                let mobs = keyed::map::read_delta(reader, &baseline.mobs, MAX_MOBS, Mob::default)?;
                Ok(World { tick, players, mobs })
            }

            fn write_to_within<W: BitWrite>(&self, writer: &mut W, budget: &mut Budget) -> Result<(), Error> {
                write_world(self, writer, Some(budget))
            }

            fn write_delta_within<W: BitWrite>(
                &self,
                baseline: &Self,
                writer: &mut W,
                budget: &mut Budget,
            ) -> Result<(), Error> {
                write_world_delta(self, baseline, writer, Some(budget))
            }

            fn sent_state(&self, baseline: Option<&Self>, budget: &mut Budget) -> Result<Self, Error> {
                Ok(World {
                    tick: self.tick,
                    players: keyed::map::sent_state(&self.players, baseline.map(|b| &b.players), budget)?,
                    mobs: keyed::map::sent_state(&self.mobs, baseline.map(|b| &b.mobs), budget)?,
                })
            }
        }

        impl From<&super::$other::World> for World {
            /// The same world in this module's types.
            fn from(world: &super::$other::World) -> Self {
                let player = |p: &super::$other::Player| Player {
                    position: p.position,
                    orientation: p.orientation,
                    health: p.health,
                    action: p.action.clone(),
                };
                let mob = |m: &super::$other::Mob| Mob {
                    kind: m.kind,
                    position: m.position,
                    yaw: m.yaw,
                    health: m.health,
                };
                World {
                    tick: world.tick,
                    players: world.players.iter().map(|(&id, p)| (id, player(p))).collect(),
                    mobs: world.mobs.iter().map(|(&id, m)| (id, mob(m))).collect(),
                }
            }
        }
    };
}

/// The world as the server sends it: positions, yaws and health as steps from the baseline.
pub mod relative {
    world_types!(all(), absolute);
}

/// The same world with every changed group sent whole (no relative coding).
pub mod absolute {
    world_types!(any(), relative);
}

pub use relative::{Mob, Player, World};
