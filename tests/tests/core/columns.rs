//! Issue 16's `#[bitpack(columns)]`: collections written field by field.
//! Every shape round-trips (proptest), writing and measuring agree, the
//! columns are smaller than rows where values are narrow, and hostile
//! bytes are refused with an `Err`, never a panic.

use bitpack::{BitPack, ErrorKind};
use proptest::prelude::*;

#[derive(BitPack, Clone, Debug, PartialEq)]
#[bitpack(columns)]
struct Point {
    id: u32,
    dx: i16,
    angle: u16,
    alive: bool,
    #[bits(min = 0, max = 100)]
    health: u8,
    speed: f32,
}

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Points {
    #[bitpack(columns, max_len = 4096)]
    points: Vec<Point>,
    #[bitpack(columns, max_len = 4096)]
    ids: Vec<u64>,
    tail: bool,
}

fn point() -> impl Strategy<Value = Point> {
    (
        any::<u32>(),
        any::<i16>(),
        any::<u16>(),
        any::<bool>(),
        0u8..=100,
        any::<f32>().prop_filter("NaN", |x| !x.is_nan()),
    )
        .prop_map(|(id, dx, angle, alive, health, speed)| Point { id, dx, angle, alive, health, speed })
}

fn round_trip<T: BitPack + PartialEq + core::fmt::Debug>(value: &T) -> usize {
    let bytes = bitpack::encode(value).unwrap();
    let bits = bitpack::measure(value).unwrap();
    assert_eq!(bytes.len(), bits.div_ceil(8));
    assert!(bits <= T::MAX_BITS && bits >= T::MIN_BITS);
    assert_eq!(&bitpack::decode::<T>(&bytes).unwrap(), value);
    bytes.len()
}

proptest! {
    #[test]
    fn structs_of_leaves_round_trip(points in prop::collection::vec(point(), 0..200), ids in prop::collection::vec(any::<u64>(), 0..50), tail: bool) {
        round_trip(&Points { points, ids, tail });
    }
}

#[test]
fn narrow_columns_are_smaller_than_rows() {
    let points: Vec<Point> = (0..100)
        .map(|i| Point {
            id: i * 3,
            dx: (i as i16) - 50,
            angle: 1000 + i as u16,
            alive: i % 3 == 0,
            health: 100,
            speed: 1.5,
        })
        .collect();
    let value = Points { points, ids: (0..100).collect(), tail: true };
    let bytes = round_trip(&value);
    // Rows: 32 + 16 + 16 + 1 + 7 + 32 bits a point, 64 an id.
    assert!(bytes * 8 < 100 * (104 + 64) / 2, "{bytes} bytes");
}

#[test]
fn hostile_bytes_are_refused_never_a_panic() {
    let value = Points {
        points: (0..20)
            .map(|i| Point { id: i, dx: -3, angle: 7, alive: true, health: 1, speed: 0.0 })
            .collect(),
        ids: vec![5, 6, 7],
        tail: false,
    };
    let bytes = bitpack::encode(&value).unwrap();
    for cut in 0..bytes.len() {
        let error = bitpack::decode::<Points>(&bytes[..cut]).unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::UnexpectedEnd | ErrorKind::NonCanonical | ErrorKind::TooLong),
            "{error:?}"
        );
    }
    let mut state = 0x1234_5678_9abc_def0u64;
    for _ in 0..2000 {
        let len = (state % 64) as usize;
        let noise: Vec<u8> = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        let _ = bitpack::decode::<Points>(&noise);
    }
}

/// Every shape a column holds: nested structs, enums (unit, tuple and
/// struct variants), `Option`s, inner `Vec`s, arrays, strings, declared
/// ranges and quantized floats, skipped fields.
#[derive(BitPack, Clone, Debug, PartialEq)]
#[bitpack(columns)]
struct Contact {
    id: u32,
    transform: Transform,
    #[bitpack(max_len = 64)]
    reloads: Vec<bool>,
    #[bitpack(max_len = 16)]
    turrets: Vec<u16>,
    guidance: Option<Guidance>,
    #[bitpack(max_len = 12)]
    name: String,
    hints: [i8; 3],
    #[quantize(min = 0.0, max = 1.0, res = 0.01)]
    damage: f32,
    #[bitpack(skip)]
    local: u8,
    maybe: Option<i64>,
}

#[derive(BitPack, Clone, Debug, PartialEq)]
#[bitpack(columns)]
struct Transform(i16, i16, u16);

#[derive(BitPack, Clone, Debug, PartialEq)]
#[bitpack(columns)]
enum Guidance {
    Idle,
    Heading(u16),
    Seek {
        target: u32,
        #[bits(min = 0, max = 3)]
        mode: u8,
    },
}

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Update {
    tick: u32,
    #[bitpack(columns, max_len = 1000)]
    contacts: Vec<Contact>,
    #[bitpack(columns)]
    fixed: [Transform; 4],
    #[bitpack(columns, max_len = 100)]
    guides: Vec<Option<Guidance>>,
}

fn guidance() -> impl Strategy<Value = Guidance> {
    prop_oneof![
        Just(Guidance::Idle),
        any::<u16>().prop_map(Guidance::Heading),
        (any::<u32>(), 0u8..=3).prop_map(|(target, mode)| Guidance::Seek { target, mode }),
    ]
}

fn transform() -> impl Strategy<Value = Transform> {
    (any::<i16>(), any::<i16>(), any::<u16>()).prop_map(|(x, y, a)| Transform(x, y, a))
}

fn contact() -> impl Strategy<Value = Contact> {
    (
        (
            any::<u32>(),
            transform(),
            prop::collection::vec(any::<bool>(), 0..=64),
            prop::collection::vec(any::<u16>(), 0..=16),
        ),
        (
            prop::option::of(guidance()),
            "[a-z\u{e9}]{0,6}",
            any::<[i8; 3]>(),
            0u8..=100,
            prop::option::of(any::<i64>()),
        ),
    )
        .prop_map(|((id, transform, reloads, turrets), (guidance, name, hints, damage, maybe))| {
            Contact {
                id,
                transform,
                reloads,
                turrets,
                guidance,
                name,
                hints,
                damage: f32::from(damage) / 100.0,
                local: 0,
                maybe,
            }
        })
}

proptest! {
    #[test]
    fn every_shape_round_trips(
        tick: u32,
        contacts in prop::collection::vec(contact(), 0..40),
        fixed in prop::array::uniform4(transform()),
        guides in prop::collection::vec(prop::option::of(guidance()), 0..30),
    ) {
        let value = Update { tick, contacts, fixed, guides };
        let bytes = bitpack::encode(&value).unwrap();
        let decoded = bitpack::decode::<Update>(&bytes).unwrap();
        // The quantized damage reads back to its step.
        prop_assert_eq!(decoded.contacts.len(), value.contacts.len());
        prop_assert_eq!(bitpack::encode(&decoded).unwrap(), bytes.clone());
        for (read, written) in decoded.contacts.iter().zip(&value.contacts) {
            prop_assert_eq!(&read.name, &written.name);
            prop_assert_eq!(&read.guidance, &written.guidance);
            prop_assert_eq!(&read.reloads, &written.reloads);
            prop_assert_eq!(&read.turrets, &written.turrets);
            prop_assert_eq!(read.maybe, written.maybe);
            prop_assert!((read.damage - written.damage).abs() < 0.006);
        }
        prop_assert_eq!(&decoded.fixed, &value.fixed);
        prop_assert_eq!(&decoded.guides, &value.guides);
        prop_assert!(bitpack::measure(&value).unwrap() <= Update::MAX_BITS);
    }
}

#[derive(BitPack, Clone, Debug, PartialEq)]
#[bitpack(columns)]
struct Odd {
    nothing: [u16; 0],
    pair: [Transform; 2],
    #[bitpack(max_len = 3)]
    nested: Vec<Vec<u8>>,
}

#[test]
fn empty_arrays_arrays_of_structs_and_vecs_of_vecs_round_trip() {
    let odd = |i: i16| Odd {
        nothing: [],
        pair: [Transform(i, -i, 3), Transform(0, 1, 2)],
        nested: vec![vec![], vec![i as u8; 3]],
    };
    #[derive(BitPack, Clone, Debug, PartialEq)]
    struct Odds {
        #[bitpack(columns, max_len = 8)]
        odds: Vec<Odd>,
    }
    for count in [0, 1, 5] {
        round_trip(&Odds { odds: (0..count).map(odd).collect() });
    }
}

/// A columns field inside change groups: sent whole in its group, like any field.
#[derive(BitPack, Clone, Debug, PartialEq, Default)]
struct Tracked {
    #[change_group]
    tick: u32,
    #[change_group]
    #[bitpack(columns, max_len = 32)]
    cells: Vec<u16>,
}

#[test]
fn a_columns_field_rides_in_a_change_group() {
    use bitpack::{BitReader, BitWrite, BitWriter, ChangeGroups};
    let value = Tracked { tick: 5, cells: vec![3, 4, 5000] };
    round_trip(&value);
    let mut latest = <Tracked as ChangeGroups>::Tracker::default();
    let mut buf = [0u8; 64];
    let mut writer = BitWriter::new(&mut buf);
    value.write_changes(&mut writer, &Default::default(), &mut latest).unwrap();
    let used = writer.finish().unwrap();
    let mut seen = Tracked::default();
    seen.read_changes(&mut BitReader::new(&buf[..used])).unwrap();
    assert_eq!(seen, value);
    // Unchanged: one flag bit per group.
    let confirmed = latest.clone();
    let mut writer = BitWriter::new(&mut buf);
    value.write_changes(&mut writer, &confirmed, &mut latest).unwrap();
    assert_eq!(writer.bits_written(), 2);
}
