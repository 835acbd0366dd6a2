//! Blocks of elements (issue 15): a derived `Vec` of a struct whose fused
//! runs hold quantized floats is written and read eight elements at a time,
//! the floats quantized and dequantized lane by lane. These tests hold it to
//! the scalar path, the elements' own `write_to` / `read_from` one after
//! another after the length (what the derive generated before blocks): the
//! same bytes, and on a refused value, a short buffer or corrupt input the
//! same error at the same bit, the writer or reader left where it was.

use crate::outcomes;

use bitpack::{__private, BitCounter, BitPack, BitRead, BitReader, BitWrite, Error};
use outcomes::{outcome, read_outcome};
use proptest::prelude::*;

#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
enum Kind {
    Still,
    Moving,
    Gone,
}

/// One run of 6 bits: a leaf of `Element`'s run (levels 6 and 7 are on the
/// wire but refused).
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct State {
    on: bool,
    #[bits(min = 0, max = 5)]
    level: u8,
    #[bits(min = -1, max = 1)]
    tilt: i8,
}

/// Every leaf kind in one run (bools, ranged ints, a u64, plain f32 and f64,
/// quantized f32 and f64, arrays of them), then fields that are not run
/// leaves, then a second run, and a skipped field.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Element {
    alive: bool,
    #[bits(min = -3, max = 3)]
    small: i8,
    #[bits(min = 0, max = u64::MAX)]
    wide: u64,
    raw: f32,
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    position: [f32; 3],
    #[quantize(min = 0.0, max = 6.283_185_5, res = 0.001)]
    yaw: f32,
    double: f64,
    #[quantize(min = -1.0e6, max = 1.0e6, res = 0.001)]
    precise: f64,
    #[bits(min = -1000, max = 1000)]
    offsets: [i32; 2],
    flags: [bool; 3],
    /// Nested leaves (an enum's tag, a one-run struct): in the block's run.
    kind: Kind,
    state: State,
    /// Its presence bit ends the block's run; its value follows it.
    #[bits(min = 0, max = 200)]
    target: Option<u8>,
    #[quantize(min = -1.0, max = 1.0, res = 0.0078125)]
    stick: [f32; 2],
    #[bits(min = 0, max = 100)]
    armor: u8,
    #[bitpack(skip)]
    cache: u32,
}

/// Two runs of quantized floats alone: the lanes of a block are all of it.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Point(
    #[quantize(min = -64.0, max = 64.0, res = 0.01)] f32,
    #[quantize(min = -64.0, max = 64.0, res = 0.01)] f32,
);

const MAX_LEN: usize = 40;

#[derive(BitPack, Debug, Clone, PartialEq)]
struct Batch {
    #[bitpack(max_len = 40)]
    elements: Vec<Element>,
    #[bitpack(max_len = 40)]
    points: Vec<Point>,
    /// An array: written a block at a time too (read element by element).
    corners: [Point; 11],
}

/// What the derive wrote for `Batch` before blocks: each `Vec` as its
/// length, then each element's `write_to`.
fn write_scalar<W: BitWrite>(batch: &Batch, w: &mut W) -> Result<(), Error> {
    __private::write_atomic(w, |w| {
        __private::write_len(w, batch.elements.len(), MAX_LEN)?;
        for element in &batch.elements {
            element.write_to(w)?;
        }
        __private::write_len(w, batch.points.len(), MAX_LEN)?;
        for point in &batch.points {
            point.write_to(w)?;
        }
        for corner in &batch.corners {
            corner.write_to(w)?;
        }
        Ok(())
    })
}

/// What the derive read for `Batch` before blocks: `read_vec` with each
/// element's `read_from`.
fn read_scalar<R: BitRead>(r: &mut R) -> Result<Batch, Error> {
    __private::read_atomic(r, |r| {
        let elements = __private::read_vec(r, MAX_LEN, Element::MIN_BITS, Element::read_from)?;
        let points = __private::read_vec(r, MAX_LEN, Point::MIN_BITS, Point::read_from)?;
        let corners = __private::read_array(r, Point::read_from)?;
        Ok(Batch { elements, points, corners })
    })
}

fn element(index: usize) -> Element {
    let at = index as f32;
    Element {
        alive: index.is_multiple_of(2),
        small: (index % 7) as i8 - 3,
        wide: u64::MAX - index as u64,
        raw: -at * 1.5,
        position: [at * 10.01 - 1024.0, 0.005 * at, 1023.99 - at],
        yaw: at * 0.1,
        double: core::f64::consts::PI * index as f64,
        precise: -123_456.789_4 + index as f64,
        offsets: [-1000 + index as i32, 999],
        flags: [true, index.is_multiple_of(3), false],
        kind: [Kind::Still, Kind::Moving, Kind::Gone][index % 3],
        state: State { on: index % 5 == 1, level: (index % 6) as u8, tilt: (index % 3) as i8 - 1 },
        target: (!index.is_multiple_of(4)).then_some(index as u8),
        stick: [at / 40.0, -at / 40.0],
        armor: (index * 3 % 101) as u8,
        cache: 0,
    }
}

fn batch(len: usize) -> Batch {
    Batch {
        elements: (0..len).map(element).collect(),
        points: (0..len).map(|i| Point(i as f32, -0.5)).collect(),
        corners: core::array::from_fn(|i| Point(-(i as f32), 63.99)),
    }
}

#[test]
fn blocks_write_the_scalar_bytes_and_read_them_back() {
    for len in [0, 1, 7, 8, 9, 16, 23, 40] {
        let value = batch(len);
        let blocks = outcome(4096, |w| value.write_to(w)).expect("writes");
        assert_eq!(blocks, outcome(4096, |w| write_scalar(&value, w)).expect("writes"), "{len}");
        let mut counter = BitCounter::new();
        value.write_to(&mut counter).expect("counts");
        assert_eq!(counter.bits_written(), blocks.1, "{len}: measuring agrees with writing");
        let back = read_outcome(&blocks.0, Batch::read_from);
        assert_eq!(back, read_outcome(&blocks.0, read_scalar), "{len}");
        assert_eq!(Batch::read_from(&mut BitReader::new(&blocks.0)).expect("reads").elements.len(), len);
    }
}

/// What is refused, and how to make an element refuse it.
type Refusal = (&'static str, fn(&mut Element));

#[test]
fn a_refused_value_in_any_lane_fails_where_the_scalar_path_does() {
    let refusals: [Refusal; 8] = [
        ("NaN position", |e| e.position[1] = f32::NAN),
        ("infinite yaw", |e| e.yaw = f32::INFINITY),
        ("NaN double", |e| e.precise = f64::NAN),
        ("small", |e| e.small = 4),
        ("offsets", |e| e.offsets[1] = 1001),
        ("armor", |e| e.armor = 101),
        ("state", |e| e.state.level = 6),
        ("target", |e| e.target = Some(201)),
    ];
    for (what, refuse) in refusals {
        for at in [0, 5, 7, 8, 15, 16, 18] {
            let mut value = batch(19);
            refuse(&mut value.elements[at]);
            let blocks = outcome(4096, |w| value.write_to(w));
            assert!(blocks.is_err(), "{what} at {at}");
            assert_eq!(blocks, outcome(4096, |w| write_scalar(&value, w)), "{what} at {at}");
            let mut counter = BitCounter::new();
            let counted = value.write_to(&mut counter).map_err(|e| (e, counter.bits_written()));
            assert_eq!(counted.err(), blocks.err(), "{what} at {at}: the counter refuses it the same way");
        }
    }
}

#[test]
fn every_short_buffer_and_every_cut_fails_where_the_scalar_path_does() {
    let value = batch(17);
    let (bytes, _) = outcome(4096, |w| value.write_to(w)).expect("writes");
    for len in 0..bytes.len() {
        assert_eq!(
            outcome(len, |w| value.write_to(w)),
            outcome(len, |w| write_scalar(&value, w)),
            "{len} bytes"
        );
        let cut = &bytes[..len];
        assert_eq!(read_outcome(cut, Batch::read_from), read_outcome(cut, read_scalar), "cut at {len}");
    }
}

/// A block checks the room for eight elements of `MAX_BITS` once; where
/// that is refused but the elements fit (every `target` of `None` leaves 8
/// of its bits unused), each element reserves its own: the same bytes, and
/// where they do not fit, the same error at the same bit.
#[test]
fn a_block_that_cannot_reserve_its_maximum_writes_as_the_scalar_path() {
    for len in 8..=25 {
        let elements: Vec<Element> = (0..len).map(element).collect();
        let blocks =
            |w: &mut bitpack::BitWriter<'_>| __private::write_items::<_, Element>(w, &elements, MAX_LEN);
        let scalar = |w: &mut bitpack::BitWriter<'_>| {
            __private::write_len(w, elements.len(), MAX_LEN)?;
            elements.iter().try_for_each(|item| item.write_to(w))
        };
        let (bytes, _) = outcome(4096, blocks).expect("writes");
        if len % 8 == 0 {
            // In a buffer of exactly `bytes`, the last block's room is its bits
            // and the padding of the last byte: short of its maximum.
            let last = outcome(4096, |w| elements[len - 8..].iter().try_for_each(|item| item.write_to(w)));
            let room = <Element as BitPack>::MAX_BITS * __private::BLOCK;
            assert!(last.expect("writes").1 + 7 < room, "{len}: the last block reserves its maximum");
        }
        for buf_len in bytes.len().saturating_sub(40)..=bytes.len() {
            assert_eq!(outcome(buf_len, blocks), outcome(buf_len, scalar), "{len} elements, {buf_len} bytes");
        }
        assert_eq!(outcome(bytes.len(), blocks).map(|(written, _)| written), Ok(bytes));
    }
}

#[test]
fn a_step_above_the_maximum_in_any_lane_is_refused_where_the_scalar_path_refuses_it() {
    // `Point`'s axes: 12800 steps of 0.01 in 14 bits, so 12801..=16383 are
    // on the wire but refused.
    assert_eq!(Point::MAX_BITS, 28);
    for at in 0..17u32 {
        for axis in 0..2 {
            for step in [0, 12_799, 12_800, 12_801, 16_383] {
                let mut buf = [0u8; 160];
                let mut writer = bitpack::BitWriter::new(&mut buf);
                writer.write_int(0, 0, 40).unwrap();
                writer.write_int(17, 0, 40).unwrap();
                for index in 0..17 {
                    for other in 0..2 {
                        let raw = if (index, other) == (at, axis) { step } else { 6_400 + index };
                        writer.write_bits(raw, 14).unwrap();
                    }
                }
                for _ in 0..22 {
                    writer.write_bits(0, 14).unwrap();
                }
                let used = writer.finish().unwrap();
                let bytes = &buf[..used];
                let blocks = read_outcome(bytes, Batch::read_from);
                assert_eq!(blocks, read_outcome(bytes, read_scalar), "{step} at {at}, axis {axis}");
                assert_eq!(blocks.0.starts_with("Ok"), step <= 12_800, "{step} at {at}, axis {axis}");
            }
        }
    }
}

#[test]
fn an_allocation_budget_is_claimed_as_by_the_scalar_path() {
    let value = batch(24);
    let (bytes, _) = outcome(4096, |w| value.write_to(w)).expect("writes");
    let bytes: &'static [u8] = bytes.leak();
    let size = 24 * size_of::<Element>();
    for limit in [0, size - 1, size, size + 24 * size_of::<Point>(), usize::MAX] {
        let read = |read: fn(&mut BitReader<'static>) -> Result<Batch, Error>| {
            let mut reader = BitReader::with_limit(bytes, limit);
            let result = read(&mut reader);
            (format!("{result:?}"), reader.bits_read(), reader.allocation_left())
        };
        assert_eq!(read(Batch::read_from), read(read_scalar), "limit {limit}");
    }
}

fn float() -> impl Strategy<Value = f32> {
    prop_oneof![
        6 => -1100.0f32..1100.0,
        2 => any::<f32>(),
        1 => Just(f32::NAN),
        1 => Just(f32::NEG_INFINITY),
    ]
}

fn elements() -> impl Strategy<Value = Element> {
    let int = || prop_oneof![9 => -1000i32..=1000, 1 => any::<i32>()];
    (
        (any::<bool>(), prop_oneof![9 => -3i8..=3, 1 => any::<i8>()], any::<u64>(), any::<f32>()),
        ([float(), float(), float()], prop_oneof![8 => -1.0f32..7.0, 1 => float()], any::<f64>()),
        (prop_oneof![8 => -1.1e6f64..1.1e6, 1 => any::<f64>(), 1 => Just(f64::NAN)], [int(), int()]),
        (any::<[bool; 3]>(), 0usize..3, any::<Option<u8>>(), [float(), float()]),
        (
            prop_oneof![9 => 0u8..=100, 1 => any::<u8>()],
            any::<bool>(),
            prop_oneof![9 => 0u8..=5, 1 => 6u8..=7],
        ),
    )
        .prop_map(
            |((alive, small, wide, raw), (position, yaw, double), (precise, offsets), rest, last)| {
                let (flags, kind, target, stick) = rest;
                let (armor, on, level) = last;
                let state = State { on, level, tilt: (level % 3) as i8 - 1 };
                let kind = [Kind::Still, Kind::Moving, Kind::Gone][kind];
                Element {
                    alive,
                    small,
                    wide,
                    raw,
                    position,
                    yaw,
                    double,
                    precise,
                    offsets,
                    flags,
                    kind,
                    state,
                    target,
                    stick,
                    armor,
                    cache: 0,
                }
            },
        )
}

/// Mostly values every lane takes (so whole blocks go through lanes), at
/// times a refused one somewhere.
fn batches() -> impl Strategy<Value = Batch> {
    let taken = element(3);
    let element = prop_oneof![3 => Just(taken), 1 => elements()];
    let point = prop_oneof![9 => (-64.0f32..64.0, -64.0f32..64.0), 1 => (float(), float())];
    let corners = proptest::collection::vec(point.clone(), 11);
    (proptest::collection::vec(element, 0..=MAX_LEN), proptest::collection::vec(point, 0..=MAX_LEN), corners)
        .prop_map(|(elements, points, corners)| {
            let point = |(x, y)| Point(x, y);
            let corners: Vec<Point> = corners.into_iter().map(point).collect();
            Batch {
                elements,
                points: points.into_iter().map(point).collect(),
                corners: corners.try_into().expect("11 corners"),
            }
        })
}

/// 65 bits in one run: too wide to be a leaf of a parent's run.
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct Wide {
    #[bits(min = 0, max = u64::MAX)]
    bits: u64,
    set: bool,
}

/// A nested field that is no leaf beside one that is: the block keeps the
/// planner's runs (the nested values through their own impls).
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct Tagged {
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    x: f32,
    wide: Wide,
    kind: Kind,
}

#[derive(BitPack, Debug, Clone, PartialEq)]
struct Tags {
    #[bitpack(max_len = 40)]
    tagged: Vec<Tagged>,
}

#[test]
fn only_nested_types_of_one_run_of_at_most_64_bits_are_leaves() {
    assert_eq!((Kind::__LEAF_BITS, State::__LEAF_BITS), (2, 6));
    assert!(!__private::is_leaf(Wide::__LEAF_BITS) && !__private::is_leaf(Element::__LEAF_BITS));
    let tags = Tags {
        tagged: (0..19)
            .map(|i| Tagged {
                x: i as f32 - 9.5,
                wide: Wide { bits: u64::MAX - i, set: i % 2 == 0 },
                kind: Kind::Gone,
            })
            .collect(),
    };
    let scalar = |w: &mut bitpack::BitWriter<'_>| -> Result<(), Error> {
        __private::write_len(w, tags.tagged.len(), MAX_LEN)?;
        tags.tagged.iter().try_for_each(|tagged| tagged.write_to(w))
    };
    let (bytes, bits) = outcome(4096, |w| tags.write_to(w)).expect("writes");
    assert_eq!((bytes.clone(), bits), outcome(4096, scalar).expect("writes"));
    assert_eq!(Tags::read_from(&mut BitReader::new(&bytes)).expect("reads"), tags);
    let read_scalar = |r: &mut BitReader<'_>| -> Result<Tags, Error> {
        Ok(Tags { tagged: __private::read_vec(r, MAX_LEN, Tagged::MIN_BITS, Tagged::read_from)? })
    };
    for len in 0..bytes.len() {
        let cut = &bytes[..len];
        assert_eq!(read_outcome(cut, Tags::read_from), read_outcome(cut, read_scalar), "cut at {len}");
    }
}

/// No quantized floats, but a nested leaf and an `Option` to join to the
/// run: blocks all the same (the integer twin's shape).
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct Mark {
    #[bits(min = 0, max = 999)]
    id: u16,
    kind: Kind,
    #[bits(min = 0, max = 99)]
    owner: Option<u8>,
}

#[derive(BitPack, Debug, Clone, PartialEq)]
struct Marks {
    #[bits(min = 0, max = 3)]
    head: u8,
    #[bitpack(max_len = 40)]
    marks: Vec<Mark>,
}

fn read_marks_scalar(r: &mut BitReader<'_>) -> Result<Marks, Error> {
    __private::read_atomic(r, |r| {
        let head = r.read_int(0, 3)? as u8;
        Ok(Marks { head, marks: __private::read_vec(r, MAX_LEN, Mark::MIN_BITS, Mark::read_from)? })
    })
}

fn marks() -> impl Strategy<Value = Marks> {
    let mark = (prop_oneof![9 => 0u16..=999, 1 => any::<u16>()], 0usize..3, any::<Option<u8>>()).prop_map(
        |(id, kind, owner)| Mark { id, kind: [Kind::Still, Kind::Moving, Kind::Gone][kind], owner },
    );
    (0u8..=3, proptest::collection::vec(mark, 0..=MAX_LEN)).prop_map(|(head, marks)| Marks { head, marks })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(512)))]

    #[test]
    fn blocks_without_floats_write_and_read_as_the_scalar_path(value in marks(), buf_len in 0usize..256) {
        let scalar = |w: &mut bitpack::BitWriter<'_>| -> Result<(), Error> {
            __private::write_atomic(w, |w| {
                w.write_int(i32::from(value.head), 0, 3)?;
                __private::write_len(w, value.marks.len(), MAX_LEN)?;
                value.marks.iter().try_for_each(|mark| mark.write_to(w))
            })
        };
        let blocks = outcome(buf_len, |w| value.write_to(w));
        prop_assert_eq!(&blocks, &outcome(buf_len, scalar));
        if let Ok((bytes, _)) = blocks {
            prop_assert_eq!(read_outcome(&bytes, Marks::read_from), read_outcome(&bytes, read_marks_scalar));
            for len in 0..bytes.len() {
                let cut = &bytes[..len];
                prop_assert_eq!(read_outcome(cut, Marks::read_from), read_outcome(cut, read_marks_scalar));
            }
        }
    }

    #[test]
    fn random_bytes_read_as_marks_by_the_scalar_path(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        prop_assert_eq!(read_outcome(&bytes, Marks::read_from), read_outcome(&bytes, read_marks_scalar));
    }


    #[test]
    fn blocks_write_and_read_as_the_scalar_path(value in batches(), buf_len in prop_oneof![1 => 0usize..4096, 3 => Just(4096usize)]) {
        let blocks = outcome(buf_len, |w| value.write_to(w));
        prop_assert_eq!(&blocks, &outcome(buf_len, |w| write_scalar(&value, w)));
        if let Ok((bytes, _)) = blocks {
            prop_assert_eq!(read_outcome(&bytes, Batch::read_from), read_outcome(&bytes, read_scalar));
        }
    }

    #[test]
    fn random_bytes_read_as_by_the_scalar_path(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        prop_assert_eq!(read_outcome(&bytes, Batch::read_from), read_outcome(&bytes, read_scalar));
    }

    #[test]
    fn corrupt_blocks_fail_where_the_scalar_path_does(
        value in batches(),
        flips in proptest::collection::vec((any::<usize>(), any::<bool>()), 1..4),
    ) {
        if let Ok((mut bytes, bits)) = outcome(4096, |w| value.write_to(w)) {
            for (bit, set) in flips {
                let bit = bit % bits.max(1);
                if set { bytes[bit / 8] |= 1 << (bit % 8) } else { bytes[bit / 8] &= !(1 << (bit % 8)) }
            }
            prop_assert_eq!(read_outcome(&bytes, Batch::read_from), read_outcome(&bytes, read_scalar));
        }
    }
}

/// A nested one-run struct of bools around a ranged int: its consecutive
/// bools are read at once (two to seven to a spread: 3, then 7 and 2).
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct Lights {
    on: bool,
    pair: [bool; 2],
    #[bits(min = 0, max = 2)]
    mode: u8,
    left: bool,
    right: bool,
    row: [bool; 7],
}

/// At most 255 bits an element (`__private::fits_window`): its blocks are
/// read through a window of the input, each element's leaves taken from it
/// with no check of their own, the `Option`'s value too (its bits taken
/// with the run's and given back when absent); refusable leaves of every
/// kind (a quantized step above the maximum, a ranged int, an enum's tag, a
/// nested struct's level and mode, the `Option`'s value); five `f32`s, in
/// two rows of four (the second padded).
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct Compact {
    #[bits(min = 0, max = 4095)]
    id: u16,
    kind: Kind,
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    position: [f32; 3],
    #[quantize(min = 0.0, max = 6.283_185_5, res = 0.001)]
    yaw: f32,
    #[quantize(min = -1.0e6, max = 1.0e6, res = 0.001)]
    precise: f64,
    #[bits(min = 0, max = 1000)]
    health: u16,
    state: State,
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    spin: f32,
    lights: Lights,
    #[bits(min = 0, max = 200)]
    target: Option<u8>,
}

#[derive(BitPack, Debug, Clone, PartialEq)]
struct Compacts {
    #[bits(min = 0, max = 3)]
    head: u8,
    #[bitpack(max_len = 40)]
    items: Vec<Compact>,
}

fn read_compacts_scalar(r: &mut BitReader<'_>) -> Result<Compacts, Error> {
    __private::read_atomic(r, |r| {
        let head = r.read_int(0, 3)? as u8;
        Ok(Compacts { head, items: __private::read_vec(r, MAX_LEN, Compact::MIN_BITS, Compact::read_from)? })
    })
}

fn compacts() -> impl Strategy<Value = Compacts> {
    let compact = (
        (0u16..=4095, 0usize..3, [-1024.0f32..1024.0, -1024.0f32..1024.0, -1024.0f32..1024.0]),
        (0.0f32..6.2, -1.0e6f64..1.0e6, 0u16..=1000),
        (any::<bool>(), 0u8..=5, prop_oneof![1 => Just(None), 3 => (0u8..=200).prop_map(Some)]),
        (-64.0f32..64.0, any::<[bool; 5]>(), 0u8..=2, any::<[bool; 7]>()),
    )
        .prop_map(
            |(
                (id, kind, position),
                (yaw, precise, health),
                (on, level, target),
                (spin, bools, mode, row),
            )| {
                Compact {
                    id,
                    kind: [Kind::Still, Kind::Moving, Kind::Gone][kind],
                    position,
                    yaw,
                    precise,
                    health,
                    state: State { on, level, tilt: (level % 3) as i8 - 1 },
                    spin,
                    lights: Lights {
                        on: bools[0],
                        pair: [bools[1], bools[2]],
                        mode,
                        left: bools[3],
                        right: bools[4],
                        row,
                    },
                    target,
                }
            },
        );
    (0u8..=3, proptest::collection::vec(compact, 0..=MAX_LEN))
        .prop_map(|(head, items)| Compacts { head, items })
}

#[test]
fn elements_of_at_most_255_bits_are_read_through_a_window() {
    assert!(__private::fits_window(Compact::MAX_BITS) && __private::fits_window(Mark::MAX_BITS));
    // The other path, the block's steps lane by lane, stays tested here.
    assert!(!__private::fits_window(Element::MAX_BITS));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(256)))]

    /// Every cut (the window padded near the input's end, blocks past it)
    /// and corrupt bits anywhere: the scalar path's value or error, at the
    /// same bit.
    #[test]
    fn windowed_blocks_read_as_the_scalar_path(
        value in compacts(),
        flips in proptest::collection::vec((any::<usize>(), any::<bool>()), 0..4),
    ) {
        let (mut bytes, bits) = outcome(4096, |w| value.write_to(w)).expect("writes");
        prop_assert_eq!(read_outcome(&bytes, Compacts::read_from), read_outcome(&bytes, read_compacts_scalar));
        prop_assert!(Compacts::read_from(&mut BitReader::new(&bytes)).is_ok());
        for len in 0..bytes.len() {
            let cut = &bytes[..len];
            prop_assert_eq!(read_outcome(cut, Compacts::read_from), read_outcome(cut, read_compacts_scalar));
        }
        for (bit, set) in flips {
            let bit = bit % bits.max(1);
            if set { bytes[bit / 8] |= 1 << (bit % 8) } else { bytes[bit / 8] &= !(1 << (bit % 8)) }
        }
        prop_assert_eq!(read_outcome(&bytes, Compacts::read_from), read_outcome(&bytes, read_compacts_scalar));
    }

    #[test]
    fn random_bytes_read_as_compacts_by_the_scalar_path(bytes in proptest::collection::vec(any::<u8>(), 0..700)) {
        prop_assert_eq!(read_outcome(&bytes, Compacts::read_from), read_outcome(&bytes, read_compacts_scalar));
    }
}

/// Quantized floats, ranged integers, nested leaves and an `Option`, all
/// one run, a block of eight under 256 bytes: written through a window with
/// its checks in the element loop (a refused value rewinds the block).
#[derive(BitPack, Debug, Clone, Copy, PartialEq)]
struct Unit {
    #[bits(min = 0, max = 999)]
    id: u16,
    kind: Kind,
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    at: [f32; 2],
    #[bits(min = -5, max = 5)]
    lean: i8,
    state: State,
    #[bits(min = 0, max = 200)]
    target: Option<u8>,
}

#[derive(BitPack, Debug, Clone, PartialEq)]
struct Units {
    #[bitpack(max_len = 40)]
    units: Vec<Unit>,
}

fn unit(index: usize) -> Unit {
    Unit {
        id: (index * 37 % 1000) as u16,
        kind: [Kind::Still, Kind::Moving, Kind::Gone][index % 3],
        at: [index as f32 * 1.5 - 20.0, 63.0 - index as f32],
        lean: (index % 11) as i8 - 5,
        state: State { on: index.is_multiple_of(2), level: (index % 6) as u8, tilt: (index % 3) as i8 - 1 },
        target: (!index.is_multiple_of(4)).then_some((index * 13 % 201) as u8),
    }
}

/// Every refusal the element loop checks, in every lane of three blocks and
/// the tail, and every short buffer: the scalar path's bytes, or its error
/// at its bit.
#[test]
fn checks_in_the_element_loop_refuse_where_the_scalar_path_does() {
    type UnitRefusal = (&'static str, fn(&mut Unit));
    let refusals: [UnitRefusal; 5] = [
        ("id", |u| u.id = 1000),
        ("lean", |u| u.lean = 6),
        ("state", |u| u.state.level = 7),
        ("target", |u| u.target = Some(201)),
        ("NaN", |u| u.at[1] = f32::NAN),
    ];
    // What the derive wrote before blocks: atomic, the length, each element.
    let scalar = |units: &Units, w: &mut bitpack::BitWriter<'_>| -> Result<(), Error> {
        __private::write_atomic(w, |w| {
            __private::write_len(w, units.units.len(), MAX_LEN)?;
            units.units.iter().try_for_each(|unit| unit.write_to(w))
        })
    };
    let value = Units { units: (0..27).map(unit).collect() };
    let (bytes, _) = outcome(4096, |w| value.write_to(w)).expect("writes");
    assert_eq!(Units::read_from(&mut BitReader::new(&bytes)).expect("reads"), value);
    for buf_len in 0..=bytes.len() + 300 {
        assert_eq!(
            outcome(buf_len, |w| value.write_to(w)),
            outcome(buf_len, |w| scalar(&value, w)),
            "{buf_len}"
        );
    }
    for (what, refuse) in refusals {
        for at in 0..27 {
            let mut value = value.clone();
            refuse(&mut value.units[at]);
            let blocks = outcome(4096, |w| value.write_to(w));
            assert!(blocks.is_err(), "{what} at {at}");
            assert_eq!(blocks, outcome(4096, |w| scalar(&value, w)), "{what} at {at}");
        }
    }
}
