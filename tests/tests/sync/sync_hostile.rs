//! Hostile bytes at every `bitpack::sync` decoder: truncated, random,
//! flipped and replayed packets, packets of another world type, deltas
//! against a state the receiver lacks. Never a panic; the receiver answers
//! `Err` or `None` and keeps exactly what it held. The same for fragments:
//! a `Reassembly` refuses hostile ones with `Err` and keeps exactly the
//! fragments it held.

use crate::sync_common;

use bitpack::__private::keyed::{map, sorted_vec};
use bitpack::__private::seal_fragment;
use bitpack::sync::{Acks, FRAGMENT_HEADER_BYTES, Fragments, Reassembly, Receiver, Sender};
use bitpack::{BitRead, BitReader, ChangeGroups, ErrorKind};
use sync_common::{KEY, SplitMix64, Unit, World};

/// What a receiver holds, to compare before and after.
fn held(receiver: &Receiver<World>) -> (Option<u16>, Acks, Option<World>) {
    (receiver.latest_sequence(), receiver.acks(), receiver.latest().cloned())
}

/// 40 ticks over a perfect link: the receiver and every packet sent.
fn session() -> (Receiver<World>, Vec<Vec<u8>>) {
    let mut rng = SplitMix64(8);
    let mut world = World::random(&mut rng, 40);
    let mut sender: Sender<World> = Sender::starting_at(65_520);
    let mut receiver = Receiver::new();
    let mut buf = [0u8; 1 << 13];
    let mut packets = Vec::new();
    for _ in 0..40 {
        world.step(&mut rng, 2, 2);
        let used = sender.write(&world, &mut buf).expect("writes");
        packets.push(buf[..used].to_vec());
        assert!(receiver.read(&buf[..used]).expect("decodes").is_some());
        sender.ack(&receiver.acks());
    }
    (receiver, packets)
}

/// Feeds `bytes`: `Err` or `None`, and nothing changed.
fn refused(receiver: &mut Receiver<World>, bytes: &[u8]) -> Option<ErrorKind> {
    let before = held(receiver);
    let result = receiver.read(bytes).map(|world| world.is_some());
    assert!(!matches!(result, Ok(true)), "{} bytes accepted", bytes.len());
    assert_eq!(held(receiver), before);
    result.err().map(|error| error.kind())
}

#[test]
fn truncated_and_flipped_packets_are_refused() {
    let (mut receiver, packets) = session();
    let last = packets.last().expect("sent");
    for cut in 0..last.len() {
        assert!(refused(&mut receiver, &last[..cut]).is_some(), "cut at {cut}");
    }
    // Fresh packets (never seen): one more from the same stream, flipped.
    let mut longer = last.clone();
    longer.push(0);
    assert_eq!(refused(&mut receiver, &longer), Some(ErrorKind::ChecksumMismatch));
    for bit in 0..last.len() * 8 {
        let mut flipped = last.clone();
        flipped[bit / 8] ^= 1 << (bit % 8);
        assert!(refused(&mut receiver, &flipped).is_some(), "bit {bit}");
    }
}

#[test]
fn replayed_packets_are_ignored() {
    let (mut receiver, packets) = session();
    for packet in &packets {
        assert_eq!(refused(&mut receiver, packet), None);
    }
}

#[test]
fn random_bytes_are_refused() {
    let (mut receiver, _) = session();
    let mut rng = SplitMix64(9);
    for round in 0..3000 {
        let len = (round % 300) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        assert!(refused(&mut receiver, &bytes).is_some());
    }
}

#[test]
fn a_packet_for_another_world_type_is_refused() {
    let (mut receiver, _) = session();
    // A world of one unit.
    let mut rng = SplitMix64(10);
    let mut sender: Sender<Unit> = Sender::new();
    let mut buf = [0u8; 2048];
    let used = sender.write(&Unit::random(&mut rng, 3), &mut buf).expect("writes");
    assert_eq!(refused(&mut receiver, &buf[..used]), Some(ErrorKind::SchemaMismatch));
    // Corrupt, it is corrupt.
    for bit in 0..used * 8 {
        let mut flipped = buf[..used].to_vec();
        flipped[bit / 8] ^= 1 << (bit % 8);
        assert_eq!(refused(&mut receiver, &flipped), Some(ErrorKind::ChecksumMismatch), "bit {bit}");
    }
}

#[test]
fn a_delta_against_a_state_not_held_is_refused() {
    let (_, packets) = session();
    // A receiver that saw only the first packet gets the last, a delta
    // against a state it never decoded.
    let mut receiver = Receiver::new();
    assert!(receiver.read(&packets[0]).expect("decodes").is_some());
    assert_eq!(refused(&mut receiver, packets.last().expect("sent")), Some(ErrorKind::MissingBaseline));
    // A receiver that keeps fewer states than the sender's ring.
    let mut short: Receiver<World, 2> = Receiver::new();
    for packet in &packets[..5] {
        assert!(short.read(packet).expect("decodes").is_some());
    }
    let error = short.read(&packets[38]).map(|world| world.is_some()).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::MissingBaseline);
}

fn in_place(bytes: &[u8], read: impl FnOnce(&mut BitReader<'_>) -> Result<(), bitpack::Error>) {
    let mut reader = BitReader::new(bytes);
    if read(&mut reader).is_err() {
        assert_eq!(reader.bits_read(), 0);
    }
}

#[test]
fn the_decoders_under_the_receiver_refuse_random_bytes_in_place() {
    let mut rng = SplitMix64(12);
    let baseline = World::random(&mut rng, 30);
    let sorted = baseline.sorted();
    let mut decoded = 0;
    for round in 0..4000 {
        let len = (round % 96) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        if let Ok(world) = World::read_delta(&baseline, &mut BitReader::new(&bytes)) {
            decoded += 1;
            assert!(world.units.len() <= sync_common::UNITS_MAX);
        }
        // Each decoder: a value, or an `Err` that leaves the reader put.
        in_place(&bytes, |reader| map::read::<u32, Unit>(reader, 64).map(drop));
        in_place(&bytes, |reader| map::read_delta(reader, &baseline.units, 64, Unit::spawn).map(drop));
        in_place(&bytes, |reader| sorted_vec::read(reader, 64, KEY).map(drop));
        in_place(&bytes, |reader| sorted_vec::read_delta(reader, &sorted, 64, Unit::spawn, KEY).map(drop));
        in_place(&bytes, |reader| <Acks as bitpack::BitPack>::read_from(reader).map(drop));
    }
    // Some random deltas are valid (an unchanged world is 4 zero bits).
    assert!(decoded > 0);
}

/// A world small enough to send 130,000 times in a test: a clock and a
/// counter, each its own change group, both changing every tick.
#[derive(bitpack::BitPack, Clone, Debug, Default, PartialEq)]
struct Clock {
    #[change_group(time)]
    tick: u32,
    #[change_group(score)]
    #[bits(min = 0, max = 1023)]
    score: u16,
}

impl Clock {
    fn at(tick: u32) -> Clock {
        Clock { tick, score: (tick.wrapping_mul(2_654_435_761) >> 22) as u16 }
    }
}

/// One packet each way per tick: the client's acks always arrive, the
/// server's packets only when `delivered(tick)`. Every state the client
/// decodes must be the one sent in that packet; returns how many packets
/// it decoded and how many it refused as `MissingBaseline`.
fn one_way_outage(ticks: u32, delivered: impl Fn(u32) -> bool) -> (u32, u32) {
    let mut sender: Sender<Clock> = Sender::new();
    let mut receiver: Receiver<Clock> = Receiver::new();
    let mut buf = [0u8; 64];
    let (mut decoded, mut missing) = (0, 0);
    for tick in 0..ticks {
        let world = Clock::at(tick);
        let used = sender.write(&world, &mut buf).expect("writes");
        if delivered(tick) {
            match receiver.read(&buf[..used]) {
                Ok(Some(state)) => {
                    assert_eq!(state, &world, "tick {tick}: a wrong world decoded");
                    decoded += 1;
                }
                Ok(None) => panic!("tick {tick}: a new packet taken as stale"),
                Err(error) if error.kind() == ErrorKind::MissingBaseline => missing += 1,
                Err(error) => panic!("tick {tick}: {error}"),
            }
        }
        sender.ack(&receiver.acks());
    }
    (decoded, missing)
}

#[test]
fn a_delta_against_a_state_from_another_lap_is_refused() {
    // Lost one way for 65,536 packets (and a few either side): the sender
    // holds again, from the next lap, the sequences the client's acks name.
    for outage in [65_496, 65_536, 65_540, 65_600] {
        let (start, end) = (100, 100 + outage);
        let (decoded, missing) = one_way_outage(end + 200, |tick| tick < start || tick >= end);
        assert_eq!(decoded, start + 200 - missing, "outage {outage}");
        // Refused until the sender drops the state the stale acks name.
        assert!(missing <= 33, "outage {outage}: {missing} refused");
    }
}

#[test]
fn a_receiver_back_from_an_outage_catches_up() {
    // 40,000 packets lost one way: the next ones look older in 16 bits.
    let (decoded, missing) = one_way_outage(41_100, |tick| !(100..40_100).contains(&tick));
    assert_eq!((decoded, missing), (1_100, 0));
}

#[test]
fn an_ack_the_client_does_not_repeat_stops_the_sender_using_it() {
    let mut sender: Sender<Clock> = Sender::new();
    let mut receiver: Receiver<Clock> = Receiver::new();
    let mut buf = [0u8; 64];
    let mut refused = 0;
    for tick in 0..200u32 {
        let used = sender.write(&Clock::at(tick), &mut buf).expect("writes");
        // Every tenth packet is lost, and a forged or mistaken ack names
        // it as held.
        if tick % 10 == 5 {
            sender.ack(&Acks::new(sender.next_sequence().wrapping_sub(1), u32::MAX));
            continue;
        }
        match receiver.read(&buf[..used]) {
            Ok(Some(state)) => assert_eq!(state, &Clock::at(tick)),
            Ok(None) => panic!("tick {tick}: stale"),
            Err(error) => {
                assert_eq!(error.kind(), ErrorKind::MissingBaseline, "tick {tick}");
                refused += 1;
            }
        }
        sender.ack(&receiver.acks());
    }
    // One packet refused per forged ack, the one written before the
    // client's next ack arrives.
    assert_eq!(refused, 20);
}

/// Fragments of 64 bytes, packets of at most 16 of them.
const DATAGRAM: usize = 64;
const MAX_FRAGMENTS: usize = 16;

/// 40 ticks in fragments over a perfect link, then the next packet with
/// all its fragments held but the last: the receiver, the reassembly, that
/// packet's fragments and the world it carries.
struct Fragmented {
    receiver: Receiver<World>,
    reassembly: Reassembly,
    next: Vec<Vec<u8>>,
    world: World,
}

/// 40 ticks in fragments over a perfect link: the sender, the receiver,
/// the reassembly, and the world of the next tick.
fn fragmented_session() -> (Sender<World>, Receiver<World>, Reassembly, World) {
    let mut rng = SplitMix64(13);
    let mut world = World::random(&mut rng, 40);
    let mut sender: Sender<World> = Sender::starting_at(65_520);
    let mut receiver = Receiver::new();
    let mut fragments = Fragments::new(DATAGRAM, MAX_FRAGMENTS);
    let mut reassembly = Reassembly::new(DATAGRAM, MAX_FRAGMENTS);
    for _ in 0..40 {
        world.step(&mut rng, 2, 2);
        fragments.write(&mut sender, &world).expect("writes");
        let mut decoded = false;
        for datagram in fragments.iter() {
            decoded |= reassembly.read(&mut receiver, datagram).expect("takes").is_some();
        }
        assert!(decoded);
        sender.ack(&receiver.acks());
    }
    world.step(&mut rng, 2, 2);
    (sender, receiver, reassembly, world)
}

/// The next packet of [`fragmented_session`]'s sender for `world`, split
/// for datagrams of `datagram` bytes.
fn next_fragments(world: &World, datagram: usize) -> Vec<Vec<u8>> {
    let (mut sender, ..) = fragmented_session();
    let mut fragments = Fragments::new(datagram, MAX_FRAGMENTS);
    fragments.write(&mut sender, world).expect("writes");
    fragments.iter().map(<[u8]>::to_vec).collect()
}

impl Fragmented {
    fn new() -> Self {
        let (_, mut receiver, mut reassembly, world) = fragmented_session();
        let next = next_fragments(&world, DATAGRAM);
        assert!(next.len() >= 3, "{} fragments", next.len());
        for datagram in &next[..next.len() - 1] {
            assert_eq!(reassembly.read(&mut receiver, datagram).expect("takes"), None);
        }
        Fragmented { receiver, reassembly, next, world }
    }

    /// Feeds `datagram`: `Err`, and nothing changed; its kind.
    fn refused(&mut self, datagram: &[u8]) -> ErrorKind {
        let before = (format!("{:?}", self.reassembly), held(&self.receiver));
        let result = self.reassembly.read(&mut self.receiver, datagram).map(|world| world.is_some());
        assert_eq!((format!("{:?}", self.reassembly), held(&self.receiver)), before);
        result.expect_err("refused").kind()
    }

    /// The last fragment, held back: the packet is decoded, the world sent.
    fn completes(mut self) {
        let last = self.next.last().expect("fragments");
        let decoded = self.reassembly.read(&mut self.receiver, last).expect("decodes");
        assert!(decoded.expect("newer").close_to(&self.world));
    }
}

/// `datagram` edited, its check made to hold.
fn forged(datagram: &[u8], edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut datagram = datagram.to_vec();
    edit(&mut datagram);
    seal_fragment(&mut datagram);
    datagram
}

#[test]
fn fragments_cut_flipped_or_random_are_refused_and_change_nothing() {
    let mut fragmented = Fragmented::new();
    for datagram in fragmented.next.clone() {
        for cut in 0..datagram.len() {
            fragmented.refused(&datagram[..cut]);
        }
        for bit in 0..datagram.len() * 8 {
            let mut flipped = datagram.clone();
            flipped[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(fragmented.refused(&flipped), ErrorKind::ChecksumMismatch, "bit {bit}");
        }
    }
    let mut rng = SplitMix64(14);
    for round in 0..3000 {
        let len = round % 100;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        fragmented.refused(&bytes);
    }
    fragmented.completes();
}

#[test]
fn forged_fragments_are_refused_and_change_nothing() {
    let mut fragmented = Fragmented::new();
    let next = fragmented.next.clone();
    let count = next.len() as u8;
    let (first, last) = (&next[0], next.last().expect("fragments"));
    // Their checks hold; their claims do not.
    let cases: Vec<(Vec<u8>, ErrorKind)> = vec![
        // More fragments than the limit: 17, and 256.
        (forged(first, |d| d[9] = MAX_FRAGMENTS as u8), ErrorKind::OutOfRange),
        (forged(first, |d| d[9] = 255), ErrorKind::OutOfRange),
        // An index past the count.
        (forged(first, |d| d[8] = count), ErrorKind::OutOfRange),
        // Another count for the same packet.
        (forged(first, |d| d[9] = count), ErrorKind::FragmentMismatch),
        // A copy of a fragment held, with other bytes, or shorter.
        (forged(first, |d| d[FRAGMENT_HEADER_BYTES + 3] ^= 0x10), ErrorKind::FragmentMismatch),
        (forged(first, |d| d.truncate(DATAGRAM - 1)), ErrorKind::FragmentMismatch),
        // Longer than the limit, and empty.
        (forged(first, |d| d.push(0)), ErrorKind::TooLong),
        (forged(last, |d| d.truncate(FRAGMENT_HEADER_BYTES)), ErrorKind::UnexpectedEnd),
        // The last fragment with other bytes, or padded to the others'
        // length: the packet's check fails, and the fragment is not held.
        (forged(last, |d| *d.last_mut().expect("a part") ^= 1), ErrorKind::ChecksumMismatch),
        (forged(last, |d| d.resize(DATAGRAM, 0)), ErrorKind::ChecksumMismatch),
    ];
    for (datagram, kind) in cases {
        assert_eq!(fragmented.refused(&datagram), kind, "{:?}", &datagram[..FRAGMENT_HEADER_BYTES]);
    }
    // A fragment held again, the same bytes: taken, and nothing changes.
    let before = format!("{:?}", fragmented.reassembly);
    assert_eq!(fragmented.reassembly.read(&mut fragmented.receiver, first).expect("takes"), None);
    assert_eq!(format!("{:?}", fragmented.reassembly), before);
    fragmented.completes();
}

#[test]
fn a_packet_put_together_wrong_is_refused_and_changes_nothing() {
    let mut fragmented = Fragmented::new();
    // The next packet from a sender in the same state, its world one unit
    // short: the same sequence and count, other bytes.
    let mut other = fragmented.world.clone();
    let first_id = *other.units.keys().next().expect("units");
    other.units.remove(&first_id);
    let others = next_fragments(&other, DATAGRAM);
    assert_eq!(others.len(), fragmented.next.len());
    for datagram in &others[..others.len() - 1] {
        assert_eq!(fragmented.refused(datagram), ErrorKind::FragmentMismatch);
    }
    // Its last fragment completes a packet whose check fails.
    assert_eq!(fragmented.refused(others.last().expect("fragments")), ErrorKind::ChecksumMismatch);
    // The same packet split for smaller datagrams: another count.
    let small = next_fragments(&fragmented.world, DATAGRAM / 2);
    assert!(small.len() > fragmented.next.len());
    for datagram in &small {
        assert_eq!(fragmented.refused(datagram), ErrorKind::FragmentMismatch);
    }
    fragmented.completes();
}

#[test]
fn a_receiver_back_from_an_outage_catches_up_in_fragments() {
    // 40,000 packets lost one way: the next ones look older in 16 bits, and
    // their fragments carry all 32.
    let mut sender: Sender<Clock> = Sender::new();
    let mut receiver: Receiver<Clock> = Receiver::new();
    let mut fragments = Fragments::new(16, 4);
    let mut reassembly: Reassembly = Reassembly::new(16, 4);
    let mut decoded = 0;
    for tick in 0..41_100u32 {
        let world = Clock::at(tick);
        assert!(fragments.write(&mut sender, &world).expect("writes") > 1);
        if !(100..40_100).contains(&tick) {
            let mut new = None;
            for datagram in fragments.iter() {
                new = reassembly.read(&mut receiver, datagram).expect("takes").cloned();
            }
            assert_eq!(new, Some(world), "tick {tick}");
            decoded += 1;
        }
        sender.ack(&receiver.acks());
    }
    assert_eq!(decoded, 1_100);
}
