//! The pre-quantized integer twin of the dataset: what a careful user of a
//! range-less format sends instead of floats. Every float becomes
//! `round(value / res)` as the smallest signed integer that holds it (small
//! magnitudes stay small for varint formats), the five flags one byte.

use crate::dataset::{
    AIM_PITCH_RANGE, AIM_YAW_RANGE, ARMOR_MAX, ENTITIES, Entity, EntityFlags, EntityKind, HEALTH_MAX, ID_MAX,
    POSITION_RANGE, PlayerInput, STICK_RANGE, Snapshot, VELOCITY_RANGE, WEAPON_MAX, YAW_RANGE,
};
use bitpack::BitPack;
use serde::{Deserialize, Serialize};

// The twin's ranges in steps, for its `BitPack` derive (the `bitpack (ints)`
// row: a bitpack user whose game state is already fixed point).
const POSITION_STEPS: i32 = 102_400;
const VELOCITY_STEPS: i16 = 6400;
const YAW_STEPS: u16 = 6283;
const STICK_STEPS: i8 = 127;
const AIM_YAW_STEPS: i16 = 6283;
const AIM_PITCH_STEPS: i16 = 3142;

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
    BitPack,
)]
pub struct EntityQ {
    #[bits(min = 0, max = ID_MAX)]
    pub id: u16,
    #[bits(min = 0, max = 7)]
    pub kind: u8,
    /// Steps of 0.01.
    #[bits(min = -POSITION_STEPS, max = POSITION_STEPS)]
    pub position: [i32; 3],
    /// Steps of 0.01.
    #[bits(min = -VELOCITY_STEPS, max = VELOCITY_STEPS)]
    pub velocity: [i16; 3],
    /// Steps of 0.001.
    #[bits(min = 0, max = YAW_STEPS)]
    pub yaw: u16,
    #[bits(min = 0, max = HEALTH_MAX)]
    pub health: u16,
    #[bits(min = 0, max = ARMOR_MAX)]
    pub armor: u8,
    /// Bit 0 on_ground, 1 crouching, 2 firing, 3 reloading, 4 invisible.
    #[bits(min = 0, max = 31)]
    pub flags: u8,
    #[bits(min = 0, max = ID_MAX)]
    pub target: Option<u16>,
}

/// [`Snapshot`] with integer fields.
#[derive(
    Clone,
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
pub struct SnapshotQ {
    pub tick: u32,
    #[bitpack(max_len = ENTITIES)]
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
    BitPack,
)]
pub struct PlayerInputQ {
    pub tick: u32,
    pub buttons: u16,
    /// Steps of 1/127.
    #[bits(min = -STICK_STEPS, max = STICK_STEPS)]
    pub move_x: i8,
    /// Steps of 1/127.
    #[bits(min = -STICK_STEPS, max = STICK_STEPS)]
    pub move_y: i8,
    /// Steps of 0.0005.
    #[bits(min = -AIM_YAW_STEPS, max = AIM_YAW_STEPS)]
    pub aim_yaw: i16,
    /// Steps of 0.0005.
    #[bits(min = -AIM_PITCH_STEPS, max = AIM_PITCH_STEPS)]
    pub aim_pitch: i16,
    #[bits(min = 0, max = WEAPON_MAX)]
    pub weapon: u8,
    pub sequence: u16,
}

/// `round(value / res)` (half away from zero) after clamping to the range.
/// In f64 `x + 0.5` is exact for any f32 `x`, so truncating it is `round`,
/// without the libm call `f32::round` makes on baseline x86-64: this runs
/// inside the timing of the converting row.
#[inline]
fn steps(value: f32, range: (f32, f32, f32)) -> i32 {
    let x = f64::from(value.clamp(range.0, range.1) / range.2);
    (x + 0.5f64.copysign(x)) as i32
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

/// The floats a receiver of the twin rebuilds: `steps * res`.
fn floats(steps: i32, range: (f32, f32, f32)) -> f32 {
    steps as f32 * range.2
}

impl EntityQ {
    /// The entity a receiver of the twin rebuilds.
    #[inline]
    pub fn to_floats(&self) -> Option<Entity> {
        let flag = |bit: u8| self.flags & 1 << bit != 0;
        Some(Entity {
            id: self.id,
            kind: EntityKind::from_index(self.kind)?,
            position: self.position.map(|axis| floats(axis, POSITION_RANGE)),
            velocity: self.velocity.map(|axis| floats(i32::from(axis), VELOCITY_RANGE)),
            yaw: floats(i32::from(self.yaw), YAW_RANGE),
            health: self.health,
            armor: self.armor,
            flags: EntityFlags {
                on_ground: flag(0),
                crouching: flag(1),
                firing: flag(2),
                reloading: flag(3),
                invisible: flag(4),
            },
            target: self.target,
        })
    }
}

impl SnapshotQ {
    /// Overwrites `self` with `snapshot`'s steps, reusing the entity storage.
    #[inline]
    pub fn quantize_from(&mut self, snapshot: &Snapshot) {
        self.tick = snapshot.tick;
        self.entities.clear();
        self.entities.extend(snapshot.entities.iter().map(EntityQ::from));
    }

    /// The snapshot a receiver of the twin rebuilds; `None` on an unknown kind.
    #[inline]
    pub fn to_floats(&self) -> Option<Snapshot> {
        let entities = self.entities.iter().map(EntityQ::to_floats).collect::<Option<Vec<_>>>()?;
        Some(Snapshot { tick: self.tick, entities })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_is_round() {
        let ranges = [POSITION_RANGE, VELOCITY_RANGE, YAW_RANGE, STICK_RANGE, AIM_YAW_RANGE, AIM_PITCH_RANGE];
        for range in ranges {
            for i in 0..=200_000u32 {
                let value = range.0 - 1.0 + (range.1 - range.0 + 2.0) * (i as f32 / 200_000.0);
                let expected = (value.clamp(range.0, range.1) / range.2).round() as i32;
                assert_eq!(steps(value, range), expected, "{value}");
            }
            // Halfway cases and the largest float under a half.
            for x in [0.5f32, 1.5, 2.5, -0.5, -2.5, 0.49999997, -0.49999997] {
                let value = x * range.2;
                let expected = (value.clamp(range.0, range.1) / range.2).round() as i32;
                assert_eq!(steps(value, range), expected, "{value}");
            }
        }
    }
}
