//! Fused runs: a derived type writes consecutive fixed-width fields (bools,
//! ranged and plain integers, compressed and raw floats, short arrays of
//! them) as one and reads them as one. These tests hold it to the fields
//! written and read one by one through the public core API, as one value
//! (a failed derived write or read is undone whole): the same bytes, and
//! when a value is refused or the buffer is short, the same error at the
//! same bit with the writer or reader left where it started.

use crate::outcomes;

use bitpack::{__private, BitCounter, BitPack, BitRead, BitReader, BitWrite, Error};
use outcomes::{outcome, read_outcome};
use proptest::prelude::*;

/// Every kind of leaf, runs longer than 64 bits (several pushes), a 64-bit
/// leaf, a zero-width one, and an optional field that ends the run.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Leaves {
    flag: bool,
    #[bits(min = -3, max = 3)]
    small: i8,
    /// Zero bits: a range of one value.
    #[bits(min = 7, max = 7)]
    constant: u16,
    plain_u8: u8,
    plain_i16: i16,
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    position: [f32; 3],
    raw: f32,
    #[bits(min = 0, max = u64::MAX)]
    wide: u64,
    plain_i64: i64,
    #[bits(min = -1000, max = 1000)]
    offsets: [i32; 2],
    more: [bool; 3],
    double: f64,
    #[bits(min = 1, max = 1_000_000)]
    last: u32,
    /// A compressed double: 31 bits.
    #[quantize(min = -1.0e6, max = 1.0e6, res = 0.001)]
    precise: f64,
    tail: Option<u8>,
}

/// [`Leaves`] written one field at a time through the core, as one value.
fn write_by_hand<W: BitWrite>(v: &Leaves, w: &mut W) -> Result<(), Error> {
    __private::write_atomic(w, |w| write_fields(v, w))
}

fn write_fields<W: BitWrite>(v: &Leaves, w: &mut W) -> Result<(), Error> {
    w.write_bool(v.flag)?;
    w.write_int(i32::from(v.small), -3, 3)?;
    w.write_int(i32::from(v.constant), 7, 7)?;
    w.write_u8(v.plain_u8)?;
    w.write_int(i32::from(v.plain_i16), i32::from(i16::MIN), i32::from(i16::MAX))?;
    for axis in v.position {
        w.write_compressed_float(axis, -1024.0, 1024.0, 0.01)?;
    }
    w.write_f32(v.raw)?;
    w.write_u64(v.wide)?;
    w.write_int64(v.plain_i64, i64::MIN, i64::MAX)?;
    for offset in v.offsets {
        w.write_int(offset, -1000, 1000)?;
    }
    for flag in v.more {
        w.write_bool(flag)?;
    }
    w.write_f64(v.double)?;
    // A `u32` outside i32 is out of range too: write it as one that is.
    w.write_int(i32::try_from(v.last).unwrap_or(-1), 1, 1_000_000)?;
    w.write_compressed_double(v.precise, -1.0e6, 1.0e6, 0.001)?;
    match v.tail {
        Some(tail) => {
            w.write_bool(true)?;
            w.write_u8(tail)
        }
        None => w.write_bool(false),
    }
}

/// [`Leaves`] read one field at a time through the core, as one value.
fn read_by_hand<R: BitRead>(r: &mut R) -> Result<Leaves, Error> {
    __private::read_atomic(r, read_fields)
}

fn read_fields<R: BitRead>(r: &mut R) -> Result<Leaves, Error> {
    let flag = r.read_bool()?;
    let small = r.read_int(-3, 3)? as i8;
    let constant = r.read_int(7, 7)? as u16;
    let plain_u8 = r.read_u8()?;
    let plain_i16 = r.read_int(i32::from(i16::MIN), i32::from(i16::MAX))? as i16;
    let mut position = [0.0; 3];
    for axis in &mut position {
        *axis = r.read_compressed_float(-1024.0, 1024.0, 0.01)?;
    }
    let raw = r.read_f32()?;
    let wide = r.read_u64()?;
    let plain_i64 = r.read_int64(i64::MIN, i64::MAX)?;
    let mut offsets = [0; 2];
    for offset in &mut offsets {
        *offset = r.read_int(-1000, 1000)?;
    }
    let mut more = [false; 3];
    for flag in &mut more {
        *flag = r.read_bool()?;
    }
    let double = r.read_f64()?;
    let last = r.read_int(1, 1_000_000)? as u32;
    let precise = r.read_compressed_double(-1.0e6, 1.0e6, 0.001)?;
    let tail = if r.read_bool()? { Some(r.read_u8()?) } else { None };
    Ok(Leaves {
        flag,
        small,
        constant,
        plain_u8,
        plain_i16,
        position,
        raw,
        wide,
        plain_i64,
        offsets,
        more,
        double,
        last,
        precise,
        tail,
    })
}

fn sample() -> Leaves {
    Leaves {
        flag: true,
        small: -3,
        constant: 7,
        plain_u8: 200,
        plain_i16: -12_345,
        position: [-1024.0, 0.005, 1023.99],
        raw: -0.0,
        wide: u64::MAX - 1,
        plain_i64: i64::MIN + 3,
        offsets: [-1000, 999],
        more: [true, false, true],
        double: core::f64::consts::PI,
        last: 1_000_000,
        precise: -123_456.789_4,
        tail: Some(9),
    }
}

#[test]
fn a_run_writes_the_fields_bytes_and_reads_them_back() {
    let value = sample();
    let derived = outcome(64, |w| value.write_to(w)).expect("writes");
    let by_hand = outcome(64, |w| write_by_hand(&value, w)).expect("writes");
    assert_eq!(derived, by_hand);
    // 1+3+0+8+16+3*18+32+64+64+2*11+3+64+20+31 in the run, then 1+8.
    assert_eq!(derived.1, 382 + 9);
    assert_eq!(Leaves::MAX_BITS, 391);
    let mut counter = BitCounter::new();
    value.write_to(&mut counter).expect("counts");
    assert_eq!(counter.bits_written(), derived.1);
    let back = Leaves::read_from(&mut BitReader::new(&derived.0)).expect("reads");
    assert_eq!(
        format!("{:?}", Ok::<_, Error>(&back)),
        format!("{:?}", read_by_hand(&mut BitReader::new(&derived.0)))
    );
    assert_eq!(back.position[0], -1024.0);
    assert_eq!(
        (back.wide, back.plain_i64, back.offsets, back.last),
        (value.wide, value.plain_i64, value.offsets, value.last)
    );
}

#[test]
fn a_refused_value_fails_where_the_field_does() {
    let cases: Vec<(&str, Leaves)> = vec![
        ("small", Leaves { small: 4, ..sample() }),
        ("constant", Leaves { constant: 8, ..sample() }),
        ("position", Leaves { position: [0.0, f32::NAN, 0.0], ..sample() }),
        ("offsets", Leaves { offsets: [0, 1001], ..sample() }),
        ("last", Leaves { last: 0, ..sample() }),
        ("last", Leaves { last: u32::MAX, ..sample() }),
        ("precise", Leaves { precise: f64::INFINITY, ..sample() }),
    ];
    for (field, value) in cases {
        let derived = outcome(64, |w| value.write_to(w));
        let by_hand = outcome(64, |w| write_by_hand(&value, w));
        assert!(derived.is_err(), "{field}");
        assert_eq!(derived, by_hand, "{field}");
        let mut counter = BitCounter::new();
        let counted = value.write_to(&mut counter).map_err(|e| (e, counter.bits_written()));
        assert_eq!(counted.err(), derived.err(), "{field}: the counter refuses it the same way");
    }
}

#[test]
fn every_short_buffer_and_every_cut_fails_where_the_fields_do() {
    let value = sample();
    let (bytes, _) = outcome(64, |w| value.write_to(w)).expect("writes");
    for len in 0..bytes.len() {
        assert_eq!(
            outcome(len, |w| value.write_to(w)),
            outcome(len, |w| write_by_hand(&value, w)),
            "{len} bytes"
        );
        let cut = &bytes[..len];
        assert_eq!(read_outcome(cut, Leaves::read_from), read_outcome(cut, read_by_hand), "cut at {len}");
    }
}

fn leaves() -> impl Strategy<Value = Leaves> {
    let offset = || prop_oneof![9 => -1000i32..=1000, 1 => any::<i32>()];
    let float = || prop_oneof![8 => -1100.0f32..1100.0, 1 => Just(f32::NAN), 1 => Just(f32::NEG_INFINITY)];
    (
        (
            any::<bool>(),
            prop_oneof![9 => -3i8..=3, 1 => any::<i8>()],
            prop_oneof![9 => Just(7u16), 1 => any::<u16>()],
        ),
        (any::<u8>(), any::<i16>(), [float(), float(), float()], any::<f32>()),
        (
            any::<u64>(),
            any::<i64>(),
            [offset(), offset()],
            prop_oneof![8 => -1.1e6f64..1.1e6, 1 => Just(f64::NAN), 1 => Just(f64::INFINITY)],
        ),
        (
            any::<[bool; 3]>(),
            any::<f64>(),
            prop_oneof![9 => 1u32..=1_000_000, 1 => any::<u32>()],
            any::<Option<u8>>(),
        ),
    )
        .prop_map(
            |(
                (flag, small, constant),
                (plain_u8, plain_i16, position, raw),
                (wide, plain_i64, offsets, precise),
                rest,
            )| {
                let (more, double, last, tail) = rest;
                Leaves {
                    flag,
                    small,
                    constant,
                    plain_u8,
                    plain_i16,
                    position,
                    raw,
                    wide,
                    plain_i64,
                    offsets,
                    more,
                    double,
                    last,
                    precise,
                    tail,
                }
            },
        )
}

proptest! {
    #[test]
    fn writes_match_the_fields_written_one_by_one(value in leaves(), buf_len in 0usize..54) {
        let derived = outcome(buf_len, |w| value.write_to(w));
        prop_assert_eq!(&derived, &outcome(buf_len, |w| write_by_hand(&value, w)));
        if let Ok((bytes, _)) = derived {
            let back = read_outcome(&bytes, Leaves::read_from);
            prop_assert_eq!(back, read_outcome(&bytes, read_by_hand));
        }
    }

    #[test]
    fn reads_match_the_fields_read_one_by_one(bytes in proptest::collection::vec(any::<u8>(), 0..54)) {
        prop_assert_eq!(read_outcome(&bytes, Leaves::read_from), read_outcome(&bytes, read_by_hand));
    }

    #[test]
    fn corrupt_runs_fail_where_the_fields_do(value in leaves(), flips in proptest::collection::vec((0usize..391, any::<bool>()), 1..4)) {
        if let Ok((mut bytes, bits)) = outcome(64, |w| value.write_to(w)) {
            for (bit, set) in flips {
                let bit = bit % bits;
                if set { bytes[bit / 8] |= 1 << (bit % 8) } else { bytes[bit / 8] &= !(1 << (bit % 8)) }
            }
            prop_assert_eq!(read_outcome(&bytes, Leaves::read_from), read_outcome(&bytes, read_by_hand));
        }
    }
}
