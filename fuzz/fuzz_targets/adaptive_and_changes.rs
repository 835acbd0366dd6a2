//! Adaptive integers and change groups on hostile bytes: never a panic;
//! what decodes re-encodes to a value that decodes the same; a refused
//! `read_changes` leaves the value as it was.
#![no_main]

use bitpack::{BitPack, BitReader, ChangeGroups};
use libfuzzer_sys::fuzz_target;

#[derive(BitPack, Debug, Clone, PartialEq)]
#[bitpack(adaptive)]
struct Stats {
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

/// Fixed point: readers refuse quotients past what re-encodes exactly, so
/// whatever decodes re-encodes to the same bytes.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Heading {
    #[quantize(res = 0.001)]
    radians: f64,
    #[quantize(res = 0.5)]
    speed: f32,
}

#[derive(BitPack, Debug, Clone, PartialEq)]
struct Combat {
    #[change_group]
    #[bits(min = 0, max = 63)]
    ammo: u8,
}

#[derive(BitPack, Debug, Clone, PartialEq)]
struct Enemy {
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

fuzz_target!(|bytes: &[u8]| {
    if let Ok(stats) = bitpack::decode::<Stats>(bytes) {
        let again = bitpack::encode(&stats).expect("a decoded value encodes");
        let back = bitpack::decode::<Stats>(&again).expect("re-encoded bytes decode");
        assert_eq!(bitpack::encode(&back).expect("encodes"), again, "{stats:?} vs {back:?}");
    }

    if let Ok(heading) = bitpack::decode::<Heading>(bytes) {
        let again = bitpack::encode(&heading).expect("a decoded fixed-point value encodes");
        let back = bitpack::decode::<Heading>(&again).expect("re-encoded bytes decode");
        assert_eq!(bitpack::encode(&back).expect("encodes"), again, "{heading:?} vs {back:?}");
    }

    let before = Enemy { id: 1, x: 100, y: 2.5, combat: Combat { ammo: 7 }, name: "ogre".into() };
    let mut enemy = before.clone();
    if enemy.read_changes(&mut BitReader::new(bytes)).is_err() {
        assert_eq!(enemy, before, "a refused read_changes changes nothing");
    }
    if let Ok(delta) = Enemy::read_delta(&before, &mut BitReader::new(bytes)) {
        let _ = bitpack::encode(&delta);
        // A decoded delta written again against the same baseline decodes the same.
        let mut buf = [0u8; 64];
        let mut writer = bitpack::BitWriter::new(&mut buf);
        delta.write_delta(&before, &mut writer).expect("a decoded delta writes");
        let used = writer.finish().expect("fits");
        let again = Enemy::read_delta(&before, &mut BitReader::new(&buf[..used])).expect("reads back");
        assert_eq!(again, delta);
    }
});
