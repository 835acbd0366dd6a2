//! The issue-2 workloads through the core API: 64 five-bit fields, 64
//! compressed floats, and a 14-field game object (3 bools, 5 ranged ints,
//! 4 compressed floats, a u64 and a 9-byte string).

use bitpack::{BitCounter, BitRead, BitReader, BitWrite, BitWriter, Error};

use crate::rng::SplitMix64;

/// Values per batch in the streaming benchmarks.
pub const BATCH: usize = 64;

/// Width of the small-field benchmark.
pub const SMALL_BITS: u32 = 5;

/// Range and resolution of positions: 18 bits on the wire.
pub const POSITION_MIN: f32 = -1024.0;
/// See [`POSITION_MIN`].
pub const POSITION_MAX: f32 = 1024.0;
/// See [`POSITION_MIN`].
pub const POSITION_RES: f32 = 0.01;
/// Range and resolution of the yaw angle: 13 bits on the wire.
pub const YAW_MIN: f32 = 0.0;
/// See [`YAW_MIN`].
pub const YAW_MAX: f32 = core::f32::consts::TAU;
/// See [`YAW_MIN`].
pub const YAW_RES: f32 = 0.001;

/// Longest name the object declares (a 4-bit length field).
pub const NAME_MAX_LEN: usize = 15;

/// Largest encoded object: 172 bits of fields and length, padding to 176,
/// then up to 15 name bytes.
pub const OBJECT_MAX_BYTES: usize = 22 + NAME_MAX_LEN;

/// A game object of 14 fields; `name` borrows from whatever it was read from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameObject<'a> {
    pub alive: bool,
    pub visible: bool,
    pub crouching: bool,
    /// 0..=4095, 12 bits.
    pub id: i32,
    /// 0..=7, 3 bits.
    pub kind: i32,
    /// 0..=1000, 10 bits.
    pub health: i32,
    /// 0..=100, 7 bits.
    pub armor: i32,
    /// 0..=3, 2 bits.
    pub team: i32,
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub yaw: f32,
    pub owner: u64,
    /// At most [`NAME_MAX_LEN`] bytes; the samples use 9.
    pub name: &'a str,
}

/// Nine-byte names the samples borrow.
pub const NAMES: [&str; 8] =
    ["player_01", "player_02", "grunt_117", "medic_042", "sniper_07", "tank_0099", "scout_555", "ghost_321"];

/// `count` deterministic objects with varied values.
pub fn sample_objects(count: usize, seed: u64) -> Vec<GameObject<'static>> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| GameObject {
            alive: rng.below(8) != 0,
            visible: rng.below(2) == 0,
            crouching: rng.below(4) == 0,
            id: rng.below(4096) as i32,
            kind: rng.below(8) as i32,
            health: rng.below(1001) as i32,
            armor: rng.below(101) as i32,
            team: rng.below(4) as i32,
            x: rng.range_f32(POSITION_MIN, POSITION_MAX),
            y: rng.range_f32(POSITION_MIN, POSITION_MAX),
            z: rng.range_f32(-64.0, 64.0),
            yaw: rng.range_f32(YAW_MIN, YAW_MAX),
            owner: rng.next_u64(),
            name: NAMES[rng.below(NAMES.len() as u64) as usize],
        })
        .collect()
}

/// `count` deterministic values below `2^SMALL_BITS`.
pub fn sample_small(count: usize, seed: u64) -> Vec<u32> {
    let mut rng = SplitMix64::new(seed);
    (0..count).map(|_| rng.below(1 << SMALL_BITS) as u32).collect()
}

/// `count` deterministic positions inside the position range.
pub fn sample_positions(count: usize, seed: u64) -> Vec<f32> {
    let mut rng = SplitMix64::new(seed);
    (0..count).map(|_| rng.range_f32(POSITION_MIN, POSITION_MAX)).collect()
}

/// Writes every value in [`SMALL_BITS`] bits; returns the bytes used.
#[inline]
pub fn write_small(values: &[u32], buf: &mut [u8]) -> Result<usize, Error> {
    let mut writer = BitWriter::new(buf);
    for &value in values {
        writer.write_bits(value, SMALL_BITS)?;
    }
    writer.finish()
}

/// Reads `count` [`SMALL_BITS`]-bit values; returns their XOR so nothing
/// read can be dropped.
#[inline]
pub fn read_small(bytes: &[u8], count: usize) -> Result<u32, Error> {
    let mut reader = BitReader::new(bytes);
    let mut folded = 0;
    for _ in 0..count {
        folded ^= reader.read_bits(SMALL_BITS)?;
    }
    Ok(folded)
}

/// Writes every value as a position; returns the bytes used.
#[inline]
pub fn write_positions(values: &[f32], buf: &mut [u8]) -> Result<usize, Error> {
    let mut writer = BitWriter::new(buf);
    for &value in values {
        writer.write_compressed_float(value, POSITION_MIN, POSITION_MAX, POSITION_RES)?;
    }
    writer.finish()
}

/// Reads `count` positions; returns their sum so nothing read can be dropped.
#[inline]
pub fn read_positions(bytes: &[u8], count: usize) -> Result<f32, Error> {
    let mut reader = BitReader::new(bytes);
    let mut sum = 0.0;
    for _ in 0..count {
        sum += reader.read_compressed_float(POSITION_MIN, POSITION_MAX, POSITION_RES)?;
    }
    Ok(sum)
}

/// The object's fields, in wire order, to any sink.
#[inline]
pub fn write_object_to<W: BitWrite>(object: &GameObject<'_>, sink: &mut W) -> Result<(), Error> {
    sink.write_bool(object.alive)?;
    sink.write_bool(object.visible)?;
    sink.write_bool(object.crouching)?;
    sink.write_int(object.id, 0, 4095)?;
    sink.write_int(object.kind, 0, 7)?;
    sink.write_int(object.health, 0, 1000)?;
    sink.write_int(object.armor, 0, 100)?;
    sink.write_int(object.team, 0, 3)?;
    sink.write_compressed_float(object.x, POSITION_MIN, POSITION_MAX, POSITION_RES)?;
    sink.write_compressed_float(object.y, POSITION_MIN, POSITION_MAX, POSITION_RES)?;
    sink.write_compressed_float(object.z, POSITION_MIN, POSITION_MAX, POSITION_RES)?;
    sink.write_compressed_float(object.yaw, YAW_MIN, YAW_MAX, YAW_RES)?;
    sink.write_u64(object.owner)?;
    sink.write_str(object.name, NAME_MAX_LEN)
}

/// One object as one message; returns the bytes used.
#[inline]
pub fn write_object(object: &GameObject<'_>, buf: &mut [u8]) -> Result<usize, Error> {
    let mut writer = BitWriter::new(buf);
    write_object_to(object, &mut writer)?;
    writer.finish()
}

/// Bits one object takes, exactly, without writing.
#[inline]
pub fn count_object(object: &GameObject<'_>) -> Result<usize, Error> {
    let mut counter = BitCounter::new();
    write_object_to(object, &mut counter)?;
    Ok(counter.bits_written())
}

/// Reads one object; the name borrows from `bytes`.
#[inline]
pub fn read_object(bytes: &[u8]) -> Result<GameObject<'_>, Error> {
    let mut reader = BitReader::new(bytes);
    Ok(GameObject {
        alive: reader.read_bool()?,
        visible: reader.read_bool()?,
        crouching: reader.read_bool()?,
        id: reader.read_int(0, 4095)?,
        kind: reader.read_int(0, 7)?,
        health: reader.read_int(0, 1000)?,
        armor: reader.read_int(0, 100)?,
        team: reader.read_int(0, 3)?,
        x: reader.read_compressed_float(POSITION_MIN, POSITION_MAX, POSITION_RES)?,
        y: reader.read_compressed_float(POSITION_MIN, POSITION_MAX, POSITION_RES)?,
        z: reader.read_compressed_float(POSITION_MIN, POSITION_MAX, POSITION_RES)?,
        yaw: reader.read_compressed_float(YAW_MIN, YAW_MAX, YAW_RES)?,
        owner: reader.read_u64()?,
        name: reader.read_str(NAME_MAX_LEN)?,
    })
}
