//! `bitpack::sync` and the keyed-collection decoders on hostile bytes:
//! never a panic; a receiver that answers `Err` or `None` keeps what it
//! held (the fuzzer can learn the check and forge a packet, which then
//! decodes like any other); a refused `Acks` or keyed read leaves the
//! reader in place; accepted `Acks` and keyed collections, whole or as
//! deltas, re-encode to exactly the bits they were read from, and an
//! accepted delta, keyed or of the derived world, goes through
//! `write_delta` and `read_delta` unchanged.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Debug;

use crate::bits::assert_rewrites;
use bitpack::__private::keyed::{map, sorted_vec};
use bitpack::sync::{Acks, Receiver, Sender};
use bitpack::{BitPack, BitRead, BitReader, BitWriter, ChangeGroups, Error};

#[derive(BitPack, Debug, Clone, Default, PartialEq)]
pub struct Drone {
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
pub struct Swarm {
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

/// `read` on `bytes` from the start: `Some` of what it accepted and the bit
/// it stopped at; on a refusal `None`, after checking the reader did not move.
fn in_place<T>(
    bytes: &[u8],
    what: &str,
    read: impl FnOnce(&mut BitReader<'_>) -> Result<T, Error>,
) -> Option<(T, usize)> {
    let mut reader = BitReader::new(bytes);
    match read(&mut reader) {
        Ok(value) => Some((value, reader.bits_read())),
        Err(_) => {
            assert_eq!(reader.bits_read(), 0, "a refused {what} moves nothing");
            None
        }
    }
}

/// A sender, and a receiver that decoded four of its packets (the sequence
/// wrapping on the way) and whose acks the sender has seen; with what the
/// receiver then showed.
struct States {
    sender: Sender<Swarm>,
    receiver: Receiver<Swarm>,
    shown: Shown,
}

/// What a receiver holds, as far as its methods show: its newest sequence
/// and the sequences it keeps (its `Debug`), its acks, and the states of
/// the 33 sequences up to the newest (the newest first).
#[derive(Debug, PartialEq)]
struct Shown {
    kept: String,
    acks: Acks,
    states: Vec<Option<Swarm>>,
}

impl Shown {
    fn of(receiver: &Receiver<Swarm>) -> Self {
        let newest = receiver.latest_sequence().unwrap_or(0);
        Shown {
            kept: format!("{receiver:?}"),
            acks: receiver.acks(),
            states: (0..=32).map(|behind| receiver.get(newest.wrapping_sub(behind)).cloned()).collect(),
        }
    }

    /// Whether `receiver` shows this, compared in place (no copies).
    fn is(&self, receiver: &Receiver<Swarm>) -> bool {
        let newest = receiver.latest_sequence().unwrap_or(0);
        format!("{receiver:?}") == self.kept
            && receiver.acks() == self.acks
            && (0..=32).all(|behind| {
                receiver.get(newest.wrapping_sub(behind)) == self.states[behind as usize].as_ref()
            })
    }
}

impl States {
    fn new() -> Self {
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
            receiver.read(&buf[..used]).expect("decodes").expect("is newer");
            sender.ack(&receiver.acks());
        }
        let shown = Shown::of(&receiver);
        States { sender, receiver, shown }
    }

    /// The receiver's newest state before any input.
    fn latest(&self) -> &Swarm {
        self.shown.states[0].as_ref().expect("the receiver decoded four packets")
    }

    /// The receiver and the sender on `bytes`; whether the receiver took
    /// them as a packet (and so changed).
    fn check(&mut self, bytes: &[u8]) -> bool {
        let States { sender, receiver, shown } = self;
        let decoded = match receiver.read(bytes) {
            Ok(Some(world)) => {
                let world = world.clone();
                assert_eq!(receiver.latest(), Some(&world), "a packet decoded is the newest state");
                true
            }
            _ => {
                assert!(shown.is(receiver), "only Ok(Some) changes the receiver: {:?}", Shown::of(receiver));
                false
            }
        };
        if let Some((acks, end)) = in_place(bytes, "Acks::read_from", |r| Acks::read_from(r)) {
            assert_rewrites(bytes, 0, end, "Acks", |w| acks.write_to(w));
            let before = sender.baseline();
            sender.ack(&acks);
            // An ack says what the client holds now: the sender deltas
            // only against a state it lists.
            let baseline = sender.baseline();
            assert!(baseline.is_none_or(|baseline| acks.contains(baseline)), "{baseline:?} not in {acks:?}");
            // The receiver's own acks put the sender back as it was.
            sender.ack(&receiver.acks());
            assert_eq!(sender.baseline(), before);
        }
        decoded
    }
}

thread_local! {
    /// [`States`], kept between inputs while no input changes them:
    /// building them is most of a check's time (about 80% in a debug
    /// build). Only a packet decoded (`Ok(Some)`) changes the receiver, and
    /// that drops them; any other answer is checked to leave all the
    /// receiver shows as it was. An ack can withdraw states from the
    /// sender's baselines (it says what the client holds now); the
    /// receiver's own acks then put it back.
    static STATES: RefCell<Option<States>> = const { RefCell::new(None) };
}

pub fn check(bytes: &[u8]) {
    STATES.with_borrow_mut(|states| {
        let built = states.get_or_insert_with(States::new);
        // The derived world's delta against the receiver's newest state.
        let latest = built.latest();
        if let Some((swarm, end)) = in_place(bytes, "Swarm::read_delta", |r| Swarm::read_delta(latest, r)) {
            assert_rewrites(bytes, 0, end, "Swarm delta", |w| swarm.write_delta(latest, w));
            goes_through(
                "Swarm delta",
                &swarm,
                |w| swarm.write_delta(latest, w),
                |r| Swarm::read_delta(latest, r),
            );
        }
        if built.check(bytes) {
            *states = None;
        }
    });

    // The keyed decoders, straight.
    let base = baseline();
    let sorted: Vec<Drone> = base.values().cloned().collect();
    if let Some((whole, end)) = in_place(bytes, "map::read", |r| map::read::<u16, Drone>(r, MAX)) {
        assert!(whole.len() <= MAX);
        assert_rewrites(bytes, 0, end, "keyed map", |w| map::write(w, &whole, MAX, None));
    }
    if let Some((whole, end)) = in_place(bytes, "sorted_vec::read", |r| sorted_vec::read(r, MAX, key)) {
        assert!(whole.len() <= MAX);
        assert_rewrites(bytes, 0, end, "keyed sorted Vec", |w| sorted_vec::write(w, &whole, MAX, key, None));
    }
    let read_map_delta = |r: &mut BitReader<'_>| map::read_delta(r, &base, MAX, Drone::default);
    if let Some((now, end)) = in_place(bytes, "map::read_delta", read_map_delta) {
        assert!(now.len() <= MAX);
        let write = |w: &mut BitWriter<'_>| map::write_delta(w, &now, &base, MAX, Drone::default, None);
        assert_rewrites(bytes, 0, end, "keyed map delta", write);
        goes_through("keyed map delta", &now, write, read_map_delta);
    }
    let read_sorted_delta =
        |r: &mut BitReader<'_>| sorted_vec::read_delta(r, &sorted, MAX, Drone::default, key);
    if let Some((now, end)) = in_place(bytes, "sorted_vec::read_delta", read_sorted_delta) {
        assert!(now.len() <= MAX);
        let write =
            |w: &mut BitWriter<'_>| sorted_vec::write_delta(w, &now, &sorted, MAX, Drone::default, key, None);
        assert_rewrites(bytes, 0, end, "keyed sorted Vec delta", write);
        goes_through("keyed sorted Vec delta", &now, write, read_sorted_delta);
    }
}

/// What decoded is a value like any other: `write` writes it and `read`
/// reads it back unchanged.
fn goes_through<T: PartialEq + Debug>(
    what: &str,
    value: &T,
    write: impl FnOnce(&mut BitWriter<'_>) -> Result<(), Error>,
    read: impl FnOnce(&mut BitReader<'_>) -> Result<T, Error>,
) {
    let mut buf = vec![0u8; 4096];
    let mut writer = BitWriter::new(&mut buf);
    write(&mut writer).unwrap_or_else(|error| panic!("{what} writes: {error}"));
    let used = writer.finish().unwrap_or_else(|error| panic!("{what} fits: {error}"));
    let again =
        read(&mut BitReader::new(&buf[..used])).unwrap_or_else(|error| panic!("{what} reads back: {error}"));
    assert_eq!(&again, value, "{what} reads back otherwise");
}
