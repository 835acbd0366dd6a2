//! A hand-counted reference for bitpack's baseline-delta stream
//! ([`crate::stream`]): the same four groups per entity (identity; position,
//! velocity and yaw; health and armor; flags and target), each one flag bit
//! plus, when its bits differ from the baseline's, its fields as the plain
//! `BitPack` write sends them, except the motion floats (`#[bitpack(relative)]`):
//! their steps coded against the baseline's steps ([`write_relative_steps`]),
//! a position's against the baseline moved by its velocity for one tick
//! (`relative(rate = velocity, dt = ..)`); the header (tick, count) whole. It shares no
//! code with the derive (it finds steps by writing and reading the floats
//! through the public API), so `tests/stream.rs` can check the derived
//! stream's size against it. It was the estimate the README quoted before
//! `#[change_group]` derived.

use bitpack::change::write_relative_steps;
use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, Error};

use crate::dataset::{
    ARMOR_MAX, ENTITIES, Entity, EntityFlags, HEALTH_MAX, ID_MAX, POSITION_RANGE, Snapshot, TICKS_PER_SECOND,
    VELOCITY_RANGE, YAW_RANGE,
};

fn float<W: BitWrite>(w: &mut W, value: f32, range: (f32, f32, f32)) -> Result<(), Error> {
    w.write_compressed_float(value, range.0, range.1, range.2)
}

/// The steps `value` is sent as: its compressed-float bits read back raw.
fn steps(value: f32, range: (f32, f32, f32)) -> Result<u64, Error> {
    let mut bytes = [0u8; 8];
    let mut writer = BitWriter::new(&mut bytes);
    float(&mut writer, value, range)?;
    let bits = writer.bits_written() as u32;
    writer.finish()?;
    BitReader::new(&bytes).read_bits64(bits)
}

/// What a receiver decodes for `value`.
fn decoded(value: f32, range: (f32, f32, f32)) -> Result<f32, Error> {
    let mut bytes = [0u8; 8];
    let mut writer = BitWriter::new(&mut bytes);
    float(&mut writer, value, range)?;
    writer.finish()?;
    BitReader::new(&bytes).read_compressed_float(range.0, range.1, range.2)
}

/// `value` against `baseline`: near or mid only where the baseline's steps
/// come back the same from what a receiver decodes of it.
fn relative_float<W: BitWrite>(
    w: &mut W,
    value: f32,
    baseline: f32,
    range: (f32, f32, f32),
) -> Result<(), Error> {
    let base = steps(baseline, range)?;
    let agreed = (steps(decoded(baseline, range)?, range)? == base).then_some(base);
    write_relative_steps(w, steps(value, range)?, agreed, steps(range.1, range)?)
}

/// A position axis against where the baseline's velocity moves it in one
/// tick: both as a receiver decodes them, and only where both sides agree
/// on their steps (else the far tier). Computed on the values (the core
/// counts the move in steps, rounded): on this dataset both land on the
/// same steps, which `tests/stream.rs` checks bit for bit.
fn predicted_float<W: BitWrite>(w: &mut W, value: f32, baseline: f32, velocity: f32) -> Result<(), Error> {
    let agreed = |value: f32, range| -> Result<Option<f32>, Error> {
        let held = decoded(value, range)?;
        Ok((steps(held, range)? == steps(value, range)?).then_some(held))
    };
    let predicted = match (agreed(baseline, POSITION_RANGE)?, agreed(velocity, VELOCITY_RANGE)?) {
        (Some(at), Some(velocity)) => Some(steps(at + velocity * (1.0 / TICKS_PER_SECOND), POSITION_RANGE)?),
        _ => None,
    };
    write_relative_steps(
        w,
        steps(value, POSITION_RANGE)?,
        predicted,
        steps(POSITION_RANGE.1, POSITION_RANGE)?,
    )
}

/// The motion group of a delta: every float relative to the baseline's.
fn motion_delta<W: BitWrite>(e: &Entity, old: &Entity, w: &mut W) -> Result<(), Error> {
    for ((axis, was), velocity) in e.position.iter().zip(old.position).zip(old.velocity) {
        predicted_float(w, *axis, was, velocity)?;
    }
    for (axis, was) in e.velocity.iter().zip(old.velocity) {
        relative_float(w, *axis, was, VELOCITY_RANGE)?;
    }
    relative_float(w, e.yaw, old.yaw, YAW_RANGE)
}

fn identity<W: BitWrite>(e: &Entity, w: &mut W) -> Result<(), Error> {
    w.write_int(i32::from(e.id), 0, i32::from(ID_MAX))?;
    w.write_int(i32::from(e.kind.index()), 0, 7)
}

fn motion<W: BitWrite>(e: &Entity, w: &mut W) -> Result<(), Error> {
    for axis in e.position {
        float(w, axis, POSITION_RANGE)?;
    }
    for axis in e.velocity {
        float(w, axis, VELOCITY_RANGE)?;
    }
    float(w, e.yaw, YAW_RANGE)
}

fn vitals<W: BitWrite>(e: &Entity, w: &mut W) -> Result<(), Error> {
    w.write_int(i32::from(e.health), 0, i32::from(HEALTH_MAX))?;
    w.write_int(i32::from(e.armor), 0, i32::from(ARMOR_MAX))
}

fn state<W: BitWrite>(e: &Entity, w: &mut W) -> Result<(), Error> {
    EntityFlags::write_to(&e.flags, w)?;
    w.write_bool(e.target.is_some())?;
    match e.target {
        Some(target) => w.write_int(i32::from(target), 0, i32::from(ID_MAX)),
        None => Ok(()),
    }
}

/// Group `index` (identity, motion, vitals, state) of `e`.
fn write_group<W: BitWrite>(index: usize, e: &Entity, w: &mut W) -> Result<(), Error> {
    match index {
        0 => identity(e, w),
        1 => motion(e, w),
        2 => vitals(e, w),
        _ => state(e, w),
    }
}

/// A group's bits, to compare with the baseline's (every group fits 16 bytes).
fn group_bytes(index: usize, e: &Entity) -> Result<[u8; 16], Error> {
    let mut bytes = [0u8; 16];
    let mut writer = BitWriter::new(&mut bytes);
    write_group(index, e, &mut writer)?;
    writer.finish()?;
    Ok(bytes)
}

/// Writes `snapshot` as a delta against `baseline` (same entities, same
/// order; an entity without a counterpart is sent whole).
pub fn write_delta<W: BitWrite>(snapshot: &Snapshot, baseline: &Snapshot, w: &mut W) -> Result<(), Error> {
    w.write_u32(snapshot.tick)?;
    w.write_int(snapshot.entities.len() as i32, 0, ENTITIES as i32)?;
    for (slot, entity) in snapshot.entities.iter().enumerate() {
        for index in 0..4 {
            let changed = match baseline.entities.get(slot) {
                Some(old) => group_bytes(index, entity)? != group_bytes(index, old)?,
                None => true,
            };
            w.write_bool(changed)?;
            match baseline.entities.get(slot) {
                Some(old) if changed && index == 1 => motion_delta(entity, old, w)?,
                _ if changed => write_group(index, entity, w)?,
                _ => {}
            }
        }
    }
    Ok(())
}

/// Bits of [`write_delta`].
///
/// ```
/// let data = bitpack_benches::dataset::generate();
/// let same = bitpack_benches::delta_estimate::delta_bits(&data.snapshots[0], &data.snapshots[0])?;
/// assert_eq!(same, 32 + 9 + 256 * 4); // header, then four 0 flags per entity
/// # Ok::<(), bitpack::Error>(())
/// ```
pub fn delta_bits(snapshot: &Snapshot, baseline: &Snapshot) -> Result<usize, Error> {
    let mut counter = BitCounter::new();
    write_delta(snapshot, baseline, &mut counter)?;
    Ok(counter.bits_written())
}

/// [`write_delta`] into `buf`; returns the bytes used.
pub fn encode_delta(snapshot: &Snapshot, baseline: &Snapshot, buf: &mut [u8]) -> Result<usize, Error> {
    let mut writer = BitWriter::new(buf);
    write_delta(snapshot, baseline, &mut writer)?;
    writer.finish()
}
