//! Generated code leans on nothing from the user's scope: the types below
//! live in a `#[no_implicit_prelude]` module that shadows the prelude's
//! names, and the whole file denies every warning and clippy lint.

#![deny(warnings, clippy::all)]

#[no_implicit_prelude]
mod shadowed {
    // Every prelude name the generated code could have leaned on, shadowed.
    #![allow(dead_code)]
    pub struct Result;
    pub struct Option;
    pub struct Some;
    pub struct None;
    pub struct Ok;
    pub struct Err;
    pub struct Box;
    pub struct Vec;
    pub struct String;
    pub struct Default;
    pub struct Into;
    pub struct From;
    pub struct Iterator;
    pub struct IntoIterator;
    pub trait BitPack {}
    pub trait BitWrite {}
    pub struct BitReader;
    pub struct Error;
    pub struct Signs;
    pub trait SignScope {}
    pub trait AdaptiveInt {}
    pub mod adaptive {}
    pub mod bitpack {}
    pub mod core {}
    pub mod keyed {}
    pub struct BTreeMap;
    pub struct Clone;
    pub struct PartialEq;
    pub trait KeyField {}
    pub trait Key {}
    pub struct Budget;
    pub trait Columns {}
    pub trait ColumnInt {}

    pub const MAX_HEALTH: i32 = 1000;
    pub const NAME_LEN: usize = 12;
    pub const LOW: f32 = -10.0;

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    #[bitpack(max_bytes = 64)]
    pub struct Named {
        #[bits(min = 0, max = MAX_HEALTH)]
        pub health: i32,
        #[quantize(min = LOW, max = 10.0, res = 0.5)]
        pub speed: f32,
        pub alive: bool,
        #[bitpack(max_len = NAME_LEN)]
        pub name: ::std::string::String,
        #[bits(min = -3, max = 3)]
        #[bitpack(max_len = 4)]
        pub steps: ::std::vec::Vec<i8>,
        pub maybe: ::core::option::Option<u16>,
        pub boxed: ::std::boxed::Box<u8>,
        #[bits(min = 0, max = 9)]
        pub grid: [u8; 3],
        pub pair: (bool, u8),
        #[bitpack(skip)]
        pub cache: u64,
        pub raw: f64,
        pub wide: i128,
    }

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub struct Tuple(#[bits(min = 10, max = 20)] pub u32, pub bool);

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub struct Unit;

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    #[bitpack(crate = ::bitpack)]
    pub enum Kinds {
        Empty,
        Pair(#[bits(min = 0, max = 3)] u8, Tuple),
        Fields {
            #[bitpack(max_len = 2)]
            tags: ::std::vec::Vec<::std::string::String>,
            #[bitpack(skip)]
            ignored: bool,
        },
    }

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub struct Generic<T, const N: usize> {
        pub items: [T; N],
        pub extra: ::core::option::Option<T>,
    }

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub enum Single {
        Only(bool),
    }

    #[derive(::bitpack::BitPack, ::core::fmt::Debug)]
    pub enum Never {}

    pub const RES: f64 = 0.001;

    /// Every adaptive form: ints, groups, `Vec`s, fixed point, nested scopes.
    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    #[bitpack(adaptive, max_bytes = 200)]
    pub struct Adaptive {
        pub id: u64,
        pub delta: i32,
        pub xyz: [i16; 3],
        #[bitpack(max_len = NAME_LEN)]
        pub scores: ::std::vec::Vec<i64>,
        pub maybe: ::core::option::Option<isize>,
        #[bitpack(max_len = 2)]
        pub grid: ::std::vec::Vec<[i8; 2]>,
        #[quantize(res = RES)]
        pub heading: f64,
        #[quantize(res = 1)]
        pub speed: f32,
        #[bitpack(adaptive)]
        pub inner: ::core::option::Option<AdaptiveKinds>,
        pub plain: Tuple,
    }

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub enum AdaptiveKinds {
        Still,
        Moved(#[bitpack(adaptive)] [i32; 2], bool),
        Named {
            #[bitpack(adaptive)]
            boxed: ::std::boxed::Box<(u8, i8)>,
            #[bitpack(skip)]
            ignored: bool,
        },
    }

    /// Adaptive field groups: named and apart, by the type, in a variant.
    /// A group's name is only a label (here a shadowed prelude name).
    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub struct FieldGroups {
        #[bitpack(adaptive(group = Option))]
        pub x: i32,
        pub flag: bool,
        #[bitpack(adaptive(group = Option))]
        pub y: i32,
    }

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    #[bitpack(adaptive(group))]
    pub struct TypeGroup(pub u16, pub u16, pub u16);

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub enum GroupKinds {
        Empty,
        Pair(#[bitpack(adaptive(group = p))] i8, bool, #[bitpack(adaptive(group = p))] i8),
    }

    pub const AXIS_MIN: [f32; 3] = [-8.0, -8.0, 0.0];
    pub const TURN_BITS: u32 = 11;

    /// A foreign type and its `with` module, without the prelude either.
    #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub struct Token(pub u32);

    pub mod token_bits {
        pub const MAX_BITS: usize = 32;
        pub const MIN_BITS: usize = 32;
        pub const SCHEMA: u64 = <u32 as ::bitpack::BitPack>::SCHEMA;

        pub fn write<W: ::bitpack::BitWrite>(
            value: &super::Token,
            writer: &mut W,
        ) -> ::core::result::Result<(), ::bitpack::Error> {
            ::bitpack::BitWrite::write_u32(writer, value.0)
        }

        pub fn read(
            reader: &mut impl ::bitpack::BitRead,
        ) -> ::core::result::Result<super::Token, ::bitpack::Error> {
            ::core::result::Result::Ok(super::Token(reader.read_u32()?))
        }
    }

    /// Issue 12's kinds: vectors, quaternions (in runs and relative in
    /// deltas), collections with `max_len`, `with`, the std impls.
    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub struct Geometry {
        #[change_group(motion)]
        #[bitpack(relative)]
        #[quantize(min = AXIS_MIN, max = [8.0, 8.0, 16.0], res = 0.5)]
        pub position: ::glam::Vec3,
        #[change_group(motion)]
        #[bitpack(relative)]
        #[quantize(bits = TURN_BITS)]
        pub rotation: ::glam::Quat,
        #[change_group]
        #[bitpack(relative)]
        #[bits(min = [0, -5], max = 10)]
        pub cell: ::glam::IVec2,
        #[quantize(bits = 9)]
        pub raw: [f32; 4],
        #[quantize(min = -1.0, max = 1.0, res = 0.25)]
        pub mint: ::mint::Vector2<f64>,
        pub plain: ::glam::Vec2,
        #[change_group]
        #[bitpack(max_len = 4)]
        pub name: ::std::boxed::Box<str>,
        #[bits(min = 0, max = 9)]
        #[bitpack(max_len = 3)]
        pub recent: ::std::collections::VecDeque<u8>,
        #[bitpack(max_len = 2)]
        pub scores: ::std::collections::HashMap<u8, ::std::vec::Vec<u8>>,
        #[bitpack(max_len = 2)]
        pub seen: ::std::collections::BTreeSet<i16>,
        #[bitpack(max_len = 2)]
        pub slots: ::std::rc::Rc<[u16]>,
        #[bitpack(with = token_bits)]
        pub token: Token,
        pub when: ::core::time::Duration,
        pub initial: char,
        pub id: ::core::num::NonZeroU8,
    }

    /// Adaptive values inside the new collections share the message's sign bit.
    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    #[bitpack(adaptive)]
    pub struct AdaptiveCollections {
        #[bitpack(max_len = 3)]
        pub deltas: ::std::collections::VecDeque<i32>,
        #[bitpack(max_len = 3)]
        pub by_id: ::std::collections::BTreeMap<u16, i64>,
        #[bitpack(max_len = 3)]
        pub boxed: ::std::boxed::Box<[i8]>,
    }

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub struct Inner {
        #[change_group]
        pub flag: bool,
    }

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub struct Grouped<T> {
        #[bits(min = 0, max = 15)]
        pub id: u8,
        #[change_group(motion)]
        #[bits(min = 0, max = MAX_HEALTH)]
        #[bitpack(relative)]
        pub x: i32,
        #[change_group(motion)]
        #[bitpack(max_len = 2)]
        pub path: ::std::vec::Vec<u8>,
        #[change_group(motion)]
        #[quantize(min = -8.0, max = 8.0, res = 0.5)]
        #[bitpack(relative)]
        pub heading: [f32; 2],
        #[change_group(motion)]
        #[quantize(min = -64.0, max = 64.0, res = 0.25)]
        #[bitpack(relative(rate = heading, dt = 0.5))]
        pub spot: [f32; 2],
        #[change_group]
        pub inner: Inner,
        #[change_group]
        pub generic: T,
        #[bitpack(skip)]
        pub cache: u64,
    }

    /// A `Vec` of a struct with quantized run leaves, written and read a
    /// block of elements at a time (issue 15); generic, with a skipped field.
    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub struct Moving<T> {
        #[bits(min = 0, max = 15)]
        pub id: u8,
        #[quantize(min = -8.0, max = 8.0, res = 0.5)]
        pub at: [f32; 2],
        #[quantize(min = 0.0, max = 1.0, res = 0.001)]
        pub turn: f64,
        pub extra: ::core::option::Option<T>,
        #[bitpack(skip)]
        pub cache: u64,
    }

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub struct Crowd {
        #[bitpack(max_len = 20)]
        pub moving: ::std::vec::Vec<Moving<u8>>,
    }

    /// An entry of the keyed collections below, keyed by `id` in a `Vec`.
    #[derive(
        ::bitpack::BitPack,
        ::core::fmt::Debug,
        ::core::clone::Clone,
        ::core::cmp::PartialEq,
        ::core::default::Default,
    )]
    pub struct Entity {
        #[change_group(identity)]
        #[bits(min = 0, max = 4095)]
        #[bitpack(key)]
        pub id: u16,
        #[change_group]
        #[bits(min = 0, max = MAX_HEALTH)]
        #[bitpack(relative)]
        pub health: i32,
    }

    pub const ENTRIES: usize = 64;

    pub fn fresh() -> Entity {
        Entity { id: 0, health: MAX_HEALTH }
    }

    /// Every keyed form: a map with a spawn function, a sorted `Vec` spawning
    /// `Default`, a nested type, a generic, a skipped field.
    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub struct Arena<T> {
        #[change_group(round)]
        pub round: u32,
        #[change_group]
        #[bitpack(max_len = ENTRIES, spawn = fresh)]
        pub by_id: ::std::collections::BTreeMap<u16, Entity>,
        #[change_group]
        #[bitpack(max_len = ENTRIES)]
        pub sorted: ::std::vec::Vec<Entity>,
        #[change_group]
        pub inner: Inner,
        #[change_group(generic)]
        pub generic: T,
        #[bitpack(skip)]
        pub cache: u64,
    }

    /// Issue 16's columns: every shape a column holds.
    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    #[bitpack(columns)]
    pub struct Cell {
        pub id: u32,
        pub dx: i16,
        #[bits(min = 0, max = 7)]
        pub kind: u8,
        pub flag: bool,
        pub speed: f32,
        #[bitpack(max_len = 8)]
        pub marks: ::std::vec::Vec<u16>,
        #[bitpack(max_len = NAME_LEN)]
        pub name: ::std::string::String,
        pub grid: [i8; 2],
        pub maybe: ::core::option::Option<Mood>,
        pub place: Pair,
        #[bitpack(skip)]
        pub cache: u64,
    }

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    #[bitpack(columns)]
    pub struct Pair(#[bits(min = 10, max = 20)] pub u32, pub bool);

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    #[bitpack(columns)]
    pub enum Mood {
        Calm,
        Angry(u8),
        Lost { steps: i32 },
    }

    /// Issue 16's bounded-adaptive lengths.
    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub struct Lengths {
        #[bitpack(max_len = 1_000_000, adaptive_len)]
        pub ids: ::std::vec::Vec<u32>,
        #[bitpack(max_len = NAME_LEN, adaptive_len)]
        pub recent: ::std::collections::VecDeque<Pair>,
        #[bitpack(max_len = 3, adaptive_len)]
        pub nested: ::std::boxed::Box<[::std::vec::Vec<bool>]>,
    }

    #[derive(::bitpack::BitPack, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub struct Board {
        #[bitpack(columns, max_len = 64)]
        pub cells: ::std::vec::Vec<Cell>,
        #[bitpack(columns)]
        pub corners: [Mood; 2],
    }
}

use ::bitpack::BitPack;
use shadowed::{
    Adaptive, AdaptiveCollections, AdaptiveKinds, Arena, Board, Cell, Crowd, Entity, FieldGroups, Generic,
    Geometry, GroupKinds, Grouped, Inner, Kinds, Lengths, Mood, Moving, Named, Never, Pair, Single, Token,
    Tuple, TypeGroup, Unit,
};

fn round_trip<T: BitPack + PartialEq + std::fmt::Debug>(value: &T) {
    let bytes = bitpack::encode(value).unwrap();
    let bits = bitpack::measure(value).unwrap();
    assert!(bits <= T::MAX_BITS && bits >= T::MIN_BITS);
    assert_eq!(bytes.len(), bits.div_ceil(8));
    assert_eq!(&bitpack::decode::<T>(&bytes).unwrap(), value);
}

#[test]
fn every_kind_of_type_round_trips_without_the_prelude() {
    let named = Named {
        health: 1000,
        speed: -2.5,
        alive: true,
        name: "hygienic".to_owned(),
        steps: vec![-3, 0, 3],
        maybe: Some(65535),
        boxed: Box::new(7),
        grid: [0, 9, 4],
        pair: (false, 200),
        cache: 0,
        raw: -1.25,
        wide: i128::MIN,
    };
    round_trip(&named);
    round_trip(&Tuple(15, true));
    round_trip(&Unit);
    round_trip(&Kinds::Empty);
    round_trip(&Kinds::Pair(3, Tuple(10, false)));
    round_trip(&Kinds::Fields { tags: vec!["a".to_owned(), String::new()], ignored: false });
    round_trip(&Generic::<u8, 2> { items: [1, 2], extra: None });
    round_trip(&Generic::<Tuple, 1> { items: [Tuple(20, true)], extra: Some(Tuple(11, false)) });
    round_trip(&Single::Only(true));
    assert_eq!(Unit::MAX_BITS, 0);
    assert_eq!(Single::MAX_BITS, 1);
    assert_eq!(Never::MAX_BITS, 0);
}

#[test]
fn blocks_of_elements_round_trip_without_the_prelude() {
    let moving = |index: u8| Moving {
        id: index % 16,
        at: [f32::from(index) * 0.5 - 8.0, 8.0],
        turn: f64::from(index) / 20.0,
        extra: index.is_multiple_of(3).then_some(index),
        cache: 0,
    };
    // 19 elements: two blocks of eight and three one by one.
    round_trip(&Crowd { moving: (0..19).map(moving).collect() });
}

#[test]
fn adaptive_types_round_trip_without_the_prelude() {
    let adaptive = Adaptive {
        id: u64::MAX,
        delta: -5,
        xyz: [1, -2, 3],
        scores: vec![i64::MIN, 0, 9],
        maybe: Some(-1),
        grid: vec![[1, 2], [-128, 127]],
        heading: -1.5,
        speed: 3.0,
        inner: Some(AdaptiveKinds::Named { boxed: Box::new((200, -100)), ignored: false }),
        plain: Tuple(12, true),
    };
    round_trip(&adaptive);
    round_trip(&Adaptive { inner: Some(AdaptiveKinds::Moved([-1, 1], true)), ..adaptive.clone() });
    round_trip(&Adaptive { inner: Some(AdaptiveKinds::Still), maybe: None, ..adaptive });
    round_trip(&AdaptiveKinds::Moved([i32::MIN, i32::MAX], false));
}

#[test]
fn adaptive_field_groups_round_trip_without_the_prelude() {
    round_trip(&FieldGroups { x: -100, flag: true, y: 101 });
    round_trip(&TypeGroup(0, 1, u16::MAX));
    round_trip(&GroupKinds::Empty);
    round_trip(&GroupKinds::Pair(i8::MIN, false, 5));
}

#[test]
fn skipped_fields_read_back_as_default() {
    let named_skip = Kinds::Fields { tags: vec![], ignored: true };
    let bytes = bitpack::encode(&named_skip).unwrap();
    assert_eq!(bitpack::decode::<Kinds>(&bytes).unwrap(), Kinds::Fields { tags: vec![], ignored: false });
}

#[test]
fn an_enum_without_variants_refuses_every_input() {
    let error = ::bitpack::decode::<Never>(&[]).unwrap_err();
    assert_eq!(error.kind(), ::bitpack::ErrorKind::InvalidTag);
}

#[test]
fn change_groups_work_without_the_prelude() {
    use ::bitpack::{BitReader, BitWrite, BitWriter, ChangeGroups};
    let value = Grouped {
        id: 3,
        x: 500,
        path: vec![1],
        heading: [1.5, -2.0],
        spot: [10.0, 10.0],
        inner: Inner { flag: true },
        generic: Inner { flag: false },
        cache: 0,
    };
    let mut latest = <Grouped<Inner> as ChangeGroups>::Tracker::default();
    let mut buf = [0u8; 16];
    let mut writer = BitWriter::new(&mut buf);
    value.write_changes(&mut writer, &Default::default(), &mut latest).unwrap();
    let used = writer.finish().unwrap();
    let mut seen = Grouped { x: 0, path: vec![], ..value.clone() };
    seen.read_changes(&mut BitReader::new(&buf[..used])).unwrap();
    assert_eq!(seen, value);

    // The spot where the baseline's heading moves it in 0.5: near.
    let moved = Grouped { x: 502, heading: [2.0, -2.0], spot: [10.75, 9.0], ..value.clone() };
    let mut writer = BitWriter::new(&mut buf);
    moved.write_delta(&value, &mut writer).unwrap();
    // id 4; motion 1 + x near (4) + path (2 + 8) + heading near (4 + 4) + spot near (4 + 4);
    // inner 1; generic 1.
    assert_eq!(writer.bits_written(), 4 + 1 + 4 + 10 + 8 + 8 + 1 + 1);
    let used = writer.finish().unwrap();
    assert_eq!(Grouped::read_delta(&value, &mut BitReader::new(&buf[..used])).unwrap(), moved);
}

#[test]
fn keyed_collections_work_without_the_prelude() {
    use ::bitpack::sync::{Receiver, Sender};
    let entity = |id: u16, health: i32| Entity { id, health };
    let mut arena = Arena {
        round: 1,
        by_id: (1..10).map(|id| (id * 3, entity(id * 3, 1000))).collect(),
        sorted: (1..10).map(|id| entity(id * 2, 500)).collect(),
        inner: Inner { flag: false },
        generic: 7u8,
        cache: 0,
    };
    for budget in [1024, 24] {
        let mut sender: Sender<Arena<u8>> = Sender::new();
        let mut receiver: Receiver<Arena<u8>> = Receiver::new();
        let mut buf = vec![0u8; budget];
        let mut partial = 0;
        for tick in 0..40u16 {
            arena.round += 1;
            arena.by_id.remove(&(tick * 3));
            arena.by_id.insert(100 + tick, entity(100 + tick, 999));
            if let Some(first) = arena.sorted.first_mut() {
                first.health -= 1;
            }
            arena.inner.flag = tick % 3 == 0;
            let sequence = sender.next_sequence();
            let used = sender.write(&arena, &mut buf).unwrap();
            let decoded = receiver.read(&buf[..used]).unwrap().cloned();
            assert_eq!(decoded.as_ref(), sender.sent(sequence).as_ref());
            partial += usize::from(sender.sent(sequence).as_ref() != Some(&arena));
            sender.ack(&receiver.acks());
        }
        assert_eq!(partial > 0, budget < 100, "{partial} packets held entries back");
        // Once the world stops changing, the client catches up.
        for _ in 0..20 {
            let used = sender.write(&arena, &mut buf).unwrap();
            receiver.read(&buf[..used]).unwrap();
            sender.ack(&receiver.acks());
        }
        let held = receiver.latest().unwrap();
        assert_eq!((&held.by_id, &held.sorted, held.round), (&arena.by_id, &arena.sorted, arena.round));
    }
}

fn geometry() -> Geometry {
    Geometry {
        position: glam::Vec3::new(1.5, -8.0, 16.0),
        rotation: glam::Quat::from_rotation_x(0.25),
        cell: glam::IVec2::new(10, -5),
        raw: [0.0, 0.0, 0.0, 1.0],
        mint: mint::Vector2 { x: -1.0, y: 0.25 },
        plain: glam::Vec2::new(0.5, -0.5),
        name: "ab".into(),
        recent: [9, 0].into_iter().collect(),
        scores: [(3, vec![1, 2]), (1, vec![])].into_iter().collect(),
        seen: [-1, 5].into_iter().collect(),
        slots: std::rc::Rc::from(vec![7u16]),
        token: Token(0xDEAD_BEEF),
        when: std::time::Duration::from_millis(1500),
        initial: 'x',
        id: std::num::NonZeroU8::new(4).unwrap(),
    }
}

#[test]
fn issue_12_kinds_round_trip_without_the_prelude() {
    // Quaternions read back on their grid: what is read round-trips exactly.
    let value = bitpack::decode::<Geometry>(&bitpack::encode(&geometry()).unwrap()).unwrap();
    assert_eq!(value.position, geometry().position);
    round_trip(&value);
    round_trip(&AdaptiveCollections {
        deltas: [-3, 0, i32::MAX].into_iter().collect(),
        by_id: [(1, -1), (9, i64::MIN)].into_iter().collect(),
        boxed: vec![-128, 127].into_boxed_slice(),
    });
    round_trip(&AdaptiveCollections {
        deltas: [1, 2].into_iter().collect(),
        by_id: Default::default(),
        boxed: Box::new([]),
    });
}

#[test]
fn issue_12_kinds_in_deltas_without_the_prelude() {
    use ::bitpack::{BitReader, BitWriter, ChangeGroups};
    let value = geometry();
    let moved = Geometry {
        position: glam::Vec3::new(2.0, -8.0, 16.0),
        cell: glam::IVec2::new(9, -4),
        ..value.clone()
    };
    let mut buf = [0u8; 64];
    let mut writer = BitWriter::new(&mut buf);
    moved.write_delta(&value, &mut writer).unwrap();
    let used = writer.finish().unwrap();
    let back = Geometry::read_delta(&value, &mut BitReader::new(&buf[..used])).unwrap();
    assert_eq!(back.position, moved.position);
    assert_eq!(back.cell, moved.cell);
    assert_eq!(back.name, moved.name);
}

#[test]
fn columns_round_trip_without_the_prelude() {
    let cell = |id: u32, maybe| Cell {
        id,
        dx: -7,
        kind: 5,
        flag: id.is_multiple_of(2),
        speed: 0.5,
        marks: vec![1, 2, id as u16],
        name: "cell".to_owned(),
        grid: [-1, 1],
        maybe,
        place: Pair(10 + id, true),
        cache: 0,
    };
    round_trip(&Board {
        cells: vec![cell(1, None), cell(2, Some(Mood::Angry(3))), cell(9, Some(Mood::Lost { steps: -40 }))],
        corners: [Mood::Calm, Mood::Angry(200)],
    });
}

#[test]
fn adaptive_lengths_round_trip_without_the_prelude() {
    let lengths = Lengths {
        ids: vec![1, u32::MAX, 3],
        recent: [Pair(10, true), Pair(20, false)].into_iter().collect(),
        nested: vec![vec![true], vec![], vec![false, true, true]].into_boxed_slice(),
    };
    round_trip(&lengths);
    round_trip(&Lengths { ids: vec![], recent: Default::default(), nested: Box::new([]) });
}
