//! Issue 12's kinds inside issue 13's keyed entries: entities holding a
//! glam vector and a quaternion coded `relative`, a set with `max_len` and a
//! field through a `with` module, in a keyed `BTreeMap` and a sorted `Vec`,
//! replicated by a `Sender` over a link that loses packets, with a roomy and
//! a tight packet budget. After every packet it decodes, the receiver holds
//! what the sender recorded for it, up to the declared resolutions (the
//! same bytes whole), and once the world stops changing it catches up.

use std::collections::{BTreeMap, BTreeSet};

use bitpack::sync::{Receiver, Sender};
use bitpack::{BitPack, BitRead, BitWrite, Error};
use glam::{Quat, Vec3};

const RES: f32 = 1.0 / 64.0;
const MIN: [f32; 3] = [-512.0, -512.0, 0.0];
const MAX: [f32; 3] = [512.0, 512.0, 64.0];

/// A team colour of another crate's shape, sent through `colour_bits`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Colour(i32);

mod colour_bits {
    use super::{BitRead, BitWrite, Colour, Error};

    pub const MAX_BITS: usize = 12;
    pub const MIN_BITS: usize = 12;
    pub const SCHEMA: u64 = 0xC010;

    pub fn write<W: BitWrite>(value: &Colour, writer: &mut W) -> Result<(), Error> {
        writer.write_int(value.0, 0, 4095)
    }

    pub fn read(reader: &mut impl BitRead) -> Result<Colour, Error> {
        Ok(Colour(reader.read_int(0, 4095)?))
    }
}

#[derive(BitPack, Clone, Debug, Default, PartialEq)]
struct Ship {
    #[change_group(identity)]
    #[bits(min = 0, max = 65535)]
    #[bitpack(key)]
    id: u32,
    #[change_group(motion)]
    #[quantize(min = MIN, max = MAX, res = RES)]
    #[bitpack(relative)]
    position: Vec3,
    #[change_group(motion)]
    #[quantize(bits = 11)]
    #[bitpack(relative)]
    heading: Quat,
    #[change_group(crew)]
    #[bits(min = 0, max = 63)]
    #[bitpack(max_len = 4)]
    crew: BTreeSet<u8>,
    #[change_group(colour)]
    #[bitpack(with = colour_bits)]
    colour: Colour,
}

fn launched() -> Ship {
    Ship { heading: Quat::IDENTITY, ..Ship::default() }
}

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Fleet {
    #[change_group(clock)]
    tick: u32,
    #[change_group]
    #[bitpack(max_len = 128, spawn = launched)]
    by_id: BTreeMap<u32, Ship>,
    #[change_group]
    #[bitpack(max_len = 128, spawn = launched)]
    sorted: Vec<Ship>,
}

/// A ship on the position grid (`RES` is a power of two), heading somewhere.
fn ship(id: u32) -> Ship {
    let along = id as f32;
    Ship {
        id,
        position: Vec3::new(along * 2.0, -along, along * 0.25),
        heading: Quat::from_rotation_y(along * 0.1),
        crew: [1, (id % 60) as u8].into_iter().collect(),
        colour: Colour((id * 37 % 4096) as i32),
    }
}

/// Moves a third of the ships, turns some, changes a crew and a colour,
/// despawns one and spawns one in each collection.
fn step(fleet: &mut Fleet, tick: u32) {
    fleet.tick = tick;
    let mutate = |ship: &mut Ship| {
        if (ship.id + tick).is_multiple_of(3) {
            ship.position += Vec3::new(RES * 3.0, -RES, RES * 40.0);
            ship.position.z = ship.position.z.rem_euclid(60.0);
        }
        if (ship.id + tick).is_multiple_of(5) {
            ship.heading = (ship.heading * Quat::from_rotation_z(0.05)).normalize();
        }
        if (ship.id + tick).is_multiple_of(11) {
            ship.crew.insert((tick % 64) as u8);
            while ship.crew.len() > 4 {
                ship.crew.pop_first();
            }
            ship.colour = Colour((tick % 4096) as i32);
        }
    };
    fleet.by_id.values_mut().for_each(mutate);
    fleet.sorted.iter_mut().for_each(mutate);
    let gone = *fleet.by_id.keys().next().unwrap();
    fleet.by_id.remove(&gone);
    fleet.by_id.insert(1000 + tick, ship(1000 + tick));
    fleet.sorted.remove(0);
    fleet.sorted.push(ship(2000 + tick));
}

/// The receiver holds what the sender recorded, up to the resolutions: the
/// same bytes whole.
fn same_on_the_wire(held: &Fleet, recorded: &Fleet) {
    assert_eq!(bitpack::encode(held).unwrap(), bitpack::encode(recorded).unwrap());
}

#[test]
fn keyed_entries_of_vectors_quaternions_sets_and_with_fields_replicate() {
    for budget in [4096, 96] {
        let mut fleet = Fleet {
            tick: 0,
            by_id: (1..=40).map(|id| (id, ship(id))).collect(),
            sorted: (1..=40).map(|id| ship(id * 2)).collect(),
        };
        let mut sender: Sender<Fleet> = Sender::new();
        let mut receiver: Receiver<Fleet> = Receiver::new();
        let mut buf = vec![0u8; budget];
        let (mut decoded, mut partial, mut deltas) = (0, 0, 0);
        for tick in 1..=60u32 {
            step(&mut fleet, tick);
            let sequence = sender.next_sequence();
            deltas += usize::from(sender.baseline().is_some());
            let used = sender.write(&fleet, &mut buf).unwrap();
            assert!(used <= budget);
            let recorded = sender.sent(sequence).unwrap();
            partial += usize::from(recorded != fleet);
            if tick % 4 == 3 {
                continue; // lost
            }
            let held = receiver.read(&buf[..used]).unwrap().expect("a newer packet").clone();
            same_on_the_wire(&held, &recorded);
            decoded += 1;
            sender.ack(&receiver.acks());
        }
        assert_eq!(decoded, 45);
        assert!(deltas >= 55, "{deltas} deltas");
        assert_eq!(partial > 0, budget < 1000, "{partial} packets held entries back at {budget} bytes");
        // Once the world stops changing, the client catches up.
        for _ in 0..40 {
            let used = sender.write(&fleet, &mut buf).unwrap();
            receiver.read(&buf[..used]).unwrap();
            sender.ack(&receiver.acks());
        }
        same_on_the_wire(receiver.latest().unwrap(), &fleet);
        let used = sender.write(&fleet, &mut buf).unwrap();
        assert_eq!(used, 8, "an unchanged fleet is the header and a bit per group");
    }
}

#[test]
fn a_moved_vector_and_quaternion_cost_their_relative_steps_in_a_keyed_delta() {
    use bitpack::{BitCounter, ChangeGroups};
    let before = Fleet { tick: 0, by_id: (1..=8).map(|id| (id, ship(id))).collect(), sorted: vec![] };
    let mut after = before.clone();
    after.by_id.get_mut(&4).unwrap().position.x += RES;
    let mut counter = BitCounter::new();
    after.write_delta(&before, &mut counter).unwrap();
    let moved = counter.bits_written();
    // The same entry's own delta, plus the collection's marks and counts.
    let mut entry = BitCounter::new();
    after.by_id[&4].write_delta(&before.by_id[&4], &mut entry).unwrap();
    assert!(entry.bits_written() < 1 + 3 * 12 + 1 + 3 * 12 + 3, "{} bits", entry.bits_written());
    assert!(moved > entry.bits_written() && moved < entry.bits_written() + 32, "{moved} bits");
    let mut unchanged = BitCounter::new();
    before.write_delta(&before, &mut unchanged).unwrap();
    assert_eq!(unchanged.bits_written(), 3, "a bit per group");
}
