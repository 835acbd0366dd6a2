//! A sender holds the states of a world whose one keyed collection is a
//! `BTreeMap` flat (`ChangeGroups::FLAT_MAP`: the entries as a list beside
//! each state, the map empty): which types it picks, and that a flat
//! sender writes the same packets and records the same states as one that
//! holds whole copies, through loss, late acks, spawns, despawns and
//! packets the budget cuts short.

use crate::sync_common;

use std::collections::BTreeMap;
use std::rc::Rc;

use bitpack::sync::{Receiver, Sender};
use bitpack::{BitPack, ChangeGroups};
use sync_common::{ID_MAX, SortedWorld, SplitMix64, UNITS_MAX, Unit, World};

/// One keyed map, no type parameters: held flat.
#[derive(BitPack, Clone, Debug, PartialEq)]
struct Flat {
    #[change_group(clock)]
    tick: u32,
    #[change_group]
    #[bitpack(max_len = UNITS_MAX)]
    units: BTreeMap<u32, Unit>,
}

/// The same fields with the entries' type a parameter: held whole (a
/// generic type's entries need not be `'static`).
#[derive(BitPack, Clone, Debug, PartialEq)]
struct Tree<U: Default> {
    #[change_group(clock)]
    tick: u32,
    #[change_group]
    #[bitpack(max_len = UNITS_MAX)]
    units: BTreeMap<u32, U>,
}

/// Two keyed maps: held whole.
#[derive(BitPack, Clone, Debug, PartialEq)]
struct TwoMaps {
    #[change_group]
    #[bitpack(max_len = 8)]
    red: BTreeMap<u8, Unit>,
    #[change_group]
    #[bitpack(max_len = 8)]
    blue: BTreeMap<u8, Unit>,
}

/// A map beside a nested type with change groups: held whole.
#[derive(BitPack, Clone, Debug, PartialEq)]
struct Nesting {
    #[change_group]
    inner: Flat,
    #[change_group]
    #[bitpack(max_len = 8)]
    units: BTreeMap<u8, Unit>,
}

/// An entity that is not `Send`: its map held whole, so that a `Sender`
/// is `Send + Sync` whenever its world is.
#[derive(BitPack, Clone, Debug, Default, PartialEq)]
struct Shared {
    #[change_group(score)]
    #[bits(min = 0, max = 1000)]
    score: u16,
    #[change_group(tag)]
    tag: Rc<bool>,
}

/// One keyed map of entries that are not `Send`: held whole.
#[derive(BitPack, Clone, Debug, PartialEq)]
struct NotSend {
    #[change_group(clock)]
    tick: u32,
    #[change_group]
    #[bitpack(max_len = 8)]
    shared: BTreeMap<u8, Shared>,
}

fn send_and_sync<T: Send + Sync>() {}

/// Every world's sender and receiver that is `Send + Sync` (checked
/// when this compiles).
fn senders_of<W: ChangeGroups + Clone + Send + Sync>() {
    send_and_sync::<Sender<W>>();
    send_and_sync::<Sender<W, 4>>();
    send_and_sync::<Receiver<W>>();
}

#[test]
fn senders_and_receivers_are_send_and_sync_when_their_world_is() {
    senders_of::<Flat>();
    senders_of::<World>();
    senders_of::<SortedWorld>();
    senders_of::<Tree<Unit>>();
    senders_of::<TwoMaps>();
    // A sender moves into a network thread.
    let mut sender: Sender<Flat> = Sender::new();
    let world = Flat { tick: 3, units: BTreeMap::from([(7, Unit::spawn())]) };
    let packet = std::thread::spawn(move || {
        let mut buf = [0u8; 256];
        let used = sender.write(&world, &mut buf).expect("writes");
        buf[..used].to_vec()
    })
    .join()
    .expect("the thread writes");
    let mut receiver: Receiver<Flat> = Receiver::new();
    assert!(receiver.read(&packet).expect("reads").is_some());
}

#[test]
fn a_map_of_entries_that_are_not_send_is_held_whole() {
    const { assert!(!NotSend::FLAT_MAP) };
    let mut sender: Sender<NotSend, 4> = Sender::new();
    let mut receiver: Receiver<NotSend, 4> = Receiver::new();
    let mut buf = [0u8; 256];
    let mut world = NotSend { tick: 0, shared: BTreeMap::new() };
    for tick in 0..40u32 {
        world.tick = tick;
        let id = (tick * 5 % 11) as u8;
        world.shared.insert(id, Shared { score: (tick * 37 % 1000) as u16, tag: Rc::new(tick % 3 == 0) });
        if world.shared.len() > 6 {
            let first = *world.shared.keys().next().expect("entries");
            world.shared.remove(&first);
        }
        let sequence = sender.next_sequence();
        // Some packets cut short: the budget holds entries back.
        let room = if tick % 4 == 1 { 14 } else { buf.len() };
        let used = sender.write(&world, &mut buf[..room]).expect("writes");
        let recorded = sender.sent(sequence).expect("recorded");
        if tick % 7 != 3 {
            assert_eq!(receiver.read(&buf[..used]).expect("reads"), Some(&recorded), "tick {tick}");
            sender.ack(&receiver.acks());
        }
    }
}

#[test]
fn one_map_without_type_parameters_is_held_flat() {
    let held_flat = [
        Flat::FLAT_MAP,
        World::FLAT_MAP,
        Tree::<Unit>::FLAT_MAP,
        SortedWorld::FLAT_MAP,
        TwoMaps::FLAT_MAP,
        Nesting::FLAT_MAP,
        Unit::FLAT_MAP,
    ];
    assert_eq!(held_flat, [true, true, false, false, false, false, false]);
}

fn step(tick: u32, units: &mut BTreeMap<u32, Unit>, rng: &mut SplitMix64) {
    for unit in units.values_mut() {
        unit.step(rng);
    }
    for _ in 0..1 + tick % 3 {
        let at = rng.range(0, units.len() as i32 - 1) as usize;
        if let Some(id) = units.keys().nth(at).copied().filter(|_| units.len() > 8) {
            units.remove(&id);
        }
    }
    for _ in 0..1 + tick % 4 {
        let id = rng.range(0, ID_MAX as i32) as u32;
        units.entry(id).or_insert_with(|| Unit::random(rng, id));
    }
}

#[test]
fn a_flat_sender_writes_and_records_what_a_whole_one_does() {
    let mut rng = SplitMix64(0xf1a7);
    let mut units: BTreeMap<u32, Unit> = BTreeMap::new();
    for _ in 0..120 {
        let id = rng.range(0, ID_MAX as i32) as u32;
        units.insert(id, Unit::random(&mut rng, id));
    }
    let mut flat: Sender<Flat, 8> = Sender::starting_at(65_500);
    let mut tree: Sender<Tree<Unit>, 8> = Sender::starting_at(65_500);
    let mut receiver: Receiver<Flat> = Receiver::new();
    let (mut a, mut b) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    let (mut decoded, mut cut_short, mut late) = (0, 0, Vec::new());
    for tick in 0..400u32 {
        step(tick, &mut units, &mut rng);
        let world = Flat { tick, units: units.clone() };
        // Every fifth tick a datagram too small for the delta: the budget
        // holds entries back, and the state recorded mixes the two.
        let room = if tick % 5 == 2 { 300 } else { a.len() };
        let sequence = flat.next_sequence();
        let used = flat.write(&world, &mut a[..room]).expect("writes");
        let tree_world = Tree { tick, units: units.clone() };
        assert_eq!(tree.write(&tree_world, &mut b[..room]).expect("writes"), used, "tick {tick}");
        assert_eq!(a[..used], b[..used], "tick {tick}");
        let recorded = flat.sent(sequence).expect("recorded");
        let whole = tree.sent(sequence).expect("recorded");
        assert_eq!((recorded.tick, &recorded.units), (whole.tick, &whole.units), "tick {tick}");
        cut_short += usize::from(recorded != world);
        if rng.chance(15) {
            continue;
        }
        if let Some(seen) = receiver.read(&a[..used]).expect("reads") {
            decoded += 1;
            assert_eq!(seen.tick, recorded.tick);
            assert_eq!(seen.units.len(), recorded.units.len());
            assert!(seen.units.iter().zip(&recorded.units).all(|((k, x), (l, y))| k == l && x.close_to(y)));
        }
        // Acks arrive two ticks late, and some never.
        late.push((tick + 2, receiver.acks()));
        while late.first().is_some_and(|(due, _)| *due <= tick) {
            let (_, acks) = late.remove(0);
            if !rng.chance(20) {
                flat.ack(&acks);
                tree.ack(&acks);
            }
        }
        assert_eq!(flat.baseline(), tree.baseline());
    }
    assert!(decoded > 300, "{decoded} decoded");
    assert!(cut_short > 20, "{cut_short} packets cut short");
}
