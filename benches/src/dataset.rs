//! The issue-6 dataset: 60 consecutive snapshots of 256 entities at 30 Hz,
//! and 60 player inputs, generated from a fixed seed by [`SplitMix64`]
//! with nothing but f32 adds and multiplies (no libm), so every platform
//! builds the same bits. A test pins its [`fingerprint`].
//!
//! Ranges and resolutions (the wire declarations every ranged encoder uses):
//! id 0..=4095; kind 8 variants; position [-1024, 1024] at 0.01; velocity
//! [-64, 64] at 0.01; yaw [0, 2pi) at 0.001; health 0..=1000 (mostly high);
//! armor 0..=100; 5 flags; an optional target id. About 40% of entities
//! move and 5% change health on each tick.

use crate::rng::SplitMix64;
use bitpack::BitPack;
use serde::{Deserialize, Serialize};

/// Snapshots in the dataset.
pub const SNAPSHOTS: usize = 60;
/// Entities in every snapshot.
pub const ENTITIES: usize = 256;
/// Player inputs in the dataset.
pub const INPUTS: usize = 60;
/// Simulation rate.
pub const TICKS_PER_SECOND: f32 = 30.0;
/// The seed of everything.
pub const SEED: u64 = 0x6269_7470_6163_6b06;

/// Largest entity id.
pub const ID_MAX: u16 = 4095;
/// Position range per axis, and its resolution.
pub const POSITION_RANGE: (f32, f32, f32) = (-1024.0, 1024.0, 0.01);
/// Velocity range per axis, and its resolution.
pub const VELOCITY_RANGE: (f32, f32, f32) = (-64.0, 64.0, 0.01);
/// Yaw range and resolution.
pub const YAW_RANGE: (f32, f32, f32) = (0.0, YAW_MAX, 0.001);
/// Largest yaw.
pub const YAW_MAX: f32 = core::f32::consts::TAU;
/// Largest health.
pub const HEALTH_MAX: u16 = 1000;
/// Largest armor.
pub const ARMOR_MAX: u8 = 100;
/// Stick axis range and resolution.
pub const STICK_RANGE: (f32, f32, f32) = (-1.0, 1.0, STICK_RES);
/// One step of a stick axis.
pub const STICK_RES: f32 = 1.0 / 127.0;
/// Aim yaw range and resolution.
pub const AIM_YAW_RANGE: (f32, f32, f32) = (AIM_YAW_MIN, AIM_YAW_MAX, 0.0005);
/// Smallest aim yaw.
pub const AIM_YAW_MIN: f32 = -core::f32::consts::PI;
/// Largest aim yaw.
pub const AIM_YAW_MAX: f32 = core::f32::consts::PI;
/// Aim pitch range and resolution.
pub const AIM_PITCH_RANGE: (f32, f32, f32) = (AIM_PITCH_MIN, AIM_PITCH_MAX, 0.0005);
/// Smallest aim pitch.
pub const AIM_PITCH_MIN: f32 = -core::f32::consts::FRAC_PI_2;
/// Largest aim pitch.
pub const AIM_PITCH_MAX: f32 = core::f32::consts::FRAC_PI_2;
/// Largest weapon slot.
pub const WEAPON_MAX: u8 = 15;

/// What an entity is: 8 variants, 3 bits.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    bincode::Encode,
    bincode::Decode,
    BitPack,
)]
pub enum EntityKind {
    Player,
    Npc,
    Projectile,
    Vehicle,
    Pickup,
    Door,
    Turret,
    Effect,
}

impl EntityKind {
    /// Every variant, in declaration (and wire) order.
    pub const ALL: [EntityKind; 8] = [
        EntityKind::Player,
        EntityKind::Npc,
        EntityKind::Projectile,
        EntityKind::Vehicle,
        EntityKind::Pickup,
        EntityKind::Door,
        EntityKind::Turret,
        EntityKind::Effect,
    ];

    /// The variant's index, 0..=7.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The variant at `index`, if any.
    pub fn from_index(index: u8) -> Option<Self> {
        Self::ALL.get(usize::from(index)).copied()
    }
}

/// Five independent state bits.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    bincode::Encode,
    bincode::Decode,
    BitPack,
)]
pub struct EntityFlags {
    pub on_ground: bool,
    pub crouching: bool,
    pub firing: bool,
    pub reloading: bool,
    pub invisible: bool,
}

/// One entity as the game holds it: floats and plain integers. Its
/// change groups (identity, motion, vitals, state) only matter to
/// [`crate::stream`]; the plain `BitPack` write sends every field.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    bincode::Encode,
    bincode::Decode,
    BitPack,
)]
pub struct Entity {
    /// 0..=4095; the key of a `Vec` of entities sorted by id (issue 13).
    #[change_group(identity)]
    #[bits(min = 0, max = ID_MAX)]
    #[bitpack(key)]
    pub id: u16,
    #[change_group(identity)]
    pub kind: EntityKind,
    /// Each axis in [-1024, 1024], sent at 0.01; in a delta, against the
    /// baseline moved by its velocity for one tick.
    #[change_group(motion)]
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    #[bitpack(relative(rate = velocity, dt = 1.0 / TICKS_PER_SECOND))]
    pub position: [f32; 3],
    /// Each axis in [-64, 64], sent at 0.01; exactly zero when still.
    #[change_group(motion)]
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    #[bitpack(relative)]
    pub velocity: [f32; 3],
    /// [0, 2pi), sent at 0.001.
    #[change_group(motion)]
    #[quantize(min = 0.0, max = YAW_MAX, res = 0.001)]
    #[bitpack(relative)]
    pub yaw: f32,
    /// 0..=1000.
    #[change_group(vitals)]
    #[bits(min = 0, max = HEALTH_MAX)]
    pub health: u16,
    /// 0..=100.
    #[change_group(vitals)]
    #[bits(min = 0, max = ARMOR_MAX)]
    pub armor: u8,
    #[change_group(state)]
    pub flags: EntityFlags,
    /// Another entity's id.
    #[change_group(state)]
    #[bits(min = 0, max = ID_MAX)]
    pub target: Option<u16>,
}

/// Every entity at one tick.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    bincode::Encode,
    bincode::Decode,
    BitPack,
)]
pub struct Snapshot {
    pub tick: u32,
    /// At most [`ENTITIES`].
    #[bitpack(max_len = ENTITIES)]
    pub entities: Vec<Entity>,
}

/// One player's input for one tick.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    bincode::Encode,
    bincode::Decode,
    BitPack,
)]
pub struct PlayerInput {
    pub tick: u32,
    /// 16 button bits.
    pub buttons: u16,
    /// [-1, 1] at 1/127.
    #[quantize(min = -1.0, max = 1.0, res = STICK_RES)]
    pub move_x: f32,
    /// [-1, 1] at 1/127.
    #[quantize(min = -1.0, max = 1.0, res = STICK_RES)]
    pub move_y: f32,
    /// [-pi, pi] at 0.0005.
    #[quantize(min = AIM_YAW_MIN, max = AIM_YAW_MAX, res = 0.0005)]
    pub aim_yaw: f32,
    /// [-pi/2, pi/2] at 0.0005.
    #[quantize(min = AIM_PITCH_MIN, max = AIM_PITCH_MAX, res = 0.0005)]
    pub aim_pitch: f32,
    /// 0..=15.
    #[bits(min = 0, max = WEAPON_MAX)]
    pub weapon: u8,
    pub sequence: u16,
}

/// The whole dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    pub snapshots: Vec<Snapshot>,
    pub inputs: Vec<PlayerInput>,
}

/// An entity's hidden state between ticks.
pub(crate) struct Body {
    pub(crate) entity: Entity,
    moving: bool,
}

/// Builds the dataset; the same bits on every call and every platform.
///
/// ```
/// let data = bitpack_benches::dataset::generate();
/// assert_eq!(data.snapshots.len(), 60);
/// assert_eq!(data.snapshots[0].entities.len(), 256);
/// assert_eq!(data.inputs.len(), 60);
/// ```
pub fn generate() -> Dataset {
    let mut rng = SplitMix64::new(SEED);
    let ids = distinct_ids(&mut rng);
    let mut bodies: Vec<Body> = ids.iter().map(|&id| spawn(&mut rng, id, &ids)).collect();
    let first_tick = 90_000;
    let mut snapshots = Vec::with_capacity(SNAPSHOTS);
    for index in 0..SNAPSHOTS {
        if index > 0 {
            for body in &mut bodies {
                step(&mut rng, body, &ids);
            }
        }
        snapshots.push(Snapshot {
            tick: first_tick + index as u32,
            entities: bodies.iter().map(|body| body.entity).collect(),
        });
    }
    let inputs = player_inputs(&mut rng, first_tick);
    Dataset { snapshots, inputs }
}

/// [`ENTITIES`] distinct ids in 0..=4095, ascending, as a server lists them.
pub(crate) fn distinct_ids(rng: &mut SplitMix64) -> Vec<u16> {
    let mut taken = vec![false; usize::from(ID_MAX) + 1];
    let mut ids = Vec::with_capacity(ENTITIES);
    while ids.len() < ENTITIES {
        let id = rng.below(u64::from(ID_MAX) + 1) as u16;
        if !taken[usize::from(id)] {
            taken[usize::from(id)] = true;
            ids.push(id);
        }
    }
    ids.sort_unstable();
    ids
}

fn random_velocity(rng: &mut SplitMix64) -> [f32; 3] {
    [rng.range_f32(-12.0, 12.0), rng.range_f32(-12.0, 12.0), rng.range_f32(-2.0, 2.0)]
}

fn random_target(rng: &mut SplitMix64, ids: &[u16]) -> Option<u16> {
    if rng.percent(30) { Some(ids[rng.below(ids.len() as u64) as usize]) } else { None }
}

pub(crate) fn spawn(rng: &mut SplitMix64, id: u16, ids: &[u16]) -> Body {
    let moving = rng.percent(40);
    let health = if rng.percent(70) { HEALTH_MAX } else { 300 + rng.below(701) as u16 };
    let entity = Entity {
        id,
        kind: EntityKind::ALL[rng.below(8) as usize],
        position: [
            rng.range_f32(-1000.0, 1000.0),
            rng.range_f32(-1000.0, 1000.0),
            rng.range_f32(-20.0, 200.0),
        ],
        velocity: if moving { random_velocity(rng) } else { [0.0; 3] },
        yaw: rng.range_f32(YAW_RANGE.0, YAW_RANGE.1),
        health,
        armor: rng.below(u64::from(ARMOR_MAX) + 1) as u8,
        flags: EntityFlags {
            on_ground: rng.percent(90),
            crouching: rng.percent(10),
            firing: rng.percent(15),
            reloading: rng.percent(5),
            invisible: rng.percent(2),
        },
        target: random_target(rng, ids),
    };
    Body { entity, moving }
}

/// One tick: start or stop moving (2% / 3%, so about 40% move), integrate,
/// turn, take or heal damage (5%), flip a flag now and then.
pub(crate) fn step(rng: &mut SplitMix64, body: &mut Body, ids: &[u16]) {
    let entity = &mut body.entity;
    if body.moving && rng.percent(3) {
        body.moving = false;
        entity.velocity = [0.0; 3];
    } else if !body.moving && rng.percent(2) {
        body.moving = true;
        entity.velocity = random_velocity(rng);
    }
    if body.moving {
        for axis in 0..3 {
            let jitter = rng.range_f32(-0.5, 0.5);
            entity.velocity[axis] = (entity.velocity[axis] + jitter).clamp(-20.0, 20.0);
            let next = entity.position[axis] + entity.velocity[axis] / TICKS_PER_SECOND;
            if next.abs() > 1000.0 {
                entity.velocity[axis] = -entity.velocity[axis];
            } else {
                entity.position[axis] = next;
            }
        }
        let mut yaw = entity.yaw + rng.range_f32(-0.1, 0.1);
        if yaw < 0.0 {
            yaw += YAW_RANGE.1;
        }
        if yaw >= YAW_RANGE.1 {
            yaw -= YAW_RANGE.1;
        }
        entity.yaw = yaw;
    }
    if rng.percent(5) {
        let health = i32::from(entity.health);
        let health = if rng.percent(75) {
            health - 1 - rng.below(80) as i32
        } else {
            health + 1 + rng.below(50) as i32
        };
        entity.health = if health <= 0 { HEALTH_MAX } else { health.min(i32::from(HEALTH_MAX)) as u16 };
        if rng.percent(50) {
            entity.armor = entity.armor.saturating_sub(rng.below(10) as u8);
        }
    }
    let flags = &mut entity.flags;
    for flag in [
        &mut flags.on_ground,
        &mut flags.crouching,
        &mut flags.firing,
        &mut flags.reloading,
        &mut flags.invisible,
    ] {
        if rng.below(100) == 0 {
            *flag = !*flag;
        }
    }
    if rng.percent(1) {
        entity.target = random_target(rng, ids);
    }
}

/// [`INPUTS`] inputs of one player, one per tick; the sequence wraps past
/// `u16::MAX` on the way.
fn player_inputs(rng: &mut SplitMix64, first_tick: u32) -> Vec<PlayerInput> {
    let mut input = PlayerInput {
        tick: first_tick,
        buttons: rng.below(1 << 16) as u16 & 0x0013,
        move_x: 0.0,
        move_y: 0.0,
        aim_yaw: rng.range_f32(-3.0, 3.0),
        aim_pitch: rng.range_f32(-0.3, 0.3),
        weapon: rng.below(u64::from(WEAPON_MAX) + 1) as u8,
        sequence: u16::MAX - 20,
    };
    let mut inputs = Vec::with_capacity(INPUTS);
    for index in 0..INPUTS {
        if index > 0 {
            input.tick += 1;
            input.sequence = input.sequence.wrapping_add(1);
            for bit in 0..16 {
                if rng.percent(4) {
                    input.buttons ^= 1 << bit;
                }
            }
            input.move_x = (input.move_x + rng.range_f32(-0.3, 0.3)).clamp(-1.0, 1.0);
            input.move_y = (input.move_y + rng.range_f32(-0.3, 0.3)).clamp(-1.0, 1.0);
            let mut yaw = input.aim_yaw + rng.range_f32(-0.05, 0.05);
            if yaw < AIM_YAW_RANGE.0 {
                yaw += core::f32::consts::TAU;
            }
            if yaw > AIM_YAW_RANGE.1 {
                yaw -= core::f32::consts::TAU;
            }
            input.aim_yaw = yaw;
            input.aim_pitch =
                (input.aim_pitch + rng.range_f32(-0.02, 0.02)).clamp(AIM_PITCH_RANGE.0, AIM_PITCH_RANGE.1);
            if rng.percent(3) {
                input.weapon = rng.below(u64::from(WEAPON_MAX) + 1) as u8;
            }
        }
        inputs.push(input);
    }
    inputs
}

/// FNV-1a over every field value of the dataset (floats by their bits).
pub fn fingerprint(data: &Dataset) -> u64 {
    let mut hash = Fnv1a::new();
    for snapshot in &data.snapshots {
        hash.u64(u64::from(snapshot.tick));
        hash.u64(snapshot.entities.len() as u64);
        for entity in &snapshot.entities {
            hash.u64(u64::from(entity.id));
            hash.u64(u64::from(entity.kind.index()));
            for value in entity.position.iter().chain(&entity.velocity).chain([&entity.yaw]) {
                hash.u64(u64::from(value.to_bits()));
            }
            hash.u64(u64::from(entity.health));
            hash.u64(u64::from(entity.armor));
            let flags = entity.flags;
            for flag in [flags.on_ground, flags.crouching, flags.firing, flags.reloading, flags.invisible] {
                hash.u64(u64::from(flag));
            }
            hash.u64(entity.target.map_or(u64::MAX, u64::from));
        }
    }
    for input in &data.inputs {
        hash.u64(u64::from(input.tick));
        hash.u64(u64::from(input.buttons));
        for value in [input.move_x, input.move_y, input.aim_yaw, input.aim_pitch] {
            hash.u64(u64::from(value.to_bits()));
        }
        hash.u64(u64::from(input.weapon));
        hash.u64(u64::from(input.sequence));
    }
    hash.finish()
}

/// FNV-1a over the bytes of each message as `bitpack::encode` writes it
/// (issue 16's datasets pin their row layout's bytes so).
pub fn fingerprint_encoded<T: BitPack>(messages: &[T]) -> u64 {
    let mut hash = Fnv1a::new();
    for message in messages {
        for byte in bitpack::encode(message).expect("encodes") {
            hash.u64(u64::from(byte));
        }
    }
    hash.finish()
}

struct Fnv1a(u64);

impl Fnv1a {
    fn new() -> Self {
        Fnv1a(0xCBF2_9CE4_8422_2325)
    }

    fn u64(&mut self, value: u64) {
        for byte in value.to_le_bytes() {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
