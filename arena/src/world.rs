//! The replicated state: the tick, the players by id and the mobs (projectiles and NPCs) by id.
//!
//! The world is declared twice from one definition (the `world_types!` macro): [`relative`] codes
//! the tick, positions, yaws and health against the client's baseline (`#[bitpack(relative)]`),
//! and [`absolute`] sends a changed group's values whole, for comparing the two. Both are derived:
//! the maps are keyed collections, so a delta carries only the entries that changed, spawned
//! (against `Default`) or despawned.

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
/// The players' collection as `bitpack::sync::Entry` numbers the world's keyed collections.
pub const PLAYERS: usize = 0;
/// The mobs' collection, likewise.
pub const MOBS: usize = 1;
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

        use bitpack::BitPack;

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
        #[derive(BitPack, Clone, Debug, Default, PartialEq)]
        pub struct World {
            /// The server tick this is the state of.
            #[change_group(clock)]
            #[bits(min = 0, max = MAX_TICK)]
            #[cfg_attr($relative, bitpack(relative))]
            pub tick: i32,
            /// The players alive, by id: a delta sends only those that changed, spawned or died.
            #[change_group]
            #[bitpack(max_len = MAX_PLAYERS)]
            pub players: BTreeMap<u32, Player>,
            /// The mobs, by id, likewise.
            #[change_group]
            #[bitpack(max_len = MAX_MOBS)]
            pub mobs: BTreeMap<u32, Mob>,
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
