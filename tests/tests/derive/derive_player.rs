//! The issue's `Player` example: compiles, has the stated bit counts, and
//! writes exactly what the equivalent hand-written core calls write.

use bitpack::{BitCounter, BitPack, BitReader, BitWrite, BitWriter, Error};

#[derive(BitPack, Debug, Clone, PartialEq)]
struct EntityId(#[bits(min = 0, max = 4095)] u16);

#[derive(BitPack, Debug, Clone, PartialEq)]
enum Weapon {
    Fists,
    Sword {
        #[bits(min = 1, max = 5)]
        level: u8,
    },
    Bow(#[bits(min = 0, max = 99)] u8, bool),
}

#[derive(BitPack, Debug, Clone, PartialEq)]
#[bitpack(max_bytes = 1200)]
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
    target: Option<EntityId>,
}

fn player() -> Player {
    Player {
        health: 750,
        x: 12.5,
        alive: true,
        name: "Ada".to_owned(),
        inventory: vec![1, 99, 0],
        weapon: Weapon::Sword { level: 3 },
        target: Some(EntityId(4000)),
    }
}

/// The same wire, one core call at a time.
fn write_by_hand<W: BitWrite>(player: &Player, w: &mut W) -> Result<(), Error> {
    w.write_int(player.health, 0, 1000)?;
    w.write_compressed_float(player.x, -1024.0, 1024.0, 0.01)?;
    w.write_bool(player.alive)?;
    w.write_str(&player.name, 16)?;
    w.write_int(player.inventory.len() as i32, 0, 8)?;
    for &item in &player.inventory {
        w.write_int(i32::from(item), 0, 99)?;
    }
    match player.weapon {
        Weapon::Fists => w.write_int(0, 0, 2)?,
        Weapon::Sword { level } => {
            w.write_int(1, 0, 2)?;
            w.write_int(i32::from(level), 1, 5)?;
        }
        Weapon::Bow(arrows, flaming) => {
            w.write_int(2, 0, 2)?;
            w.write_int(i32::from(arrows), 0, 99)?;
            w.write_bool(flaming)?;
        }
    }
    match &player.target {
        Some(EntityId(id)) => {
            w.write_bool(true)?;
            w.write_int(i32::from(*id), 0, 4095)?;
        }
        None => w.write_bool(false)?,
    }
    Ok(())
}

#[test]
fn fields_take_the_stated_bits() {
    let mut counter = BitCounter::new();
    bitpack::__private::ranged_i32::write(&mut counter, 750, 0, 1000).unwrap();
    assert_eq!(counter.bits_written(), 10, "health");
    let mut counter = BitCounter::new();
    counter.write_compressed_float(12.5, -1024.0, 1024.0, 0.01).unwrap();
    assert_eq!(counter.bits_written(), 18, "x");
    // health 10 + x 18 + alive 1 + name (5 + up to 7 + 16*8) + inventory (4 + 8*7)
    // + weapon (tag 2 + the bow's 7 + 1) + target (1 + 12).
    assert_eq!(Player::MAX_BITS, 10 + 18 + 1 + (5 + 7 + 128) + (4 + 56) + (2 + 8) + (1 + 12));
    assert_eq!(Player::MIN_BITS, 10 + 18 + 1 + 5 + 4 + 2 + 1);
}

#[test]
fn player_round_trips() {
    let player = player();
    let bytes = bitpack::encode(&player).unwrap();
    assert_eq!(bitpack::decode::<Player>(&bytes).unwrap(), player);
    let bits = bitpack::measure(&player).unwrap();
    assert_eq!(bytes.len(), bits.div_ceil(8));
    assert!(bits <= Player::MAX_BITS);
}

#[test]
fn derived_bytes_equal_hand_written_bytes() {
    let weapons = [Weapon::Fists, Weapon::Sword { level: 5 }, Weapon::Bow(42, true)];
    for weapon in weapons {
        for target in [None, Some(EntityId(0)), Some(EntityId(4095))] {
            let player = Player { weapon: weapon.clone(), target, ..player() };
            let mut derived = [0u8; 200];
            let mut writer = BitWriter::new(&mut derived);
            player.write_to(&mut writer).unwrap();
            let derived_bits = writer.bits_written();
            let derived_len = writer.finish().unwrap();
            let mut by_hand = [0u8; 200];
            let mut writer = BitWriter::new(&mut by_hand);
            write_by_hand(&player, &mut writer).unwrap();
            assert_eq!(writer.bits_written(), derived_bits);
            let hand_len = writer.finish().unwrap();
            assert_eq!(&derived[..derived_len], &by_hand[..hand_len]);
            let back = Player::read_from(&mut BitReader::new(&by_hand[..hand_len])).unwrap();
            assert_eq!(back, player);
        }
    }
}
