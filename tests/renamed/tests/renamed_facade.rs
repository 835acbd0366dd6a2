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
