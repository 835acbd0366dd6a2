//! `decode` of derived types on hostile bytes: never a panic, and whatever
//! decodes encodes back to the same bytes.
#![no_main]

use bitpack::BitPack;
use libfuzzer_sys::fuzz_target;

#[derive(BitPack, Debug, PartialEq)]
enum Weapon {
    Fists,
    Sword {
        #[bits(min = 1, max = 5)]
        level: u8,
    },
    Bow(#[bits(min = 0, max = 99)] u8, bool),
}

#[derive(BitPack, Debug, PartialEq)]
struct Player {
    #[bits(min = 0, max = 1000)]
    health: i32,
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    x: f32,
    alive: bool,
    #[bitpack(max_len = 16)]
    name: String,
    #[bits(min = 0, max = 99)]
    #[bitpack(max_len = 8)]
    inventory: Vec<u8>,
    weapon: Weapon,
    target: Option<u16>,
    #[bitpack(max_len = 4)]
    tags: Vec<String>,
    grid: [[i8; 3]; 2],
    speed: f64,
}

fuzz_target!(|bytes: &[u8]| {
    if let Ok(player) = bitpack::decode::<Player>(bytes) {
        let again = bitpack::encode(&player).expect("a decoded value encodes");
        // Raw floats keep their bits, quantized ones are already on the grid:
        // the re-encoding decodes to the same value.
        let back = bitpack::decode::<Player>(&again).expect("re-encoded bytes decode");
        assert_eq!(bitpack::encode(&back).expect("encodes"), again);
        assert!(bitpack::measure(&player).expect("measures") <= Player::MAX_BITS);
    }
});
