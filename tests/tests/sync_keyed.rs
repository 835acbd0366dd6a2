//! The keyed-collection wire: whole and delta forms, exact sizes, the
//! key-sorted `Vec` form, and refusals.

mod change_groups_common;
mod sync_common;

use std::collections::BTreeMap;

use bitpack::__private::keyed::{map, sorted_vec};
use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, ChangeGroups, Error, ErrorKind};
use sync_common::{KEY, SplitMix64, Unit, World};

fn delta_bits(now: &World, baseline: &World) -> usize {
    let mut counter = BitCounter::new();
    now.write_delta(baseline, &mut counter).expect("writes");
    counter.bits_written()
}

fn delta_round_trip(now: &World, baseline: &World) -> World {
    let mut buf = vec![0u8; 1 << 16];
    let mut writer = BitWriter::new(&mut buf);
    now.write_delta(baseline, &mut writer).expect("writes");
    let used = writer.finish().expect("fits");
    let mut reader = BitReader::new(&buf[..used]);
    let back = World::read_delta(baseline, &mut reader).expect("reads");
    assert!(reader.bits_remaining() < 8);
    back
}

#[test]
fn keys_are_gaps_and_an_unchanged_collection_is_one_bit() -> Result<(), Error> {
    let small = |id| Unit { id, ..Unit::spawn() };
    let units: BTreeMap<u32, Unit> = [(3, small(3)), (4, small(4)), (40, small(40))].into_iter().collect();
    let mut counter = BitCounter::new();
    map::write(&mut counter, &units, 1024, None)?;
    // Length in 11 bits; keys 3, then gaps 0 and 35 as adaptive u32
    // (5-bit prefix, then the bits below the leading 1); each unit whole.
    let unit_bits = bitpack::measure(&small(3))?;
    assert_eq!(counter.bits_written(), 11 + (5 + 1) + 5 + (5 + 5) + 3 * unit_bits);

    let mut counter = BitCounter::new();
    map::write_delta(&mut counter, &units, &units, 1024, Unit::spawn, None)?;
    assert_eq!(counter.bits_written(), 1);

    let mut rng = SplitMix64(1);
    let world = World::random(&mut rng, 500);
    // One bit per scalar group and one for the collection, whatever its size.
    assert_eq!(delta_bits(&world, &world), 4);
    Ok(())
}

#[test]
fn a_delta_carries_changed_new_and_removed_entries() -> Result<(), Error> {
    let mut rng = SplitMix64(2);
    let baseline = World::random(&mut rng, 50);
    let mut now = baseline.clone();
    let ids: Vec<u32> = now.units.keys().copied().collect();
    now.units.get_mut(&ids[7]).expect("held").health = 3;
    now.units.remove(&ids[20]);
    now.units.insert(ids[49] + 5, Unit::random(&mut rng, ids[49] + 5));
    now.units.insert(0, Unit::spawn());
    assert!(delta_round_trip(&now, &baseline).close_to(&now));
    // Three items: the changed health alone, a bare removal, and a new
    // unit against the spawn value (the new `Unit::spawn()` itself costs
    // its four group flags only).
    let mut counter = BitCounter::new();
    map::write_delta(&mut counter, &now.units, &baseline.units, 1024, Unit::spawn, None)?;
    let mut changed = BitCounter::new();
    now.units[&ids[7]].write_delta(&baseline.units[&ids[7]], &mut changed)?;
    let mut fresh = BitCounter::new();
    now.units[&(ids[49] + 5)].write_delta(&Unit::spawn(), &mut fresh)?;
    let key = |gap: u32| bitpack::adaptive::adaptive_bits(gap, bitpack::Signs::NonNegative).expect("bits");
    let keys = key(0) + key(ids[7] - 1) + key(ids[20] - ids[7] - 1) + key(ids[49] + 5 - ids[20] - 1);
    assert_eq!(
        counter.bits_written(),
        1 + 11 + keys + (1 + changed.bits_written()) + 1 + 4 + fresh.bits_written()
    );
    Ok(())
}

#[test]
fn random_worlds_round_trip_whole_and_as_deltas() -> Result<(), Error> {
    let mut rng = SplitMix64(3);
    let mut world = World::random(&mut rng, 200);
    for _ in 0..50 {
        let baseline = world.clone();
        world.step(&mut rng, 5, 5);
        assert!(delta_round_trip(&world, &baseline).close_to(&world));
        let bytes = bitpack::encode(&world)?;
        assert!(bitpack::decode::<World>(&bytes)?.close_to(&world));
        assert!(bytes.len() * 8 <= World::MAX_BITS);
    }
    Ok(())
}

#[test]
fn the_sorted_vec_form_sends_the_same_bytes_and_refuses_disorder() -> Result<(), Error> {
    let mut rng = SplitMix64(4);
    let baseline = World::random(&mut rng, 100);
    let mut now = baseline.clone();
    now.step(&mut rng, 3, 3);
    let (sorted_now, sorted_base) = (now.sorted(), baseline.sorted());
    let mut map_bytes = vec![0u8; 8192];
    let mut writer = BitWriter::new(&mut map_bytes);
    map::write_delta(&mut writer, &now.units, &baseline.units, 1024, Unit::spawn, None)?;
    let map_used = writer.finish()?;
    let mut vec_bytes = vec![0u8; 8192];
    let mut writer = BitWriter::new(&mut vec_bytes);
    sorted_vec::write_delta(&mut writer, &sorted_now, &sorted_base, 1024, Unit::spawn, KEY, None)?;
    let vec_used = writer.finish()?;
    assert_eq!(map_bytes[..map_used], vec_bytes[..vec_used]);
    let back = sorted_vec::read_delta(
        &mut BitReader::new(&vec_bytes[..vec_used]),
        &sorted_base,
        1024,
        Unit::spawn,
        KEY,
    )?;
    assert_eq!(back.len(), sorted_now.len());
    assert!(back.iter().zip(&sorted_now).all(|(a, b)| a.close_to(b)));
    // Whole: the same bytes as the map's, and back.
    let mut map_whole = vec![0u8; 8192];
    let mut writer = BitWriter::new(&mut map_whole);
    map::write(&mut writer, &now.units, 1024, None)?;
    let map_used = writer.finish()?;
    let mut writer = BitWriter::new(&mut vec_bytes);
    sorted_vec::write(&mut writer, &sorted_now, 1024, KEY, None)?;
    let vec_used = writer.finish()?;
    assert_eq!(map_whole[..map_used], vec_bytes[..vec_used]);
    let decoded = sorted_vec::read(&mut BitReader::new(&vec_bytes[..vec_used]), 1024, KEY)?;
    assert!(decoded.iter().zip(&sorted_now).all(|(a, b)| a.close_to(b)));

    // Out of order, or a repeated key: refused, never a panic.
    let mut unsorted = sorted_now.clone();
    unsorted.swap(3, 4);
    let mut counter = BitCounter::new();
    let error = sorted_vec::write(&mut counter, &unsorted, 1024, KEY, None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NotIncreasing);
    let error = sorted_vec::write_delta(&mut counter, &unsorted, &sorted_base, 1024, Unit::spawn, KEY, None)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NotIncreasing);
    let mut repeated = sorted_now.clone();
    repeated[5].id = repeated[4].id;
    assert!(sorted_vec::write(&mut counter, &repeated, 1024, KEY, None).is_err());
    Ok(())
}

#[test]
fn a_value_whose_key_field_disagrees_is_refused() -> Result<(), Error> {
    // A map whose unit 9 claims id 8: its bytes, read as a sorted Vec.
    let units: BTreeMap<u32, Unit> =
        [(8, Unit { id: 8, ..Unit::spawn() }), (9, Unit { id: 8, ..Unit::spawn() })].into_iter().collect();
    let mut buf = [0u8; 256];
    let mut writer = BitWriter::new(&mut buf);
    map::write(&mut writer, &units, 1024, None)?;
    let used = writer.finish()?;
    let mut reader = BitReader::new(&buf[..used]);
    let error = sorted_vec::read(&mut reader, 1024, KEY).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::KeyMismatch);
    assert_eq!(reader.bits_read(), 0);
    // As a delta: the new unit 9 says 8.
    let empty: BTreeMap<u32, Unit> = BTreeMap::new();
    let mut writer = BitWriter::new(&mut buf);
    map::write_delta(&mut writer, &units, &empty, 1024, Unit::spawn, None)?;
    let used = writer.finish()?;
    let error =
        sorted_vec::read_delta(&mut BitReader::new(&buf[..used]), &[], 1024, Unit::spawn, KEY).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::KeyMismatch);
    Ok(())
}

#[test]
fn lengths_over_the_maximum_are_refused_both_ways() -> Result<(), Error> {
    let mut rng = SplitMix64(5);
    let world = World::random(&mut rng, 20);
    let mut counter = BitCounter::new();
    assert_eq!(
        map::write(&mut counter, &world.units, 19, None).map_err(|e| e.kind()),
        Err(ErrorKind::TooLong)
    );
    let empty = BTreeMap::new();
    let error = map::write_delta(&mut counter, &world.units, &empty, 19, Unit::spawn, None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TooLong);
    // Written with room for 20, read with room for 19.
    let mut buf = vec![0u8; 4096];
    let mut writer = BitWriter::new(&mut buf);
    map::write_delta(&mut writer, &world.units, &empty, 20, Unit::spawn, None)?;
    let used = writer.finish()?;
    let result = map::read_delta(&mut BitReader::new(&buf[..used]), &empty, 19, Unit::spawn);
    assert!(result.is_err());
    Ok(())
}

#[test]
fn truncated_collections_are_errors_that_leave_the_reader_in_place() -> Result<(), Error> {
    let mut rng = SplitMix64(6);
    let baseline = World::random(&mut rng, 30);
    let mut now = baseline.clone();
    now.step(&mut rng, 2, 2);
    let mut whole = vec![0u8; 4096];
    let mut writer = BitWriter::new(&mut whole);
    map::write(&mut writer, &now.units, 1024, None)?;
    let whole_used = writer.finish()?;
    let mut delta = vec![0u8; 4096];
    let mut writer = BitWriter::new(&mut delta);
    map::write_delta(&mut writer, &now.units, &baseline.units, 1024, Unit::spawn, None)?;
    let delta_used = writer.finish()?;
    for cut in 0..whole_used {
        let mut reader = BitReader::new(&whole[..cut]);
        assert!(map::read::<u32, Unit>(&mut reader, 1024).is_err(), "whole cut at {cut}");
        assert_eq!(reader.bits_read(), 0);
    }
    for cut in 0..delta_used {
        let mut reader = BitReader::new(&delta[..cut]);
        assert!(
            map::read_delta(&mut reader, &baseline.units, 1024, Unit::spawn).is_err(),
            "delta cut at {cut}"
        );
        assert_eq!(reader.bits_read(), 0);
    }
    Ok(())
}

#[test]
fn a_key_past_its_type_is_refused() {
    // u8 keys: 255, then a gap of 0 would be 256.
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_int(2, 0, 4).expect("length");
    bitpack::adaptive::write_adaptive(&mut writer, 255u8, bitpack::Signs::NonNegative).expect("key");
    writer.write_bool(true).expect("value");
    bitpack::adaptive::write_adaptive(&mut writer, 0u8, bitpack::Signs::NonNegative).expect("gap");
    writer.write_bool(true).expect("value");
    let used = writer.finish().expect("fits");
    let result = map::read::<u8, bool>(&mut BitReader::new(&buf[..used]), 4);
    assert_eq!(result.map_err(|e| e.kind()), Err(ErrorKind::OutOfRange));
}
