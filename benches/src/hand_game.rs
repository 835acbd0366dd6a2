//! The size and speed reference for the peer benchmarks: snapshots and
//! inputs packed by hand with the issue-2 hand packer ([`crate::hand`]):
//! each field in exactly its bits, rounded up once per message, constants
//! worked out by hand. Same layout as the derived `BitPack` of
//! [`crate::dataset`], proven by `tests/peers_agree.rs`.

use crate::dataset::{ENTITIES, Entity, EntityFlags, EntityKind, PlayerInput, Snapshot};
use crate::hand::{HandReader, HandWriter, dequantize, quantize};

/// A compressed-float declaration worked out by hand.
struct Float {
    min: f32,
    delta: f32,
    steps: u32,
    bits: u32,
}

const POSITION: Float = Float { min: -1024.0, delta: 2048.0, steps: 204_800, bits: 18 };
const VELOCITY: Float = Float { min: -64.0, delta: 128.0, steps: 12_800, bits: 14 };
const YAW: Float = Float { min: 0.0, delta: core::f32::consts::TAU, steps: 6284, bits: 13 };
const STICK: Float = Float { min: -1.0, delta: 2.0, steps: 254, bits: 8 };
const AIM_YAW: Float =
    Float { min: -core::f32::consts::PI, delta: core::f32::consts::TAU, steps: 12_567, bits: 14 };
const AIM_PITCH: Float =
    Float { min: -core::f32::consts::FRAC_PI_2, delta: core::f32::consts::PI, steps: 6284, bits: 13 };

/// Most bytes a snapshot takes.
pub const SNAPSHOT_MAX_BYTES: usize = (32 + 9 + ENTITIES * 159).div_ceil(8);
/// Bytes every input takes: 111 bits.
pub const INPUT_BYTES: usize = 14;

#[inline(always)]
fn put_float(w: &mut HandWriter<'_>, value: f32, float: &Float) {
    w.put(quantize(value, float.min, float.delta, float.steps), float.bits);
}

#[inline(always)]
fn get_float(r: &mut HandReader<'_>, float: &Float) -> Option<f32> {
    dequantize(r.get(float.bits), float.min, float.delta, float.steps)
}

/// Writes a snapshot; `None` if `buf` is shorter than [`SNAPSHOT_MAX_BYTES`]
/// or there are more than [`ENTITIES`] entities.
#[inline]
pub fn write_snapshot(snapshot: &Snapshot, buf: &mut [u8]) -> Option<usize> {
    if buf.len() < SNAPSHOT_MAX_BYTES || snapshot.entities.len() > ENTITIES {
        return None;
    }
    let mut w = HandWriter::new(buf);
    w.put(u64::from(snapshot.tick), 32);
    w.put(snapshot.entities.len() as u64, 9);
    for e in &snapshot.entities {
        w.put(u64::from(e.id), 12);
        w.put(u64::from(e.kind.index()), 3);
        for axis in e.position {
            put_float(&mut w, axis, &POSITION);
        }
        for axis in e.velocity {
            put_float(&mut w, axis, &VELOCITY);
        }
        put_float(&mut w, e.yaw, &YAW);
        put_vitals_and_state(&mut w, e);
    }
    Some(w.finish())
}

/// An entity's health, armor, flags and optional target: the fields after
/// its floats, the same in both snapshot writers.
#[inline(always)]
fn put_vitals_and_state(w: &mut HandWriter<'_>, e: &Entity) {
    w.put(u64::from(e.health), 10);
    w.put(u64::from(e.armor), 7);
    let f = e.flags;
    let flags = u64::from(f.on_ground)
        | u64::from(f.crouching) << 1
        | u64::from(f.firing) << 2
        | u64::from(f.reloading) << 3
        | u64::from(f.invisible) << 4;
    match e.target {
        Some(target) => w.put(flags | 1 << 5 | u64::from(target) << 6, 18),
        None => w.put(flags, 6),
    }
}

/// Reads what [`put_vitals_and_state`] wrote; `None` on an out-of-range value.
#[inline(always)]
fn get_vitals_and_state(r: &mut HandReader<'_>) -> Option<(u16, u8, EntityFlags, Option<u16>)> {
    let health = r.get(10) as u16;
    let armor = r.get(7) as u8;
    if health > 1000 || armor > 100 {
        return None;
    }
    let f = r.get(6);
    let flags = EntityFlags {
        on_ground: f & 1 != 0,
        crouching: f & 2 != 0,
        firing: f & 4 != 0,
        reloading: f & 8 != 0,
        invisible: f & 16 != 0,
    };
    let target = if f & 32 != 0 { Some(r.get(12) as u16) } else { None };
    Some((health, armor, flags, target))
}

/// Reads a snapshot; `None` on a short buffer or an out-of-range value.
#[inline]
pub fn read_snapshot(bytes: &[u8]) -> Option<Snapshot> {
    if bytes.len() < 6 {
        return None;
    }
    let mut r = HandReader::new(bytes);
    let tick = r.get(32);
    let count = r.get(9) as usize;
    // 147 bits is the smallest entity: check they can all be there.
    if count > ENTITIES || bytes.len() * 8 < 41 + count * 147 {
        return None;
    }
    let mut entities = Vec::with_capacity(count);
    for _ in 0..count {
        let id = r.get(12) as u16;
        let kind = EntityKind::from_index(r.get(3) as u8)?;
        let position =
            [get_float(&mut r, &POSITION)?, get_float(&mut r, &POSITION)?, get_float(&mut r, &POSITION)?];
        let velocity =
            [get_float(&mut r, &VELOCITY)?, get_float(&mut r, &VELOCITY)?, get_float(&mut r, &VELOCITY)?];
        let yaw = get_float(&mut r, &YAW)?;
        let (health, armor, flags, target) = get_vitals_and_state(&mut r)?;
        entities.push(Entity { id, kind, position, velocity, yaw, health, armor, flags, target });
    }
    // Optional targets were not in the length check: refuse reads past the end.
    if r.bits_consumed() > bytes.len() * 8 {
        return None;
    }
    Some(Snapshot { tick, entities })
}

/// Writes an input; `None` if `buf` is shorter than [`INPUT_BYTES`].
#[inline]
pub fn write_input(input: &PlayerInput, buf: &mut [u8]) -> Option<usize> {
    if buf.len() < INPUT_BYTES {
        return None;
    }
    let mut w = HandWriter::new(buf);
    w.put(u64::from(input.tick), 32);
    w.put(u64::from(input.buttons), 16);
    put_float(&mut w, input.move_x, &STICK);
    put_float(&mut w, input.move_y, &STICK);
    put_float(&mut w, input.aim_yaw, &AIM_YAW);
    put_float(&mut w, input.aim_pitch, &AIM_PITCH);
    w.put(u64::from(input.weapon), 4);
    w.put(u64::from(input.sequence), 16);
    Some(w.finish())
}

/// Reads an input; `None` on a short buffer or an out-of-range step.
#[inline]
pub fn read_input(bytes: &[u8]) -> Option<PlayerInput> {
    if bytes.len() < INPUT_BYTES {
        return None;
    }
    let mut r = HandReader::new(bytes);
    Some(PlayerInput {
        tick: r.get(32),
        buttons: r.get(16) as u16,
        move_x: get_float(&mut r, &STICK)?,
        move_y: get_float(&mut r, &STICK)?,
        aim_yaw: get_float(&mut r, &AIM_YAW)?,
        aim_pitch: get_float(&mut r, &AIM_PITCH)?,
        weapon: r.get(4) as u8,
        sequence: r.get(16) as u16,
    })
}

/// The seven floats of an entity (position, velocity, yaw) in lane order,
/// with an unused eighth lane: per-lane constants of the reference
/// arithmetic, so the compiler can quantize all of them in one 8-lane
/// vector while staying bit-exact (every lane does the same f32 steps).
const LANE_MIN: [f32; 8] =
    [POSITION.min, POSITION.min, POSITION.min, VELOCITY.min, VELOCITY.min, VELOCITY.min, YAW.min, 0.0];
const LANE_DELTA: [f32; 8] = [
    POSITION.delta,
    POSITION.delta,
    POSITION.delta,
    VELOCITY.delta,
    VELOCITY.delta,
    VELOCITY.delta,
    YAW.delta,
    1.0,
];
const LANE_STEPS: [u32; 8] = [
    POSITION.steps,
    POSITION.steps,
    POSITION.steps,
    VELOCITY.steps,
    VELOCITY.steps,
    VELOCITY.steps,
    YAW.steps,
    1,
];
const LANE_BITS: [u32; 7] =
    [POSITION.bits, POSITION.bits, POSITION.bits, VELOCITY.bits, VELOCITY.bits, VELOCITY.bits, YAW.bits];

#[inline(always)]
fn quantize_lanes(values: [f32; 8]) -> [u32; 8] {
    let mut steps = [0u32; 8];
    for lane in 0..8 {
        let normalized = ((values[lane] - LANE_MIN[lane]) / LANE_DELTA[lane]).clamp(0.0, 1.0);
        steps[lane] = (normalized * LANE_STEPS[lane] as f32 + 0.5) as u32;
    }
    steps
}

#[inline(always)]
fn dequantize_lanes(steps: [u32; 8]) -> [f32; 8] {
    let mut values = [0.0f32; 8];
    for lane in 0..8 {
        values[lane] = steps[lane] as f32 / LANE_STEPS[lane] as f32 * LANE_DELTA[lane] + LANE_MIN[lane];
    }
    values
}

/// [`write_snapshot`] with each entity's seven floats quantized together
/// (an experiment: how fast the reference quantization can go). Same bytes.
#[inline]
pub fn write_snapshot_lanes(snapshot: &Snapshot, buf: &mut [u8]) -> Option<usize> {
    if buf.len() < SNAPSHOT_MAX_BYTES || snapshot.entities.len() > ENTITIES {
        return None;
    }
    let mut w = HandWriter::new(buf);
    w.put(u64::from(snapshot.tick), 32);
    w.put(snapshot.entities.len() as u64, 9);
    for e in &snapshot.entities {
        w.put(u64::from(e.id), 12);
        w.put(u64::from(e.kind.index()), 3);
        let [p0, p1, p2] = e.position;
        let [v0, v1, v2] = e.velocity;
        let steps = quantize_lanes([p0, p1, p2, v0, v1, v2, e.yaw, 0.0]);
        for (step, bits) in steps.iter().zip(LANE_BITS) {
            w.put(u64::from(*step), bits);
        }
        put_vitals_and_state(&mut w, e);
    }
    Some(w.finish())
}

/// [`read_snapshot`] with each entity's seven floats dequantized together.
#[inline]
pub fn read_snapshot_lanes(bytes: &[u8]) -> Option<Snapshot> {
    if bytes.len() < 6 {
        return None;
    }
    let mut r = HandReader::new(bytes);
    let tick = r.get(32);
    let count = r.get(9) as usize;
    if count > ENTITIES || bytes.len() * 8 < 41 + count * 147 {
        return None;
    }
    let mut entities = Vec::with_capacity(count);
    for _ in 0..count {
        let id = r.get(12) as u16;
        let kind = EntityKind::from_index(r.get(3) as u8)?;
        let mut steps = [0u32; 8];
        let mut out_of_range = false;
        for lane in 0..7 {
            steps[lane] = r.get(LANE_BITS[lane]);
            out_of_range |= steps[lane] > LANE_STEPS[lane];
        }
        if out_of_range {
            return None;
        }
        let [p0, p1, p2, v0, v1, v2, yaw, _] = dequantize_lanes(steps);
        let (health, armor, flags, target) = get_vitals_and_state(&mut r)?;
        entities.push(Entity {
            id,
            kind,
            position: [p0, p1, p2],
            velocity: [v0, v1, v2],
            yaw,
            health,
            armor,
            flags,
            target,
        });
    }
    if r.bits_consumed() > bytes.len() * 8 {
        return None;
    }
    Some(Snapshot { tick, entities })
}
