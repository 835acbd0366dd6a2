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
/// arithmetic, every lane doing the same f32 steps, so it stays bit-exact.
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

/// The reference quantization of all eight lanes (floor, then the clamp to
/// the step count). `max(0.0)` sends a NaN to
/// 0 as the reference's clamp ends in, and below 2^31 the signed cast is the
/// same truncation as the unsigned one without its branches (measured: 9%
/// of the fused encode).
#[inline(always)]
// `clamp` keeps a NaN, and its cast then needs the unsigned one's checks.
#[allow(clippy::manual_clamp)]
fn quantize_lanes(values: [f32; 8]) -> [u64; 8] {
    let mut steps = [0u64; 8];
    for lane in 0..8 {
        let normalized = ((values[lane] - LANE_MIN[lane]) / LANE_DELTA[lane]).max(0.0).min(1.0);
        steps[lane] =
            ((normalized * LANE_STEPS[lane] as f32 + 0.5) as i32 as u64).min(u64::from(LANE_STEPS[lane]));
    }
    steps
}

#[inline(always)]
fn dequantize_lane(step: u64, lane: usize) -> f32 {
    step as u32 as f32 / LANE_STEPS[lane] as f32 * LANE_DELTA[lane] + LANE_MIN[lane]
}

/// A writer of up to 64 bits at a time with no branch on the flush: it
/// stores the scratch word every time (the buffer keeps 8 bytes of slack)
/// and moves on by 8 bytes only once the word is full.
struct WideWriter<'a> {
    buf: &'a mut [u8],
    scratch: u64,
    /// Below 64.
    scratch_bits: u32,
    index: usize,
}

impl WideWriter<'_> {
    /// Appends the low `bits` (1 to 64) bits of `value`, which has no others.
    #[inline(always)]
    fn put(&mut self, value: u64, bits: u32) {
        self.scratch |= value << self.scratch_bits;
        // What did not fit; two shifts so that 0 free bits shift by 64 safely.
        let spill = (value >> 1) >> (63 - self.scratch_bits);
        let total = self.scratch_bits + bits;
        let full = total >= 64;
        if let Some(word) = self.buf.get_mut(self.index..self.index + 8) {
            word.copy_from_slice(&self.scratch.to_le_bytes());
        }
        self.index += if full { 8 } else { 0 };
        self.scratch = if full { spill } else { self.scratch };
        self.scratch_bits = total & 63;
    }

    /// Flushes the last partial word; returns the bytes used.
    #[inline(always)]
    fn finish(self) -> usize {
        let tail = self.scratch_bits.div_ceil(8) as usize;
        if let Some(dest) = self.buf.get_mut(self.index..self.index + tail) {
            dest.copy_from_slice(&self.scratch.to_le_bytes()[..tail]);
        }
        self.index + tail
    }
}

/// A reader with no scratch word: each read is one 8-byte load at the bit
/// position's byte, shifted and masked.
struct WideReader<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl WideReader<'_> {
    /// The next `bits` (1 to 56) bits; zeros past the end of the slice.
    #[inline(always)]
    fn get(&mut self, bits: u32) -> u64 {
        let byte = self.position >> 3;
        let word = match self.bytes.get(byte..byte + 8) {
            Some(w) => u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]),
            None => tail_word(self.bytes, byte),
        };
        let value = (word >> (self.position & 7)) & ((1u64 << bits) - 1);
        self.position += bits as usize;
        value
    }
}

/// The up to 8 bytes from `byte` on, zero-filled.
#[cold]
fn tail_word(bytes: &[u8], byte: usize) -> u64 {
    let mut word = [0u8; 8];
    let rest = bytes.get(byte..).unwrap_or(&[]);
    let len = rest.len().min(8);
    word[..len].copy_from_slice(&rest[..len]);
    u64::from_le_bytes(word)
}

/// [`write_snapshot`] as fast as we could write it by hand (the ceiling for
/// a packer of this wire): each entity's fixed fields fused into three
/// words of 51, 46 and 50 bits with constant shifts, its floats quantized
/// lane-wise, then the optional target. Same bytes. `None` if `buf` is
/// shorter than [`SNAPSHOT_MAX_BYTES`] plus 8 bytes of slack.
#[inline]
pub fn write_snapshot_fused(snapshot: &Snapshot, buf: &mut [u8]) -> Option<usize> {
    if buf.len() < SNAPSHOT_MAX_BYTES + 8 || snapshot.entities.len() > ENTITIES {
        return None;
    }
    let mut w = WideWriter { buf, scratch: 0, scratch_bits: 0, index: 0 };
    w.put(u64::from(snapshot.tick) | (snapshot.entities.len() as u64) << 32, 41);
    for e in &snapshot.entities {
        let [p0, p1, p2] = e.position;
        let [v0, v1, v2] = e.velocity;
        let s = quantize_lanes([p0, p1, p2, v0, v1, v2, e.yaw, 0.0]);
        let f = e.flags;
        let flags = u64::from(f.on_ground)
            | u64::from(f.crouching) << 1
            | u64::from(f.firing) << 2
            | u64::from(f.reloading) << 3
            | u64::from(f.invisible) << 4
            | u64::from(e.target.is_some()) << 5;
        // id 12, kind 3, two positions of 18.
        w.put(u64::from(e.id) | u64::from(e.kind.index()) << 12 | s[0] << 15 | s[1] << 33, 51);
        // A position of 18, two velocities of 14.
        w.put(s[2] | s[3] << 18 | s[4] << 32, 46);
        // A velocity of 14, yaw 13, health 10, armor 7, flags and presence 6.
        w.put(s[5] | s[6] << 14 | u64::from(e.health) << 27 | u64::from(e.armor) << 37 | flags << 44, 50);
        if let Some(target) = e.target {
            w.put(u64::from(target), 12);
        }
    }
    Some(w.finish())
}

/// Reads what [`write_snapshot_fused`] (or [`write_snapshot`]) wrote: three
/// loads per entity, every range checked with one branch. `None` on a short
/// buffer or an out-of-range value.
#[inline]
pub fn read_snapshot_fused(bytes: &[u8]) -> Option<Snapshot> {
    let mut r = WideReader { bytes, position: 0 };
    let head = r.get(41);
    let tick = head as u32;
    let count = (head >> 32) as usize;
    if bytes.len() < 6 || count > ENTITIES || bytes.len() * 8 < 41 + count * 147 {
        return None;
    }
    let mut entities = Vec::with_capacity(count);
    for _ in 0..count {
        let a = r.get(51);
        let b = r.get(46);
        let c = r.get(50);
        let steps = [
            a >> 15 & 0x3_ffff,
            a >> 33 & 0x3_ffff,
            b & 0x3_ffff,
            b >> 18 & 0x3fff,
            b >> 32 & 0x3fff,
            c & 0x3fff,
            c >> 14 & 0x1fff,
        ];
        let health = (c >> 27 & 0x3ff) as u16;
        let armor = (c >> 37 & 0x7f) as u8;
        let mut out_of_range = health > 1000 || armor > 100;
        for (lane, step) in steps.iter().enumerate() {
            out_of_range |= *step > u64::from(LANE_STEPS[lane]);
        }
        if out_of_range {
            return None;
        }
        let kind = EntityKind::from_index((a >> 12 & 7) as u8)?;
        let f = c >> 44;
        let flags = EntityFlags {
            on_ground: f & 1 != 0,
            crouching: f & 2 != 0,
            firing: f & 4 != 0,
            reloading: f & 8 != 0,
            invisible: f & 16 != 0,
        };
        let target = if f & 32 != 0 { Some(r.get(12) as u16) } else { None };
        let float = |lane: usize| dequantize_lane(steps[lane], lane);
        entities.push(Entity {
            id: (a & 0xfff) as u16,
            kind,
            position: [float(0), float(1), float(2)],
            velocity: [float(3), float(4), float(5)],
            yaw: float(6),
            health,
            armor,
            flags,
            target,
        });
    }
    // Optional targets were not in the length check: refuse reads past the end.
    if r.position > bytes.len() * 8 {
        return None;
    }
    Some(Snapshot { tick, entities })
}
