//! Bad input to change groups: `Err`, never a panic, and a failed read
//! leaves the value (and the reader) as they were.

use crate::change_groups_common;

use bitpack::{BitCounter, BitRead, BitReader, BitWrite, BitWriter, ChangeGroups, Error, ErrorKind};
use change_groups_common::{Combat, Entity, SplitMix64, World};
use proptest::prelude::*;

fn kind<T>(result: Result<T, Error>) -> Option<ErrorKind> {
    result.err().map(|error| error.kind())
}

fn sample() -> Entity {
    Entity { x: 10, y: 20, health: 30, combat: Combat { ammo: 4, stance: 1 } }
}

#[test]
fn every_truncation_of_a_packet_is_an_error_that_changes_nothing() -> Result<(), Error> {
    let mut rng = SplitMix64(3);
    let world = World::<16>::random(&mut rng);
    let mut buf = [0u8; 256];
    let mut writer = BitWriter::new(&mut buf);
    world.write_changes(&mut writer, &Default::default(), &mut Default::default())?;
    let used = writer.finish()?;
    let original = World::<16> { entities: vec![sample(); 16] };
    for len in 0..used {
        let mut receiver = original.clone();
        let mut reader = BitReader::new(&buf[..len]);
        assert_eq!(kind(receiver.read_changes(&mut reader)), Some(ErrorKind::UnexpectedEnd), "{len} bytes");
        assert_eq!(receiver, original);
        assert_eq!(reader.bits_read(), 0);
        assert!(World::<16>::read_delta(&original, &mut BitReader::new(&buf[..len / 2])).is_err());
    }
    Ok(())
}

#[test]
fn an_out_of_range_value_in_a_later_group_applies_no_group() -> Result<(), Error> {
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bool(true)?; // motion sent, valid
    writer.write_int(500, 0, 1023)?;
    writer.write_int(600, 0, 1023)?;
    writer.write_bool(true)?; // health sent: 127 in its 7 bits, over max 100
    writer.write_bits(127, 7)?;
    writer.write_bool(false)?;
    let used = writer.finish()?;
    let mut entity = sample();
    let mut reader = BitReader::new(&buf[..used]);
    assert_eq!(kind(entity.read_changes(&mut reader)), Some(ErrorKind::OutOfRange));
    assert_eq!(entity, sample(), "the valid motion group must not be applied alone");
    assert_eq!(reader.bits_read(), 0);
    Ok(())
}

#[test]
fn a_relative_step_out_of_the_world_is_an_error() -> Result<(), Error> {
    let mut buf = [0u8; 4];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bool(true)?; // motion sent
    writer.write_bits(0b0000, 4)?; // near: x = baseline - 4
    writer.write_bits(0b1000, 4)?; // near: y = baseline + 0
    writer.write_bool(false)?;
    writer.write_bool(false)?;
    let used = writer.finish()?;
    let mut baseline = sample();
    baseline.x = 2;
    assert_eq!(
        kind(Entity::read_delta(&baseline, &mut BitReader::new(&buf[..used]))),
        Some(ErrorKind::OutOfRange)
    );
    baseline.x = 4;
    let moved = Entity::read_delta(&baseline, &mut BitReader::new(&buf[..used]))?;
    assert_eq!((moved.x, moved.y), (0, baseline.y));
    Ok(())
}

#[test]
fn out_of_range_fields_and_full_buffers_are_write_errors() {
    let mut bad = sample();
    bad.health = 101;
    let mut counter = BitCounter::new();
    assert_eq!(
        kind(bad.write_changes(&mut counter, &Default::default(), &mut Default::default())),
        Some(ErrorKind::OutOfRange)
    );
    assert_eq!(kind(bad.write_delta(&sample(), &mut BitCounter::new())), Some(ErrorKind::OutOfRange));
    // The motion group before it was written; the health group was not.
    assert_eq!(counter.bits_written(), 1 + 20);

    let mut small = [0u8; 2];
    let mut writer = BitWriter::new(&mut small);
    assert_eq!(
        kind(sample().write_changes(&mut writer, &Default::default(), &mut Default::default())),
        Some(ErrorKind::BufferFull)
    );
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let original = World::<4> { entities: vec![sample(); 4] };
        let mut receiver = original.clone();
        if receiver.read_changes(&mut BitReader::new(&bytes)).is_err() {
            prop_assert_eq!(&receiver, &original);
        }
        let _ = World::<4>::read_delta(&original, &mut BitReader::new(&bytes));
    }
}
