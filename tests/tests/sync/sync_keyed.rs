//! The keyed-collection wire: whole and delta forms, exact sizes, the
//! key-sorted `Vec` form, and refusals.

use crate::sync_common;

use std::collections::BTreeMap;

use bitpack::__private::keyed::{map, sorted_vec};
use bitpack::sync::{Receiver, Sender};
use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, ChangeGroups, Error, ErrorKind};
use sync_common::hand::HandWorld;
use sync_common::{KEY, SortedWorld, SplitMix64, Unit, World};

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
    // The baseline's entries first: the changed health alone and a bare
    // removal, each after its kind bit, placed by rank gaps (7, then 12
    // entries skipped: fewer bits than a mark for each of the 50); then
    // the two new units, keyed by gaps among themselves, against the spawn
    // value (the new `Unit::spawn()` itself costs its four group flags).
    let mut counter = BitCounter::new();
    map::write_delta(&mut counter, &now.units, &baseline.units, 1024, Unit::spawn, None)?;
    let mut changed = BitCounter::new();
    now.units[&ids[7]].write_delta(&baseline.units[&ids[7]], &mut changed)?;
    let mut fresh = BitCounter::new();
    now.units[&(ids[49] + 5)].write_delta(&Unit::spawn(), &mut fresh)?;
    let gap = |gap: u64| bitpack::adaptive::adaptive_bits(gap, bitpack::Signs::NonNegative).expect("bits");
    let key = |gap: u32| bitpack::adaptive::adaptive_bits(gap, bitpack::Signs::NonNegative).expect("bits");
    let listed = 11 + gap(7) + gap(12);
    assert!(listed < 50);
    let touched = listed + (1 + changed.bits_written()) + 1;
    let new = 11 + key(0) + 4 + key(ids[49] + 5 - 1) + fresh.bits_written();
    assert_eq!(counter.bits_written(), 1 + 1 + touched + new);
    // With most entries touched, a mark each is fewer bits than the list.
    let mut moved = baseline.clone();
    for unit in moved.units.values_mut() {
        unit.health -= 1;
    }
    let mut counter = BitCounter::new();
    map::write_delta(&mut counter, &moved.units, &baseline.units, 1024, Unit::spawn, None)?;
    let mut entries = 0;
    for (id, unit) in &moved.units {
        let mut bits = BitCounter::new();
        unit.write_delta(&baseline.units[id], &mut bits)?;
        entries += 1 + 1 + bits.bits_written();
    }
    assert_eq!(counter.bits_written(), 1 + 1 + entries + 11);
    assert!(delta_round_trip(&moved, &baseline).close_to(&moved));
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

/// The derived `World` (and its sorted-`Vec` twin) against the impls it was
/// modelled on, written by hand (`sync_common::hand`): the same constants,
/// and the same bytes for every packet of a sender, roomy or budgeted (the
/// recorded states, so `sent_state`, agree as well), tracked or as deltas.
#[test]
fn the_derived_world_writes_what_the_hand_written_model_writes() -> Result<(), Error> {
    assert_eq!((World::MAX_BITS, World::MIN_BITS), (HandWorld::MAX_BITS, HandWorld::MIN_BITS));
    assert_eq!((SortedWorld::MAX_BITS, SortedWorld::MIN_BITS), (HandWorld::MAX_BITS, HandWorld::MIN_BITS));
    assert_eq!(World::SCHEMA, HandWorld::SCHEMA);
    assert_eq!(SortedWorld::SCHEMA, HandWorld::SCHEMA);
    for budget in [1 << 14, 120] {
        let mut rng = SplitMix64(21);
        let mut world = World::random(&mut rng, 40);
        let mut derived: Sender<World> = Sender::new();
        let mut sorted: Sender<SortedWorld> = Sender::new();
        let mut hand: Sender<HandWorld> = Sender::new();
        let mut receiver: Receiver<World> = Receiver::new();
        let (mut a, mut b, mut c) = (vec![0u8; budget], vec![0u8; budget], vec![0u8; budget]);
        let mut partial = 0;
        for tick in 0..200 {
            world.step(&mut rng, 2, 2);
            let sequence = derived.next_sequence();
            let used = derived.write(&world, &mut a)?;
            assert_eq!(sorted.write(&world.as_sorted(), &mut b)?, used);
            assert_eq!(hand.write(&HandWorld::of(&world), &mut c)?, used);
            assert_eq!(a[..used], b[..used], "tick {tick}");
            assert_eq!(a[..used], c[..used], "tick {tick}");
            let recorded = &derived.sent(sequence).expect("recorded");
            partial += usize::from(recorded != &world);
            assert_eq!(HandWorld::of(recorded), hand.sent(sequence).expect("recorded"));
            assert_eq!(recorded.as_sorted(), sorted.sent(sequence).expect("recorded"));
            if tick % 7 != 3 {
                assert!(receiver.read(&a[..used])?.is_some_and(|seen| seen.close_to(recorded)));
                let acks = receiver.acks();
                derived.ack(&acks);
                sorted.ack(&acks);
                hand.ack(&acks);
            }
        }
        // The small budget holds entries back from most packets.
        assert_eq!(partial > 100, budget < 1000, "{partial} partial packets");
    }
    // Tracked: the collection is one group, sent whole.
    let mut rng = SplitMix64(22);
    let mut world = World::random(&mut rng, 30);
    let (mut latest, mut hand_latest) = (Default::default(), Default::default());
    let (confirmed, hand_confirmed) = (Default::default(), Default::default());
    for _ in 0..5 {
        world.step(&mut rng, 1, 1);
        let (mut one, mut two) = (vec![0u8; 8192], vec![0u8; 8192]);
        let mut writer = BitWriter::new(&mut one);
        world.write_changes(&mut writer, &confirmed, &mut latest)?;
        let used = writer.finish()?;
        let mut writer = BitWriter::new(&mut two);
        HandWorld::of(&world).write_changes(&mut writer, &hand_confirmed, &mut hand_latest)?;
        let hand_used = writer.finish()?;
        assert_eq!(one[..used], two[..hand_used]);
        let mut seen = World::empty();
        seen.read_changes(&mut BitReader::new(&one[..used]))?;
        assert!(seen.close_to(&world));
    }
    Ok(())
}

/// The bytes `write` puts in a fresh 64-byte buffer.
fn bits(write: &dyn Fn(&mut BitWriter<'_>) -> Result<(), Error>) -> Result<Vec<u8>, Error> {
    let mut buf = vec![0u8; 64];
    let mut writer = BitWriter::new(&mut buf);
    write(&mut writer)?;
    let used = writer.finish()?;
    buf.truncate(used);
    Ok(buf)
}

/// What a sender keeps of each state it recorded: a derived type's
/// `write_delta_cached` writes `write_delta`'s bits whether it knows the
/// baseline's group prints or not, and records its own, as `group_prints`
/// gives them.
#[test]
fn cached_deltas_write_the_same_bits_and_record_the_prints() -> Result<(), Error> {
    const PRINTS: usize = <Unit as ChangeGroups>::PRINTS;
    // A word per group, two for the motion group (relative floats: its
    // bits themselves, so a delta reads the baseline's steps from them).
    assert_eq!(PRINTS, 5);
    let mut rng = SplitMix64(23);
    for id in 0..2000 {
        let baseline = Unit::random(&mut rng, id);
        let mut now = baseline.clone();
        now.step(&mut rng);
        let mut held = [0u64; PRINTS];
        baseline.group_prints(&mut held)?;
        let plain = bits(&|writer| now.write_delta(&baseline, writer))?;
        let (mut known, mut unknown) = ([0u64; PRINTS], [0u64; PRINTS]);
        assert_eq!(
            bits(&|writer| now.write_delta_cached(&baseline, &held, &mut known.clone(), writer))?,
            plain
        );
        assert_eq!(
            bits(&|writer| now.write_delta_cached(&baseline, &[], &mut unknown.clone(), writer))?,
            plain
        );
        let mut counter = BitCounter::new();
        now.write_delta_cached(&baseline, &held, &mut known, &mut counter)?;
        now.write_delta_cached(&baseline, &[], &mut unknown, &mut counter)?;
        let mut expected = [0u64; PRINTS];
        now.group_prints(&mut expected)?;
        assert_eq!((known, unknown), (expected, expected));
        assert_eq!(now == baseline, held == expected);
    }
    Ok(())
}

/// A field-less enum: a leaf (its tag).
#[derive(BitPack, Clone, Copy, Debug, PartialEq)]
enum Kind {
    Walker,
    Flyer,
    Swimmer,
}

/// A struct of booleans: one fused run, a leaf.
#[derive(BitPack, Clone, Copy, Debug, PartialEq)]
struct Flags {
    on_ground: bool,
    firing: bool,
    hidden: bool,
}

/// More bits than a leaf holds: never a leaf.
#[derive(BitPack, Clone, Copy, Debug, PartialEq)]
struct Wide {
    low: u64,
    high: u32,
}

/// Groups of nested types beside plain fields, as `write_delta_cached`
/// takes them unchanged from the baseline's print (`same_leaf`) or
/// fingerprints them.
#[derive(BitPack, Clone, Copy, Debug, PartialEq)]
struct Nests {
    #[change_group(identity)]
    #[bits(min = 0, max = 4095)]
    id: u16,
    #[change_group(identity)]
    kind: Kind,
    #[change_group(state)]
    flags: Flags,
    #[change_group(state)]
    #[bits(min = 0, max = 4095)]
    target: Option<u16>,
    #[change_group(wide)]
    wide: Wide,
}

/// `write_delta_cached` of groups holding nested types (leaves and not)
/// writes `write_delta`'s bits and records `group_prints`' prints,
/// whichever field changed: a changed leaf is never taken for the
/// baseline's.
#[test]
fn cached_deltas_of_nested_fields_write_the_same_bits() -> Result<(), Error> {
    const PRINTS: usize = <Nests as ChangeGroups>::PRINTS;
    // What the groups hold: two leaves and one type that is none.
    const {
        assert!(<Kind as BitPack>::__LEAF_BITS <= 64 && <Flags as BitPack>::__LEAF_BITS <= 64);
        assert!(<Wide as BitPack>::__LEAF_BITS == bitpack::__private::NOT_A_LEAF);
    }
    let mut rng = SplitMix64(29);
    let kinds = [Kind::Walker, Kind::Flyer, Kind::Swimmer];
    let random = |rng: &mut SplitMix64| Nests {
        id: rng.range(0, 3) as u16,
        kind: kinds[rng.range(0, 2) as usize],
        flags: Flags { on_ground: rng.chance(50), firing: rng.chance(50), hidden: rng.chance(50) },
        target: rng.chance(50).then(|| rng.range(0, 3) as u16),
        wide: Wide { low: rng.range(0, 1) as u64, high: rng.range(0, 1) as u32 },
    };
    let mut kept = 0;
    for _ in 0..4000 {
        let (baseline, now) = (random(&mut rng), random(&mut rng));
        let mut held = [0u64; PRINTS];
        baseline.group_prints(&mut held)?;
        let plain = bits(&|writer| now.write_delta(&baseline, writer))?;
        let mut known = [0u64; PRINTS];
        assert_eq!(
            bits(&|writer| now.write_delta_cached(&baseline, &held, &mut known.clone(), writer))?,
            plain,
            "{now:?} against {baseline:?}"
        );
        now.write_delta_cached(&baseline, &held, &mut known, &mut BitCounter::new())?;
        let mut expected = [0u64; PRINTS];
        now.group_prints(&mut expected)?;
        assert_eq!(known, expected);
        kept += usize::from(now.kind == baseline.kind && now.id == baseline.id);
    }
    assert!(kept > 100, "too few unchanged identities: {kept}");
    Ok(())
}

/// A delta written by hand against `baseline` (three units): the flag, the
/// form (marks, or a list of rank gaps), then what `rest` writes.
fn hand_delta(marks: bool, rest: impl FnOnce(&mut BitWriter<'_>)) -> Vec<u8> {
    let mut buf = vec![0u8; 256];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bool(true).expect("changed");
    writer.write_bool(marks).expect("the form");
    rest(&mut writer);
    let used = writer.finish().expect("fits");
    buf.truncate(used);
    buf
}

#[test]
fn places_the_baseline_cannot_hold_are_refused_in_place() -> Result<(), Error> {
    let baseline: BTreeMap<u32, Unit> =
        [3, 8, 9].map(|id| (id, Unit { id, ..Unit::spawn() })).into_iter().collect();
    let sorted: Vec<Unit> = baseline.values().cloned().collect();
    // Removals of the listed entries, each placed by its rank gap.
    let removals = |gaps: &[u64]| {
        hand_delta(false, |writer| {
            writer.write_int(gaps.len() as i32, 0, 1024).expect("count");
            for &gap in gaps {
                bitpack::adaptive::write_adaptive(writer, gap, bitpack::Signs::NonNegative).expect("gap");
                writer.write_bool(true).expect("removed");
            }
            writer.write_int(0, 0, 1024).expect("no new entry");
        })
    };
    // More listed entries than the baseline holds.
    let over = removals(&[0, 0, 0, 0]);
    // A rank past the baseline's last entry: 2 entries skipped after rank 1.
    let past = removals(&[1, 2]);
    // A new entry under a key the baseline holds.
    let held = hand_delta(true, |writer| {
        writer.write_bits(0, 3).expect("no entry touched");
        writer.write_int(1, 0, 1024).expect("one new entry");
        bitpack::adaptive::write_adaptive(writer, 8u32, bitpack::Signs::NonNegative).expect("key");
        baseline[&8].write_delta(&Unit::spawn(), writer).expect("value");
    });
    for (bytes, kind) in
        [(over, ErrorKind::TooLong), (past, ErrorKind::OutOfRange), (held, ErrorKind::NonCanonical)]
    {
        let mut reader = BitReader::new(&bytes);
        let error = map::read_delta(&mut reader, &baseline, 1024, Unit::spawn).unwrap_err();
        assert_eq!((error.kind(), reader.bits_read()), (kind, 0));
        let mut reader = BitReader::new(&bytes);
        let error = sorted_vec::read_delta(&mut reader, &sorted, 1024, Unit::spawn, KEY).unwrap_err();
        assert_eq!((error.kind(), reader.bits_read()), (kind, 0));
    }
    // Two removals within the baseline read back, as marks (fewer bits
    // than their list, which `write_delta` would not pick: refused).
    let within = hand_delta(true, |writer| {
        writer.write_bits(0b11110, 5).expect("3 kept, 8 and 9 removed");
        writer.write_int(0, 0, 1024).expect("no new entry");
    });
    let back = map::read_delta(&mut BitReader::new(&within), &baseline, 1024, Unit::spawn)?;
    assert_eq!(back.keys().copied().collect::<Vec<_>>(), [3]);
    let listed = removals(&[1, 0]);
    let mut reader = BitReader::new(&listed);
    let error = map::read_delta(&mut reader, &baseline, 1024, Unit::spawn).unwrap_err();
    assert_eq!((error.kind(), error.bit(), reader.bits_read()), (ErrorKind::NonCanonical, 1, 0));
    Ok(())
}

/// What a sender's packet must hold after its 4 check bytes: the header
/// (sequence, baseline), the world's plain `write_delta` against the
/// state the baseline names, and an empty list of stale entries.
fn plain_packet<W: ChangeGroups>(sequence: u16, baseline: u16, now: &W, state: &W) -> Result<Vec<u8>, Error> {
    let mut buf = vec![0u8; 1 << 14];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_u32(0)?;
    writer.write_u16(sequence)?;
    writer.write_bool(true)?;
    writer.write_ack_relative(sequence, baseline)?;
    now.write_delta(state, &mut writer)?;
    // The list of entries left stale: none.
    writer.write_bool(false)?;
    let used = writer.finish()?;
    buf.truncate(used);
    Ok(buf)
}

#[test]
fn a_senders_deltas_are_the_plain_deltas_in_every_form() -> Result<(), Error> {
    // A sender's first attempt walks once, as if the touched entries went
    // as marks, and writes again by the counting walk when they do not
    // (few touched, only new entries) or nothing changed: every case here,
    // checked against `write_delta`, which takes neither path.
    let mut rng = SplitMix64(24);
    let mut world = World::random(&mut rng, 60);
    let mut map: Sender<World> = Sender::new();
    let mut vec: Sender<SortedWorld> = Sender::new();
    let mut receiver: Receiver<World> = Receiver::new();
    let (mut a, mut b) = (vec![0u8; 1 << 14], vec![0u8; 1 << 14]);
    let mut forms = [0usize; 6];
    for tick in 0..300 {
        let form = tick % 6;
        match form {
            0 => world.step(&mut rng, 1, 1),
            // One or two units change: the list form.
            1 | 2 => {
                for _ in 0..form {
                    let at = rng.range(0, world.units.len() as i32 - 1) as usize;
                    if let Some(unit) = world.units.values_mut().nth(at) {
                        unit.health = (unit.health + 1) % 1000;
                    }
                }
            }
            // New or removed units alone.
            3 => {
                for _ in 0..2 {
                    let id = rng.range(0, 1 << 20) as u32;
                    world.units.entry(id).or_insert_with(|| Unit::random(&mut rng, id));
                }
            }
            4 => {
                let at = rng.range(0, world.units.len() as i32 - 1) as usize;
                if let Some(id) = world.units.keys().nth(at).copied() {
                    world.units.remove(&id);
                }
            }
            // The units unchanged.
            _ => world.tick += 1,
        }
        let sorted = world.as_sorted();
        let baseline = map.baseline();
        assert_eq!(baseline, vec.baseline());
        let sequence = map.next_sequence();
        let used = map.write(&world, &mut a)?;
        assert_eq!(vec.write(&sorted, &mut b)?, used);
        assert_eq!(a[..used], b[..used], "tick {tick}");
        if let Some(baseline) = baseline {
            let state = map.sent(baseline).expect("held");
            assert_eq!(a[4..used], plain_packet(sequence, baseline, &world, &state)?[4..], "tick {tick}");
            let sorted_state = vec.sent(baseline).expect("held");
            assert_eq!(
                b[4..used],
                plain_packet(sequence, baseline, &sorted, &sorted_state)?[4..],
                "tick {tick}"
            );
            forms[form] += 1;
        }
        // Some packets lost: deltas against older states too.
        if tick % 5 != 2 {
            assert!(receiver.read(&a[..used])?.is_some_and(|seen| seen.close_to(&world)));
            let acks = receiver.acks();
            map.ack(&acks);
            vec.ack(&acks);
        }
    }
    assert!(forms.iter().all(|&count| count > 40), "{forms:?}");
    Ok(())
}

#[test]
fn a_sender_refuses_a_disordered_vec_as_the_plain_delta_does() -> Result<(), Error> {
    // A sender's one walk checks the world's keys as it meets them (no
    // pass before it): a disorder anywhere, met or not before another
    // refusal, is the plain delta's error, nothing recorded.
    let mut rng = SplitMix64(31);
    let mut world = World::random(&mut rng, 40);
    let mut map: Sender<World> = Sender::new();
    let mut vec: Sender<SortedWorld> = Sender::new();
    let mut receiver: Receiver<World> = Receiver::new();
    let (mut a, mut b) = (vec![0u8; 1 << 14], vec![0u8; 1 << 14]);
    let mut refused = 0;
    for tick in 0..60 {
        world.step(&mut rng, tick % 2, tick % 3 / 2);
        let sorted = world.as_sorted();
        if let Some(baseline) = vec.baseline() {
            let state = vec.sent(baseline).expect("held");
            let sequence = vec.next_sequence();
            let last = sorted.units.len() - 2;
            for at in [0, tick % last, last] {
                let mut swapped = sorted.clone();
                swapped.units.swap(at, at + 1);
                let mut repeated = sorted.clone();
                repeated.units[at + 1] = repeated.units[at].clone();
                // Out of range after the disorder: still the disorder first.
                let mut ranged = swapped.clone();
                ranged.units.last_mut().expect("units").health = u16::MAX;
                for unsorted in [swapped, repeated, ranged] {
                    let error = vec.write(&unsorted, &mut b).unwrap_err();
                    let plain = plain_packet(sequence, baseline, &unsorted, &state).unwrap_err();
                    assert_eq!(
                        (error.kind(), error.bit()),
                        (ErrorKind::NotIncreasing, plain.bit()),
                        "tick {tick}"
                    );
                    assert_eq!(vec.next_sequence(), sequence);
                    refused += 1;
                }
            }
        }
        // Then the same packets as the map's: nothing was recorded.
        let used = map.write(&world, &mut a)?;
        assert_eq!(vec.write(&sorted, &mut b)?, used);
        assert_eq!(a[..used], b[..used], "tick {tick}");
        assert!(receiver.read(&a[..used])?.is_some());
        let acks = receiver.acks();
        map.ack(&acks);
        vec.ack(&acks);
    }
    assert!(refused > 100);
    Ok(())
}

proptest::proptest! {
    /// `map::record` (a sender's state brought up to date in place, not
    /// cloned) leaves the state equal to the world whatever it held: keys
    /// apart by a few (removed and inserted) or by many (then a clone).
    #[test]
    fn recording_a_map_into_an_old_state_equals_the_world(
        now in proptest::collection::btree_map(0u32..64, proptest::num::u8::ANY, 0..48),
        old in proptest::collection::btree_map(0u32..64, proptest::num::u8::ANY, 0..48),
    ) {
        let mut state = old;
        map::record(&now, &mut state);
        proptest::prop_assert_eq!(state, now);
    }

    /// A derived world's `record_state` (its map updated in place, its other
    /// fields `clone_from`) equals the world, from a state some ticks older
    /// and from an unrelated one.
    #[test]
    fn a_derived_world_records_into_an_old_state(seed: u64, ticks in 0usize..40, spawns in 0usize..12) {
        let mut rng = SplitMix64(seed);
        let mut world = World::random(&mut rng, 60);
        let old = world.clone();
        for _ in 0..ticks {
            world.step(&mut rng, spawns, spawns);
        }
        let mut state = old;
        proptest::prop_assert!(world.record_state(&mut state));
        proptest::prop_assert_eq!(&state, &world);
        let mut unrelated = World::random(&mut rng, 5);
        proptest::prop_assert!(world.record_state(&mut unrelated));
        proptest::prop_assert_eq!(&unrelated, &world);
    }
}

#[test]
fn a_sender_records_into_a_state_older_than_the_baseline() {
    let mut rng = SplitMix64(9);
    let mut world = World::random(&mut rng, 30);
    let mut sender: Sender<World> = Sender::new();
    let mut receiver: Receiver<World> = Receiver::new();
    let mut buf = vec![0u8; 1 << 14];
    for _ in 0..3 {
        world.step(&mut rng, 2, 2);
        let used = sender.write(&world, &mut buf).expect("writes");
        receiver.read(&buf[..used]).expect("reads");
    }
    // Packets 0 to 2 acknowledged: 2 is the baseline, 0 and 1 can never be one.
    sender.ack(&receiver.acks());
    world.step(&mut rng, 2, 2);
    let used = sender.write(&world, &mut buf).expect("writes");
    // Packet 3's state went into the newest of those (1); 0 is kept.
    assert!(sender.sent(0).is_some());
    assert!(sender.sent(1).is_none());
    assert!(sender.sent(2).is_some());
    assert_eq!(sender.sent(3).as_ref(), Some(&world));
    let decoded = receiver.read(&buf[..used]).expect("reads").expect("a new state");
    assert!(decoded.close_to(&world));
}

/// A field whose type is not `Clone`, in a world cloned by hand.
#[derive(BitPack, Debug, PartialEq)]
struct Label {
    #[bits(min = 0, max = 9)]
    code: u8,
}

#[derive(BitPack, Debug, PartialEq)]
struct LabelledWorld {
    /// Outside the groups (a group's field must be `Clone`: an unsent
    /// group is the baseline's), so always written.
    label: Label,
    #[change_group]
    #[bitpack(max_len = 64, spawn = Unit::spawn)]
    units: BTreeMap<u32, Unit>,
}

impl Clone for LabelledWorld {
    fn clone(&self) -> Self {
        LabelledWorld { label: Label { code: self.label.code }, units: self.units.clone() }
    }
}

#[test]
fn a_world_with_a_field_that_is_not_clone_is_cloned_instead() {
    let mut rng = SplitMix64(4);
    let world = LabelledWorld { label: Label { code: 3 }, units: World::random(&mut rng, 10).units };
    let mut state = LabelledWorld { label: Label { code: 1 }, units: BTreeMap::new() };
    // Its derived `record_state` cannot copy `label`: `false`, and a sender clones.
    assert!(!world.record_state(&mut state));
    let mut sender: Sender<LabelledWorld> = Sender::new();
    let mut receiver: Receiver<LabelledWorld> = Receiver::new();
    let mut buf = vec![0u8; 1 << 12];
    for _ in 0..4 {
        let used = sender.write(&world, &mut buf).expect("writes");
        receiver.read(&buf[..used]).expect("reads");
        sender.ack(&receiver.acks());
        assert_eq!(sender.sent(sender.next_sequence().wrapping_sub(1)).as_ref(), Some(&world));
    }
}

/// An entity of the small yards below: three groups (its delta against
/// itself is their three 0 flags), its key, and a field that stays home,
/// so that two crates can differ (`!=`) with nothing to send.
#[derive(BitPack, Clone, Debug, Default, PartialEq)]
struct Crate {
    #[change_group(identity)]
    #[bits(min = 0, max = 1023)]
    #[bitpack(key)]
    id: u16,
    #[change_group(place)]
    #[bits(min = 0, max = 255)]
    #[bitpack(relative)]
    cell: u8,
    #[change_group(contents)]
    #[bits(min = 0, max = 7)]
    ammo: u8,
    #[bitpack(skip)]
    seen: u32,
}

/// Two scalar groups and the crates by id: an unchanged yard is 3 bits.
#[derive(BitPack, Clone, Debug, PartialEq)]
struct Yard {
    #[change_group(clock)]
    #[bits(min = 0, max = 255)]
    tick: u8,
    #[change_group(weather)]
    #[bits(min = 0, max = 3)]
    wind: u8,
    #[change_group]
    #[bitpack(max_len = 100)]
    crates: BTreeMap<u16, Crate>,
}

/// [`Yard`] with its crates in a `Vec` sorted by id.
#[derive(BitPack, Clone, Debug, PartialEq)]
struct SortedYard {
    #[change_group(clock)]
    #[bits(min = 0, max = 255)]
    tick: u8,
    #[change_group(weather)]
    #[bits(min = 0, max = 3)]
    wind: u8,
    #[change_group]
    #[bitpack(max_len = 100)]
    crates: Vec<Crate>,
}

/// An entity whose key sits outside its groups (always written): its
/// delta against itself is not 0 flags alone.
#[derive(BitPack, Clone, Debug, Default, PartialEq)]
struct Tag {
    #[bits(min = 0, max = 1023)]
    #[bitpack(key)]
    id: u16,
    #[change_group(state)]
    #[bits(min = 0, max = 3)]
    state: u8,
    #[bitpack(skip)]
    seen: u32,
}

#[derive(BitPack, Clone, Debug, PartialEq)]
struct TagYard {
    #[change_group(clock)]
    #[bits(min = 0, max = 255)]
    tick: u8,
    #[change_group]
    #[bitpack(max_len = 100)]
    tags: Vec<Tag>,
}

impl Yard {
    fn of(tick: u8, crates: &[Crate]) -> Yard {
        Yard { tick, wind: 1, crates: crates.iter().map(|c| (c.id, c.clone())).collect() }
    }

    fn sorted(&self) -> SortedYard {
        SortedYard { tick: self.tick, wind: self.wind, crates: self.crates.values().cloned().collect() }
    }
}

fn a_crate(id: u16) -> Crate {
    Crate { id, cell: (id * 10) as u8, ammo: 3, seen: 0 }
}

/// The bytes `write` writes, and how many bits.
fn written(write: impl FnOnce(&mut BitWriter<'_>) -> Result<(), Error>) -> (Vec<u8>, usize) {
    let mut buf = vec![0u8; 1 << 12];
    let mut writer = BitWriter::new(&mut buf);
    write(&mut writer).expect("writes");
    let bits = writer.bits_written();
    let used = writer.finish().expect("fits");
    buf.truncate(used);
    (buf, bits)
}

/// `bytes` read as a delta against `baseline`: refused as `NonCanonical`,
/// the reader left where it was.
fn refused_in_place<W: ChangeGroups + std::fmt::Debug>(baseline: &W, bytes: &[u8]) {
    let mut reader = BitReader::new(bytes);
    let result = W::read_delta(baseline, &mut reader);
    let read = reader.bits_read();
    assert_eq!(
        (result.map_err(|error| error.kind()).err(), read),
        (Some(ErrorKind::NonCanonical), 0),
        "{bytes:02x?}"
    );
}

/// Issue 30: against a yard of one crate, whose unchanged delta is 3 bits,
/// `0c 00` (the crates flagged changed, none sent) and `1c 00` (the crate
/// marked sent, its delta changing none of its groups) were read as 12 and
/// 16 bits; both forms of the collection refuse them now, and every other
/// shape `write_delta` never writes.
#[test]
fn keyed_deltas_that_say_nothing_are_refused() {
    let yard = Yard::of(1, &[a_crate(4)]);
    let sorted = yard.sorted();
    assert_eq!(written(|writer| yard.write_delta(&yard, writer)).1, 3);
    // clock and weather unchanged (0 0), the crates changed (1), marks (1).
    let start = |writer: &mut BitWriter<'_>| writer.write_bits(0b1100, 4);
    let no_new = |writer: &mut BitWriter<'_>| writer.write_int(0, 0, 100);
    let flagged = written(|writer| {
        start(writer)?;
        writer.write_bool(false)?; // the crate's mark: untouched
        no_new(writer)
    });
    assert_eq!(flagged, (vec![0x0c, 0x00], 12));
    let unchanged_entry = written(|writer| {
        start(writer)?;
        writer.write_bool(true)?; // marked
        writer.write_bool(false)?; // changed
        writer.write_bits(0, 3)?; // ... in none of its three groups
        no_new(writer)
    });
    assert_eq!(unchanged_entry, (vec![0x1c, 0x00], 16));
    // The crate in the list form, where its mark is fewer bits.
    let listed = written(|writer| {
        writer.write_bits(0b0100, 4)?; // ... a list, not marks
        writer.write_int(1, 0, 100)?;
        bitpack::adaptive::write_adaptive(writer, 0u64, bitpack::Signs::NonNegative)?;
        writer.write_bool(true)?; // removed
        no_new(writer)
    });
    // The crate removed and sent again as new under its key.
    let respawned = written(|writer| {
        start(writer)?;
        writer.write_bool(true)?;
        writer.write_bool(true)?; // removed
        writer.write_int(1, 0, 100)?;
        bitpack::adaptive::write_adaptive(writer, 4u16, bitpack::Signs::NonNegative)?;
        a_crate(4).write_delta(&Crate::default(), writer)
    });
    for (bytes, _) in [flagged, unchanged_entry, listed, respawned] {
        refused_in_place(&yard, &bytes);
        refused_in_place(&sorted, &bytes);
    }
    // Twenty crates, the first removed: its rank gap (0) and the count
    // are fewer bits than twenty marks, so marks are refused.
    let many = Yard::of(1, &(1..=20).map(a_crate).collect::<Vec<_>>());
    let mut fewer = many.clone();
    fewer.crates.remove(&1);
    let removed = |marks: bool| {
        written(|writer| {
            writer.write_bits(0b100, 3)?;
            writer.write_bool(marks)?;
            if marks {
                writer.write_bits(0b11, 2)?; // the first marked, removed
                writer.write_bits(0, 19)?;
            } else {
                writer.write_int(1, 0, 100)?;
                bitpack::adaptive::write_adaptive(writer, 0u64, bitpack::Signs::NonNegative)?;
                writer.write_bool(true)?;
            }
            no_new(writer)
        })
    };
    assert_eq!(removed(false), written(|writer| fewer.write_delta(&many, writer)));
    refused_in_place(&many, &removed(true).0);
    refused_in_place(&many.sorted(), &removed(true).0);
    // A tag's delta against itself writes its key: the same shape, told by its bits.
    let tag = Tag { id: 4, state: 2, seen: 0 };
    let tags = TagYard { tick: 1, tags: vec![tag.clone()] };
    let (unchanged_tag, _) = written(|writer| {
        writer.write_bits(0b110, 3)?; // clock unchanged, tags changed, marks
        writer.write_bool(true)?;
        writer.write_bool(false)?;
        tag.write_delta(&tag, writer)?;
        no_new(writer)
    });
    refused_in_place(&tags, &unchanged_tag);
}

/// What `read` makes of `input`: when it accepts, the value (returned)
/// re-encodes by `write` to exactly the bits it read; when it refuses, the
/// reader has not moved.
fn reencodes<C: std::fmt::Debug>(
    input: &[u8],
    read: impl FnOnce(&mut BitReader<'_>) -> Result<C, Error>,
    write: impl FnOnce(&C, &mut BitWriter<'_>) -> Result<(), Error>,
) -> Option<C> {
    let mut reader = BitReader::new(input);
    let Ok(back) = read(&mut reader) else {
        assert_eq!(reader.bits_read(), 0, "{input:02x?}");
        return None;
    };
    let read = reader.bits_read();
    let (again, bits) = written(|writer| write(&back, writer));
    assert_eq!(bits, read, "{input:02x?} read as {back:?}");
    let (mut one, mut two) = (BitReader::new(input), BitReader::new(&again));
    for bit in 0..read {
        assert_eq!(one.read_bool().ok(), two.read_bool().ok(), "bit {bit} of {input:02x?}");
    }
    Some(back)
}

/// [`reencodes`] for a world's delta against `baseline`: whether it was
/// accepted with `changed` true of the value.
fn world_reencodes<W: ChangeGroups + std::fmt::Debug>(
    baseline: &W,
    input: &[u8],
    changed: impl FnOnce(&W) -> bool,
) -> bool {
    let back = reencodes(
        input,
        |reader| W::read_delta(baseline, reader),
        |back, writer| back.write_delta(baseline, writer),
    );
    back.is_some_and(|back| changed(&back))
}

/// The house guarantee on hostile bytes: every 1- and 2-byte input and a
/// few thousand longer ones, as deltas against small yards (both forms, and
/// a yard of tags) and against their collections alone with room for 7
/// entries (a 3-bit count: more inputs get past it); what is accepted
/// re-encodes to the bits it came from.
#[test]
fn every_keyed_delta_read_reencodes_to_its_bits() {
    assert_eq!(
        (<Crate as ChangeGroups>::UNCHANGED_DELTA_BITS, <Tag as ChangeGroups>::UNCHANGED_DELTA_BITS),
        (Some(3), None)
    );
    let yard = Yard::of(5, &[a_crate(1), a_crate(2), a_crate(9)]);
    let sorted = yard.sorted();
    let tags = TagYard { tick: 5, tags: [1, 2, 9].map(|id| Tag { id, state: 1, seen: 0 }).to_vec() };
    let tag_key = <Tag as bitpack::__private::keyed::KeyField>::key;
    let crate_key = <Crate as bitpack::__private::keyed::KeyField>::key;
    let mut inputs: Vec<Vec<u8>> = (0..=u8::MAX).map(|byte| vec![byte]).collect();
    inputs.extend((0..=u16::MAX).map(|word| word.to_le_bytes().to_vec()));
    let mut rng = SplitMix64(30);
    for _ in 0..4000 {
        let len = rng.range(3, 8) as usize;
        inputs.push((0..len).map(|_| rng.next_u64() as u8).collect());
    }
    // Accepted deltas that change the collection, in each of the six.
    let mut changed = [0usize; 6];
    for input in &inputs {
        let counts = [
            world_reencodes(&yard, input, |back| back.crates != yard.crates),
            world_reencodes(&sorted, input, |back| back.crates != sorted.crates),
            world_reencodes(&tags, input, |back| back.tags != tags.tags),
            reencodes(
                input,
                |reader| map::read_delta(reader, &yard.crates, 7, Crate::default),
                |back, writer| map::write_delta(writer, back, &yard.crates, 7, Crate::default, None),
            )
            .is_some_and(|back| back != yard.crates),
            reencodes(
                input,
                |reader| sorted_vec::read_delta(reader, &sorted.crates, 7, Crate::default, crate_key),
                |back, writer| {
                    sorted_vec::write_delta(writer, back, &sorted.crates, 7, Crate::default, crate_key, None)
                },
            )
            .is_some_and(|back| back != sorted.crates),
            reencodes(
                input,
                |reader| sorted_vec::read_delta(reader, &tags.tags, 7, Tag::default, tag_key),
                |back, writer| {
                    sorted_vec::write_delta(writer, back, &tags.tags, 7, Tag::default, tag_key, None)
                },
            )
            .is_some_and(|back| back != tags.tags),
        ];
        for (count, changes) in changed.iter_mut().zip(counts) {
            *count += usize::from(changes);
        }
    }
    assert!(changed[..3].iter().all(|&count| count > 10), "{changed:?}");
    assert!(changed[3..].iter().all(|&count| count > 300), "{changed:?}");
}

/// Two senders, one given the world without what stays home and one with
/// it, and a receiver of the second's packets.
struct Twins<W: ChangeGroups + Clone> {
    plain: Sender<W>,
    seen: Sender<W>,
    receiver: Receiver<W>,
}

impl<W: ChangeGroups + Clone> Twins<W> {
    fn new() -> Self {
        Twins { plain: Sender::new(), seen: Sender::new(), receiver: Receiver::new() }
    }

    /// Both write the same bytes; the receiver reads them unless `lost`.
    fn write(&mut self, plain: &W, seen: &W, buf: &mut [u8], lost: bool) -> Result<(), Error> {
        let used = self.plain.write(plain, buf)?;
        let sent = buf[..used].to_vec();
        assert_eq!(self.seen.write(seen, buf)?, used);
        assert_eq!(buf[..used], sent[..]);
        if !lost {
            assert!(self.receiver.read(&buf[..used])?.is_some());
            let acks = self.receiver.acks();
            self.plain.ack(&acks);
            self.seen.ack(&acks);
        }
        Ok(())
    }
}

/// A crate that differs only in what stays home (`seen`) is not sent: the
/// plain delta and every sender's packet (one walk, the counting walk, a
/// budget holding crates back) are those of the world without the
/// difference, and a receiver reads them.
#[test]
fn an_entry_that_differs_only_off_the_wire_is_not_sent() -> Result<(), Error> {
    let mut rng = SplitMix64(32);
    let crates: Vec<Crate> = (1..=40).map(|id| a_crate(id * 3)).collect();
    let mut yard = Yard::of(0, &crates);
    let baseline = yard.clone();
    let mut seen = yard.clone();
    for (n, entry) in seen.crates.values_mut().enumerate() {
        entry.seen = n as u32 + 1;
    }
    assert_eq!(
        written(|writer| seen.write_delta(&baseline, writer)),
        written(|writer| yard.write_delta(&baseline, writer))
    );
    assert_eq!(written(|writer| seen.write_delta(&baseline, writer)).1, 3);
    let tags_of = |yard: &Yard| TagYard {
        tick: yard.tick,
        tags: yard.crates.values().map(|c| Tag { id: c.id, state: c.ammo % 4, seen: c.seen }).collect(),
    };
    for budget in [1 << 12, 40] {
        let (mut maps, mut vecs, mut tags) = (Twins::new(), Twins::new(), Twins::new());
        let mut buf = vec![0u8; budget];
        for tick in 0..60u8 {
            yard.tick = tick;
            // Every fourth tick, some crates change on the wire too.
            if tick % 4 == 0 {
                for _ in 0..(tick % 3) * 5 {
                    let at = rng.range(0, yard.crates.len() as i32 - 1) as usize;
                    if let Some(entry) = yard.crates.values_mut().nth(at) {
                        entry.ammo = (entry.ammo + 1) % 8;
                    }
                }
            }
            // All, one, or half the crates seen.
            let mut seen = yard.clone();
            for (n, entry) in seen.crates.values_mut().enumerate() {
                let touched = match tick % 3 {
                    0 => true,
                    1 => n == usize::from(tick) % 40,
                    _ => n % 2 == 0,
                };
                if touched {
                    entry.seen = u32::from(tick) * 100 + n as u32;
                }
            }
            let lost = tick % 5 == 2;
            maps.write(&yard, &seen, &mut buf, lost)?;
            vecs.write(&yard.sorted(), &seen.sorted(), &mut buf, lost)?;
            tags.write(&tags_of(&yard), &tags_of(&seen), &mut buf, lost)?;
        }
    }
    Ok(())
}
