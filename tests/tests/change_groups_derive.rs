//! Change groups derived from `#[change_group]` and `#[bitpack(relative)]`:
//! the issue's `Enemy`/`Combat` example, and the hand-written tests' key
//! scenarios ported to derived types, with the same figures and bytes.

mod change_groups_common;

use bitpack::{BitCounter, BitPack, BitReader, BitWrite, BitWriter, ChangeGroups, Error};

#[derive(BitPack, Clone, Debug, Default, PartialEq)]
struct Combat {
    #[change_group]
    #[bits(min = 0, max = 63)]
    ammo: u8,
    #[change_group]
    #[bits(min = 0, max = 3)]
    stance: u8,
}

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Enemy {
    #[bits(min = 0, max = 4095)]
    id: u16, // outside any group: always written
    #[change_group(motion)]
    #[quantize(min = -512.0, max = 512.0, res = 0.01)]
    x: f32,
    #[change_group(motion)]
    #[quantize(min = -512.0, max = 512.0, res = 0.01)]
    y: f32, // x and y share one flag bit
    #[change_group]
    #[bits(min = 0, max = 1000)]
    health: i32, // a group of its own
    #[change_group]
    combat: Combat, // nested: Combat's own groups nest inside
}

#[test]
fn the_issue_example_sends_only_what_changed() -> Result<(), Error> {
    let enemy = Enemy { id: 7, x: 1.5, y: -2.25, health: 900, combat: Combat { ammo: 30, stance: 1 } };
    let mut latest = <Enemy as ChangeGroups>::Tracker::default();
    let mut buf = [0u8; 32];
    let mut writer = BitWriter::new(&mut buf);
    enemy.write_changes(&mut writer, &Default::default(), &mut latest)?;
    // id 12, motion 1 + 17 + 17, health 1 + 10, combat 1 + (1 + 6) + (1 + 2).
    assert_eq!(writer.bits_written(), 12 + 35 + 11 + 11);
    let used = writer.finish()?;
    let mut seen = Enemy { id: 0, x: 0.0, y: 0.0, health: 0, combat: Combat::default() };
    seen.read_changes(&mut BitReader::new(&buf[..used]))?;
    assert_eq!(seen.id, 7);
    assert!((seen.x - 1.5).abs() <= 0.005 && (seen.y + 2.25).abs() <= 0.005);
    assert_eq!((seen.health, &seen.combat), (900, &enemy.combat));

    let confirmed = latest.clone();
    let mut hurt = enemy.clone();
    hurt.health = 850;
    hurt.combat.stance = 2;
    let mut counter = BitCounter::new();
    hurt.write_changes(&mut counter, &confirmed, &mut latest)?;
    // id 12, motion 1, health 1 + 10, combat 1 + ammo 1 + stance 1 + 2.
    assert_eq!(counter.bits_written(), 12 + 1 + 11 + 1 + 1 + 3);
    Ok(())
}
