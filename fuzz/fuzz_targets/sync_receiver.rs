//! `bitpack::sync` and the keyed-collection decoders on hostile bytes:
//! never a panic; a receiver that answers `Err` or `None` keeps what it
//! held (the fuzzer can learn the check and forge a packet, which then
//! decodes like any other); a keyed
//! decoder's `Err` leaves the reader in place, and what it accepts goes
//! through a sender and a receiver unchanged.
#![no_main]

use std::collections::BTreeMap;

use bitpack::__private::keyed::{map, sorted_vec};
use bitpack::sync::{Acks, Receiver, Sender};
use bitpack::{BitPack, BitReader};
use libfuzzer_sys::fuzz_target;

#[derive(BitPack, Debug, Clone, Default, PartialEq)]
struct Drone {
    #[change_group(identity)]
    #[bits(min = 0, max = 4095)]
    #[bitpack(key)]
    id: u16,
    #[change_group(motion)]
    #[bits(min = 0, max = 1023)]
    #[bitpack(relative)]
    x: u16,
    #[change_group(motion)]
    #[bits(min = 0, max = 1023)]
    #[bitpack(relative)]
    y: u16,
    #[change_group(state)]
    armed: bool,
}

fn key(drone: &Drone) -> u16 {
    drone.id
}

const MAX: usize = 16;

/// A derived world with both keyed forms.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Swarm {
    #[change_group(clock)]
    tick: u16,
    #[change_group]
    #[bitpack(max_len = MAX, spawn = launched)]
    drones: BTreeMap<u16, Drone>,
    #[change_group]
    #[bitpack(max_len = MAX)]
    sorted: Vec<Drone>,
}

fn launched() -> Drone {
    Drone { id: 0, x: 512, y: 512, armed: false }
}

fn baseline() -> BTreeMap<u16, Drone> {
    (0..6).map(|i| (i * 7, Drone { id: i * 7, x: 100 * i, y: 5, armed: i % 2 == 0 })).collect()
}

fn in_place<R: BitRead, T>(
    bytes: &[u8],
    read: impl FnOnce(&mut R) -> Result<T, bitpack::Error>,
) -> Option<T> {
    let mut reader = BitReader::new(bytes);
    match read(&mut reader) {
        Ok(value) => Some(value),
        Err(_) => {
            assert_eq!(reader.bits_read(), 0, "a refused read moves nothing");
            None
        }
    }
}

fuzz_target!(|bytes: &[u8]| {
    // A receiver holding a few states of a derived keyed world.
    let mut sender: Sender<Swarm> = Sender::starting_at(65_530);
    let mut receiver: Receiver<Swarm> = Receiver::new();
    let mut buf = [0u8; 256];
    for step in 0..4u16 {
        let mut drones = baseline();
        drones.remove(&(step * 7));
        drones.insert(50 + step, Drone { id: 50 + step, x: 10 * step, y: 3, armed: step == 2 });
        let sorted = drones.values().cloned().collect();
        let swarm = Swarm { tick: step, drones, sorted };
        let used = sender.write(&swarm, &mut buf).expect("writes");
        receiver.read(&buf[..used]).expect("decodes");
        sender.ack(&receiver.acks());
    }
    let held = (receiver.latest_sequence(), receiver.acks(), receiver.latest().cloned());
    if !matches!(receiver.read(bytes), Ok(Some(_))) {
        assert_eq!((receiver.latest_sequence(), receiver.acks(), receiver.latest().cloned()), held);
    }
    if let Some(acks) = in_place(bytes, |r| Acks::read_from(r)) {
        sender.ack(&acks);
    }

    // The keyed decoders, straight.
    let base = baseline();
    let sorted: Vec<Drone> = base.values().cloned().collect();
    in_place(bytes, |r| map::read::<u16, Drone>(r, MAX));
    in_place(bytes, |r| sorted_vec::read(r, MAX, key));
    in_place(bytes, |r| sorted_vec::read_delta(r, &sorted, MAX, Drone::default, key));
    if let Some(now) = in_place(bytes, |r| map::read_delta(r, &base, MAX, Drone::default)) {
        assert!(now.len() <= MAX);
        // What decoded is a world like any other: it goes through.
        let mut buf = vec![0u8; 4096];
        let mut writer = bitpack::BitWriter::new(&mut buf);
        map::write_delta(&mut writer, &now, &base, MAX, Drone::default, None).expect("writes");
        let used = writer.finish().expect("fits");
        let again =
            map::read_delta(&mut BitReader::new(&buf[..used]), &base, MAX, Drone::default).expect("reads");
        assert_eq!(again, now);
    }
});
