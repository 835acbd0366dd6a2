//! `decode` of derived types on hostile bytes: never a panic, and whatever
//! decodes encodes back to exactly the bits it was read from.

use crate::bits::{assert_rewrites, ends_at};
use bitpack::{BitPack, BitRead, BitReader};

#[derive(BitPack, Debug, PartialEq)]
pub enum Weapon {
    Fists,
    Sword {
        #[bits(min = 1, max = 5)]
        level: u8,
    },
    Bow(#[bits(min = 0, max = 99)] u8, bool),
}

#[derive(BitPack, Debug, PartialEq)]
pub struct Player {
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

pub fn check(bytes: &[u8]) {
    let mut reader = BitReader::new(bytes);
    if let Ok(player) = Player::read_from(&mut reader) {
        let end = reader.bits_read();
        assert_rewrites(bytes, 0, end, "Player", |writer| player.write_to(writer));
        assert_eq!(bitpack::measure(&player).expect("measures"), end);
        assert!((Player::MIN_BITS..=Player::MAX_BITS).contains(&end));
        // `decode` takes the same value, whole bytes left over or bits
        // in the padding refused.
        let decoded = bitpack::decode::<Player>(bytes);
        assert_eq!(decoded.is_ok(), ends_at(bytes, end));
    } else {
        assert!(bitpack::decode::<Player>(bytes).is_err());
    }
}
