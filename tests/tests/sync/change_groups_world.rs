//! A 256-entity world ticked 60 times: bytes per tick sent whole, as
//! tracked change groups and as a relative delta against the previous tick;
//! and the cost of an unchanged world.

use crate::change_groups_common;

use bitpack::{BitCounter, BitPack, BitReader, BitWrite, BitWriter, ChangeGroups, Error};
use change_groups_common::{ENTITY_BITS, ENTITY_GROUPS, Entity, SplitMix64, World};

const ENTITIES: usize = 256;
const TICKS: usize = 60;
/// Largest packet: every group of every entity sent, with far codes.
const BUF_BYTES: usize = ENTITIES * 64 / 8;

struct Figures {
    whole: usize,
    tracked: usize,
    delta_relative: usize,
}

fn run() -> Result<Figures, Error> {
    let mut rng = SplitMix64(0x0057_0A1D);
    let mut world = World::<ENTITIES>::random(&mut rng);
    let mut buf = vec![0u8; BUF_BYTES];

    // Both modes start from a state the receiver already holds.
    let mut latest = <World<ENTITIES> as ChangeGroups>::Tracker::default();
    world.write_changes(&mut BitCounter::new(), &Default::default(), &mut latest)?;
    let mut tracked_receiver = world.clone();
    let mut baseline = world.clone();

    let mut figures = Figures { whole: 0, tracked: 0, delta_relative: 0 };
    for _ in 0..TICKS {
        // 80% move a little, 5% change health, 1% change ammo or stance.
        world.tick(&mut rng, 80, 5, false);

        let mut writer = BitWriter::new(&mut buf);
        world.write_to(&mut writer)?;
        let used = writer.finish()?;
        assert_eq!(World::<ENTITIES>::read_from(&mut BitReader::new(&buf[..used]))?, world);
        figures.whole += used;

        let confirmed = latest.clone(); // acknowledged at once: no loss here
        let mut writer = BitWriter::new(&mut buf);
        world.write_changes(&mut writer, &confirmed, &mut latest)?;
        let used = writer.finish()?;
        tracked_receiver.read_changes(&mut BitReader::new(&buf[..used]))?;
        assert_eq!(tracked_receiver, world);
        figures.tracked += used;

        let mut writer = BitWriter::new(&mut buf);
        world.write_delta(&baseline, &mut writer)?;
        let used = writer.finish()?;
        assert_eq!(World::<ENTITIES>::read_delta(&baseline, &mut BitReader::new(&buf[..used]))?, world);
        figures.delta_relative += used;
        baseline = world.clone();
    }
    Ok(figures)
}

#[test]
fn world_bytes_per_tick() -> Result<(), Error> {
    let figures = run()?;
    let per_tick = |total: usize| total as f64 / TICKS as f64;
    println!("world of {ENTITIES} entities, {TICKS} ticks, bytes per tick:");
    println!("  full state                     {:.1}", per_tick(figures.whole));
    println!("  change groups (tracked)        {:.1}", per_tick(figures.tracked));
    println!("  baseline delta, relative on    {:.1}", per_tick(figures.delta_relative));
    assert_eq!(figures.whole, TICKS * (ENTITIES * ENTITY_BITS).div_ceil(8));
    assert_eq!(figures.tracked, 36_927);
    assert_eq!(figures.delta_relative, 18_777);
    assert!(figures.delta_relative < figures.tracked && figures.tracked < figures.whole);
    Ok(())
}

#[test]
fn an_unchanged_world_costs_one_bit_per_group() -> Result<(), Error> {
    let mut rng = SplitMix64(7);
    let world = World::<ENTITIES>::random(&mut rng);
    let mut latest = Default::default();
    let mut counter = BitCounter::new();
    world.write_changes(&mut counter, &Default::default(), &mut latest)?;
    // First packet: every flag set, every group's data (nested Combat
    // carries its own two flags).
    assert_eq!(counter.bits_written(), ENTITIES * (ENTITY_GROUPS + 2 + ENTITY_BITS));

    let confirmed = latest.clone();
    let mut counter = BitCounter::new();
    world.write_changes(&mut counter, &confirmed, &mut latest)?;
    assert_eq!(counter.bits_written(), ENTITIES * ENTITY_GROUPS);

    let mut counter = BitCounter::new();
    world.write_delta(&world, &mut counter)?;
    assert_eq!(counter.bits_written(), ENTITIES * ENTITY_GROUPS);
    Ok(())
}

/// The bits of one packet, as a string of 0/1 in stream order.
fn bit_string(bytes: &[u8], bits: usize) -> String {
    (0..bits).map(|i| if bytes[i / 8] >> (i % 8) & 1 == 1 { '1' } else { '0' }).collect()
}

#[test]
fn a_changed_group_is_its_flag_then_exactly_its_bits() -> Result<(), Error> {
    let entity = Entity { x: 5, y: 6, health: 70, combat: Default::default() };
    let mut latest = Default::default();
    entity.write_changes(&mut BitCounter::new(), &Default::default(), &mut latest)?;
    let confirmed = latest.clone();

    let mut hurt = entity;
    hurt.health = 69;
    hurt.combat.stance = 2;
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    hurt.write_changes(&mut writer, &confirmed, &mut latest)?;
    let bits = writer.bits_written();
    writer.finish()?;

    // The same packet by hand: motion rolled back to 0; health 1 + 7 bits;
    // combat 1, then ammo 0, stance 1 + 2 bits.
    let mut expected = [0u8; 8];
    let mut reference = BitWriter::new(&mut expected);
    reference.write_bool(false)?;
    reference.write_bool(true)?;
    reference.write_int(69, 0, 100)?;
    reference.write_bool(true)?;
    reference.write_bool(false)?;
    reference.write_bool(true)?;
    reference.write_int(2, 0, 3)?;
    let expected_bits = reference.bits_written();
    reference.finish()?;
    assert_eq!(bit_string(&buf, bits), bit_string(&expected, expected_bits));
    Ok(())
}
