//! A user who depends on the facade under another name points the derive at
//! it with `#[bitpack(crate = ...)]`; nothing in the generated code names
//! `bitpack` itself. This crate sees the facade as `netpack`.

use netpack::{BitPack, ChangeGroups};

#[derive(BitPack, Debug, Clone, PartialEq)]
#[bitpack(crate = ::netpack)]
enum Stance {
    Standing,
    Crouching {
        #[bits(min = 0, max = 3)]
        depth: u8,
    },
}

#[derive(BitPack, Debug, Clone, PartialEq)]
#[bitpack(crate = ::netpack, adaptive)]
struct Score(i64);

#[derive(BitPack, Debug, Clone, PartialEq)]
#[bitpack(crate = ::netpack)]
struct Soldier {
    #[bits(min = 0, max = 4095)]
    id: u16,
    #[change_group(motion)]
    #[quantize(min = -512.0, max = 512.0, res = 0.01)]
    x: f32,
    #[change_group(state)]
    stance: Stance,
    #[change_group(score)]
    score: Score,
    #[bitpack(max_len = 8)]
    name: String,
}

#[test]
fn derives_round_trip_through_a_renamed_facade() {
    let soldier = Soldier {
        id: 77,
        x: -12.5,
        stance: Stance::Crouching { depth: 2 },
        score: Score(-4000),
        name: "ada".into(),
    };
    let bytes = netpack::encode(&soldier).unwrap();
    assert_eq!(netpack::decode::<Soldier>(&bytes).unwrap(), soldier);
    // id, x, stance tag + depth, score (sign bit, 6-bit length, 12 bits),
    // name (4-bit length, 1 bit of padding to the byte, 3 bytes).
    assert_eq!(netpack::measure(&soldier).unwrap(), 12 + 17 + (1 + 2) + (1 + 6 + 12) + (4 + 1 + 24));

    let mut buf = [0u8; 32];
    let mut writer = netpack::BitWriter::new(&mut buf);
    let mut latest = <Soldier as ChangeGroups>::Tracker::default();
    soldier.write_changes(&mut writer, &Default::default(), &mut latest).unwrap();
    let used = writer.finish().unwrap();
    let mut received =
        Soldier { id: 77, x: 0.0, stance: Stance::Standing, score: Score(0), name: String::new() };
    received.read_changes(&mut netpack::BitReader::new(&buf[..used])).unwrap();
    assert_eq!(received, soldier);
}

/// A vector type of the user's, named like glam's: without attributes it
/// goes through its own `BitPack`, with or without the `glam` feature.
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
#[bitpack(crate = ::netpack)]
struct Vec3 {
    #[bits(min = -100, max = 100)]
    x: i16,
    #[bits(min = -100, max = 100)]
    y: i16,
    #[bits(min = -100, max = 100)]
    z: i16,
}

/// A foreign-like type and its `with` module.
#[derive(Debug, Clone, PartialEq)]
struct Ticket(u16);

mod ticket_bits {
    use netpack::{BitPack, BitRead, BitWrite, Error};

    pub const MAX_BITS: usize = 16;
    pub const MIN_BITS: usize = 16;
    pub const SCHEMA: u64 = <u16 as BitPack>::SCHEMA;

    pub fn write<W: BitWrite>(value: &super::Ticket, writer: &mut W) -> Result<(), Error> {
        value.0.write_to(writer)
    }

    pub fn read(reader: &mut impl BitRead) -> Result<super::Ticket, Error> {
        Ok(super::Ticket(u16::read_from(reader)?))
    }
}

/// Issue 12's kinds that need neither glam nor mint, through the renamed
/// facade (the crate's tests run it alone, with both features off).
#[derive(BitPack, Debug, Clone, PartialEq)]
#[bitpack(crate = ::netpack)]
struct Squad {
    #[change_group(motion)]
    #[bitpack(relative)]
    #[quantize(bits = 11)]
    facing: [f32; 4],
    #[change_group(motion)]
    leader: Vec3,
    #[bitpack(max_len = 8)]
    callsign: Box<str>,
    #[bits(min = 0, max = 9)]
    #[bitpack(max_len = 4)]
    recent: std::collections::VecDeque<u8>,
    #[bitpack(max_len = 4)]
    ranks: std::collections::BTreeMap<u8, char>,
    #[bitpack(with = ticket_bits)]
    ticket: Ticket,
    respawn: std::time::Duration,
}

#[test]
fn issue_12_kinds_round_trip_through_a_renamed_facade() {
    let squad = Squad {
        facing: [0.0, 0.0, 0.38268343, 0.9238795],
        leader: Vec3 { x: -100, y: 0, z: 100 },
        callsign: "bravo".into(),
        recent: [9, 0, 3].into_iter().collect(),
        ranks: [(1, 'a'), (2, 'b')].into_iter().collect(),
        ticket: Ticket(4242),
        respawn: std::time::Duration::from_secs(5),
    };
    // The quaternion reads back on its grid; what is read round-trips exactly.
    let read = netpack::decode::<Squad>(&netpack::encode(&squad).unwrap()).unwrap();
    assert_eq!((&read.callsign, &read.ranks, &read.ticket), (&squad.callsign, &squad.ranks, &squad.ticket));
    assert_eq!(netpack::decode::<Squad>(&netpack::encode(&read).unwrap()).unwrap(), read);
    assert_eq!(
        netpack::measure(&read).unwrap(),
        35 + 3 * 8 + (4 + 1 + 40) + (3 + 3 * 4) + (3 + 2 * (8 + 21)) + 16 + 94
    );
    // Unchanged, the motion group is one bit (the string then pads 3 bits to its byte).
    let mut counter = netpack::BitCounter::new();
    read.write_delta(&read, &mut counter).unwrap();
    assert_eq!(
        netpack::BitWrite::bits_written(&counter),
        1 + (4 + 3 + 40) + (3 + 3 * 4) + (3 + 2 * 29) + 16 + 94
    );
}
