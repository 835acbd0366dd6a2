//! bitpack's side of the peer benchmarks: `BitPack` for the dataset's
//! float structs, written by hand with core calls.
//!
//! SLOT(issue 3): once `#[derive(BitPack)]` is on main, derive these types
//! with the same ranges (see `crate::dataset`) and delete this module; the
//! test that compares bytes with the hand packer then checks the derive.

use bitpack::{BitPack, BitReader, BitWrite, Error, ErrorKind};

use crate::dataset::{
    AIM_PITCH_RANGE, AIM_YAW_RANGE, ARMOR_MAX, ENTITIES, Entity, EntityFlags, EntityKind, HEALTH_MAX, ID_MAX,
    POSITION_RANGE, PlayerInput, STICK_RANGE, Snapshot, VELOCITY_RANGE, WEAPON_MAX, YAW_RANGE,
};

#[inline(always)]
fn write_float<W: BitWrite>(writer: &mut W, value: f32, range: (f32, f32, f32)) -> Result<(), Error> {
    writer.write_compressed_float(value, range.0, range.1, range.2)
}

#[inline(always)]
fn read_float(reader: &mut BitReader<'_>, range: (f32, f32, f32)) -> Result<f32, Error> {
    reader.read_compressed_float(range.0, range.1, range.2)
}

impl BitPack for Entity {
    /// id 12, kind 3, position 3x18, velocity 3x14, yaw 13, health 10,
    /// armor 7, flags 5, target 1 + 12.
    const MAX_BITS: usize = 12 + 3 + 3 * 18 + 3 * 14 + 13 + 10 + 7 + 5 + 1 + 12;
    const SCHEMA: u64 = 0xB17E_5E7A_0000_0001;

    #[inline]
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.write_int(i32::from(self.id), 0, i32::from(ID_MAX))?;
        writer.write_int(i32::from(self.kind.index()), 0, 7)?;
        for axis in self.position {
            write_float(writer, axis, POSITION_RANGE)?;
        }
        for axis in self.velocity {
            write_float(writer, axis, VELOCITY_RANGE)?;
        }
        write_float(writer, self.yaw, YAW_RANGE)?;
        writer.write_int(i32::from(self.health), 0, i32::from(HEALTH_MAX))?;
        writer.write_int(i32::from(self.armor), 0, i32::from(ARMOR_MAX))?;
        let flags = self.flags;
        for flag in [flags.on_ground, flags.crouching, flags.firing, flags.reloading, flags.invisible] {
            writer.write_bool(flag)?;
        }
        writer.write_bool(self.target.is_some())?;
        if let Some(target) = self.target {
            writer.write_int(i32::from(target), 0, i32::from(ID_MAX))?;
        }
        Ok(())
    }

    #[inline]
    fn read_from(reader: &mut BitReader<'_>) -> Result<Self, Error> {
        let id = reader.read_int(0, i32::from(ID_MAX))? as u16;
        let kind_start = reader.bits_read();
        let kind = EntityKind::from_index(reader.read_int(0, 7)? as u8)
            .ok_or(Error::new(ErrorKind::OutOfRange, kind_start))?;
        let mut position = [0.0; 3];
        for axis in &mut position {
            *axis = read_float(reader, POSITION_RANGE)?;
        }
        let mut velocity = [0.0; 3];
        for axis in &mut velocity {
            *axis = read_float(reader, VELOCITY_RANGE)?;
        }
        let yaw = read_float(reader, YAW_RANGE)?;
        let health = reader.read_int(0, i32::from(HEALTH_MAX))? as u16;
        let armor = reader.read_int(0, i32::from(ARMOR_MAX))? as u8;
        let flags = EntityFlags {
            on_ground: reader.read_bool()?,
            crouching: reader.read_bool()?,
            firing: reader.read_bool()?,
            reloading: reader.read_bool()?,
            invisible: reader.read_bool()?,
        };
        let target =
            if reader.read_bool()? { Some(reader.read_int(0, i32::from(ID_MAX))? as u16) } else { None };
        Ok(Entity { id, kind, position, velocity, yaw, health, armor, flags, target })
    }
}

impl BitPack for Snapshot {
    /// tick 32, count 9 (0..=256), then the entities.
    const MAX_BITS: usize = 32 + 9 + ENTITIES * Entity::MAX_BITS;
    const SCHEMA: u64 = 0xB17E_5E7A_0000_0002;

    #[inline]
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.write_u32(self.tick)?;
        let count = i32::try_from(self.entities.len()).unwrap_or(i32::MAX);
        writer.write_int(count, 0, ENTITIES as i32)?;
        for entity in &self.entities {
            entity.write_to(writer)?;
        }
        Ok(())
    }

    #[inline]
    fn read_from(reader: &mut BitReader<'_>) -> Result<Self, Error> {
        let tick = reader.read_u32()?;
        let count = reader.read_int(0, ENTITIES as i32)? as usize;
        let mut entities = Vec::with_capacity(count);
        for _ in 0..count {
            entities.push(Entity::read_from(reader)?);
        }
        Ok(Snapshot { tick, entities })
    }
}

impl BitPack for PlayerInput {
    /// tick 32, buttons 16, sticks 2x8, aim 14 + 13, weapon 4, sequence 16.
    const MAX_BITS: usize = 32 + 16 + 2 * 8 + 14 + 13 + 4 + 16;
    const SCHEMA: u64 = 0xB17E_5E7A_0000_0003;

    #[inline]
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.write_u32(self.tick)?;
        writer.write_u16(self.buttons)?;
        write_float(writer, self.move_x, STICK_RANGE)?;
        write_float(writer, self.move_y, STICK_RANGE)?;
        write_float(writer, self.aim_yaw, AIM_YAW_RANGE)?;
        write_float(writer, self.aim_pitch, AIM_PITCH_RANGE)?;
        writer.write_int(i32::from(self.weapon), 0, i32::from(WEAPON_MAX))?;
        writer.write_u16(self.sequence)
    }

    #[inline]
    fn read_from(reader: &mut BitReader<'_>) -> Result<Self, Error> {
        Ok(PlayerInput {
            tick: reader.read_u32()?,
            buttons: reader.read_u16()?,
            move_x: read_float(reader, STICK_RANGE)?,
            move_y: read_float(reader, STICK_RANGE)?,
            aim_yaw: read_float(reader, AIM_YAW_RANGE)?,
            aim_pitch: read_float(reader, AIM_PITCH_RANGE)?,
            weapon: reader.read_int(0, i32::from(WEAPON_MAX))? as u8,
            sequence: reader.read_u16()?,
        })
    }
}
