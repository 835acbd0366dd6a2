//! `bitpack::sync::Reassembly` on hostile datagrams: never a panic; a
//! datagram refused (`Err`) changes neither the receiver nor the fragments
//! held; one taken (`Ok(None)`) changes no receiver; a packet decoded is
//! the receiver's newest state; and while the packet in progress is held as
//! before (all its fragments but one), that missing fragment still
//! completes it to the world it was written for.
//!
//! An input is a run of datagrams, each a tag byte and what it says:
//! - `tag & 0x40` clear: `tag & 0x3F` bytes of input follow (fewer at the
//!   end), the datagram;
//! - `tag & 0x40` set: one of the fragments the sender wrote (`tag & 0x3F`
//!   picks it), then two bytes of input, a position and a mask XORed into
//!   the byte at that position (fewer at the end: unchanged);
//! - `tag & 0x80` set: the datagram's check is then made to hold, so that
//!   changes reach the checks behind it without the fuzzer learning the
//!   hash.

use std::cell::RefCell;
use std::collections::BTreeMap;

use bitpack::__private::seal_fragment;
use bitpack::BitPack;
use bitpack::sync::{Acks, Fragments, Reassembly, Receiver, Sender};

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

const MAX: usize = 16;

/// A derived world with a keyed collection.
#[derive(BitPack, Debug, Clone, PartialEq)]
pub struct Fleet {
    #[change_group(clock)]
    tick: u16,
    #[change_group]
    #[bitpack(max_len = MAX)]
    drones: BTreeMap<u16, Drone>,
}

/// Every drone moves each tick; one spawns and one despawns.
fn fleet(tick: u16) -> Fleet {
    let drones = (tick..tick + 8)
        .map(|i| {
            let id = i * 5 % 4096;
            (id, Drone { id, x: (tick * 37 + i * 100) % 1024, y: (tick * 11 + i) % 1024, armed: i % 3 == 0 })
        })
        .collect();
    Fleet { tick, drones }
}

/// Datagrams of at most 24 bytes (14 of the packet), packets of at most 8.
const DATAGRAM: usize = 24;
const MAX_FRAGMENTS: usize = 8;

/// What a receiver shows: its newest sequence and its acks (which of the
/// 32 before it it holds). Only a packet decoded changes a receiver, and
/// then its newest sequence (the `sync_receiver` target checks the rest).
#[derive(Debug, PartialEq)]
struct Shown {
    newest: Option<u16>,
    acks: Acks,
}

impl Shown {
    fn of(receiver: &Receiver<Fleet>) -> Self {
        Shown { newest: receiver.latest_sequence(), acks: receiver.acks() }
    }
}

/// What the sender wrote: packets 65,533 to 0 in fragments, each after the
/// first a delta against it (the sender saw only its ack). Written once.
struct Written {
    /// The fragments of each packet.
    packets: Vec<Vec<Vec<u8>>>,
    /// All of them, in order.
    all: Vec<Vec<u8>>,
    /// Packet 65,535: its fragment the session misses, and its world.
    missing: Vec<u8>,
    world: Fleet,
}

/// The packet the session holds in progress.
const IN_PROGRESS: u16 = 65_535;

impl Written {
    fn new() -> Self {
        let mut sender: Sender<Fleet> = Sender::starting_at(65_533);
        let mut fragments = Fragments::new(DATAGRAM, MAX_FRAGMENTS);
        let mut packets = Vec::new();
        for tick in 0..4 {
            fragments.write(&mut sender, &fleet(tick)).expect("writes");
            packets.push(fragments.iter().map(<[u8]>::to_vec).collect::<Vec<_>>());
            if tick == 0 {
                sender.ack(&Acks::new(65_533, 0));
            }
        }
        let next = &packets[2];
        assert!(next.len() >= 3, "packet 65,535 takes {} fragments", next.len());
        // The middle one.
        let missing = next[next.len() / 2].clone();
        let written = Written { all: packets.concat(), missing, world: fleet(2), packets };
        Session::new(&written).still_completes(&written);
        written
    }

    /// Fragments of the packet in progress.
    fn count(&self) -> usize {
        self.packets[2].len()
    }

    /// The datagrams `input` describes (see the module docs).
    fn datagrams(&self, mut input: &[u8]) -> Vec<Vec<u8>> {
        let mut datagrams = Vec::new();
        while let Some((&tag, rest)) = input.split_first() {
            input = rest;
            let mut datagram = if tag & 0x40 == 0 {
                let (datagram, rest) = input.split_at(usize::from(tag & 0x3F).min(input.len()));
                input = rest;
                datagram.to_vec()
            } else {
                let mut datagram = self.all[usize::from(tag & 0x3F) % self.all.len()].clone();
                if let [at, mask, rest @ ..] = input {
                    let len = datagram.len();
                    datagram[usize::from(*at) % len] ^= mask;
                    input = rest;
                }
                datagram
            };
            if tag & 0x80 != 0 {
                seal_fragment(&mut datagram);
            }
            datagrams.push(datagram);
        }
        datagrams
    }
}

/// A client that decoded packets 65,533 and 65,534 in fragments and holds
/// all the fragments of packet 65,535 but one.
struct Session {
    receiver: Receiver<Fleet>,
    reassembly: Reassembly,
    /// What the receiver shows and the reassembly's `Debug`, as they are.
    shown: Shown,
    held: String,
}

impl Session {
    fn new(written: &Written) -> Self {
        let mut receiver: Receiver<Fleet> = Receiver::new();
        let mut reassembly = Reassembly::new(DATAGRAM, MAX_FRAGMENTS);
        for packet in &written.packets[..2] {
            let mut decoded = false;
            for datagram in packet {
                decoded |= reassembly.read(&mut receiver, datagram).expect("takes").is_some();
            }
            assert!(decoded, "a packet of the session decodes");
        }
        for datagram in written.packets[2].iter().filter(|datagram| **datagram != written.missing) {
            assert_eq!(reassembly.read(&mut receiver, datagram).expect("takes"), None);
        }
        let count = written.count();
        assert_eq!(reassembly.held(IN_PROGRESS), Some((count - 1, count)));
        Session { shown: Shown::of(&receiver), held: format!("{reassembly:?}"), receiver, reassembly }
    }

    /// Feeds each datagram; whether the session changed.
    fn feed(&mut self, datagrams: &[Vec<u8>]) -> bool {
        let mut changed = false;
        for datagram in datagrams {
            let decoded = match self.reassembly.read(&mut self.receiver, datagram) {
                Ok(Some(world)) => Some(world.clone()),
                Ok(None) => {
                    assert_eq!(
                        Shown::of(&self.receiver),
                        self.shown,
                        "only a packet decoded changes the receiver"
                    );
                    None
                }
                Err(_) => {
                    assert_eq!(
                        Shown::of(&self.receiver),
                        self.shown,
                        "a refused fragment changes no receiver"
                    );
                    assert_eq!(
                        format!("{:?}", self.reassembly),
                        self.held,
                        "a refused fragment changes nothing held"
                    );
                    continue;
                }
            };
            if let Some(world) = &decoded {
                assert_eq!(self.receiver.latest(), Some(world), "a packet decoded is the newest state");
                self.shown = Shown::of(&self.receiver);
            }
            let held = format!("{:?}", self.reassembly);
            if held != self.held || decoded.is_some() {
                self.held = held;
                changed = true;
            }
        }
        changed
    }

    /// While packet 65,535 is held as before, its missing fragment
    /// completes it: on a copy of the fragments held, for a client that
    /// holds the first packet's state.
    fn still_completes(&self, written: &Written) {
        let count = written.count();
        if self.reassembly.held(IN_PROGRESS) != Some((count - 1, count)) {
            return;
        }
        let mut client: Receiver<Fleet> = Receiver::new();
        let mut first: Reassembly = Reassembly::new(DATAGRAM, MAX_FRAGMENTS);
        for datagram in &written.packets[0] {
            first.read(&mut client, datagram).expect("the first packet decodes");
        }
        let mut held = self.reassembly.clone();
        let decoded =
            held.read(&mut client, &written.missing).expect("the missing fragment completes the packet");
        assert_eq!(decoded, Some(&written.world), "the packet in progress decodes to its world");
    }
}

thread_local! {
    static WRITTEN: Written = Written::new();
    /// The [`Session`], kept between inputs while none changes it (building
    /// it is most of a check's time); any change drops it.
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

pub fn check(input: &[u8]) {
    WRITTEN.with(|written| {
        SESSION.with_borrow_mut(|session| {
            let built = session.get_or_insert_with(|| Session::new(written));
            // Unchanged, the session is as built, where the packet in
            // progress completes (checked once, when written).
            if built.feed(&written.datagrams(input)) {
                built.still_completes(written);
                *session = None;
            }
        })
    })
}
