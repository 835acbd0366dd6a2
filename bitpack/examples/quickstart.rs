//! Packs one player's state with the core API, reads it back, and shows
//! what it cost next to the naive byte-aligned layout.
//!
//! Run with `cargo run --example quickstart`.

use bitpack::{BitCounter, BitReader, BitWrite, BitWriter, Error};

/// A player as a game server sends it every tick.
#[derive(Debug, PartialEq)]
struct Player {
    health: i32, // 0..=1000
    x: f32,      // [-1024, 1024] at 0.01
    y: f32,      // [-1024, 1024] at 0.01
    alive: bool,
    name: String, // at most 16 bytes
}

const POSITION: (f32, f32, f32) = (-1024.0, 1024.0, 0.01);
const NAME_MAX: usize = 16;

/// One function writes and measures: `BitWriter` and `BitCounter` are both
/// `BitWrite` sinks, so the count can never disagree with the bytes.
fn write_player<W: BitWrite>(player: &Player, w: &mut W) -> Result<(), Error> {
    w.write_int(player.health, 0, 1000)?;
    w.write_compressed_float(player.x, POSITION.0, POSITION.1, POSITION.2)?;
    w.write_compressed_float(player.y, POSITION.0, POSITION.1, POSITION.2)?;
    w.write_bool(player.alive)?;
    w.write_str(&player.name, NAME_MAX)
}

fn read_player(r: &mut BitReader<'_>) -> Result<Player, Error> {
    Ok(Player {
        health: r.read_int(0, 1000)?,
        x: r.read_compressed_float(POSITION.0, POSITION.1, POSITION.2)?,
        y: r.read_compressed_float(POSITION.0, POSITION.1, POSITION.2)?,
        alive: r.read_bool()?,
        name: r.read_str(NAME_MAX)?.to_owned(),
    })
}

fn main() -> Result<(), Error> {
    let player = Player { health: 750, x: 12.5, y: -300.25, alive: true, name: "ferris".into() };

    let mut counter = BitCounter::new();
    write_player(&player, &mut counter)?;

    let mut buf = [0u8; 64];
    let mut writer = BitWriter::new(&mut buf);
    write_player(&player, &mut writer)?;
    let used = writer.finish()?;
    let bytes = &buf[..used];

    let back = read_player(&mut BitReader::new(bytes))?;
    assert_eq!(back, player);

    let naive = 4 + 4 + 4 + 1 + 1 + player.name.len();
    println!("player: {player:?}");
    println!("packed: {} bits -> {} bytes {:02x?}", counter.bits_written(), used, bytes);
    println!("naive byte-aligned layout: {naive} bytes");

    // Hostile bytes are an error, never a panic.
    let truncated = &bytes[..used - 1];
    match read_player(&mut BitReader::new(truncated)) {
        Ok(_) => println!("unexpected: truncated bytes decoded"),
        Err(error) => println!("truncated input: {error}"),
    }
    Ok(())
}
