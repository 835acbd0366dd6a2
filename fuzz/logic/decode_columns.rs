//! `decode` of `#[bitpack(columns)]` types on hostile bytes: never a panic,
//! and whatever decodes encodes back to exactly the bits it was read from
//! (every column header a reader accepts is the one the writer picks).

use crate::bits::{assert_rewrites, ends_at};
use bitpack::{BitPack, BitRead, BitReader};

#[derive(BitPack, Debug, PartialEq)]
#[bitpack(columns)]
pub enum Order {
    Hold,
    Move(i16, u16),
    Fire {
        target: u32,
        #[bits(min = 0, max = 5)]
        salvo: u8,
    },
}

#[derive(BitPack, Debug, PartialEq)]
#[bitpack(columns)]
pub struct Unit {
    id: u32,
    velocity: i16,
    alive: bool,
    order: Option<Order>,
    #[bitpack(max_len = 8)]
    reloads: Vec<bool>,
    #[bitpack(max_len = 4)]
    turrets: Vec<u16>,
    #[bitpack(max_len = 6)]
    name: String,
    offsets: [i8; 2],
    heading: f32,
    big: i64,
}

#[derive(BitPack, Debug, PartialEq)]
pub struct World {
    tick: u16,
    #[bitpack(columns, max_len = 64)]
    units: Vec<Unit>,
    #[bitpack(columns, max_len = 300)]
    sizes: Vec<u64>,
}

pub fn check(bytes: &[u8]) {
    let mut reader = BitReader::new(bytes);
    if let Ok(world) = World::read_from(&mut reader) {
        let end = reader.bits_read();
        assert_rewrites(bytes, 0, end, "World", |writer| world.write_to(writer));
        assert_eq!(bitpack::measure(&world).expect("measures"), end);
        assert!((World::MIN_BITS..=World::MAX_BITS).contains(&end));
        let decoded = bitpack::decode::<World>(bytes);
        assert_eq!(decoded.is_ok(), ends_at(bytes, end));
    } else {
        assert!(bitpack::decode::<World>(bytes).is_err());
    }
}
