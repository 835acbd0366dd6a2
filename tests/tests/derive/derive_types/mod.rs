//! Derived types shared by the derive test binaries, with proptest
//! strategies that make random in-range values of each.

#![allow(dead_code)]

use bitpack::BitPack;
use proptest::prelude::*;

pub const MAX_HEALTH: i32 = 1000;
pub const NAME_LEN: usize = 16;

#[derive(BitPack, Debug, Clone, PartialEq)]
pub struct EntityId(#[bits(min = 0, max = 4095)] pub u16);

#[derive(BitPack, Debug, Clone, PartialEq)]
pub enum Weapon {
    Fists,
    Sword {
        #[bits(min = 1, max = 5)]
        level: u8,
    },
    Bow(#[bits(min = 0, max = 99)] u8, bool),
}

#[derive(BitPack, Debug, Clone, PartialEq)]
#[bitpack(max_bytes = 1200)]
pub struct Player {
    #[bits(min = 0, max = MAX_HEALTH)]
    pub health: i32,
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    pub x: f32,
    pub alive: bool,
    #[bitpack(max_len = NAME_LEN)]
    pub name: String,
    #[bits(min = 0, max = 99)]
    #[bitpack(max_len = 8)]
    pub inventory: Vec<u8>,
    pub weapon: Weapon,
    pub target: Option<EntityId>,
}

/// Every integer type, ranged and at full range.
#[derive(BitPack, Debug, Clone, PartialEq)]
pub struct Ranges {
    #[bits(min = -100, max = 100)]
    pub small: i8,
    #[bits(min = 1000, max = 1000)]
    pub constant: u16,
    #[bits(min = 0, max = 3_000_000_000)]
    pub big_u32: u32,
    #[bits(min = -5_000_000_000, max = 5_000_000_000)]
    pub big_i64: i64,
    #[bits(min = 10, max = 18_000_000_000_000_000_000)]
    pub big_u64: u64,
    #[bits(min = -170141183460469231731687303715884105728, max = 0)]
    pub low_i128: i128,
    #[bits(min = 170141183460469231731687303715884105728, max = 340282366920938463463374607431768211455)]
    pub high_u128: u128,
    #[bits(min = 0, max = 100_000)]
    pub count: usize,
    #[bits(min = -7, max = 7)]
    pub offset: isize,
    pub full_u8: u8,
    pub full_i16: i16,
    pub full_u64: u64,
    pub full_i128: i128,
}

/// Quantized floats beside raw ones.
#[derive(BitPack, Debug, Clone, PartialEq)]
pub struct Floats {
    #[quantize(min = -1.0, max = 1.0, res = 0.001)]
    pub unit: f32,
    #[quantize(min = 0, max = 360, res = 0.5)]
    pub angle: f32,
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    #[bitpack(max_len = 4)]
    pub path: Vec<f32>,
    pub raw: f32,
    pub raw64: f64,
}

/// Containers nested in containers; attributes reach every value inside.
#[derive(BitPack, Debug, Clone, PartialEq)]
pub struct Containers {
    #[bitpack(max_len = 3)]
    pub names: Option<Vec<String>>,
    #[bits(min = 0, max = 9)]
    pub slots: [Option<u8>; 3],
    pub boxed: Box<(u8, bool)>,
    #[bitpack(max_len = 4)]
    pub grid: Vec<Vec<bool>>,
    #[bits(min = -1, max = 1)]
    pub pairs: (i8, i32),
    #[bitpack(skip)]
    pub cache: Vec<u64>,
    pub ids: [EntityId; 2],
}

#[derive(BitPack, Debug, Clone, PartialEq)]
pub struct Wrapper<T> {
    pub inner: T,
    #[bitpack(max_len = 2)]
    pub more: Vec<T>,
}

#[derive(BitPack, Debug, Clone, PartialEq)]
pub struct Huge {
    #[bitpack(max_len = 1000)]
    pub numbers: Vec<u64>,
    #[bitpack(max_len = 100000)]
    pub text: String,
    #[bitpack(max_len = 1000)]
    pub units: Vec<()>,
}

pub fn entity_id() -> impl Strategy<Value = EntityId> {
    (0u16..=4095).prop_map(EntityId)
}

pub fn weapon() -> impl Strategy<Value = Weapon> {
    prop_oneof![
        Just(Weapon::Fists),
        (1u8..=5).prop_map(|level| Weapon::Sword { level }),
        (0u8..=99, any::<bool>()).prop_map(|(arrows, flaming)| Weapon::Bow(arrows, flaming)),
    ]
}

pub fn text(max_len: usize) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[a-zA-Z0-9 é😀]{{0,{max_len}}}"))
        .expect("a valid regex")
        .prop_filter("at most max_len bytes", move |s| s.len() <= max_len)
}

pub fn player() -> impl Strategy<Value = Player> {
    (
        0..=MAX_HEALTH,
        -1024.0f32..=1024.0,
        any::<bool>(),
        text(NAME_LEN),
        proptest::collection::vec(0u8..=99, 0..=8),
        weapon(),
        proptest::option::of(entity_id()),
    )
        .prop_map(|(health, x, alive, name, inventory, weapon, target)| Player {
            health,
            x,
            alive,
            name,
            inventory,
            weapon,
            target,
        })
}

pub fn ranges() -> impl Strategy<Value = Ranges> {
    (
        (-100i8..=100, Just(1000u16), 0u32..=3_000_000_000, -5_000_000_000i64..=5_000_000_000),
        (10u64..=18_000_000_000_000_000_000, i128::MIN..=0, (1u128 << 127)..=u128::MAX),
        (0usize..=100_000, -7isize..=7, any::<u8>(), any::<i16>(), any::<u64>(), any::<i128>()),
    )
        .prop_map(|((small, constant, big_u32, big_i64), (big_u64, low_i128, high_u128), rest)| {
            let (count, offset, full_u8, full_i16, full_u64, full_i128) = rest;
            Ranges {
                small,
                constant,
                big_u32,
                big_i64,
                big_u64,
                low_i128,
                high_u128,
                count,
                offset,
                full_u8,
                full_i16,
                full_u64,
                full_i128,
            }
        })
}

pub fn floats() -> impl Strategy<Value = Floats> {
    (
        -1.0f32..=1.0,
        0.0f32..=360.0,
        proptest::collection::vec(-1024.0f32..=1024.0, 0..=4),
        any::<f32>(),
        any::<f64>(),
    )
        .prop_map(|(unit, angle, path, raw, raw64)| Floats { unit, angle, path, raw, raw64 })
}

pub fn containers() -> impl Strategy<Value = Containers> {
    (
        proptest::option::of(proptest::collection::vec(text(3), 0..=3)),
        [proptest::option::of(0u8..=9), proptest::option::of(0u8..=9), proptest::option::of(0u8..=9)],
        (any::<u8>(), any::<bool>()),
        proptest::collection::vec(proptest::collection::vec(any::<bool>(), 0..=4), 0..=4),
        (-1i8..=1, -1i32..=1),
        [entity_id(), entity_id()],
    )
        .prop_map(|(names, slots, boxed, grid, pairs, ids)| Containers {
            names,
            slots,
            boxed: Box::new(boxed),
            grid,
            pairs,
            cache: Vec::new(),
            ids,
        })
}

pub fn wrapper() -> impl Strategy<Value = Wrapper<Weapon>> {
    (weapon(), proptest::collection::vec(weapon(), 0..=2)).prop_map(|(inner, more)| Wrapper { inner, more })
}
