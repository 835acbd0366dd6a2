//! Packs a few players with `#[derive(BitPack)]`, reads them back, and shows
//! what each cost next to a plain byte-aligned layout.
//!
//! Run with `cargo run --example quickstart`.

use bitpack::{BitPack, BitRead, BitReader, BitWrite, BitWriter, Error};

#[derive(BitPack, Debug, Clone, PartialEq)]
enum Weapon {
    Fists,
    Sword {
        #[bits(min = 1, max = 5)]
        level: u8,
    },
    Bow(#[bits(min = 0, max = 99)] u8),
}

#[derive(BitPack, Debug, Clone, PartialEq)]
#[bitpack(max_bytes = 64)] // a compile error if a Player could ever need more
struct Player {
    #[bits(min = 0, max = 4095)]
    id: u16, // 12 bits
    #[bits(min = 0, max = 1000)]
    health: i32, // 10 bits
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    x: f32, // 18 bits
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    y: f32, // 18 bits
    alive: bool,    // 1 bit
    weapon: Weapon, // 2-bit tag + the variant's fields
    #[bits(min = 0, max = 4095)]
    target: Option<u16>, // 1 bit + 12 bits when present
    #[bitpack(max_len = 16)]
    name: String, // 5-bit length, align, bytes
}

fn main() -> Result<(), Error> {
    let players = [
        Player {
            id: 7,
            health: 750,
            x: 12.5,
            y: -300.25,
            alive: true,
            weapon: Weapon::Sword { level: 3 },
            target: Some(42),
            name: "ferris".into(),
        },
        Player {
            id: 4095,
            health: 0,
            x: -1024.0,
            y: 1024.0,
            alive: false,
            weapon: Weapon::Fists,
            target: None,
            name: String::new(),
        },
    ];

    println!("Player::MAX_BITS = {} ({} bytes at most)", Player::MAX_BITS, Player::MAX_BITS.div_ceil(8));
    for player in &players {
        let bytes = bitpack::encode(player)?;
        let back: Player = bitpack::decode(&bytes)?;
        assert_eq!(&back, player);
        // id, health, x, y, alive, weapon tag+level, target tag+id, name length+bytes
        let byte_aligned = 2 + 4 + 4 + 4 + 1 + 2 + 3 + 1 + player.name.len();
        println!(
            "{:>10}: {} bits -> {} bytes (byte-aligned layout: {} bytes)",
            format!("{:?}", player.name),
            bitpack::measure(player)?,
            bytes.len(),
            byte_aligned
        );
    }

    // Many values share one buffer: a packet of every player, no allocation.
    let mut packet = [0u8; 128];
    let mut writer = BitWriter::new(&mut packet);
    writer.write_int(players.len() as i32, 0, 255)?;
    for player in &players {
        player.write_to(&mut writer)?;
    }
    let used = writer.finish()?;
    let mut reader = BitReader::new(&packet[..used]);
    let count = reader.read_int(0, 255)?;
    for expected in players.iter().take(count as usize) {
        assert_eq!(&Player::read_from(&mut reader)?, expected);
    }
    println!("packet of {count} players: {used} bytes");

    // Hostile bytes are an error, never a panic.
    let bytes = bitpack::encode(&players[0])?;
    match bitpack::decode::<Player>(&bytes[..bytes.len() - 1]) {
        Ok(_) => println!("unexpected: truncated bytes decoded"),
        Err(error) => println!("truncated input: {error}"),
    }
    let corrupt = [0xFFu8; 12];
    match bitpack::decode::<Player>(&corrupt) {
        Ok(player) => println!("corrupt input decoded as {player:?}"),
        Err(error) => println!("corrupt input: {error}"),
    }
    Ok(())
}
