//! The tracked steady state allocates nothing for a type with a fixed-size
//! tracker: write_changes, SnapshotRing insert/ack, read_changes and the
//! delta pair. A counting global allocator (per thread) watches.

use crate::change_groups_common;
use crate::counting_allocator;

use bitpack::{BitReader, BitWriter, ChangeGroups, Error, SnapshotRing};
use change_groups_common::{Combat, Entity, SplitMix64};

use counting_allocator::allocations;

#[test]
fn the_steady_state_does_not_allocate() -> Result<(), Error> {
    let mut rng = SplitMix64(11);
    let mut sender = Entity { x: 500, y: 500, health: 100, combat: Combat { ammo: 30, stance: 0 } };
    let mut receiver = Entity::default();
    let mut latest = <Entity as ChangeGroups>::Tracker::default();
    let mut ring: SnapshotRing<_, 32> = SnapshotRing::new();
    let mut buf = [0u8; 16];

    let before = allocations();
    for tick in 0..500u32 {
        let sequence = 65_000u16.wrapping_add(tick as u16);
        if tick >= 3 {
            ring.ack(sequence.wrapping_sub(3));
        }
        let previous = sender;
        sender.x = (sender.x + rng.range(-3, 3)).clamp(0, 1023);
        if rng.chance(5) {
            sender.health = rng.range(0, 100);
        }
        let mut writer = BitWriter::new(&mut buf);
        sender.write_changes(&mut writer, ring.confirmed(), &mut latest)?;
        let used = writer.finish()?;
        ring.insert(sequence, latest.clone());
        receiver.read_changes(&mut BitReader::new(&buf[..used]))?;
        assert_eq!(receiver, sender);

        let mut writer = BitWriter::new(&mut buf);
        sender.write_delta(&previous, &mut writer)?;
        let used = writer.finish()?;
        assert_eq!(Entity::read_delta(&previous, &mut BitReader::new(&buf[..used]))?, sender);
    }
    assert_eq!(allocations() - before, 0);
    Ok(())
}
