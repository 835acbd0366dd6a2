//! Adaptive integers and change groups on hostile bytes: never a panic;
//! what decodes (deltas included) re-encodes to exactly the bits it was
//! read from; a refused `read_changes` or `read_delta` leaves the value and
//! the reader as they were.

use crate::bits::assert_rewrites;
use bitpack::{BitPack, BitRead, BitReader, ChangeGroups};

#[derive(BitPack, Debug, Clone, PartialEq)]
#[bitpack(adaptive)]
pub struct Stats {
    id: u64,
    score: i32,
    #[bitpack(max_len = 6)]
    history: Vec<i16>,
    position: [i32; 3],
    #[bitpack(adaptive(group = velocity))]
    vx: i32,
    #[bitpack(adaptive(group = velocity))]
    vy: i32,
}

/// Fixed point: readers refuse quotients past what re-encodes exactly.
#[derive(BitPack, Debug, Clone, PartialEq)]
pub struct Heading {
    #[quantize(res = 0.001)]
    radians: f64,
    #[quantize(res = 0.5)]
    speed: f32,
}

#[derive(BitPack, Debug, Clone, PartialEq)]
pub struct Combat {
    #[change_group]
    #[bits(min = 0, max = 63)]
    ammo: u8,
}

#[derive(BitPack, Debug, Clone, PartialEq)]
pub struct Enemy {
    #[bits(min = 0, max = 4095)]
    id: u16,
    #[change_group(motion)]
    #[bits(min = 0, max = 1023)]
    #[bitpack(relative)]
    x: u16,
    #[change_group(motion)]
    #[quantize(min = -512.0, max = 512.0, res = 0.01)]
    #[bitpack(relative)]
    y: f32,
    #[change_group]
    combat: Combat,
    #[change_group(name)]
    #[bitpack(max_len = 8)]
    name: String,
}

/// The baseline deltas are read against.
pub fn baseline() -> Enemy {
    Enemy { id: 1, x: 100, y: 2.5, combat: Combat { ammo: 7 }, name: "ogre".into() }
}

/// Decodes a `T` from the start of `bytes` and checks it re-encodes to
/// exactly the bits it came from.
fn rewrites_exactly<T: BitPack + std::fmt::Debug>(bytes: &[u8], what: &str) {
    let mut reader = BitReader::new(bytes);
    if let Ok(value) = T::read_from(&mut reader) {
        let end = reader.bits_read();
        assert_rewrites(bytes, 0, end, what, |writer| value.write_to(writer));
    }
}

pub fn check(bytes: &[u8]) {
    rewrites_exactly::<Stats>(bytes, "Stats");
    rewrites_exactly::<Heading>(bytes, "Heading");

    let before = baseline();
    let mut enemy = before.clone();
    let mut reader = BitReader::new(bytes);
    if enemy.read_changes(&mut reader).is_err() {
        assert_eq!(enemy, before, "a refused read_changes changes nothing");
        assert_eq!(reader.bits_read(), 0, "and leaves the reader");
    }
}

/// A delta against [`baseline`]: what decodes re-encodes to exactly the
/// bits it was read from (the derived `read_delta` refuses a group flagged
/// as sent whose bits are the baseline's), and a refused one leaves the
/// reader where it was.
pub fn check_delta_exactly(bytes: &[u8]) {
    let before = baseline();
    let mut reader = BitReader::new(bytes);
    match Enemy::read_delta(&before, &mut reader) {
        Ok(delta) => {
            let end = reader.bits_read();
            assert_rewrites(bytes, 0, end, "Enemy delta", |writer| delta.write_delta(&before, writer));
        }
        Err(_) => assert_eq!(reader.bits_read(), 0, "a refused read_delta leaves the reader"),
    }
}
