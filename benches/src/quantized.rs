//! The pre-quantized integer twin of the dataset: what a careful user of a
//! range-less format sends instead of floats. Every float becomes
//! `round(value / res)` as the smallest signed integer that holds it (small
//! magnitudes stay small for varint formats), the five flags one byte.

use crate::dataset::{
    AIM_PITCH_RANGE, AIM_YAW_RANGE, Entity, EntityFlags, POSITION_RANGE, PlayerInput, STICK_RANGE, Snapshot,
    VELOCITY_RANGE, YAW_RANGE,
};
use serde::{Deserialize, Serialize};

/// [`Entity`] with integer fields.
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
)]
pub struct EntityQ {
    pub id: u16,
    pub kind: u8,
    /// Steps of 0.01.
    pub position: [i32; 3],
    /// Steps of 0.01.
    pub velocity: [i16; 3],
    /// Steps of 0.001.
    pub yaw: u16,
    pub health: u16,
    pub armor: u8,
    /// Bit 0 on_ground, 1 crouching, 2 firing, 3 reloading, 4 invisible.
    pub flags: u8,
    pub target: Option<u16>,
}

/// [`Snapshot`] with integer fields.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    bincode::Encode,
    bincode::Decode,
)]
pub struct SnapshotQ {
    pub tick: u32,
    pub entities: Vec<EntityQ>,
}

/// [`PlayerInput`] with integer fields.
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
)]
pub struct PlayerInputQ {
    pub tick: u32,
    pub buttons: u16,
    /// Steps of 1/127.
    pub move_x: i8,
    /// Steps of 1/127.
    pub move_y: i8,
    /// Steps of 0.0005.
    pub aim_yaw: i16,
    /// Steps of 0.0005.
    pub aim_pitch: i16,
    pub weapon: u8,
    pub sequence: u16,
}

fn steps(value: f32, range: (f32, f32, f32)) -> i32 {
    (value.clamp(range.0, range.1) / range.2).round() as i32
}

/// Packs the five flags into one byte.
pub fn flag_bits(flags: EntityFlags) -> u8 {
    u8::from(flags.on_ground)
        | u8::from(flags.crouching) << 1
        | u8::from(flags.firing) << 2
        | u8::from(flags.reloading) << 3
        | u8::from(flags.invisible) << 4
}

impl From<&Entity> for EntityQ {
    fn from(entity: &Entity) -> Self {
        EntityQ {
            id: entity.id,
            kind: entity.kind.index(),
            position: entity.position.map(|axis| steps(axis, POSITION_RANGE)),
            velocity: entity.velocity.map(|axis| steps(axis, VELOCITY_RANGE) as i16),
            yaw: steps(entity.yaw, YAW_RANGE) as u16,
            health: entity.health,
            armor: entity.armor,
            flags: flag_bits(entity.flags),
            target: entity.target,
        }
    }
}

impl From<&Snapshot> for SnapshotQ {
    fn from(snapshot: &Snapshot) -> Self {
        SnapshotQ { tick: snapshot.tick, entities: snapshot.entities.iter().map(EntityQ::from).collect() }
    }
}

impl From<&PlayerInput> for PlayerInputQ {
    fn from(input: &PlayerInput) -> Self {
        PlayerInputQ {
            tick: input.tick,
            buttons: input.buttons,
            move_x: steps(input.move_x, STICK_RANGE) as i8,
            move_y: steps(input.move_y, STICK_RANGE) as i8,
            aim_yaw: steps(input.aim_yaw, AIM_YAW_RANGE) as i16,
            aim_pitch: steps(input.aim_pitch, AIM_PITCH_RANGE) as i16,
            weapon: input.weapon,
            sequence: input.sequence,
        }
    }
}
