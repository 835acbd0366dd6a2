//! Every `__private` name generated code calls, called the way
//! `bitpack-derive` emits it: through the path `crate::__private` (the
//! generated `::bitpack::__private`), with the generated argument forms, in
//! hand expansions of a few types. Renaming or reshaping one of them fails
//! here, in the core's own tests, before any derive test runs. A derive
//! change that calls a new runtime name adds a use of it here.
//!
//! The derive's names come from `bitpack-derive/src/expand/runtime.rs` (per
//! integer and float type) and its `quote!`s (`#p::...`); each type below
//! names the derive files whose output it copies.

// The forms as generated, which clippy leaves alone in derived impls.
#![allow(
    clippy::redundant_closure,
    clippy::needless_question_mark,
    clippy::deref_addrof,
    clippy::identity_op,
    clippy::collapsible_if,
    unused_parens
)]

use crate::__private as p;
// The tests' own checks call methods; the hand expansions spell every path.
use crate::{
    BitCounter, BitPack as _, BitRead as _, BitReader, BitWrite as _, BitWriter, ErrorKind, bits_required,
};

/// Writes `value` with its `BitPack` impl: the bytes, and the bits counted.
fn encode<T: p::BitPack>(value: &T) -> (alloc::vec::Vec<u8>, usize) {
    let mut counter = BitCounter::new();
    value.write_to(&mut counter).expect("counts");
    let mut buf = alloc::vec![0u8; T::MAX_BITS.div_ceil(8)];
    let mut writer = BitWriter::new(&mut buf);
    value.write_to(&mut writer).expect("fits in MAX_BITS");
    assert_eq!(writer.bits_written(), counter.bits_written(), "the writer and the counter agree");
    let used = writer.finish().expect("fits");
    buf.truncate(used);
    (buf, counter.bits_written())
}

/// `encode`, then reads it back with the type's `read_from`.
fn round_trip<T: p::BitPack + PartialEq + core::fmt::Debug>(value: &T) -> usize {
    let (bytes, bits) = encode(value);
    assert!((T::MIN_BITS..=T::MAX_BITS).contains(&bits), "{bits} bits outside MIN_BITS..=MAX_BITS");
    assert_eq!(&T::read_from(&mut BitReader::new(&bytes)).expect("reads back"), value);
    bits
}

const GRID: usize = 2;

/// A struct of every leaf and container form (expand/body.rs, items.rs,
/// checks.rs, run.rs, codec/{bool,int,float,text,containers,nested}.rs):
/// `on` to `raw64` are one fused run; `cache` is `#[bitpack(skip)]`.
#[derive(Debug, PartialEq)]
struct Plain {
    on: bool,
    /// `#[bits(min = 0, max = 9)]`
    level: u8,
    /// `#[quantize(min = -1.0, max = 1.0, res = 0.01)]`
    x: f32,
    /// `#[quantize(min = -1.0e6, max = 1.0e6, res = 0.001)]`
    far: f64,
    raw: f32,
    raw64: f64,
    /// `#[bitpack(max_len = 8)]`
    name: p::String,
    /// `#[bitpack(max_len = 4)]`
    list: p::Vec<u16>,
    maybe: p::Option<bool>,
    boxed: p::Box<u8>,
    /// An array of a length the derive does not see as a literal.
    grid: [u8; GRID],
    boxed_grid: p::Box<[u8; GRID]>,
    cache: u32,
}

// The compile-time checks of declarations given as paths.
const _: () = if let p::Some(problem) = p::ranged_u8::problem(0, 9) {
    core::panic!("{}", problem.as_str())
};
const _: () = if let p::Some(problem) = p::quantize_problem(-1.0, 1.0, 0.01) {
    core::panic!("{}", problem)
};
const _: () = if let p::Some(problem) = p::quantize64_problem(-1.0e6, 1.0e6, 0.001) {
    core::panic!("{}", problem)
};

const PLAIN_WIDTHS: [u32; 6] = [
    1,
    (p::ranged_u8::bits(0, 9) as u32),
    (p::quantize_bits(-1.0, 1.0, 0.01) as u32),
    (p::quantize64_bits(-1.0e6, 1.0e6, 0.001) as u32),
    32u32,
    64u32,
];
const PLAIN_RUN_BITS: usize = p::run_bits(&PLAIN_WIDTHS);

impl Plain {
    /// The body of `write_to`, as generated both inside the reservation
    /// and after it.
    fn write_body<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        let mut valid = true;
        let value0 = p::bool_bits(self.on);
        let value1 = p::ranged_u8::run_bits(self.level, 0, 9, &mut valid);
        let value2 = p::quantized_bits(self.x, -1.0, 1.0, 0.01, &mut valid);
        let value3 = p::quantized64_bits(self.far, -1.0e6, 1.0e6, 0.001, &mut valid);
        let value4 = p::f32_bits(self.raw);
        let value5 = p::f64_bits(self.raw64);
        if valid && p::run_fits(writer, PLAIN_RUN_BITS) {
            let mut run = p::RunWriter::new();
            run.put(writer, value0, PLAIN_WIDTHS[0]);
            run.put(writer, value1, PLAIN_WIDTHS[1]);
            run.put(writer, value2, PLAIN_WIDTHS[2]);
            run.put(writer, value3, PLAIN_WIDTHS[3]);
            run.put(writer, value4, PLAIN_WIDTHS[4]);
            run.put(writer, value5, PLAIN_WIDTHS[5]);
            run.finish(writer);
        } else {
            <bool as p::BitPack>::write_to(&self.on, writer)?;
            p::ranged_u8::write(writer, self.level, 0, 9)?;
            p::BitWrite::write_compressed_float(writer, self.x, -1.0, 1.0, 0.01)?;
            p::BitWrite::write_compressed_double(writer, self.far, -1.0e6, 1.0e6, 0.001)?;
            <f32 as p::BitPack>::write_to(&self.raw, writer)?;
            <f64 as p::BitPack>::write_to(&self.raw64, writer)?;
        }
        p::write_rust_string(writer, &self.name, 8)?;
        p::write_len(writer, p::Vec::len(&self.list), 4)?;
        for element in &self.list {
            <u16 as p::BitPack>::write_to(element, writer)?;
        }
        match &self.maybe {
            p::Some(value) => {
                p::BitWrite::write_bool(writer, true)?;
                <bool as p::BitPack>::write_to(value, writer)?;
            }
            p::None => p::BitWrite::write_bool(writer, false)?,
        }
        <u8 as p::BitPack>::write_to(&(*self.boxed), writer)?;
        for element in &self.grid {
            <u8 as p::BitPack>::write_to(element, writer)?;
        }
        for element in &(*self.boxed_grid) {
            <u8 as p::BitPack>::write_to(element, writer)?;
        }
        p::Ok(())
    }
}

impl p::BitPack for Plain {
    const MAX_BITS: usize = p::sum(&[
        <bool as p::BitPack>::MAX_BITS,
        p::ranged_u8::bits(0, 9),
        p::quantize_bits(-1.0, 1.0, 0.01),
        p::quantize64_bits(-1.0e6, 1.0e6, 0.001),
        <f32 as p::BitPack>::MAX_BITS,
        <f64 as p::BitPack>::MAX_BITS,
        p::str_max_bits(8),
        p::vec_max_bits(4, <u16 as p::BitPack>::MAX_BITS),
        p::sum(&[1, <bool as p::BitPack>::MAX_BITS]),
        <u8 as p::BitPack>::MAX_BITS,
        p::times(GRID, <u8 as p::BitPack>::MAX_BITS),
        p::times(GRID, <u8 as p::BitPack>::MAX_BITS),
    ]);
    const MIN_BITS: usize = p::sum(&[
        <bool as p::BitPack>::MIN_BITS,
        p::ranged_u8::bits(0, 9),
        p::quantize_bits(-1.0, 1.0, 0.01),
        p::quantize64_bits(-1.0e6, 1.0e6, 0.001),
        <f32 as p::BitPack>::MIN_BITS,
        <f64 as p::BitPack>::MIN_BITS,
        p::len_bits(8),
        p::len_bits(4),
        1,
        <u8 as p::BitPack>::MIN_BITS,
        p::times(GRID, <u8 as p::BitPack>::MIN_BITS),
        p::times(GRID, <u8 as p::BitPack>::MIN_BITS),
    ]);
    const SCHEMA: u64 = p::schema::sequence(&[
        <bool as p::BitPack>::SCHEMA,
        p::ranged_u8::schema(0, 9),
        p::schema::quantized(-1.0, 1.0, 0.01),
        p::schema::quantized64(-1.0e6, 1.0e6, 0.001),
        <f32 as p::BitPack>::SCHEMA,
        <f64 as p::BitPack>::SCHEMA,
        p::schema::string(8),
        p::schema::vec(4, <u16 as p::BitPack>::SCHEMA),
        p::schema::option(<bool as p::BitPack>::SCHEMA),
        <u8 as p::BitPack>::SCHEMA,
        p::schema::array(GRID, <u8 as p::BitPack>::SCHEMA),
        p::schema::array(GRID, <u8 as p::BitPack>::SCHEMA),
    ]);

    fn write_to<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        p::write_atomic(
            writer,
            #[inline(always)]
            |writer| {
                if let p::Some(mut reserved) = p::reserve(writer, <Self as p::BitPack>::MAX_BITS) {
                    let writer = &mut reserved;
                    return self.write_body(writer);
                }
                self.write_body(writer)
            },
        )
    }

    fn read_from<__R: p::BitRead>(reader: &mut __R) -> p::Result<Self, p::Error> {
        p::read_atomic(
            reader,
            #[inline(always)]
            |reader| Self::read_body(reader),
        )
    }
}

impl Plain {
    /// The body of `read_from`.
    fn read_body<__R: p::BitRead>(reader: &mut __R) -> p::Result<Self, p::Error> {
        let (on, level, x, far, raw, raw64) = 'run: {
            if p::run_remains(reader, PLAIN_RUN_BITS) {
                let mut run = p::RunReader::new(PLAIN_RUN_BITS);
                let mut valid = true;
                let leaf0 = p::bool_value(run.get(reader, PLAIN_WIDTHS[0]));
                let leaf1 = p::ranged_u8::run_value(run.get(reader, PLAIN_WIDTHS[1]), 0, 9, &mut valid);
                let leaf2 = p::quantized_value(run.get(reader, PLAIN_WIDTHS[2]), -1.0, 1.0, 0.01, &mut valid);
                let leaf3 =
                    p::quantized64_value(run.get(reader, PLAIN_WIDTHS[3]), -1.0e6, 1.0e6, 0.001, &mut valid);
                let leaf4 = p::f32_value(run.get(reader, PLAIN_WIDTHS[4]));
                let leaf5 = p::f64_value(run.get(reader, PLAIN_WIDTHS[5]));
                if valid {
                    break 'run (leaf0, leaf1, leaf2, leaf3, leaf4, leaf5);
                }
                p::unread_run(reader, PLAIN_RUN_BITS);
            }
            (
                <bool as p::BitPack>::read_from(reader)?,
                p::ranged_u8::read(reader, 0, 9)?,
                p::BitRead::read_compressed_float(reader, -1.0, 1.0, 0.01)?,
                p::BitRead::read_compressed_double(reader, -1.0e6, 1.0e6, 0.001)?,
                <f32 as p::BitPack>::read_from(reader)?,
                <f64 as p::BitPack>::read_from(reader)?,
            )
        };
        let name = p::read_rust_string(reader, 8)?;
        let list = p::read_vec(reader, 4, <u16 as p::BitPack>::MIN_BITS, |reader| {
            let element = <u16 as p::BitPack>::read_from(reader)?;
            p::Ok(element)
        })?;
        let maybe = if p::BitRead::read_bool(reader)? {
            p::Some(<bool as p::BitPack>::read_from(reader)?)
        } else {
            p::None
        };
        let boxed = p::read_box(reader, |reader| {
            let element = <u8 as p::BitPack>::read_from(reader)?;
            p::Ok(element)
        })?;
        let grid = p::read_array(reader, <u8 as p::BitPack>::read_from)?;
        let boxed_grid = p::read_boxed_array(reader, |reader| {
            let element = <u8 as p::BitPack>::read_from(reader)?;
            p::Ok(element)
        })?;
        let cache = <u32 as p::Default>::default();
        p::Ok(Plain { on, level, x, far, raw, raw64, name, list, maybe, boxed, grid, boxed_grid, cache })
    }
}

/// `-123_456.789` as it reads back: a value on the quantizer's grid.
fn far() -> f64 {
    let mut buf = [0u8; 4];
    let mut writer = BitWriter::new(&mut buf);
    crate::BitWrite::write_compressed_double(&mut writer, -123_456.789, -1.0e6, 1.0e6, 0.001).unwrap();
    writer.finish().unwrap();
    BitReader::new(&buf).read_compressed_double(-1.0e6, 1.0e6, 0.001).unwrap()
}

fn plain() -> Plain {
    Plain {
        on: true,
        level: 7,
        x: 0.25,
        far: far(),
        raw: -0.0,
        raw64: f64::MIN_POSITIVE,
        name: "grunt".into(),
        list: alloc::vec![3, 60_000],
        maybe: p::Some(false),
        boxed: p::Box::new(200),
        grid: [1, 2],
        boxed_grid: p::Box::new([3, 4]),
        cache: 0,
    }
}

#[test]
fn a_struct_writes_what_the_public_calls_write() {
    let value = plain();
    let (bytes, bits) = encode(&value);
    let mut buf = [0u8; 64];
    let mut by_hand = BitWriter::new(&mut buf);
    let w = &mut by_hand;
    crate::BitWrite::write_bool(w, true).unwrap();
    crate::BitWrite::write_int(w, 7, 0, 9).unwrap();
    crate::BitWrite::write_compressed_float(w, 0.25, -1.0, 1.0, 0.01).unwrap();
    crate::BitWrite::write_compressed_double(w, far(), -1.0e6, 1.0e6, 0.001).unwrap();
    crate::BitWrite::write_f32(w, -0.0).unwrap();
    crate::BitWrite::write_f64(w, f64::MIN_POSITIVE).unwrap();
    crate::BitWrite::write_str(w, "grunt", 8).unwrap();
    crate::BitWrite::write_int(w, 2, 0, 4).unwrap();
    crate::BitWrite::write_u16(w, 3).unwrap();
    crate::BitWrite::write_u16(w, 60_000).unwrap();
    crate::BitWrite::write_bool(w, true).unwrap();
    crate::BitWrite::write_bool(w, false).unwrap();
    for byte in [200, 1, 2, 3, 4] {
        crate::BitWrite::write_u8(w, byte).unwrap();
    }
    assert_eq!(by_hand.bits_written(), bits);
    let used = by_hand.finish().unwrap();
    assert_eq!(bytes, buf[..used]);
    assert_eq!(round_trip(&value), bits);

    let run = 1 + bits_required(0, 9) as usize + 8 + 31 + 32 + 64;
    assert_eq!(PLAIN_RUN_BITS, run);
    // The string: length, 7 bits of padding at most, 8 bytes; the Vec:
    // length then 4 u16; the Option; the Box; the arrays.
    assert_eq!(<Plain as p::BitPack>::MAX_BITS, run + (4 + 7 + 64) + (3 + 64) + 2 + 8 + 16 + 16);
    assert_eq!(<Plain as p::BitPack>::MIN_BITS, run + 4 + 3 + 1 + 8 + 16 + 16);
}

#[test]
fn a_struct_falls_back_from_its_run_as_generated() {
    // A refused value: the run is skipped and the field's own write refuses.
    let refused = Plain { level: 10, ..plain() };
    let error = refused.write_to(&mut BitCounter::new()).unwrap_err();
    assert_eq!((error.kind(), error.bit()), (ErrorKind::OutOfRange, 1));
    // A leaf the run reads out of range: read again field by field, which
    // refuses it at its own bit.
    let (mut bytes, _) = encode(&plain());
    bytes[0] |= 0b1_1110; // level 15
    let error = <Plain as p::BitPack>::read_from(&mut BitReader::new(&bytes)).unwrap_err();
    assert_eq!((error.kind(), error.bit()), (ErrorKind::OutOfRange, 1));
    // Too few bits for the run: read field by field, up to the end.
    let (bytes, _) = encode(&plain());
    let error = <Plain as p::BitPack>::read_from(&mut BitReader::new(&bytes[..10])).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::UnexpectedEnd);
}

/// An enum (expand/body.rs, checks.rs for `#[bitpack(max_bytes = 64)]`).
#[derive(Debug, PartialEq)]
enum Shape {
    Empty,
    /// `#[bits(min = 0, max = 3)]` on the `u8`.
    Dot(u8, bool),
    /// `#[quantize(min = 0.0, max = 10.0, res = 0.5)]`
    Line {
        len: f32,
    },
}

impl p::BitPack for Shape {
    const MAX_BITS: usize = {
        let max_bits: usize = p::sum(&[
            p::tag_bits(3),
            p::max(&[
                p::sum(&[]),
                p::sum(&[p::ranged_u8::bits(0, 3), <bool as p::BitPack>::MAX_BITS]),
                p::sum(&[p::quantize_bits(0.0, 10.0, 0.5)]),
            ]),
        ]);
        if let p::Some(problem) = p::max_bytes_problem("Shape", max_bits, 64) {
            core::panic!("{}", problem.as_str())
        }
        max_bits
    };
    const MIN_BITS: usize = p::sum(&[
        p::tag_bits(3),
        p::min(&[
            p::sum(&[]),
            p::sum(&[p::ranged_u8::bits(0, 3), <bool as p::BitPack>::MIN_BITS]),
            p::sum(&[p::quantize_bits(0.0, 10.0, 0.5)]),
        ]),
    ]);
    const SCHEMA: u64 = p::schema::enumeration(&[
        p::schema::sequence(&[]),
        p::schema::sequence(&[p::ranged_u8::schema(0, 3), <bool as p::BitPack>::SCHEMA]),
        p::schema::sequence(&[p::schema::quantized(0.0, 10.0, 0.5)]),
    ]);

    fn write_to<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        p::write_atomic(
            writer,
            #[inline(always)]
            |writer| {
                let tag: u32 = match self {
                    Self::Empty => 0,
                    Self::Dot { .. } => 1,
                    Self::Line { .. } => 2,
                };
                p::write_tag(writer, tag, 3)?;
                match self {
                    Self::Empty => {}
                    Self::Dot(field0, field1) => {
                        p::ranged_u8::write(writer, *field0, 0, 3)?;
                        <bool as p::BitPack>::write_to(field1, writer)?;
                    }
                    Self::Line { len } => p::BitWrite::write_compressed_float(writer, *len, 0.0, 10.0, 0.5)?,
                }
                p::Ok(())
            },
        )
    }

    // Its fields are all run leaves (expand/some.rs): `Some` of it in one push.
    #[inline(always)]
    fn __gathered_some(&self) -> p::Option<p::Gathered> {
        let mut __valid = true;
        let __gathered = match self {
            Self::Empty => p::Gathered::some(0, p::tag_bits(3) as ::core::primitive::u32),
            Self::Dot(__field0, __field1) => p::Gathered::some(1, p::tag_bits(3) as ::core::primitive::u32)
                .put(
                    p::ranged_u8::run_bits(*__field0, 0, 3, &mut __valid),
                    (p::ranged_u8::bits(0, 3) as ::core::primitive::u32),
                )
                .put(p::bool_bits(*__field1), 1),
            Self::Line { len: __field0 } => p::Gathered::some(2, p::tag_bits(3) as ::core::primitive::u32)
                .put(
                    p::quantized_bits(*__field0, 0.0, 10.0, 0.5, &mut __valid),
                    (p::quantize_bits(0.0, 10.0, 0.5) as ::core::primitive::u32),
                ),
        };
        __gathered.accepted(__valid)
    }

    fn read_from<__R: p::BitRead>(reader: &mut __R) -> p::Result<Self, p::Error> {
        p::read_atomic(
            reader,
            #[inline(always)]
            |reader| {
                p::Ok(match p::read_tag(reader, 3)? {
                    0 => Self::Empty,
                    1 => {
                        Self::Dot(p::ranged_u8::read(reader, 0, 3)?, <bool as p::BitPack>::read_from(reader)?)
                    }
                    2 => Self::Line { len: p::BitRead::read_compressed_float(reader, 0.0, 10.0, 0.5)? },
                    _ => return p::Err(p::invalid_tag(reader)),
                })
            },
        )
    }
}

/// An enum without variants: only `invalid_tag` reads it.
enum Never {}

impl p::BitPack for Never {
    const MAX_BITS: usize = p::sum(&[p::tag_bits(0), p::max(&[])]);
    const MIN_BITS: usize = p::sum(&[p::tag_bits(0), p::min(&[])]);
    const SCHEMA: u64 = p::schema::enumeration(&[]);

    fn write_to<W: p::BitWrite>(&self, _writer: &mut W) -> p::Result<(), p::Error> {
        match *self {}
    }

    fn read_from<__R: p::BitRead>(reader: &mut __R) -> p::Result<Self, p::Error> {
        p::Err(p::invalid_tag(reader))
    }
}

#[test]
fn enums_write_their_tag_then_the_variant() {
    assert_eq!(round_trip(&Shape::Empty), 2);
    assert_eq!(round_trip(&Shape::Dot(3, true)), 2 + 2 + 1);
    assert_eq!(round_trip(&Shape::Line { len: 9.5 }), 2 + 5);
    assert_eq!((<Shape as p::BitPack>::MAX_BITS, <Shape as p::BitPack>::MIN_BITS), (7, 2));
    // Tag 3 of 3 variants is past the tag's range.
    let error = <Shape as p::BitPack>::read_from(&mut BitReader::new(&[0b11])).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::OutOfRange);
    assert_eq!((<Never as p::BitPack>::MAX_BITS, <Never as p::BitPack>::MIN_BITS), (0, 0));
    let error = <Never as p::BitPack>::read_from(&mut BitReader::new(&[])).err().unwrap();
    assert_eq!(error.kind(), ErrorKind::InvalidTag);
    assert_ne!(<Shape as p::BitPack>::SCHEMA, <Never as p::BitPack>::SCHEMA);
    let problem = p::max_bytes_problem("Shape", 65, 8).unwrap();
    assert!(problem.as_str().contains("MAX_BITS = 65"));
}

#[test]
fn some_of_an_enum_of_run_leaves_is_the_bit_then_the_enum() {
    // Gathered: the bit, the tag, the fields.
    assert_eq!(round_trip(&Some(Shape::Empty)), 1 + 2);
    assert_eq!(round_trip(&Some(Shape::Dot(3, true))), 1 + 2 + 2 + 1);
    let (bytes, _) = encode(&Some(Shape::Dot(2, true)));
    // The bool (1), the field (2), the tag (1), the presence bit (1).
    assert_eq!(bytes, [(1 << 5) | (2 << 3) | (1 << 1) | 1]);
    assert_eq!(round_trip(&Some(Shape::Line { len: 9.5 })), 1 + 2 + 5);
    // Refused (4 is past the range, a NaN is no step): as the bit and the
    // enum's own write refuse it, at the field's bit; in too short a
    // buffer at the presence bit or the tag.
    for (shape, kind) in [
        (Shape::Dot(4, false), ErrorKind::OutOfRange),
        (Shape::Line { len: f32::NAN }, ErrorKind::NonFiniteFloat),
    ] {
        let mut buf = [0u8; 2];
        let error = Some(shape).write_to(&mut BitWriter::new(&mut buf)).unwrap_err();
        assert_eq!((error.kind(), error.bit()), (kind, 3));
    }
    let mut writer = BitWriter::new(&mut []);
    let error = Some(Shape::Empty).write_to(&mut writer).unwrap_err();
    assert_eq!((error.kind(), error.bit(), writer.bits_written()), (ErrorKind::BufferFull, 0, 0));
    // An `Option` field of it (codec/containers.rs), written and counted.
    let field: p::Option<Shape> = p::Some(Shape::Dot(2, true));
    let mut buf = [0u8; 1];
    let mut writer = BitWriter::new(&mut buf);
    p::write_option::<_, Shape>(&mut writer, p::Option::as_ref(&field)).unwrap();
    let mut counter = BitCounter::new();
    p::write_option::<_, Shape>(&mut counter, p::Option::as_ref(&field)).unwrap();
    assert_eq!((writer.finish(), counter.bits_written()), (Ok(1), 6));
    assert_eq!(buf, [(1 << 5) | (2 << 3) | (1 << 1) | 1]);
}

/// Every `ranged_<int>` and `relative_<int>` module, named as in
/// expand/runtime.rs, with each item in its generated form (codec/int.rs,
/// run.rs, change_groups.rs).
macro_rules! every_int_type {
    ($($int:ident $ranged:ident $relative:ident,)*) => {
        #[test]
        fn every_integer_type_has_its_ranged_and_relative_module() {
            $({
                let (min, max, value, baseline): ($int, $int, $int, $int) = (1, 100, 42, 40);
                const _: () = if let p::Some(problem) = p::$ranged::problem(1, 100) {
                    core::panic!("{}", problem.as_str())
                };
                const _: () = if let p::Some(problem) = p::$relative::problem(1, 100) {
                    core::panic!("{}", problem)
                };
                assert!(p::$ranged::problem(max, min).is_some_and(|problem| !problem.as_str().is_empty()));
                assert_eq!(p::$ranged::bits(min, max), 7);
                assert_eq!(p::$ranged::schema(min, max), p::schema::int(1, 100));

                let mut buf = [0u8; 8];
                let mut writer = BitWriter::new(&mut buf);
                p::$ranged::write(&mut writer, value, min, max).unwrap();
                p::$relative::write(&mut writer, value, baseline, min, max).unwrap();
                let used = writer.finish().unwrap();
                let mut reader = BitReader::new(&buf[..used]);
                assert_eq!(p::$ranged::read(&mut reader, min, max).unwrap(), value);
                assert_eq!(p::$relative::read(&mut reader, baseline, min, max).unwrap(), value);
                assert!(p::$ranged::write(&mut BitCounter::new(), max + 1, min, max).is_err());

                let mut valid = true;
                let raw = p::$ranged::run_bits(value, min, max, &mut valid);
                assert_eq!((raw, p::$ranged::run_value(raw, min, max, &mut valid), valid), (41, value, true));
                p::$ranged::run_bits(max + 1, min, max, &mut valid);
                assert!(!valid, "{}", stringify!($ranged));
            })*
        }
    };
}

every_int_type! {
    u8 ranged_u8 relative_u8,
    u16 ranged_u16 relative_u16,
    u32 ranged_u32 relative_u32,
    u64 ranged_u64 relative_u64,
    u128 ranged_u128 relative_u128,
    usize ranged_usize relative_usize,
    i8 ranged_i8 relative_i8,
    i16 ranged_i16 relative_i16,
    i32 ranged_i32 relative_i32,
    i64 ranged_i64 relative_i64,
    i128 ranged_i128 relative_i128,
    isize ranged_isize relative_isize,
}

#[test]
fn quantized_floats_code_against_a_baseline() {
    let mut buf = [0u8; 16];
    let mut writer = BitWriter::new(&mut buf);
    p::relative_f32::write(&mut writer, 1.5, 1.0, -10.0, 10.0, 0.01).unwrap();
    p::relative_f64::write(&mut writer, -2.5, -2.0, -1.0e6, 1.0e6, 0.001).unwrap();
    let used = writer.finish().unwrap();
    let mut reader = BitReader::new(&buf[..used]);
    assert!((p::relative_f32::read(&mut reader, 1.0, -10.0, 10.0, 0.01).unwrap() - 1.5).abs() <= 0.005);
    assert!((p::relative_f64::read(&mut reader, -2.0, -1.0e6, 1.0e6, 0.001).unwrap() + 2.5).abs() <= 0.0005);
}

/// A `write_delta_cached` group of relative floats (expand/change_groups/cached.rs,
/// `steps_group`): `#[change_group(motion)]` over `x` (`#[quantize(min = -10.0,
/// max = 10.0, res = 0.01)] #[bitpack(relative(rate = v, dt = 0.5))]`) and `v`
/// (`#[quantize(min = -4.0, max = 4.0, res = 0.01)] #[bitpack(relative)]`),
/// each quantized once, the group's print its bits in two words (`wide`),
/// the baseline's steps read from its print; the same bits as the closures'
/// form, and the print `group_prints` records (`wide_group_print`).
#[cfg(feature = "alloc")]
#[test]
fn a_group_of_relative_floats_quantizes_once() {
    let write = |(x, v): (f32, f32), (bx, bv): (f32, f32), baseline_prints: &[u64], prints: &mut [u64]| {
        let mut buf = [0u8; 16];
        let mut writer = BitWriter::new(&mut buf);
        let writer = &mut writer;
        if !p::kept_group(
            writer,
            (0, 2),
            baseline_prints,
            prints,
            p::SameBits::same_bits(&x, &bx) && p::SameBits::same_bits(&v, &bv),
        )? {
            let mut valid = true;
            let now_steps0 = p::quantized_bits(x, -10.0, 10.0, 0.01, &mut valid);
            let now_steps1 = p::quantized_bits(v, -4.0, 4.0, 0.01, &mut valid);
            assert!(valid);
            let print = p::wide_print([
                (now_steps0, (p::quantize_bits(-10.0, 10.0, 0.01) as u32)),
                (now_steps1, (p::quantize_bits(-4.0, 4.0, 0.01) as u32)),
            ]);
            let held = p::held_wide(baseline_prints, 0);
            if p::cached_wide(writer, 0, held, prints, print, |writer: &mut p::BitFingerprint| {
                p::BitWrite::write_compressed_float(writer, bx, -10.0, 10.0, 0.01)?;
                p::BitWrite::write_compressed_float(writer, bv, -4.0, 4.0, 0.01)?;
                p::Ok(())
            })? {
                let held_bits = p::held_bits(
                    held,
                    0 + (p::quantize_bits(-10.0, 10.0, 0.01) as u32)
                        + (p::quantize_bits(-4.0, 4.0, 0.01) as u32),
                );
                let base_steps0 = p::relative_f32::agreed(
                    p::steps_at(held_bits, 0, (p::quantize_bits(-10.0, 10.0, 0.01) as u32)),
                    bx,
                    -10.0,
                    10.0,
                    0.01,
                );
                let base_steps1 = p::relative_f32::agreed(
                    p::steps_at(
                        held_bits,
                        0 + (p::quantize_bits(-10.0, 10.0, 0.01) as u32),
                        (p::quantize_bits(-4.0, 4.0, 0.01) as u32),
                    ),
                    bv,
                    -4.0,
                    4.0,
                    0.01,
                );
                p::relative_f32::write_predicted_steps(
                    writer,
                    now_steps0,
                    base_steps0,
                    (base_steps1, -4.0, 4.0, 0.01, 0.5),
                    -10.0,
                    10.0,
                    0.01,
                )?;
                p::relative_f32::write_steps(writer, now_steps1, base_steps1, -4.0, 4.0, 0.01)?;
            }
        }
        p::Ok::<_, crate::Error>((writer.bits_written(), buf))
    };
    let group = |x, v| {
        move |writer: &mut p::BitFingerprint| {
            p::BitWrite::write_compressed_float(writer, x, -10.0, 10.0, 0.01)?;
            p::BitWrite::write_compressed_float(writer, v, -4.0, 4.0, 0.01)
        }
    };
    // The closures' form: each float fingerprinted, then written relative.
    let plain = |(x, v): (f32, f32), (bx, bv): (f32, f32)| {
        let mut buf = [0u8; 16];
        let mut writer = BitWriter::new(&mut buf);
        let writer = &mut writer;
        if p::delta_group(writer, group(x, v), group(bx, bv))? {
            p::relative_f32::write_predicted(writer, x, bx, (bv, -4.0, 4.0, 0.01, 0.5), -10.0, 10.0, 0.01)?;
            p::relative_f32::write(writer, v, bv, -4.0, 4.0, 0.01)?;
        }
        p::Ok::<_, crate::Error>((writer.bits_written(), buf))
    };
    let then = (1.0, 2.0);
    let mut held = [0u64; 2];
    p::wide_group_print(0, &mut held, group(then.0, then.1)).unwrap();
    for now in [(1.0, 2.0), (2.0, 2.0), (1.0, -3.0), (9.5, 0.0)] {
        let expected = plain(now, then).unwrap();
        let (mut known, mut unknown, mut recorded) = ([0u64; 2], [0u64; 2], [0u64; 2]);
        assert_eq!(write(now, then, &held, &mut known).unwrap(), expected, "{now:?}");
        assert_eq!(write(now, then, &[], &mut unknown).unwrap(), expected, "{now:?}");
        p::wide_group_print(0, &mut recorded, group(now.0, now.1)).unwrap();
        assert_eq!((known, unknown), (recorded, recorded));
        assert_eq!(now == then, expected.0 == 1);
    }
}

/// Change groups, tracked and delta (expand/change_groups.rs): `name` is
/// `#[change_group(state)]`, `x` `#[change_group(motion)] #[bits(min = 0,
/// max = 1023)] #[bitpack(relative)]`, `always` in no group.
#[derive(Clone, Debug, PartialEq)]
struct Unit {
    name: p::String,
    x: u16,
    always: bool,
}

const _: () = if let p::Some(problem) = p::relative_u16::problem(0, 1023) {
    core::panic!("{}", problem)
};

impl p::BitPack for Unit {
    const MAX_BITS: usize =
        p::sum(&[p::str_max_bits(8), p::ranged_u16::bits(0, 1023), <bool as p::BitPack>::MAX_BITS]);
    const MIN_BITS: usize = p::sum(&[p::len_bits(8), p::ranged_u16::bits(0, 1023), 1]);
    const SCHEMA: u64 = p::schema::sequence(&[
        p::schema::string(8),
        p::ranged_u16::schema(0, 1023),
        <bool as p::BitPack>::SCHEMA,
    ]);

    fn write_to<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        p::write_atomic(
            writer,
            #[inline(always)]
            |writer| {
                p::write_rust_string(writer, &self.name, 8)?;
                p::ranged_u16::write(writer, self.x, 0, 1023)?;
                <bool as p::BitPack>::write_to(&self.always, writer)?;
                p::Ok(())
            },
        )
    }

    fn read_from<__R: p::BitRead>(reader: &mut __R) -> p::Result<Self, p::Error> {
        p::read_atomic(
            reader,
            #[inline(always)]
            |reader| {
                let name = p::read_rust_string(reader, 8)?;
                let x = p::ranged_u16::read(reader, 0, 1023)?;
                let always = <bool as p::BitPack>::read_from(reader)?;
                p::Ok(Unit { name, x, always })
            },
        )
    }
}

impl p::ChangeGroups for Unit {
    type Tracker = p::GroupTracker<2, ()>;
    type Changes = (p::Option<(p::String,)>, p::Option<(u16,)>, bool);

    fn write_changes<W: p::BitWrite>(
        &self,
        writer: &mut W,
        confirmed: &<Self as p::ChangeGroups>::Tracker,
        latest: &mut <Self as p::ChangeGroups>::Tracker,
    ) -> p::Result<(), p::Error> {
        p::write_atomic(
            writer,
            #[inline(always)]
            |writer| {
                if p::tracked_group(
                    writer,
                    &confirmed.records[0],
                    &mut latest.records[0],
                    |writer: &mut p::BitFingerprint| {
                        p::write_rust_string(writer, &self.name, 8)?;
                        p::Ok(())
                    },
                )? {
                    p::write_rust_string(writer, &self.name, 8)?;
                }
                if p::tracked_group(
                    writer,
                    &confirmed.records[1],
                    &mut latest.records[1],
                    |writer: &mut p::BitFingerprint| {
                        p::ranged_u16::write(writer, self.x, 0, 1023)?;
                        p::Ok(())
                    },
                )? {
                    p::ranged_u16::write(writer, self.x, 0, 1023)?;
                }
                <bool as p::BitPack>::write_to(&self.always, writer)?;
                p::Ok(())
            },
        )
    }

    fn decode_changes<__R: p::BitRead>(
        reader: &mut __R,
    ) -> p::Result<<Self as p::ChangeGroups>::Changes, p::Error> {
        p::read_atomic(
            reader,
            #[inline(always)]
            |reader| {
                let item0 = if p::BitRead::read_bool(reader)? {
                    p::Some((p::read_rust_string(reader, 8)?,))
                } else {
                    p::None
                };
                let item1 = if p::BitRead::read_bool(reader)? {
                    p::Some((p::ranged_u16::read(reader, 0, 1023)?,))
                } else {
                    p::None
                };
                let item2 = <bool as p::BitPack>::read_from(reader)?;
                p::Ok((item0, item1, item2))
            },
        )
    }

    fn apply_changes(&mut self, (item0, item1, item2): <Self as p::ChangeGroups>::Changes) {
        if let p::Some((name,)) = item0 {
            self.name = name;
        }
        if let p::Some((x,)) = item1 {
            self.x = x;
        }
        self.always = item2;
    }

    fn write_delta<W: p::BitWrite>(&self, baseline: &Self, writer: &mut W) -> p::Result<(), p::Error> {
        p::write_atomic(
            writer,
            #[inline(always)]
            |writer| {
                if p::delta_group(
                    writer,
                    |writer: &mut p::BitFingerprint| {
                        p::write_rust_string(writer, &self.name, 8)?;
                        p::Ok(())
                    },
                    |writer: &mut p::BitFingerprint| {
                        p::write_rust_string(writer, &baseline.name, 8)?;
                        p::Ok(())
                    },
                )? {
                    p::write_rust_string(writer, &self.name, 8)?;
                }
                if p::delta_group(
                    writer,
                    |writer: &mut p::BitFingerprint| {
                        p::ranged_u16::write(writer, self.x, 0, 1023)?;
                        p::Ok(())
                    },
                    |writer: &mut p::BitFingerprint| {
                        p::ranged_u16::write(writer, baseline.x, 0, 1023)?;
                        p::Ok(())
                    },
                )? {
                    p::relative_u16::write(writer, self.x, baseline.x, 0, 1023)?;
                }
                <bool as p::BitPack>::write_to(&self.always, writer)?;
                p::Ok(())
            },
        )
    }

    fn read_delta<__R: p::BitRead>(baseline: &Self, reader: &mut __R) -> p::Result<Self, p::Error> {
        p::read_atomic(
            reader,
            #[inline(always)]
            |reader| {
                let flag = p::BitRead::bits_read(reader);
                let (name,) = if p::BitRead::read_bool(reader)? {
                    let name = p::read_rust_string(reader, 8)?;
                    p::delta_group_sent(
                        flag,
                        |writer: &mut p::BitFingerprint| {
                            p::write_rust_string(writer, &name, 8)?;
                            p::Ok(())
                        },
                        |writer: &mut p::BitFingerprint| {
                            p::write_rust_string(writer, &baseline.name, 8)?;
                            p::Ok(())
                        },
                    )?;
                    (name,)
                } else {
                    (<p::String as p::Clone>::clone(&baseline.name),)
                };
                let flag = p::BitRead::bits_read(reader);
                let (x,) = if p::BitRead::read_bool(reader)? {
                    let x = p::relative_u16::read(reader, baseline.x, 0, 1023)?;
                    p::delta_group_sent(
                        flag,
                        |writer: &mut p::BitFingerprint| {
                            p::ranged_u16::write(writer, x, 0, 1023)?;
                            p::Ok(())
                        },
                        |writer: &mut p::BitFingerprint| {
                            p::ranged_u16::write(writer, baseline.x, 0, 1023)?;
                            p::Ok(())
                        },
                    )?;
                    (x,)
                } else {
                    (<u16 as p::Clone>::clone(&baseline.x),)
                };
                let always = <bool as p::BitPack>::read_from(reader)?;
                p::Ok(Unit { name, x, always })
            },
        )
    }
}

#[test]
fn change_groups_send_what_changed() {
    use crate::ChangeGroups;

    let sent = Unit { name: "scout".into(), x: 500, always: true };
    let (confirmed, mut latest) =
        (<Unit as ChangeGroups>::Tracker::default(), <Unit as ChangeGroups>::Tracker::default());
    let mut buf = [0u8; 32];
    let mut writer = BitWriter::new(&mut buf);
    sent.write_changes(&mut writer, &confirmed, &mut latest).unwrap();
    // The flag, the name (its length, padding to bit 8, 5 bytes), the
    // flag, x, and `always`.
    assert_eq!(crate::BitWrite::bits_written(&writer), 1 + (4 + 3 + 40) + 1 + 10 + 1);
    writer.finish().unwrap();
    let mut seen = Unit { name: p::String::new(), x: 0, always: false };
    seen.read_changes(&mut BitReader::new(&buf)).unwrap();
    assert_eq!(seen, sent);
    // Acknowledged: an unchanged value sends two flags and `always`.
    let mut writer = BitWriter::new(&mut buf);
    sent.write_changes(&mut writer, &latest.clone(), &mut latest).unwrap();
    assert_eq!(crate::BitWrite::bits_written(&writer), 3);

    let moved = Unit { x: 501, ..sent.clone() };
    let mut writer = BitWriter::new(&mut buf);
    moved.write_delta(&sent, &mut writer).unwrap();
    let bits = crate::BitWrite::bits_written(&writer);
    let used = writer.finish().unwrap();
    let whole = 1 + 1 + p::ranged_u16::bits(0, 1023) + 1;
    assert!(bits < whole, "x one step on: shorter coded against the baseline than whole ({bits} bits)");
    assert_eq!(Unit::read_delta(&sent, &mut BitReader::new(&buf[..used])).unwrap(), moved);
    // A group sent with the baseline's own bits: never written, so refused.
    let mut writer = BitWriter::new(&mut buf);
    crate::BitWrite::write_bool(&mut writer, true).unwrap();
    p::write_rust_string(&mut writer, "scout", 8).unwrap();
    let used = writer.finish().unwrap();
    let error = Unit::read_delta(&sent, &mut BitReader::new(&buf[..used])).unwrap_err();
    assert_eq!((error.kind(), error.bit()), (ErrorKind::NonCanonical, 0));
}

/// A nested type sharing its parent's sign bit (expand/sign_scope.rs,
/// codec/adaptive.rs): `z` is `#[bitpack(adaptive)]`.
#[derive(Debug, PartialEq)]
struct Inner {
    z: i64,
}

impl p::BitPack for Inner {
    const MAX_BITS: usize = p::sum(&[
        p::adaptive::sign_bits(p::adaptive::any(&[true])),
        p::sum(&[p::adaptive::int_max_bits::<i64>()]),
    ]);
    const MIN_BITS: usize = p::sum(&[
        p::adaptive::sign_bits(p::adaptive::any(&[true])),
        p::sum(&[p::adaptive::int_min_bits::<i64>()]),
    ]);
    const SCHEMA: u64 = p::adaptive::scope_schema(
        p::adaptive::any(&[true]),
        p::schema::sequence(&[p::adaptive::int_schema::<i64>()]),
    );

    fn write_to<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        p::adaptive::write_scope(self, writer)
    }

    fn read_from<__R: p::BitRead>(reader: &mut __R) -> p::Result<Self, p::Error> {
        p::adaptive::read_scope(reader)
    }
}

impl p::adaptive::SignScope for Inner {
    const HAS_SIGNED: bool = p::adaptive::any(&[true]);

    fn any_negative(&self) -> bool {
        p::adaptive::AdaptiveInt::is_negative(self.z)
    }

    fn write_scoped<W: p::BitWrite>(
        &self,
        writer: &mut W,
        signs: p::adaptive::Signs,
    ) -> p::Result<(), p::Error> {
        p::adaptive::write_adaptive::<i64, W>(writer, self.z, signs)?;
        p::Ok(())
    }

    fn read_scoped<__R: p::BitRead>(
        reader: &mut __R,
        signs: p::adaptive::Signs,
    ) -> p::Result<Self, p::Error> {
        p::Ok(Inner { z: p::adaptive::read_adaptive::<i64>(reader, signs)? })
    }
}

/// Adaptive values of every form: `a`, a group `xyz`, a `Vec` `v`
/// (`max_len = 16`), fixed-point `d` and `s` (`#[quantize(res = 0.001)]`,
/// `#[quantize(res = 0.25)]`), nested `inner` and `many` (`max_len = 4`)
/// under the message's sign bit, and `p1`, `p2` in `adaptive(group = p)`.
#[derive(Debug, PartialEq)]
struct Scored {
    a: i32,
    xyz: [i16; 3],
    v: p::Vec<u16>,
    d: f64,
    s: f32,
    inner: Inner,
    many: p::Vec<Inner>,
    p1: i8,
    p2: i8,
}

const _: () = if let p::Some(problem) = p::adaptive::fixed_problem(0.001) {
    core::panic!("{}", problem)
};

const SCORED_HAS_SIGNED: bool = p::adaptive::any(&[
    true,
    <Inner as p::adaptive::SignScope>::HAS_SIGNED,
    <Inner as p::adaptive::SignScope>::HAS_SIGNED,
]);

impl p::BitPack for Scored {
    const MAX_BITS: usize = p::sum(&[
        p::adaptive::sign_bits(SCORED_HAS_SIGNED),
        p::sum(&[
            p::adaptive::int_max_bits::<i32>(),
            p::adaptive::adaptive_group_max_bits::<i16>(3),
            p::adaptive::adaptive_vec_max_bits::<u16>(16),
            p::adaptive::FIXED_MAX_BITS,
            p::adaptive::FIXED_MAX_BITS,
            p::adaptive::scoped_bits(
                <Inner as p::BitPack>::MAX_BITS,
                <Inner as p::adaptive::SignScope>::HAS_SIGNED,
            ),
            p::vec_max_bits(
                4,
                p::adaptive::scoped_bits(
                    <Inner as p::BitPack>::MAX_BITS,
                    <Inner as p::adaptive::SignScope>::HAS_SIGNED,
                ),
            ),
            p::adaptive::adaptive_group_max_bits::<i8>(2),
        ]),
    ]);
    const MIN_BITS: usize = p::sum(&[
        p::adaptive::sign_bits(SCORED_HAS_SIGNED),
        p::sum(&[
            p::adaptive::int_min_bits::<i32>(),
            p::adaptive::group_min_bits::<i16>(3),
            p::adaptive::vec_min_bits(16),
            p::adaptive::FIXED_MIN_BITS,
            p::adaptive::FIXED_MIN_BITS,
            p::adaptive::scoped_bits(
                <Inner as p::BitPack>::MIN_BITS,
                <Inner as p::adaptive::SignScope>::HAS_SIGNED,
            ),
            p::len_bits(4),
            p::adaptive::group_min_bits::<i8>(2),
        ]),
    ]);
    const SCHEMA: u64 = p::adaptive::scope_schema(
        SCORED_HAS_SIGNED,
        p::schema::sequence(&[
            p::adaptive::int_schema::<i32>(),
            p::adaptive::group_schema::<i16>(3),
            p::adaptive::vec_schema::<u16>(16),
            p::adaptive::fixed_schema(0.001, 64u32),
            p::adaptive::fixed_schema(0.25, 32u32),
            p::adaptive::scoped_schema(<Inner as p::BitPack>::SCHEMA),
            p::schema::vec(4, p::adaptive::scoped_schema(<Inner as p::BitPack>::SCHEMA)),
            p::adaptive::group_schema::<i8>(2),
        ]),
    );

    fn write_to<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        p::adaptive::write_scope(self, writer)
    }

    fn read_from<__R: p::BitRead>(reader: &mut __R) -> p::Result<Self, p::Error> {
        p::adaptive::read_scope(reader)
    }
}

impl p::adaptive::SignScope for Scored {
    const HAS_SIGNED: bool = SCORED_HAS_SIGNED;

    fn any_negative(&self) -> bool {
        (p::adaptive::AdaptiveInt::is_negative(self.a))
            || (p::adaptive::any_negative::<i16>(&self.xyz))
            || (p::adaptive::fixed_point_is_negative(self.d, 0.001))
            || (p::adaptive::fixed_is_negative_f32(self.s, 0.25))
            || (<Inner as p::adaptive::SignScope>::any_negative(&self.inner))
            || (p::adaptive::Iterator::any(
                &mut p::adaptive::IntoIterator::into_iter(&self.many),
                |element| <Inner as p::adaptive::SignScope>::any_negative(element),
            ))
            || (p::adaptive::AdaptiveInt::is_negative(self.p1))
            || (p::adaptive::AdaptiveInt::is_negative(self.p2))
    }

    fn write_scoped<W: p::BitWrite>(
        &self,
        writer: &mut W,
        signs: p::adaptive::Signs,
    ) -> p::Result<(), p::Error> {
        p::adaptive::write_adaptive::<i32, W>(writer, self.a, signs)?;
        p::adaptive::write_adaptive_group::<i16, W>(writer, &self.xyz, signs)?;
        p::adaptive::write_adaptive_vec::<u16, W>(writer, &self.v, 16, signs)?;
        p::adaptive::write_fixed(writer, self.d, 0.001, signs)?;
        p::adaptive::write_fixed_f32(writer, self.s, 0.25, signs)?;
        <Inner as p::adaptive::SignScope>::write_scoped(&self.inner, writer, signs)?;
        p::write_len(writer, p::Vec::len(&self.many), 4)?;
        for element in &self.many {
            <Inner as p::adaptive::SignScope>::write_scoped(element, writer, signs)?;
        }
        p::adaptive::write_adaptive_group::<i8, W>(writer, &[self.p1, self.p2], signs)?;
        p::Ok(())
    }

    fn read_scoped<__R: p::BitRead>(
        reader: &mut __R,
        signs: p::adaptive::Signs,
    ) -> p::Result<Self, p::Error> {
        let a = p::adaptive::read_adaptive::<i32>(reader, signs)?;
        let xyz = {
            let mut group = [<i16 as p::adaptive::AdaptiveInt>::ZERO; 3];
            p::adaptive::read_adaptive_group::<i16>(reader, &mut group, signs)?;
            group
        };
        let v = p::adaptive::read_adaptive_vec::<u16>(reader, 16, signs)?;
        let d = p::adaptive::read_fixed(reader, 0.001, signs)?;
        let s = p::adaptive::read_fixed_f32(reader, 0.25, signs)?;
        let inner = <Inner as p::adaptive::SignScope>::read_scoped(reader, signs)?;
        let many = {
            let min_element_bits = p::adaptive::scoped_bits(
                <Inner as p::BitPack>::MIN_BITS,
                <Inner as p::adaptive::SignScope>::HAS_SIGNED,
            );
            let len = p::read_len(reader, 4, min_element_bits)?;
            let mut items = p::Vec::with_capacity(len);
            for _ in 0..len {
                p::Vec::push(&mut items, <Inner as p::adaptive::SignScope>::read_scoped(reader, signs)?);
            }
            items
        };
        let [p1, p2] = {
            let mut group = [<i8 as p::adaptive::AdaptiveInt>::ZERO; 2];
            p::adaptive::read_adaptive_group::<i8>(reader, &mut group, signs)?;
            group
        };
        p::Ok(Scored { a, xyz, v, d, s, inner, many, p1, p2 })
    }
}

#[test]
fn adaptive_values_share_the_message_sign_bit() {
    let scored = |z: i64| Scored {
        a: 25,
        xyz: [100, 101, 99],
        v: alloc::vec![3, 1000, 1001],
        d: 12.345,
        s: 2.25,
        inner: Inner { z },
        many: alloc::vec![Inner { z: 7 }],
        p1: 1,
        p2: 2,
    };
    let non_negative = round_trip(&scored(5));
    let (bytes, _) = encode(&scored(5));
    assert_eq!(bytes[0] & 1, 0, "no negative value: sign bit 0");
    let (bytes, _) = encode(&scored(-5));
    assert_eq!(bytes[0] & 1, 1, "a nested negative value sets the one sign bit");
    assert!(round_trip(&scored(-5)) > non_negative, "zig-zag coding takes a bit more per signed value");
    // The nested types spend no sign bit of their own.
    let scoped = <Inner as p::BitPack>::MAX_BITS - 1;
    assert_eq!(p::adaptive::scoped_bits(<Inner as p::BitPack>::MAX_BITS, true), scoped);
    assert_ne!(<Scored as p::BitPack>::SCHEMA, <Inner as p::BitPack>::SCHEMA);
    assert_eq!(round_trip(&Inner { z: i64::MIN }), 1 + <i64 as p::adaptive::AdaptiveInt>::MAX_BITS);
}

/// Rollback and the budgeted reads, on their own: what they put back.
#[test]
fn rollback_and_budgeted_reads() {
    let mut counter = BitCounter::new();
    let error = p::write_atomic(&mut counter, |writer| {
        p::BitWrite::write_u8(writer, 1)?;
        p::ranged_u8::write(writer, 11, 0, 10)
    });
    assert!(error.is_err());
    assert_eq!(counter.bits_written(), 0, "put back where it started");

    let mut buf = [0u8; 16];
    let mut writer = BitWriter::new(&mut buf);
    p::write_len(&mut writer, 2, 4).unwrap();
    for value in [7u8, 8, 9, 10, 11, 12] {
        p::BitWrite::write_u8(&mut writer, value).unwrap();
    }
    p::write_rust_string(&mut writer, "a\0b", 4).unwrap();
    let used = writer.finish().unwrap();
    let mut reader = BitReader::new(&buf[..used]);
    let read = p::read_vec(&mut reader, 4, 8, |reader| p::Ok(<u8 as p::BitPack>::read_from(reader)?));
    assert_eq!(read.unwrap(), [7, 8]);
    let read = p::read_box(&mut reader, |reader| p::Ok(<u8 as p::BitPack>::read_from(reader)?));
    assert_eq!(*read.unwrap(), 9);
    let read =
        p::read_boxed_array::<_, u8, 2>(&mut reader, |reader| p::Ok(<u8 as p::BitPack>::read_from(reader)?));
    assert_eq!(*read.unwrap(), [10, 11]);
    let read = p::read_atomic(&mut reader, |reader| {
        <u8 as p::BitPack>::read_from(reader)?;
        p::read_string(reader, 4)
    });
    assert_eq!(read.unwrap_err().kind(), ErrorKind::InteriorNul);
    assert_eq!(<u8 as p::BitPack>::read_from(&mut reader).unwrap(), 12, "put back before the 12");
    assert_eq!(p::read_rust_string(&mut reader, 4).unwrap(), "a\0b");

    let write = |writer: &mut p::BitFingerprint| p::ranged_u8::write(writer, 3, 0, 10);
    let error = p::delta_group_sent(5, write, write).unwrap_err();
    assert_eq!((error.kind(), error.bit()), (ErrorKind::NonCanonical, 5));
}

/// An entry of a keyed collection (expand/change_groups.rs with
/// change_groups/cached.rs, and parse/passes keyed's `#[bitpack(key)]`):
/// `id` is its key, in group `identity`; `hp` in group `vitals`.
#[derive(Clone, Debug, Default, PartialEq)]
struct Entry {
    id: u16,
    hp: u8,
}

impl p::BitPack for Entry {
    const MAX_BITS: usize = p::sum(&[p::ranged_u16::bits(0, 1023), p::ranged_u8::bits(0, 100)]);
    const MIN_BITS: usize = p::sum(&[p::ranged_u16::bits(0, 1023), p::ranged_u8::bits(0, 100)]);
    const SCHEMA: u64 = p::schema::sequence(&[p::ranged_u16::schema(0, 1023), p::ranged_u8::schema(0, 100)]);

    fn write_to<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        p::write_atomic(
            writer,
            #[inline(always)]
            |writer| {
                p::ranged_u16::write(writer, self.id, 0, 1023)?;
                p::ranged_u8::write(writer, self.hp, 0, 100)?;
                p::Ok(())
            },
        )
    }

    fn read_from<__R: p::BitRead>(reader: &mut __R) -> p::Result<Self, p::Error> {
        p::read_atomic(
            reader,
            #[inline(always)]
            |reader| {
                let id = p::ranged_u16::read(reader, 0, 1023)?;
                let hp = p::ranged_u8::read(reader, 0, 100)?;
                p::Ok(Entry { id, hp })
            },
        )
    }
}

impl p::ChangeGroups for Entry {
    type Tracker = p::GroupTracker<2, ()>;
    type Changes = (p::Option<(u16,)>, p::Option<(u8,)>);

    fn write_changes<W: p::BitWrite>(
        &self,
        writer: &mut W,
        confirmed: &<Self as p::ChangeGroups>::Tracker,
        latest: &mut <Self as p::ChangeGroups>::Tracker,
    ) -> p::Result<(), p::Error> {
        p::write_atomic(
            writer,
            #[inline(always)]
            |writer| {
                if p::tracked_group(
                    writer,
                    &confirmed.records[0],
                    &mut latest.records[0],
                    |writer: &mut p::BitFingerprint| p::ranged_u16::write(writer, self.id, 0, 1023),
                )? {
                    p::ranged_u16::write(writer, self.id, 0, 1023)?;
                }
                if p::tracked_group(
                    writer,
                    &confirmed.records[1],
                    &mut latest.records[1],
                    |writer: &mut p::BitFingerprint| p::ranged_u8::write(writer, self.hp, 0, 100),
                )? {
                    p::ranged_u8::write(writer, self.hp, 0, 100)?;
                }
                p::Ok(())
            },
        )
    }

    fn decode_changes<__R: p::BitRead>(
        reader: &mut __R,
    ) -> p::Result<<Self as p::ChangeGroups>::Changes, p::Error> {
        p::read_atomic(
            reader,
            #[inline(always)]
            |reader| {
                let item0 = if p::BitRead::read_bool(reader)? {
                    p::Some((p::ranged_u16::read(reader, 0, 1023)?,))
                } else {
                    p::None
                };
                let item1 = if p::BitRead::read_bool(reader)? {
                    p::Some((p::ranged_u8::read(reader, 0, 100)?,))
                } else {
                    p::None
                };
                p::Ok((item0, item1))
            },
        )
    }

    fn apply_changes(&mut self, (item0, item1): <Self as p::ChangeGroups>::Changes) {
        if let p::Some((id,)) = item0 {
            self.id = id;
        }
        if let p::Some((hp,)) = item1 {
            self.hp = hp;
        }
    }

    fn write_delta<W: p::BitWrite>(&self, baseline: &Self, writer: &mut W) -> p::Result<(), p::Error> {
        p::write_atomic(
            writer,
            #[inline(always)]
            |writer| {
                if p::delta_group(
                    writer,
                    |writer: &mut p::BitFingerprint| p::ranged_u16::write(writer, self.id, 0, 1023),
                    |writer: &mut p::BitFingerprint| p::ranged_u16::write(writer, baseline.id, 0, 1023),
                )? {
                    p::ranged_u16::write(writer, self.id, 0, 1023)?;
                }
                if p::delta_group(
                    writer,
                    |writer: &mut p::BitFingerprint| p::ranged_u8::write(writer, self.hp, 0, 100),
                    |writer: &mut p::BitFingerprint| p::ranged_u8::write(writer, baseline.hp, 0, 100),
                )? {
                    p::ranged_u8::write(writer, self.hp, 0, 100)?;
                }
                p::Ok(())
            },
        )
    }

    fn read_delta<__R: p::BitRead>(baseline: &Self, reader: &mut __R) -> p::Result<Self, p::Error> {
        p::read_atomic(
            reader,
            #[inline(always)]
            |reader| {
                let flag = p::BitRead::bits_read(reader);
                let (id,) = if p::BitRead::read_bool(reader)? {
                    let id = p::ranged_u16::read(reader, 0, 1023)?;
                    p::delta_group_sent(
                        flag,
                        |writer: &mut p::BitFingerprint| p::ranged_u16::write(writer, id, 0, 1023),
                        |writer: &mut p::BitFingerprint| p::ranged_u16::write(writer, baseline.id, 0, 1023),
                    )?;
                    (id,)
                } else {
                    (<u16 as p::Clone>::clone(&baseline.id),)
                };
                let flag = p::BitRead::bits_read(reader);
                let (hp,) = if p::BitRead::read_bool(reader)? {
                    let hp = p::ranged_u8::read(reader, 0, 100)?;
                    p::delta_group_sent(
                        flag,
                        |writer: &mut p::BitFingerprint| p::ranged_u8::write(writer, hp, 0, 100),
                        |writer: &mut p::BitFingerprint| p::ranged_u8::write(writer, baseline.hp, 0, 100),
                    )?;
                    (hp,)
                } else {
                    (<u8 as p::Clone>::clone(&baseline.hp),)
                };
                p::Ok(Entry { id, hp })
            },
        )
    }

    p::if_alloc! {
        const PRINTS: usize = 2;

        fn write_delta_cached<W: p::BitWrite>(
            &self,
            baseline: &Self,
            baseline_prints: &[u64],
            prints: &mut [u64],
            writer: &mut W,
        ) -> p::Result<(), p::Error> {
            p::write_detached(
                writer,
                #[inline(always)]
                |writer| {
                    if !p::kept_group(
                        writer,
                        (0, 1),
                        baseline_prints,
                        prints,
                        p::SameBits::same_bits(&self.id, &baseline.id),
                    )? {
                        if p::cached_group(
                            writer,
                            0,
                            baseline_prints,
                            prints,
                            |writer: &mut p::BitFingerprint| p::ranged_u16::write(writer, self.id, 0, 1023),
                            |writer: &mut p::BitFingerprint| p::ranged_u16::write(writer, baseline.id, 0, 1023),
                        )? {
                            p::ranged_u16::write(writer, self.id, 0, 1023)?;
                        }
                    }
                    if !p::kept_group(
                        writer,
                        (1, 1),
                        baseline_prints,
                        prints,
                        p::SameBits::same_bits(&self.hp, &baseline.hp),
                    )? {
                        if p::cached_group(
                            writer,
                            1,
                            baseline_prints,
                            prints,
                            |writer: &mut p::BitFingerprint| p::ranged_u8::write(writer, self.hp, 0, 100),
                            |writer: &mut p::BitFingerprint| p::ranged_u8::write(writer, baseline.hp, 0, 100),
                        )? {
                            p::ranged_u8::write(writer, self.hp, 0, 100)?;
                        }
                    }
                    p::Ok(())
                },
            )
        }

        fn group_prints(&self, prints: &mut [u64]) -> p::Result<(), p::Error> {
            p::group_print(0, prints, |writer: &mut p::BitFingerprint| {
                p::ranged_u16::write(writer, self.id, 0, 1023)
            })?;
            p::group_print(1, prints, |writer: &mut p::BitFingerprint| {
                p::ranged_u8::write(writer, self.hp, 0, 100)
            })?;
            p::Ok(())
        }
    }
}

impl p::keyed::KeyField for Entry {
    type Key = u16;
    #[inline(always)]
    fn key(&self) -> u16 {
        self.id
    }
}

fn spawn_entry() -> Entry {
    Entry { id: 0, hp: 100 }
}

/// A world of two keyed collections (expand/change_groups/within.rs and
/// codec/keyed): `#[change_group] #[bitpack(max_len = 64, spawn =
/// spawn_entry)] map: BTreeMap<u16, Entry>` and `#[change_group]
/// #[bitpack(max_len = 64)] sorted: Vec<Entry>`, keyed by `Entry::id`.
#[derive(Clone, Debug, Default, PartialEq)]
struct Zone {
    map: alloc::collections::BTreeMap<u16, Entry>,
    sorted: p::Vec<Entry>,
}

impl p::BitPack for Zone {
    const MAX_BITS: usize = p::sum(&[
        p::keyed::map::max_bits::<u16, Entry>(64),
        p::keyed::sorted_vec::max_bits::<<Entry as p::keyed::KeyField>::Key, Entry>(64),
    ]);
    const MIN_BITS: usize = p::sum(&[p::keyed::map::min_bits(64), p::keyed::sorted_vec::min_bits(64)]);
    const SCHEMA: u64 = p::schema::sequence(&[
        p::keyed::map::schema::<u16, Entry>(64),
        p::keyed::sorted_vec::schema::<<Entry as p::keyed::KeyField>::Key, Entry>(64),
    ]);

    fn write_to<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        p::write_atomic(
            writer,
            #[inline(always)]
            |writer| {
                p::keyed::map::write(writer, &self.map, 64, p::None)?;
                p::keyed::sorted_vec::write(
                    writer,
                    &self.sorted,
                    64,
                    <Entry as p::keyed::KeyField>::key,
                    p::None,
                )?;
                p::Ok(())
            },
        )
    }

    fn read_from<__R: p::BitRead>(reader: &mut __R) -> p::Result<Self, p::Error> {
        p::read_atomic(
            reader,
            #[inline(always)]
            |reader| {
                let map = p::keyed::map::read(reader, 64)?;
                let sorted = p::keyed::sorted_vec::read(reader, 64, <Entry as p::keyed::KeyField>::key)?;
                p::Ok(Zone { map, sorted })
            },
        )
    }
}

impl p::ChangeGroups for Zone {
    type Tracker = p::GroupTracker<2, ()>;
    type Changes = (p::Option<(alloc::collections::BTreeMap<u16, Entry>,)>, p::Option<(p::Vec<Entry>,)>);

    fn write_changes<W: p::BitWrite>(
        &self,
        writer: &mut W,
        confirmed: &<Self as p::ChangeGroups>::Tracker,
        latest: &mut <Self as p::ChangeGroups>::Tracker,
    ) -> p::Result<(), p::Error> {
        p::write_atomic(
            writer,
            #[inline(always)]
            |writer| {
                if p::tracked_group(
                    writer,
                    &confirmed.records[0],
                    &mut latest.records[0],
                    |writer: &mut p::BitFingerprint| p::keyed::map::write(writer, &self.map, 64, p::None),
                )? {
                    p::keyed::map::write(writer, &self.map, 64, p::None)?;
                }
                let key = <Entry as p::keyed::KeyField>::key;
                if p::tracked_group(
                    writer,
                    &confirmed.records[1],
                    &mut latest.records[1],
                    |writer: &mut p::BitFingerprint| {
                        p::keyed::sorted_vec::write(writer, &self.sorted, 64, key, p::None)
                    },
                )? {
                    p::keyed::sorted_vec::write(writer, &self.sorted, 64, key, p::None)?;
                }
                p::Ok(())
            },
        )
    }

    fn decode_changes<__R: p::BitRead>(
        reader: &mut __R,
    ) -> p::Result<<Self as p::ChangeGroups>::Changes, p::Error> {
        p::read_atomic(
            reader,
            #[inline(always)]
            |reader| {
                let item0 = if p::BitRead::read_bool(reader)? {
                    p::Some((p::keyed::map::read(reader, 64)?,))
                } else {
                    p::None
                };
                let item1 = if p::BitRead::read_bool(reader)? {
                    p::Some((p::keyed::sorted_vec::read(reader, 64, <Entry as p::keyed::KeyField>::key)?,))
                } else {
                    p::None
                };
                p::Ok((item0, item1))
            },
        )
    }

    fn apply_changes(&mut self, (item0, item1): <Self as p::ChangeGroups>::Changes) {
        if let p::Some((map,)) = item0 {
            self.map = map;
        }
        if let p::Some((sorted,)) = item1 {
            self.sorted = sorted;
        }
    }

    fn write_delta<W: p::BitWrite>(&self, baseline: &Self, writer: &mut W) -> p::Result<(), p::Error> {
        p::write_atomic(
            writer,
            #[inline(always)]
            |writer| {
                p::keyed::map::write_delta(writer, &self.map, &baseline.map, 64, spawn_entry, p::None)?;
                p::keyed::sorted_vec::write_delta(
                    writer,
                    &self.sorted,
                    &baseline.sorted,
                    64,
                    <Entry as p::Default>::default,
                    <Entry as p::keyed::KeyField>::key,
                    p::None,
                )?;
                p::Ok(())
            },
        )
    }

    fn read_delta<__R: p::BitRead>(baseline: &Self, reader: &mut __R) -> p::Result<Self, p::Error> {
        p::read_atomic(
            reader,
            #[inline(always)]
            |reader| {
                let map = p::keyed::map::read_delta(reader, &baseline.map, 64, spawn_entry)?;
                let sorted = p::keyed::sorted_vec::read_delta(
                    reader,
                    &baseline.sorted,
                    64,
                    <Entry as p::Default>::default,
                    <Entry as p::keyed::KeyField>::key,
                )?;
                p::Ok(Zone { map, sorted })
            },
        )
    }

    p::if_alloc! {
        fn write_to_within<W: p::BitWrite>(
            &self,
            writer: &mut W,
            budget: &mut p::keyed::Budget,
        ) -> p::Result<(), p::Error> {
            p::write_atomic(
                writer,
                #[inline(always)]
                |writer| {
                    p::keyed::map::write(writer, &self.map, 64, p::Some(&mut *budget))?;
                    p::keyed::sorted_vec::write(
                        writer,
                        &self.sorted,
                        64,
                        <Entry as p::keyed::KeyField>::key,
                        p::Some(&mut *budget),
                    )?;
                    p::Ok(())
                },
            )
        }

        fn write_delta_within<W: p::BitWrite>(
            &self,
            baseline: &Self,
            writer: &mut W,
            budget: &mut p::keyed::Budget,
        ) -> p::Result<(), p::Error> {
            p::write_atomic(
                writer,
                #[inline(always)]
                |writer| {
                    p::keyed::map::write_delta(
                        writer,
                        &self.map,
                        &baseline.map,
                        64,
                        spawn_entry,
                        p::Some(&mut *budget),
                    )?;
                    p::keyed::sorted_vec::write_delta(
                        writer,
                        &self.sorted,
                        &baseline.sorted,
                        64,
                        <Entry as p::Default>::default,
                        <Entry as p::keyed::KeyField>::key,
                        p::Some(&mut *budget),
                    )?;
                    p::Ok(())
                },
            )
        }

        fn sent_state(
            &self,
            state: &mut Self,
            baseline: p::Option<&Self>,
            budget: &mut p::keyed::Budget,
        ) -> p::Result<(), p::Error> {
            p::keyed::map::sent_state(
                &self.map,
                &mut state.map,
                p::Option::map(baseline, |baseline| &baseline.map),
                budget,
            )?;
            p::keyed::sorted_vec::sent_state(
                &self.sorted,
                &mut state.sorted,
                p::Option::map(p::Option::map(baseline, |baseline| &baseline.sorted), p::Vec::as_slice),
                <Entry as p::keyed::KeyField>::key,
                budget,
            )?;
            p::Ok(())
        }

        fn record_state(&self, state: &mut Self) -> bool {
            // Whichever answers: every field here is `Clone`.
            #[allow(unused_imports)]
            use p::keyed::{NotClone as _, ViaClone as _};
            p::keyed::map::record(&self.map, &mut state.map);
            match (&&p::keyed::CloneProbe::<p::Vec<Entry>>::new()).clone_from_fn() {
                p::Some(clone_from) => clone_from(&mut state.sorted, &self.sorted),
                p::None => return false,
            }
            true
        }
    }
}

/// A zone of `count` entries (ids 3, 6, 9, ...), each at `hp`.
fn zone(count: u16, hp: u8) -> Zone {
    let entries = (1..=count).map(|n| Entry { id: 3 * n, hp });
    Zone { map: entries.clone().map(|entry| (entry.id, entry)).collect(), sorted: entries.collect() }
}

#[test]
fn keyed_collections_replicate_through_a_sender() {
    use crate::ChangeGroups;
    use crate::sync::{Receiver, Sender};

    // Whole, then as deltas: one entry changed, one despawned, one spawned.
    let before = zone(40, 50);
    let mut after = before.clone();
    after.map.get_mut(&9).unwrap().hp = 7;
    after.map.remove(&12);
    after.map.insert(1000, spawn_entry());
    after.sorted[2].hp = 7;
    after.sorted.remove(3);
    after.sorted.push(Entry { id: 1000, hp: 0 });
    let bits = round_trip(&after);
    assert!((<Zone as p::BitPack>::MIN_BITS..=<Zone as p::BitPack>::MAX_BITS).contains(&bits));
    let mut buf = [0u8; 1024];
    let mut writer = BitWriter::new(&mut buf);
    after.write_delta(&before, &mut writer).unwrap();
    let used = writer.finish().unwrap();
    assert_eq!(Zone::read_delta(&before, &mut BitReader::new(&buf[..used])).unwrap(), after);

    // The cached write writes the delta's bits and records each group's print.
    let (now, then) = (Entry { id: 3, hp: 8 }, Entry { id: 3, hp: 9 });
    let mut prints = [0u64; 2];
    then.group_prints(&mut prints).unwrap();
    let (mut cached, mut plain) = (BitCounter::new(), BitCounter::new());
    let mut recorded = [0u64; 2];
    now.write_delta_cached(&then, &prints, &mut recorded, &mut cached).unwrap();
    now.write_delta(&then, &mut plain).unwrap();
    assert_eq!(cached.bits_written(), plain.bits_written());
    assert_eq!(recorded[0], prints[0], "identity unchanged");
    assert_ne!(recorded[1], prints[1], "vitals changed");

    // Through a sender with a packet too small for the whole zone: the
    // budget holds entries back, and the client converges.
    // A state recorded into an old one's storage is the world.
    let mut state = before.clone();
    assert!(after.record_state(&mut state));
    assert_eq!(state, after);
    // The probe a derived `record_state` asks about each field's type.
    // (The same `&&` for both: it is what lets the `Clone` answer win.)
    #[allow(clippy::needless_borrow)]
    {
        use p::keyed::{NotClone as _, ViaClone as _};
        struct Unclonable;
        assert!((&&p::keyed::CloneProbe::<u8>::new()).clone_from_fn().is_some());
        assert!((&&p::keyed::CloneProbe::<Unclonable>::new()).clone_from_fn().is_none());
    }

    let mut sender: Sender<Zone> = Sender::new();
    let mut receiver: Receiver<Zone> = Receiver::new();
    let mut packet = [0u8; 64];
    for tick in 0..40 {
        let used = sender.write(&after, &mut packet).unwrap();
        let first = &sender.sent(sender.next_sequence().wrapping_sub(1)).unwrap();
        assert!(tick > 0 || first != &after, "the first packet holds entries back");
        receiver.read(&packet[..used]).unwrap();
        sender.ack(&receiver.acks());
    }
    assert_eq!(receiver.latest(), Some(&after));

    // A nested change group's `sent_state` visits it when its group was sent.
    let sent = p::keyed::nested_sent(
        |writer: &mut p::BitFingerprint| <Zone as p::BitPack>::write_to(&after, writer),
        |writer: &mut p::BitFingerprint| <Zone as p::BitPack>::write_to(&before, writer),
    );
    assert_eq!(sent, p::Ok(true));
    let same = p::keyed::nested_sent(
        |writer: &mut p::BitFingerprint| <Zone as p::BitPack>::write_to(&after, writer),
        |writer: &mut p::BitFingerprint| <Zone as p::BitPack>::write_to(&after, writer),
    );
    assert_eq!(same, p::Ok(false));
}

/// `keyed::flat_map`, which a derived type a sender holds flat calls in its
/// sender methods (`write_to_within`, `write_delta_within`, `sent_state`,
/// `hold_state`): outside a flat sender's budget, `keyed::map`'s bits and
/// answers (a flat sender's passes are tested through derived worlds).
#[test]
fn flat_maps_are_the_tree_functions_outside_a_flat_sender() {
    let before = zone(10, 50);
    let mut after = before.clone();
    after.map.get_mut(&9).unwrap().hp = 7;
    after.map.remove(&12);
    let (mut flat, mut tree) = (BitCounter::new(), BitCounter::new());
    p::keyed::flat_map::write(&mut flat, &after.map, 64, p::None).unwrap();
    p::keyed::map::write(&mut tree, &after.map, 64, p::None).unwrap();
    assert_eq!(flat.bits_written(), tree.bits_written());
    let (mut flat, mut tree) = (BitCounter::new(), BitCounter::new());
    p::keyed::flat_map::write_delta(&mut flat, &after.map, &before.map, 64, spawn_entry, p::None).unwrap();
    p::keyed::map::write_delta(&mut tree, &after.map, &before.map, 64, spawn_entry, p::None).unwrap();
    assert_eq!(flat.bits_written(), tree.bits_written());
    // Outside a state pass, the same refusal.
    let mut budget = p::keyed::Budget::default();
    let (mut flat_state, mut tree_state) = (after.map.clone(), after.map.clone());
    let flat = p::keyed::flat_map::sent_state(&after.map, &mut flat_state, p::Some(&before.map), &mut budget);
    let tree = p::keyed::map::sent_state(&after.map, &mut tree_state, p::Some(&before.map), &mut budget);
    assert_eq!(flat.unwrap_err().kind(), tree.unwrap_err().kind());
    // A held state's map is emptied.
    p::keyed::flat_map::release(&mut flat_state);
    assert!(flat_state.is_empty());
}

const BITS: u32 = 11;
const FAR: [f64; 3] = [-1.0e6, -1.0e6, -1.0e3];

/// A `#[bitpack(with = halves)]` module (the `with` contract): a `u128` as
/// two `u64` halves.
mod halves {
    use crate::{BitRead, BitWrite, Error};

    pub const MAX_BITS: usize = 128;
    pub const MIN_BITS: usize = 128;
    pub const SCHEMA: u64 = 0x48;

    pub fn write<W: BitWrite>(value: &u128, writer: &mut W) -> Result<(), Error> {
        writer.write_u64(*value as u64)?;
        writer.write_u64((*value >> 64) as u64)
    }

    pub fn read(reader: &mut impl BitRead) -> Result<u128, Error> {
        let low = reader.read_u64()?;
        Ok(u128::from(low) | (u128::from(reader.read_u64()?) << 64))
    }
}

/// Issue 12's kinds (expand/checks.rs, run.rs, codec/{geometry,collections,
/// with}.rs). Arrays stand in for glam's and mint's types: the derive names
/// the field's type in the same places (`write::<_, glam::Vec3, 3>`).
/// `rotation` to `flag` are one fused run.
#[derive(Debug, PartialEq)]
struct Held {
    /// `#[quantize(bits = 9)]`
    rotation: [f32; 4],
    /// `#[quantize(bits = BITS)]`
    rotation64: [f64; 4],
    /// `#[quantize(min = [-1.0, -2.0, 0.0], max = 2.0, res = 0.5)]` on a `Vec3`
    position: [f32; 3],
    /// `#[quantize(min = FAR, max = 1.0e6, res = 0.001)]` on a `DVec3`
    far: [f64; 3],
    /// `#[bits(min = [0, -5], max = [100, 5])]` on an `IVec2`
    cell: [i32; 2],
    flag: bool,
    /// `#[bitpack(max_len = 8)]`, and the same on each collection below.
    name: p::Box<str>,
    recent: alloc::collections::VecDeque<u8>,
    slice: p::Box<[u16]>,
    scores: alloc::collections::BTreeMap<u8, u16>,
    tags: alloc::collections::BTreeSet<u8>,
    /// `#[bitpack(with = halves)]`
    id: u128,
}

const HELD_0_BITS: u32 = 9;
const HELD_1_BITS: u32 = BITS;
const HELD_2_MIN: [f32; 3] = [-1.0, -2.0, 0.0];
const HELD_3_MAX: [f32; 3] = [2.0; 3];
const HELD_4_RES: [f32; 3] = [0.5; 3];
const HELD_5_MIN: [f64; 3] = p::Bound(FAR).per_axis();
const HELD_6_MAX: [f64; 3] = [1.0e6; 3];
const HELD_7_RES: [f64; 3] = [0.001; 3];
const HELD_8_MIN: [i32; 2] = [0, -5];
const HELD_9_MAX: [i32; 2] = [100, 5];

const _: () = if let p::Some(problem) = p::smallest_three_problem(HELD_1_BITS) {
    core::panic!("{}", problem.as_str())
};
const _: () = if let p::Some(problem) = p::quantized_axes_f32::problem(HELD_2_MIN, HELD_3_MAX, HELD_4_RES) {
    core::panic!("{}", problem.as_str())
};
const _: () = if let p::Some(problem) = p::quantized_axes_f64::problem(HELD_5_MIN, HELD_6_MAX, HELD_7_RES) {
    core::panic!("{}", problem.as_str())
};
const _: () = if let p::Some(problem) = p::ranged_axes_i32::problem(HELD_8_MIN, HELD_9_MAX) {
    core::panic!("{}", problem.as_str())
};
const _: () = if let p::Some(problem) = p::ranged_axes_i32::relative_problem(HELD_8_MIN, HELD_9_MAX) {
    core::panic!("{}", problem.as_str())
};
const _: () = if let p::Some(problem) = p::with_bits_problem(halves::MIN_BITS, halves::MAX_BITS) {
    core::panic!("{}", problem)
};

const HELD_WIDTHS: [u32; 17] = [
    p::smallest_three_widths(HELD_0_BITS)[0],
    p::smallest_three_widths(HELD_0_BITS)[1],
    p::smallest_three_widths(HELD_0_BITS)[2],
    p::smallest_three_widths(HELD_0_BITS)[3],
    p::smallest_three_widths(HELD_1_BITS)[0],
    p::smallest_three_widths(HELD_1_BITS)[1],
    p::smallest_three_widths(HELD_1_BITS)[2],
    p::smallest_three_widths(HELD_1_BITS)[3],
    p::quantized_axes_f32::widths(HELD_2_MIN, HELD_3_MAX, HELD_4_RES)[0],
    p::quantized_axes_f32::widths(HELD_2_MIN, HELD_3_MAX, HELD_4_RES)[1],
    p::quantized_axes_f32::widths(HELD_2_MIN, HELD_3_MAX, HELD_4_RES)[2],
    p::quantized_axes_f64::widths(HELD_5_MIN, HELD_6_MAX, HELD_7_RES)[0],
    p::quantized_axes_f64::widths(HELD_5_MIN, HELD_6_MAX, HELD_7_RES)[1],
    p::quantized_axes_f64::widths(HELD_5_MIN, HELD_6_MAX, HELD_7_RES)[2],
    p::ranged_axes_i32::widths(HELD_8_MIN, HELD_9_MAX)[0],
    p::ranged_axes_i32::widths(HELD_8_MIN, HELD_9_MAX)[1],
    1,
];
const HELD_RUN_BITS: usize = p::run_bits(&HELD_WIDTHS);

impl Held {
    /// The body of `write_to` (the reservation left out: `Plain` has it).
    fn write_body<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        let mut valid = true;
        let [value0, value1, value2, value3] =
            p::smallest_three_run_bits::<[f32; 4]>(&self.rotation, HELD_0_BITS, &mut valid);
        let [value4, value5, value6, value7] =
            p::smallest_three_run_bits::<[f64; 4]>(&self.rotation64, HELD_1_BITS, &mut valid);
        let [value8, value9, value10] = p::quantized_axes_f32::run_bits::<[f32; 3], 3>(
            &self.position,
            HELD_2_MIN,
            HELD_3_MAX,
            HELD_4_RES,
            &mut valid,
        );
        let [value11, value12, value13] = p::quantized_axes_f64::run_bits::<[f64; 3], 3>(
            &self.far, HELD_5_MIN, HELD_6_MAX, HELD_7_RES, &mut valid,
        );
        let [value14, value15] =
            p::ranged_axes_i32::run_bits::<[i32; 2], 2>(&self.cell, HELD_8_MIN, HELD_9_MAX, &mut valid);
        let value16 = p::bool_bits(self.flag);
        if valid && p::run_fits(writer, HELD_RUN_BITS) {
            let mut run = p::RunWriter::new();
            let values = [
                value0, value1, value2, value3, value4, value5, value6, value7, value8, value9, value10,
                value11, value12, value13, value14, value15, value16,
            ];
            for (value, width) in values.into_iter().zip(HELD_WIDTHS) {
                run.put(writer, value, width);
            }
            run.finish(writer);
        } else {
            p::smallest_three::write::<_, [f32; 4]>(writer, &self.rotation, HELD_0_BITS)?;
            p::smallest_three::write::<_, [f64; 4]>(writer, &self.rotation64, HELD_1_BITS)?;
            p::quantized_axes_f32::write::<_, [f32; 3], 3>(
                writer,
                &self.position,
                HELD_2_MIN,
                HELD_3_MAX,
                HELD_4_RES,
            )?;
            p::quantized_axes_f64::write::<_, [f64; 3], 3>(
                writer, &self.far, HELD_5_MIN, HELD_6_MAX, HELD_7_RES,
            )?;
            p::ranged_axes_i32::write::<_, [i32; 2], 2>(writer, &self.cell, HELD_8_MIN, HELD_9_MAX)?;
            <bool as p::BitPack>::write_to(&self.flag, writer)?;
        }
        p::write_text(writer, &self.name, 8)?;
        p::write_sequence(writer, &self.recent, 4, |writer, element| {
            <u8 as p::BitPack>::write_to(element, writer)?;
            p::Ok(())
        })?;
        p::write_sequence(writer, &**&self.slice, 4, |writer, element| {
            <u16 as p::BitPack>::write_to(element, writer)?;
            p::Ok(())
        })?;
        p::write_map(
            writer,
            &self.scores,
            4,
            |writer, element| {
                <u8 as p::BitPack>::write_to(element, writer)?;
                p::Ok(())
            },
            |writer, value| {
                <u16 as p::BitPack>::write_to(value, writer)?;
                p::Ok(())
            },
        )?;
        p::write_set(writer, &self.tags, 4, |writer, element| {
            <u8 as p::BitPack>::write_to(element, writer)?;
            p::Ok(())
        })?;
        halves::write(&self.id, writer)?;
        p::Ok(())
    }

    /// The body of `read_from`.
    fn read_body<__R: p::BitRead>(reader: &mut __R) -> p::Result<Self, p::Error> {
        let (rotation, rotation64, position, far, cell, flag) = 'run: {
            if p::run_remains(reader, HELD_RUN_BITS) {
                let mut run = p::RunReader::new(HELD_RUN_BITS);
                let mut valid = true;
                let mut leaves = [0u64; 17];
                for (leaf, width) in leaves.iter_mut().zip(HELD_WIDTHS) {
                    *leaf = run.get(reader, width);
                }
                let [l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14, l15, l16] = leaves;
                let parts0 =
                    p::smallest_three_run_value::<[f32; 4]>([l0, l1, l2, l3], HELD_0_BITS, &mut valid);
                let parts1 =
                    p::smallest_three_run_value::<[f64; 4]>([l4, l5, l6, l7], HELD_1_BITS, &mut valid);
                let parts2 = p::quantized_axes_f32::run_value::<[f32; 3], 3>(
                    [l8, l9, l10],
                    HELD_2_MIN,
                    HELD_3_MAX,
                    HELD_4_RES,
                    &mut valid,
                );
                let parts3 = p::quantized_axes_f64::run_value::<[f64; 3], 3>(
                    [l11, l12, l13],
                    HELD_5_MIN,
                    HELD_6_MAX,
                    HELD_7_RES,
                    &mut valid,
                );
                let parts4 = p::ranged_axes_i32::run_value::<[i32; 2], 2>(
                    [l14, l15],
                    HELD_8_MIN,
                    HELD_9_MAX,
                    &mut valid,
                );
                let leaf16 = p::bool_value(l16);
                if valid {
                    break 'run (parts0, parts1, parts2, parts3, parts4, leaf16);
                }
                p::unread_run(reader, HELD_RUN_BITS);
            }
            (
                p::smallest_three::read::<[f32; 4]>(reader, HELD_0_BITS)?,
                p::smallest_three::read::<[f64; 4]>(reader, HELD_1_BITS)?,
                p::quantized_axes_f32::read::<[f32; 3], 3>(reader, HELD_2_MIN, HELD_3_MAX, HELD_4_RES)?,
                p::quantized_axes_f64::read::<[f64; 3], 3>(reader, HELD_5_MIN, HELD_6_MAX, HELD_7_RES)?,
                p::ranged_axes_i32::read::<[i32; 2], 2>(reader, HELD_8_MIN, HELD_9_MAX)?,
                <bool as p::BitPack>::read_from(reader)?,
            )
        };
        let name = p::read_text::<p::Box<str>>(reader, 8)?;
        let recent = p::read_sequence::<_, alloc::collections::VecDeque<u8>, _>(
            reader,
            4,
            <u8 as p::BitPack>::MIN_BITS,
            |reader| {
                let element = <u8 as p::BitPack>::read_from(reader)?;
                p::Ok(element)
            },
        )?;
        let slice =
            p::read_sequence::<_, p::Box<[u16]>, _>(reader, 4, <u16 as p::BitPack>::MIN_BITS, |reader| {
                let element = <u16 as p::BitPack>::read_from(reader)?;
                p::Ok(element)
            })?;
        let scores = p::read_map::<_, alloc::collections::BTreeMap<u8, u16>, _, _>(
            reader,
            4,
            p::sum(&[<u8 as p::BitPack>::MIN_BITS, <u16 as p::BitPack>::MIN_BITS]),
            |reader| {
                let element = <u8 as p::BitPack>::read_from(reader)?;
                p::Ok(element)
            },
            |reader| {
                let element = <u16 as p::BitPack>::read_from(reader)?;
                p::Ok(element)
            },
        )?;
        let tags = p::read_set::<_, alloc::collections::BTreeSet<u8>, _>(
            reader,
            4,
            <u8 as p::BitPack>::MIN_BITS,
            |reader| {
                let element = <u8 as p::BitPack>::read_from(reader)?;
                p::Ok(element)
            },
        )?;
        let id = {
            let value: u128 = halves::read(reader)?;
            value
        };
        p::Ok(Held { rotation, rotation64, position, far, cell, flag, name, recent, slice, scores, tags, id })
    }
}

impl p::BitPack for Held
where
    [f32; 4]: p::smallest_three::Quaternion,
    [f32; 3]: p::Axes<f32, 3>,
    [f64; 3]: p::Axes<f64, 3>,
    [i32; 2]: p::Axes<i32, 2>,
{
    const MAX_BITS: usize = p::sum(&[
        p::smallest_three::bits(HELD_0_BITS),
        p::smallest_three::bits(HELD_1_BITS),
        p::quantized_axes_f32::bits(HELD_2_MIN, HELD_3_MAX, HELD_4_RES),
        p::quantized_axes_f64::bits(HELD_5_MIN, HELD_6_MAX, HELD_7_RES),
        p::ranged_axes_i32::bits(HELD_8_MIN, HELD_9_MAX),
        <bool as p::BitPack>::MAX_BITS,
        p::str_max_bits(8),
        p::vec_max_bits(4, <u8 as p::BitPack>::MAX_BITS),
        p::vec_max_bits(4, <u16 as p::BitPack>::MAX_BITS),
        p::vec_max_bits(4, p::sum(&[<u8 as p::BitPack>::MAX_BITS, <u16 as p::BitPack>::MAX_BITS])),
        p::vec_max_bits(4, <u8 as p::BitPack>::MAX_BITS),
        halves::MAX_BITS,
    ]);
    const MIN_BITS: usize = p::sum(&[
        p::smallest_three::bits(HELD_0_BITS),
        p::smallest_three::bits(HELD_1_BITS),
        p::quantized_axes_f32::bits(HELD_2_MIN, HELD_3_MAX, HELD_4_RES),
        p::quantized_axes_f64::bits(HELD_5_MIN, HELD_6_MAX, HELD_7_RES),
        p::ranged_axes_i32::bits(HELD_8_MIN, HELD_9_MAX),
        <bool as p::BitPack>::MIN_BITS,
        p::len_bits(8),
        p::len_bits(4),
        p::len_bits(4),
        p::len_bits(4),
        p::len_bits(4),
        halves::MIN_BITS,
    ]);
    const SCHEMA: u64 = p::schema::sequence(&[
        p::smallest_three_schema::<[f32; 4]>(HELD_0_BITS),
        p::smallest_three_schema::<[f64; 4]>(HELD_1_BITS),
        p::quantized_axes_f32::schema(HELD_2_MIN, HELD_3_MAX, HELD_4_RES),
        p::quantized_axes_f64::schema(HELD_5_MIN, HELD_6_MAX, HELD_7_RES),
        p::ranged_axes_i32::schema(HELD_8_MIN, HELD_9_MAX),
        <bool as p::BitPack>::SCHEMA,
        p::schema::string(8),
        p::schema::vec(4, <u8 as p::BitPack>::SCHEMA),
        p::schema::vec(4, <u16 as p::BitPack>::SCHEMA),
        p::schema::map(4, <u8 as p::BitPack>::SCHEMA, <u16 as p::BitPack>::SCHEMA),
        p::schema::set(4, <u8 as p::BitPack>::SCHEMA),
        halves::SCHEMA,
    ]);

    fn write_to<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        p::write_atomic(writer, |writer| self.write_body(writer))
    }

    fn read_from<__R: p::BitRead>(reader: &mut __R) -> p::Result<Self, p::Error> {
        p::read_atomic(reader, |reader| Self::read_body(reader))
    }
}

/// A [`Held`] of values on their grids (what reads back is what was sent).
fn held() -> Held {
    let read_back = |value: &Held| {
        let (bytes, _) = encode(value);
        <Held as p::BitPack>::read_from(&mut BitReader::new(&bytes)).expect("reads back")
    };
    read_back(&Held {
        rotation: [0.0, 0.0, 0.38268343, 0.9238795],
        rotation64: [0.5, -0.5, 0.5, 0.5],
        position: [1.5, -2.0, 0.5],
        far: [-123_456.789, 0.0, 999.5],
        cell: [100, -5],
        flag: true,
        name: "crate".into(),
        recent: [3, 1, 2].into_iter().collect(),
        slice: alloc::vec![60_000, 7].into_boxed_slice(),
        scores: [(9, 900), (1, 100)].into_iter().collect(),
        tags: [5, 4].into_iter().collect(),
        id: u128::MAX - 7,
    })
}

#[test]
fn issue_12_kinds_write_through_the_run_and_their_runtime() {
    let value = held();
    let bits = round_trip(&value);
    let runs = [29, 35, 3 + 4 + 3, 31 + 31 + 30, 7 + 4, 1];
    assert_eq!(HELD_RUN_BITS, runs.iter().sum::<usize>());
    // The text (its length ends at bit 182: 2 bits to align), the
    // sequences, map and set (lengths of at most 4 in 3 bits), the module.
    let rest = (4 + 2 + 5 * 8) + (3 + 3 * 8) + (3 + 2 * 16) + (3 + 2 * 24) + (3 + 2 * 8) + 128;
    assert_eq!(bits, HELD_RUN_BITS + rest);
    assert_eq!(<Held as p::BitPack>::MIN_BITS, HELD_RUN_BITS + 4 + 4 * 3 + 128);
    // A refused axis skips the run; the axis' own write refuses it.
    let refused = Held { cell: [101, 0], ..held() };
    let error = refused.write_to(&mut BitCounter::new()).unwrap_err();
    assert_eq!((error.kind(), error.bit()), (ErrorKind::OutOfRange, 29 + 35 + 10 + 92));
    let refused = Held { rotation: [0.0; 4], ..held() };
    assert!(refused.write_to(&mut BitCounter::new()).is_err());
    // Too few bits for the run: read field by field up to the end, and put back.
    let (bytes, _) = encode(&value);
    let mut reader = BitReader::new(&bytes[..20]);
    let error = <Held as p::BitPack>::read_from(&mut reader).unwrap_err();
    assert_eq!((error.kind(), reader.bits_read()), (ErrorKind::UnexpectedEnd, 0));
}

#[test]
fn issue_12_kinds_code_against_a_baseline() {
    let (then, now) = (held(), Held { position: [2.0, -1.5, 0.5], cell: [99, -5], ..held() });
    let mut buf = [0u8; 32];
    let mut writer = BitWriter::new(&mut buf);
    let write = |writer: &mut BitWriter<'_>| -> p::Result<(), p::Error> {
        p::smallest_three::write_relative(writer, &now.rotation, &then.rotation, HELD_0_BITS)?;
        p::quantized_axes_f32::write_relative(
            writer,
            &now.position,
            &then.position,
            HELD_2_MIN,
            HELD_3_MAX,
            HELD_4_RES,
        )?;
        p::quantized_axes_f64::write_relative(
            writer, &now.far, &then.far, HELD_5_MIN, HELD_6_MAX, HELD_7_RES,
        )?;
        p::ranged_axes_i32::write_relative(writer, &now.cell, &then.cell, HELD_8_MIN, HELD_9_MAX)?;
        p::Ok(())
    };
    write(&mut writer).unwrap();
    let relative_bits = writer.bits_written();
    assert!(relative_bits < 29 + 10 + 92 + 11, "{relative_bits} bits");
    let used = writer.finish().unwrap();
    let mut reader = BitReader::new(&buf[..used]);
    let rotation: [f32; 4] =
        p::smallest_three::read_relative(&mut reader, &then.rotation, HELD_0_BITS).unwrap();
    let position: [f32; 3] =
        p::quantized_axes_f32::read_relative(&mut reader, &then.position, HELD_2_MIN, HELD_3_MAX, HELD_4_RES)
            .unwrap();
    let far: [f64; 3] =
        p::quantized_axes_f64::read_relative(&mut reader, &then.far, HELD_5_MIN, HELD_6_MAX, HELD_7_RES)
            .unwrap();
    let cell: [i32; 2] =
        p::ranged_axes_i32::read_relative(&mut reader, &then.cell, HELD_8_MIN, HELD_9_MAX).unwrap();
    assert_eq!((rotation, position, far, cell), (now.rotation, now.position, now.far, now.cell));
    assert_eq!(reader.bits_read(), relative_bits);
}

/// `#[bitpack(relative(rate = far_velocity, dt = 0.5))]` on `far` (the
/// `DVec3` above) with `far_velocity` a `DVec3` under `#[quantize(min =
/// -1000.0, max = 1000.0, res = 0.001)]` (expand/change_groups.rs,
/// `predicted`): each axis the scalar `write_predicted` of that axis.
#[test]
fn vectors_predicted_by_a_rate_code_each_axis_as_the_scalar_form() {
    const HELD_10_MIN: [f64; 3] = [-1000.0; 3];
    const HELD_11_MAX: [f64; 3] = [1000.0; 3];
    const HELD_12_RES: [f64; 3] = [0.001; 3];
    const HELD_13_DT: f64 = 0.5;
    const _: () =
        if let p::Some(problem) = p::quantized_axes_f64::problem(HELD_10_MIN, HELD_11_MAX, HELD_12_RES) {
            core::panic!("{}", problem.as_str())
        };
    let (then, far_velocity) = (held(), [40.0, -2.5, 0.0]);
    let far = core::array::from_fn(|axis| then.far[axis] + far_velocity[axis] * HELD_13_DT);
    let now = Held { far, ..held() };
    let mut buf = [0u8; 32];
    let mut writer = BitWriter::new(&mut buf);
    let write = |writer: &mut BitWriter<'_>| -> p::Result<(), p::Error> {
        p::quantized_axes_f64::write_predicted(
            writer,
            &now.far,
            &then.far,
            (&far_velocity, HELD_10_MIN, HELD_11_MAX, HELD_12_RES, HELD_13_DT),
            HELD_5_MIN,
            HELD_6_MAX,
            HELD_7_RES,
        )?;
        p::Ok(())
    };
    write(&mut writer).unwrap();
    // Where the rate put it: the near tier on each axis.
    let bits = writer.bits_written();
    assert_eq!(bits, 3 * 4);
    writer.finish().unwrap();
    let mut scalar = [0u8; 32];
    let mut writer = BitWriter::new(&mut scalar);
    for axis in 0..3 {
        let predict =
            (far_velocity[axis], HELD_10_MIN[axis], HELD_11_MAX[axis], HELD_12_RES[axis], HELD_13_DT);
        let (min, max, res) = (HELD_5_MIN[axis], HELD_6_MAX[axis], HELD_7_RES[axis]);
        p::relative_f64::write_predicted(&mut writer, now.far[axis], then.far[axis], predict, min, max, res)
            .unwrap();
    }
    assert_eq!(writer.bits_written(), bits);
    writer.finish().unwrap();
    assert_eq!(scalar, buf);
    let mut reader = BitReader::new(&buf);
    let far: [f64; 3] = p::quantized_axes_f64::read_predicted(
        &mut reader,
        &then.far,
        (&far_velocity, HELD_10_MIN, HELD_11_MAX, HELD_12_RES, HELD_13_DT),
        HELD_5_MIN,
        HELD_6_MAX,
        HELD_7_RES,
    )
    .unwrap();
    let whole = Held { far, ..held() };
    assert_eq!((encode(&whole), reader.bits_read()), (encode(&now), bits));
    // A refused axis writes nothing; a refused read leaves the reader in place.
    let refused = [now.far[0], f64::NAN, now.far[2]];
    let mut counter = BitCounter::new();
    let predict = (&far_velocity, HELD_10_MIN, HELD_11_MAX, HELD_12_RES, HELD_13_DT);
    let error = p::quantized_axes_f64::write_predicted(
        &mut counter,
        &refused,
        &then.far,
        predict,
        HELD_5_MIN,
        HELD_6_MAX,
        HELD_7_RES,
    );
    assert_eq!((error.unwrap_err().kind(), counter.bits_written()), (ErrorKind::NonFiniteFloat, 0));
    let mut reader = BitReader::new(&buf[..1]);
    let error = p::quantized_axes_f64::read_predicted::<[f64; 3], [f64; 3], 3>(
        &mut reader,
        &then.far,
        predict,
        HELD_5_MIN,
        HELD_6_MAX,
        HELD_7_RES,
    );
    assert!(error.is_err());
    assert_eq!(reader.bits_read(), 0);
}

#[test]
fn bulk_paths_write_and_read_as_generated() {
    // What codec/containers.rs and codec/collections.rs emit for sequences
    // and non-unrolled arrays of bools and full-width integers.
    struct Bulk {
        flags: p::Vec<bool>,
        payload: p::Vec<u8>,
        items: alloc::collections::VecDeque<i16>,
        boxed: p::Box<[u64]>,
        mask: [bool; GRID],
        cells: [u32; GRID],
    }
    let mut items = alloc::collections::VecDeque::from(alloc::vec![-3, 4]);
    items.push_front(i16::MIN);
    let value = Bulk {
        flags: alloc::vec![true, false, true],
        payload: alloc::vec![1, 2, 3, 4, 5, 6, 7, 8, 9],
        items,
        boxed: alloc::vec![u64::MAX, 7].into_boxed_slice(),
        mask: [false, true],
        cells: [5, u32::MAX],
    };
    let mut buf = [0u8; 64];
    let mut writer = BitWriter::new(&mut buf);
    let write = |writer: &mut BitWriter<'_>| -> p::Result<(), p::Error> {
        p::write_bools(writer, &value.flags, 4)?;
        p::write_ints(writer, &value.payload, 12)?;
        p::write_ints(writer, &value.items, 3)?;
        p::write_ints(writer, &**&value.boxed, 2)?;
        p::write_bool_array(writer, &value.mask)?;
        p::write_int_array(writer, &value.cells)?;
        p::Ok(())
    };
    write(&mut writer).unwrap();
    assert_eq!(writer.bits_written(), 3 + 3 + 4 + 9 * 8 + 2 + 3 * 16 + 2 + 2 * 64 + 2 + 2 * 32);
    let used = writer.finish().unwrap();
    let mut reader = BitReader::new(&buf[..used]);
    let read = |reader: &mut BitReader<'_>| -> p::Result<Bulk, p::Error> {
        let flags = p::read_bools(reader, 4)?;
        let payload = p::read_ints(reader, 12)?;
        let items = p::read_ints::<_, _, alloc::collections::VecDeque<i16>>(reader, 3)?;
        let boxed = p::read_ints::<_, _, p::Box<[u64]>>(reader, 2)?;
        let mask = p::read_bool_array(reader)?;
        let cells = p::read_int_array(reader)?;
        p::Ok(Bulk { flags, payload, items, boxed, mask, cells })
    };
    let read = read(&mut reader).unwrap();
    assert_eq!((read.flags, read.payload, read.items), (value.flags, value.payload, value.items));
    assert_eq!((read.boxed, read.mask, read.cells), (value.boxed, value.mask, value.cells));
}

/// `#[derive(BitPack)] struct Lanes { #[quantize(min = -1.0, max = 1.0,
/// res = 0.01)] x: f32, #[quantize(min = -1.0e6, max = 1.0e6, res =
/// 0.001)] far: f64 }` as `bitpack-derive/src/expand/batch.rs` and `run.rs`
/// expand its blocks (the single-element bodies left to the default
/// methods' `write_to` / `read_from`, written here as plain core calls).
#[derive(Debug, Clone, PartialEq)]
struct Lanes {
    x: f32,
    far: f64,
}

const LANES_WIDTHS: [u32; 2] =
    [(p::quantize_bits(-1.0, 1.0, 0.01) as u32), (p::quantize64_bits(-1.0e6, 1.0e6, 0.001) as u32)];
const LANES_RUN_BITS: usize = p::run_bits(&LANES_WIDTHS);

impl p::BitPack for Lanes {
    const MAX_BITS: usize = LANES_RUN_BITS;
    const MIN_BITS: usize = LANES_RUN_BITS;
    const SCHEMA: u64 = 0;

    fn write_to<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        p::write_atomic(writer, |writer| {
            p::BitWrite::write_compressed_float(writer, self.x, -1.0, 1.0, 0.01)?;
            p::BitWrite::write_compressed_double(writer, self.far, -1.0e6, 1.0e6, 0.001)
        })
    }

    fn read_from<R: p::BitRead>(reader: &mut R) -> p::Result<Self, p::Error> {
        p::read_atomic(reader, |reader| {
            let x = p::BitRead::read_compressed_float(reader, -1.0, 1.0, 0.01)?;
            let far = p::BitRead::read_compressed_double(reader, -1.0e6, 1.0e6, 0.001)?;
            p::Ok(Lanes { x, far })
        })
    }

    fn __write_items<W: p::BitWrite>(items: &[Self], writer: &mut W) -> p::Result<(), p::Error> {
        p::write_blocks(items, writer, |writer, block| {
            let (mut sums, mut lanes_valid) = (p::LaneSums::new(), true);
            let steps0 = p::quantized_lanes(
                [
                    block[0].x, block[1].x, block[2].x, block[3].x, block[4].x, block[5].x, block[6].x,
                    block[7].x,
                ],
                -1.0,
                1.0,
                0.01,
                &mut sums,
                &mut lanes_valid,
            );
            let steps1 = p::quantized64_lanes(
                core::array::from_fn(|lane| block[lane].far),
                -1.0e6,
                1.0e6,
                0.001,
                &mut sums,
                &mut lanes_valid,
            );
            lanes_valid &= sums.finite();
            if !lanes_valid {
                return p::Ok(false);
            }
            // Two float leaves: nothing to check past the lanes' finiteness
            // (a run with ranged leaves adds their checks here, lane by lane).
            // One element, checked for the block: no fallback of its own
            // (the derive repeats these tokens in both loops below).
            #[inline(always)]
            fn element<W: p::BitWrite>(writer: &mut W, value0: u64, value1: u64) -> p::Result<(), p::Error> {
                p::write_atomic(writer, |writer| {
                    let mut run = p::RunWriter::new();
                    run.put_split(writer, value0, LANES_WIDTHS[0]);
                    run.put_split(writer, value1, LANES_WIDTHS[1]);
                    run.finish(writer);
                    p::Ok(())
                })
            }
            let bits = <Self as p::BitPack>::MAX_BITS.saturating_mul(8);
            // The block's room checked once, its stores into a window of the
            // buffer; past the window, the block again element by element.
            if let p::Some(mut window) = p::write_window(writer, bits) {
                let writer = &mut window;
                for lane in 0..8 {
                    element(writer, u64::from(steps0[lane]), steps1[lane])?;
                }
                return p::Ok(!p::overran(writer));
            }
            // The whole block's room checked once; without it, element by element.
            let p::Some(mut reserved) = p::reserve(writer, bits) else {
                return p::Ok(false);
            };
            // The writer moved into a local for the block.
            let mut reserved = p::local(&mut reserved);
            let writer = &mut reserved;
            for lane in 0..8 {
                element(writer, u64::from(steps0[lane]), steps1[lane])?;
            }
            p::Ok(true)
        })
    }

    fn __read_items<R: p::BitRead>(
        reader: &mut R,
        len: usize,
        items: &mut p::Vec<Self>,
    ) -> p::Result<(), p::Error> {
        // A block whose bits always end within a window: read through it.
        if p::fits_window(<Self as p::BitPack>::MAX_BITS) {
            return p::read_blocks(reader, len, items, |reader, items| {
                let mut valid = true;
                let mut pad = p::None;
                let mut window = p::read_window(&*reader, &mut pad);
                for _ in 0..8 {
                    let (x, far) = {
                        const WIDTHS: [u32; 2] = LANES_WIDTHS;
                        const RUN_BITS: usize = p::run_bits(&WIDTHS);
                        let mut run = p::RunReader::new(RUN_BITS);
                        let x = p::quantized_value(
                            run.get_in(&mut window, WIDTHS[0]),
                            -1.0,
                            1.0,
                            0.01,
                            &mut valid,
                        );
                        let far = p::quantized64_value(
                            run.get_in(&mut window, WIDTHS[1]),
                            -1.0e6,
                            1.0e6,
                            0.001,
                            &mut valid,
                        );
                        (x, far)
                    };
                    p::Vec::push(items, Lanes { x, far });
                }
                let taken = window.end();
                p::Ok(valid && p::close_window(reader, taken))
            });
        }
        p::read_blocks(reader, len, items, |reader, items| {
            let mut valid = true;
            let mut steps0 = [0u32; 8];
            let mut steps1 = [0u64; 8];
            let mut elements = [const { Lanes { x: 0.0, far: 0.0 } }; 8];
            for (lane, element) in elements.iter_mut().enumerate() {
                if !p::run_remains(reader, LANES_RUN_BITS) {
                    return p::Ok(false);
                }
                let mut run = p::RunReader::new(LANES_RUN_BITS);
                steps0[lane] = p::lane_steps(run.get(reader, LANES_WIDTHS[0]));
                steps1[lane] = p::lane_steps64(run.get(reader, LANES_WIDTHS[1]));
                *element = Lanes { x: 0.0, far: 0.0 };
            }
            let values0 = p::dequantized_lanes(steps0, -1.0, 1.0, 0.01, &mut valid);
            let values1 = p::dequantized64_lanes(steps1, -1.0e6, 1.0e6, 0.001, &mut valid);
            if !valid {
                return p::Ok(false);
            }
            for (lane, element) in elements.iter_mut().enumerate() {
                element.x = values0[lane];
                element.far = values1[lane];
            }
            for element in elements {
                p::Vec::push(items, element);
            }
            p::Ok(true)
        })
    }
}

#[test]
fn blocks_write_and_read_as_generated() {
    assert_eq!(p::BLOCK, 8);
    let items: alloc::vec::Vec<Lanes> =
        (0..19).map(|i| Lanes { x: i as f32 / 19.0 - 0.5, far: i as f64 * 1000.5 - 7.0 }).collect();
    let mut buf = [0u8; 256];
    let mut writer = BitWriter::new(&mut buf);
    p::write_items(&mut writer, &items, 20).unwrap();
    let bits = writer.bits_written();
    let used = writer.finish().unwrap();
    // The same bits as the length, then each element's `write_to`.
    let mut one_by_one = [0u8; 256];
    let mut writer = BitWriter::new(&mut one_by_one);
    p::write_len(&mut writer, items.len(), 20).unwrap();
    items.iter().for_each(|item| p::BitPack::write_to(item, &mut writer).unwrap());
    assert_eq!((writer.bits_written(), writer.finish().unwrap()), (bits, used));
    assert_eq!(buf[..used], one_by_one[..used]);
    let back: alloc::vec::Vec<Lanes> = p::read_items(&mut BitReader::new(&buf[..used]), 20).unwrap();
    let one_by_one =
        p::read_vec(&mut BitReader::new(&buf[..used]), 20, LANES_RUN_BITS, Lanes::read_from).unwrap();
    assert_eq!(back, one_by_one);
    // Every cut (blocks read through a window padded near the end, or past
    // the input): what the elements' own reads give, at the same bit.
    for cut in 0..used {
        let (mut blocks, mut scalar) = (BitReader::new(&buf[..cut]), BitReader::new(&buf[..cut]));
        let read: p::Result<alloc::vec::Vec<Lanes>, _> = p::read_items(&mut blocks, 20);
        let one_by_one = p::read_vec(&mut scalar, 20, LANES_RUN_BITS, Lanes::read_from);
        assert_eq!(read, one_by_one, "cut at {cut}");
        assert_eq!(blocks.bits_read(), scalar.bits_read());
    }
    // A NaN in a block: written element by element, refused at its bit.
    let mut refused = items.clone();
    refused[9].x = f32::NAN;
    let mut writer = BitWriter::new(&mut buf);
    let error = p::write_items(&mut writer, &refused, 20).unwrap_err();
    assert_eq!((error.kind(), error.bit()), (ErrorKind::NonFiniteFloat, 5 + 9 * LANES_RUN_BITS));
}

/// `#[derive(BitPack)] struct Rowed { #[quantize(min = -8.0, max = 8.0,
/// res = 0.01)] v: [f32; 3], #[quantize(min = 0.0, max = 6.3, res =
/// 0.001)] yaw: f32, #[quantize(min = -1.0, max = 1.0, res = 0.5)] w: f32 }`
/// as `expand/batch.rs` writes a window's block of it: each element's five
/// `f32` leaves quantized in two rows of four (`quantized_row`, the second
/// padded with 0 under `(0, 1, 1)`) as it is written, the rows' sums tested
/// once after the block. (The derive falls back to the lanes' path without
/// a window; here the block is then written element by element.)
#[derive(Debug, Clone, PartialEq)]
struct Rowed {
    v: [f32; 3],
    yaw: f32,
    w: f32,
}

const ROWED_WIDTHS: [u32; 5] = [
    p::quantize_bits(-8.0, 8.0, 0.01) as u32,
    p::quantize_bits(-8.0, 8.0, 0.01) as u32,
    p::quantize_bits(-8.0, 8.0, 0.01) as u32,
    p::quantize_bits(0.0, 6.3, 0.001) as u32,
    p::quantize_bits(-1.0, 1.0, 0.5) as u32,
];

impl p::BitPack for Rowed {
    const MAX_BITS: usize = p::run_bits(&ROWED_WIDTHS);
    const MIN_BITS: usize = p::run_bits(&ROWED_WIDTHS);
    const SCHEMA: u64 = 0;

    fn write_to<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        p::write_atomic(writer, |writer| {
            for value in self.v {
                p::BitWrite::write_compressed_float(writer, value, -8.0, 8.0, 0.01)?;
            }
            p::BitWrite::write_compressed_float(writer, self.yaw, 0.0, 6.3, 0.001)?;
            p::BitWrite::write_compressed_float(writer, self.w, -1.0, 1.0, 0.5)
        })
    }

    fn read_from<R: p::BitRead>(reader: &mut R) -> p::Result<Self, p::Error> {
        p::read_atomic(reader, |reader| {
            let mut v = [0.0; 3];
            for value in &mut v {
                *value = p::BitRead::read_compressed_float(reader, -8.0, 8.0, 0.01)?;
            }
            let yaw = p::BitRead::read_compressed_float(reader, 0.0, 6.3, 0.001)?;
            let w = p::BitRead::read_compressed_float(reader, -1.0, 1.0, 0.5)?;
            p::Ok(Rowed { v, yaw, w })
        })
    }

    fn __write_items<W: p::BitWrite>(items: &[Self], writer: &mut W) -> p::Result<(), p::Error> {
        p::write_blocks(items, writer, |writer, block| {
            let mut lanes_valid = true;
            let bits = <Self as p::BitPack>::MAX_BITS.saturating_mul(8);
            let p::Some(mut window) = p::write_window(writer, bits) else {
                return p::Ok(false);
            };
            let writer = &mut window;
            let mut row_sums = p::RowSums::new();
            for item in block {
                let row0 = p::quantized_row(
                    [item.v[0], item.v[1], item.v[2], item.yaw],
                    [(-8.0, 8.0, 0.01), (-8.0, 8.0, 0.01), (-8.0, 8.0, 0.01), (0.0, 6.3, 0.001)],
                    &mut row_sums,
                    &mut lanes_valid,
                );
                let row1 = p::quantized_row(
                    [item.w, 0.0, 0.0, 0.0],
                    [(-1.0, 1.0, 0.5), (0.0, 1.0, 1.0), (0.0, 1.0, 1.0), (0.0, 1.0, 1.0)],
                    &mut row_sums,
                    &mut lanes_valid,
                );
                p::write_atomic(writer, |writer| {
                    let mut run = p::RunWriter::new();
                    for (step, width) in row0.iter().chain(&row1[..1]).zip(ROWED_WIDTHS) {
                        run.put_split(writer, u64::from(*step), width);
                    }
                    run.finish(writer);
                    p::Ok(())
                })?;
            }
            lanes_valid &= row_sums.finite();
            p::Ok(lanes_valid && !p::overran(writer))
        })
    }
}

#[test]
fn rows_write_as_generated() {
    let items: alloc::vec::Vec<Rowed> = (0..21)
        .map(|i| {
            let f = i as f32;
            Rowed { v: [f * 0.37 - 4.0, 9.0 - f, -f * 0.5], yaw: f * 0.3, w: f / 21.0 - 0.4 }
        })
        .collect();
    let write = |items: &[Rowed], buf: &mut [u8]| {
        let mut writer = BitWriter::new(buf);
        let result = p::write_items(&mut writer, items, 24);
        (result.map(|()| writer.bits_written()), writer.finish())
    };
    let one_by_one = |items: &[Rowed], buf: &mut [u8]| {
        let mut writer = BitWriter::new(buf);
        let result = p::write_len(&mut writer, items.len(), 24)
            .and_then(|()| items.iter().try_for_each(|item| p::BitPack::write_to(item, &mut writer)));
        (result.map(|()| writer.bits_written()), writer.finish())
    };
    let (mut blocks, mut scalar) = ([0u8; 512], [0u8; 512]);
    assert_eq!(write(&items, &mut blocks), one_by_one(&items, &mut scalar));
    assert_eq!(blocks, scalar);
    // A value that is not finite, in either row: refused at its bit.
    for (element, bad) in [(3, f32::NAN), (12, f32::INFINITY)] {
        let mut refused = items.clone();
        refused[element].w = bad;
        let (mut blocks, mut scalar) = ([0u8; 512], [0u8; 512]);
        let (blocks, scalar) = (write(&refused, &mut blocks).0, one_by_one(&refused, &mut scalar).0);
        let (blocks, scalar) = (blocks.unwrap_err(), scalar.unwrap_err());
        assert_eq!((blocks.kind(), blocks.bit()), (scalar.kind(), scalar.bit()));
    }
}

/// `#[derive(BitPack)] enum Side { Left, Right, Up }` and `struct Toggle {
/// on: bool, #[bits(min = 0, max = 5)] level: u8 }` as leaves of a parent's
/// run (`bitpack-derive/src/expand/leaf.rs`, `run.rs`'s `as_leaf`), their
/// `write_to` / `read_from` left out (the tag and the run, as above), and
/// the run of a block that holds them (`expand/batch.rs`, `codec/nested.rs`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Side {
    Left,
    Right,
    Up,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Toggle {
    on: bool,
    level: u8,
}

impl p::BitPack for Side {
    const MAX_BITS: usize = p::tag_bits(3);
    const MIN_BITS: usize = p::tag_bits(3);
    const SCHEMA: u64 = 0;
    const __LEAF_BITS: u32 = p::tag_bits(3) as u32;

    fn write_to<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        let tag: u32 = match self {
            Self::Left { .. } => 0,
            Self::Right { .. } => 1,
            Self::Up { .. } => 2,
        };
        p::write_tag(writer, tag, 3)
    }

    fn read_from<R: p::BitRead>(reader: &mut R) -> p::Result<Self, p::Error> {
        p::Ok(match p::read_tag(reader, 3)? {
            0 => Self::Left,
            1 => Self::Right,
            2 => Self::Up,
            _ => return p::Err(p::invalid_tag(reader)),
        })
    }

    fn __leaf(&self) -> p::Option<u64> {
        p::Some(match self {
            Self::Left { .. } => 0,
            Self::Right { .. } => 1,
            Self::Up { .. } => 2,
        })
    }

    fn __from_leaf(run: u64) -> p::Option<Self> {
        match run {
            0 => p::Some(Self::Left),
            1 => p::Some(Self::Right),
            2 => p::Some(Self::Up),
            _ => p::None,
        }
    }
}

impl p::BitPack for Toggle {
    const MAX_BITS: usize = p::run_bits(&[1, p::ranged_u8::bits(0, 5) as u32]);
    const MIN_BITS: usize = Self::MAX_BITS;
    const SCHEMA: u64 = 0;
    const __LEAF_BITS: u32 = p::leaf_bits(p::run_bits(&[1, p::ranged_u8::bits(0, 5) as u32]));

    fn write_to<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        p::write_atomic(writer, |writer| {
            <bool as p::BitPack>::write_to(&self.on, writer)?;
            p::ranged_u8::write(writer, self.level, 0, 5)
        })
    }

    fn read_from<R: p::BitRead>(reader: &mut R) -> p::Result<Self, p::Error> {
        p::read_atomic(reader, |reader| {
            let on = <bool as p::BitPack>::read_from(reader)?;
            let level = p::ranged_u8::read(reader, 0, 5)?;
            p::Ok(Toggle { on, level })
        })
    }

    fn __leaf(&self) -> p::Option<u64> {
        const WIDTHS: [u32; 2] = [1, p::ranged_u8::bits(0, 5) as u32];
        let mut valid = true;
        let value0 = p::bool_bits(self.on);
        let value1 = p::ranged_u8::run_bits(self.level, 0, 5, &mut valid);
        if !valid {
            return p::None;
        }
        p::Some(
            0 | p::leaf_put(value0, p::leaf_offset(&WIDTHS, 0))
                | p::leaf_put(value1, p::leaf_offset(&WIDTHS, 1)),
        )
    }

    fn __from_leaf(run: u64) -> p::Option<Self> {
        const WIDTHS: [u32; 2] = [1, p::ranged_u8::bits(0, 5) as u32];
        let mut valid = true;
        let leaf0 = p::bool_value(p::leaf_get(run, p::leaf_offset(&WIDTHS, 0), WIDTHS[0]));
        let leaf1 = p::ranged_u8::run_value(
            p::leaf_get(run, p::leaf_offset(&WIDTHS, 1), WIDTHS[1]),
            0,
            5,
            &mut valid,
        );
        if !valid {
            return p::None;
        }
        let (field0, field1) = (leaf0, leaf1);
        p::Some(Toggle { on: field0, level: field1 })
    }
}

#[test]
fn nested_leaves_join_a_run_as_generated() {
    assert_eq!(
        (Side::__LEAF_BITS, Toggle::__LEAF_BITS, <Plain as p::BitPack>::__LEAF_BITS),
        (2, 4, p::NOT_A_LEAF)
    );
    assert_eq!((p::leaf_bits(64), p::leaf_bits(65), p::leaf_width(p::NOT_A_LEAF)), (64, p::NOT_A_LEAF, 0));
    assert!(p::is_leaf(Side::__LEAF_BITS) && p::is_leaf(Toggle::__LEAF_BITS) && !p::is_leaf(p::NOT_A_LEAF));
    // A block's run of `(Side, Toggle)`: the bits of their `write_to`s.
    const WIDTHS: [u32; 2] = [
        p::leaf_width(<Side as p::BitPack>::__LEAF_BITS),
        p::leaf_width(<Toggle as p::BitPack>::__LEAF_BITS),
    ];
    for (side, level) in [(Side::Left, 0), (Side::Up, 5), (Side::Right, 6)] {
        let toggle = Toggle { on: level % 2 == 0, level };
        let mut buf = [0u8; 4];
        let mut valid = true;
        let [value0] = [p::nested_leaf(<Side as p::BitPack>::__leaf(&side), &mut valid)];
        let [value1] = [p::nested_leaf(<Toggle as p::BitPack>::__leaf(&toggle), &mut valid)];
        assert_eq!(valid, level <= 5, "a refused nested value clears valid");
        let mut one_by_one = [0u8; 4];
        let mut writer = BitWriter::new(&mut one_by_one);
        side.write_to(&mut writer).unwrap();
        if !valid {
            // The run is not written: the fields' own writes refuse it.
            assert!(toggle.write_to(&mut writer).is_err());
            continue;
        }
        toggle.write_to(&mut writer).unwrap();
        let one_by_one_used = writer.finish().unwrap();
        let mut writer = BitWriter::new(&mut buf);
        let mut run = p::RunWriter::new();
        run.put(&mut writer, value0, WIDTHS[0]);
        run.put(&mut writer, value1, WIDTHS[1]);
        run.finish(&mut writer);
        let used = writer.finish().unwrap();
        assert_eq!(buf[..used], one_by_one[..one_by_one_used]);
        let mut reader = BitReader::new(&buf[..used]);
        let mut run = p::RunReader::new(p::run_bits(&WIDTHS));
        let parts0 = <Side as p::BitPack>::__from_leaf(run.get(&mut reader, WIDTHS[0]));
        let parts1 = <Toggle as p::BitPack>::__from_leaf(run.get(&mut reader, WIDTHS[1]));
        assert_eq!((parts0, parts1), (p::Some(side), p::Some(toggle)));
    }
    // A level or tag past the last is refused, as the reads refuse it.
    assert_eq!(Toggle::__from_leaf(0b1101), None);
    assert!(Toggle::read_from(&mut BitReader::new(&[0b1101])).is_err());
    // A tag past the last variant is no `Side`, as `read_tag` refuses it.
    assert_eq!(Side::__from_leaf(3), None);
    assert!(Side::read_from(&mut BitReader::new(&[3])).is_err());
}

#[test]
fn columns_write_and_read_as_generated() {
    // The columns of three values `{ id: u32, alive: bool, hp: Option<i16>, tags: Vec<u8>,
    // name: String, pair: [u16; 2], speed: f32 }` as `expand/codec/columns.rs` emits them, with
    // the tag column of an enum of 3 and a `Vec` of arrays of a nested type beside them.
    type Row = (u32, bool, Option<i16>, alloc::vec::Vec<u8>, alloc::string::String, [u16; 2], f32);
    type Read = (p::Vec<Row>, p::Vec<u32>, p::Vec<[u32; 2]>);
    let rows: alloc::vec::Vec<Row> = alloc::vec![
        (7, true, Some(-3), alloc::vec![1, 2], "a".into(), [5, 6], 0.5),
        (9, false, None, alloc::vec![], "".into(), [7, 8], -1.0),
        (8, true, Some(40), alloc::vec![3], "bc".into(), [9, 9], 2.0),
    ];
    let tags = [2u32, 0, 1];
    let nested = [[1u32, 2], [3, 4], [5, 6]];
    let mut buf = [0u8; 128];
    let mut writer = BitWriter::new(&mut buf);
    let write = |__writer: &mut BitWriter<'_>| -> p::Result<(), p::Error> {
        p::write_column_len(__writer, p::Vec::len(&rows), 16)?;
        let __items = p::IntoIterator::into_iter(&rows);
        let __column_items0 = p::Iterator::map(p::Clone::clone(&__items), |__item| &__item.0);
        p::write_int_column(__writer, p::Iterator::copied(__column_items0))?;
        let __column_items0 = p::Iterator::map(p::Clone::clone(&__items), |__item| &__item.1);
        p::write_bool_column(__writer, p::Iterator::copied(__column_items0))?;
        let __column_items0 = p::Iterator::map(p::Clone::clone(&__items), |__item| &__item.2);
        p::write_bool_column(
            __writer,
            p::Iterator::map(p::Clone::clone(&__column_items0), p::Option::is_some),
        )?;
        let __column_items1 = p::Iterator::filter_map(__column_items0, p::Option::as_ref);
        p::write_int_column(__writer, p::Iterator::copied(__column_items1))?;
        let __column_items0 = p::Iterator::map(p::Clone::clone(&__items), |__item| &__item.3);
        p::write_length_column(
            __writer,
            p::Iterator::map(p::Clone::clone(&__column_items0), p::Vec::len),
            4,
        )?;
        p::write_int_slices(__writer, __column_items0)?;
        let __column_items0 = p::Iterator::map(p::Clone::clone(&__items), |__item| &__item.4);
        p::write_text_column(__writer, p::Iterator::map(__column_items0, p::String::as_str), 4)?;
        let __column_items0 = p::Iterator::map(p::Clone::clone(&__items), |__item| &__item.5);
        p::write_int_slices(__writer, __column_items0)?;
        let __column_items0 = p::Iterator::map(p::Clone::clone(&__items), |__item| &__item.6);
        for __row0 in __column_items0 {
            <f32 as p::BitPack>::write_to(__row0, __writer)?;
        }
        p::write_tag_column(__writer, p::IntoIterator::into_iter(tags), 3)?;
        <u32 as p::Columns>::write_columns(
            p::Iterator::flat_map(nested.iter(), p::IntoIterator::into_iter),
            __writer,
        )?;
        p::Ok(())
    };
    write(&mut writer).unwrap();
    let used = writer.finish().unwrap();
    let mut reader = BitReader::new(&buf[..used]);
    let read = |__reader: &mut BitReader<'_>| -> p::Result<Read, p::Error> {
        let __count = p::read_column_len(__reader, 16)?;
        let __column0_0: p::Vec<u32> = p::read_int_column::<u32>(__reader, __count)?;
        let __column0_1: p::Vec<bool> = p::read_bool_column(__reader, __count)?;
        let __column0_2: p::Vec<Option<i16>> = {
            let __presence0 = p::read_bool_column(__reader, __count)?;
            let __present0 = p::count_present(&__presence0);
            let __values0 = p::read_int_column::<i16>(__reader, __present0)?;
            p::zip_options(__reader, __presence0, __values0)?
        };
        let __column0_3: p::Vec<p::Vec<u8>> = {
            let (__lengths0, __total0) = p::read_length_column(__reader, __count, 4)?;
            let __values0 = p::read_int_column::<u8>(__reader, __total0)?;
            p::split_copy_vecs(__reader, __lengths0, __values0)?
        };
        let __column0_4: p::Vec<p::String> = p::read_text_column(__reader, __count, 4)?;
        let __column0_5: p::Vec<[u16; 2]> = {
            let __total0 = p::flat_count(__reader, __count, 2)?;
            let __values0 = p::read_int_column::<u16>(__reader, __total0)?;
            p::split_copy_arrays(__reader, __count, __values0)?
        };
        let __column0_6: p::Vec<f32> =
            p::read_rows(__reader, __count, <f32 as p::BitPack>::MIN_BITS, |__reader| {
                let __row0 = <f32 as p::BitPack>::read_from(__reader)?;
                p::Ok(__row0)
            })?;
        p::claim_column::<Row>(__reader, __count)?;
        let __out: p::Vec<Row> = p::Iterator::collect(p::Iterator::map(
            p::Iterator::zip(
                p::Iterator::zip(
                    p::Iterator::zip(
                        p::Iterator::zip(
                            p::Iterator::zip(
                                p::Iterator::zip(
                                    p::column_values(__reader, __column0_0, __count)?,
                                    p::column_values(__reader, __column0_1, __count)?,
                                ),
                                p::column_values(__reader, __column0_2, __count)?,
                            ),
                            p::column_values(__reader, __column0_3, __count)?,
                        ),
                        p::column_values(__reader, __column0_4, __count)?,
                    ),
                    p::column_values(__reader, __column0_5, __count)?,
                ),
                p::column_values(__reader, __column0_6, __count)?,
            ),
            |((((((__field0, __field1), __field2), __field3), __field4), __field5), __field6)| {
                (__field0, __field1, __field2, __field3, __field4, __field5, __field6)
            },
        ));
        let (__tags, __counts) = p::read_tag_column::<3>(__reader, 3)?;
        assert_eq!(__counts, [1, 1, 1]);
        let __nested = {
            let __total0 = p::flat_count(__reader, 3, 2)?;
            let __values0 = <u32 as p::Columns>::read_columns(__total0, __reader)?;
            let __arrays: p::Vec<[u32; 2]> = p::split_arrays(__reader, 3, __values0)?;
            __arrays
        };
        // An enum's variants take their fields' values in order, as its tags name them.
        let mut __column1_0 = p::IntoIterator::into_iter(__nested);
        let mut __nested = p::Vec::with_capacity(3);
        for _ in 0..3 {
            __nested.push(p::column_next(&mut __column1_0, __reader)?);
        }
        p::Ok((__out, __tags, __nested))
    };
    let (read_rows, read_tags, read_nested) = read(&mut reader).unwrap();
    assert_eq!(read_rows, rows);
    assert_eq!(read_tags, tags);
    assert_eq!(read_nested, nested);
    // `Vec`s of values that do not copy are cut from their column one by one.
    let vecs = p::split_vecs(&mut reader, alloc::vec![1, 0, 2], alloc::vec![3u64, 4, 5]).unwrap();
    assert_eq!(vecs, [alloc::vec![3u64], alloc::vec![], alloc::vec![4, 5]]);
    let error = p::split_copy_vecs(&mut reader, alloc::vec![2], alloc::vec![1u8]).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NonCanonical);
    // A struct's column short of its count is refused, not zipped short.
    let error = p::column_values(&reader, alloc::vec![1u8], 2).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NonCanonical);
    let array: [u8; 2] = p::into_array(&reader, alloc::vec![1, 2]).unwrap();
    assert_eq!(array, [1, 2]);
    // The sizes and fingerprints generated `MAX_BITS`, `MIN_BITS` and `SCHEMA` name.
    let header = p::sum(&[<u32 as p::ColumnInt>::HEADER_MAX_BITS, p::length_column_max_bits(0, 4)]);
    let item = p::sum(&[(<u32 as p::ColumnInt>::WIDTH as usize), p::text_column_max_bits(1, 4)]);
    assert!(p::columns_max_bits(header, item, 16) > p::column_len_max_bits(16));
    assert_eq!(p::column_len_min_bits(16), 3);
    assert_eq!(<bool as p::Columns>::ITEM_MAX_BITS, 1);
    let schemas = [
        p::column_int_schema(<i16 as p::ColumnInt>::WIDTH, <i16 as p::ColumnInt>::SIGNED),
        p::COLUMN_BOOL_SCHEMA,
        p::column_option_schema(p::COLUMN_BOOL_SCHEMA),
        p::column_vec_schema(4, p::COLUMN_BOOL_SCHEMA),
        p::column_array_schema(2, p::COLUMN_BOOL_SCHEMA),
        p::column_text_schema(4),
        p::column_rows_schema(<f32 as p::BitPack>::SCHEMA),
        p::column_fields_schema(&[p::COLUMN_BOOL_SCHEMA]),
        p::column_enum_schema(&[p::column_fields_schema(&[])]),
        p::columns_field_schema(16, false, <u32 as p::Columns>::COLUMNS_SCHEMA),
    ];
    for (index, schema) in schemas.iter().enumerate() {
        assert!(!schemas[..index].contains(schema), "fingerprint {index} is distinct");
    }
    assert_eq!(p::int_column_bits([1u8, 2, 3].into_iter()), 2 + 3 + 3 * 2);
}

/// `#[bitpack(max_len = 1000, adaptive_len)]` on a `Vec<u16>` (and a
/// `VecDeque<u16>`), as `expand/codec/collections.rs` emits it.
#[test]
fn adaptive_len_sequences_as_generated() {
    let ids: alloc::vec::Vec<u16> = alloc::vec![7, 8, 9];
    let recent: alloc::collections::VecDeque<u16> = [1, 2].into_iter().collect();
    let write = |writer: &mut BitWriter<'_>| -> p::Result<(), p::Error> {
        p::write_adaptive_len_sequence(writer, &ids, 1000, |writer, element| {
            <u16 as p::BitPack>::write_to(element, writer)?;
            p::Ok(())
        })?;
        p::write_adaptive_len_sequence(writer, &recent, 1000, |writer, element| {
            <u16 as p::BitPack>::write_to(element, writer)?;
            p::Ok(())
        })?;
        p::Ok(())
    };
    let mut buf = [0u8; 16];
    let mut writer = BitWriter::new(&mut buf);
    write(&mut writer).unwrap();
    // Bit length 2 (3 in 4 bits: bit_length(10) = 4), then 1 bit; twice.
    assert_eq!(writer.bits_written(), (4 + 1 + 3 * 16) + (4 + 1 + 2 * 16));
    let used = writer.finish().unwrap();
    let mut reader = BitReader::new(&buf[..used]);
    let read_ids = p::read_adaptive_len_sequence::<_, p::Vec<u16>, _>(
        &mut reader,
        1000,
        <u16 as p::BitPack>::MIN_BITS,
        |reader| {
            let element = <u16 as p::BitPack>::read_from(reader)?;
            p::Ok(element)
        },
    )
    .unwrap();
    let read_recent = p::read_adaptive_len_sequence::<_, alloc::collections::VecDeque<u16>, _>(
        &mut reader,
        1000,
        <u16 as p::BitPack>::MIN_BITS,
        |reader| {
            let element = <u16 as p::BitPack>::read_from(reader)?;
            p::Ok(element)
        },
    )
    .unwrap();
    assert_eq!((read_ids, read_recent), (ids, recent));
    assert_eq!(p::adaptive_len_vec_max_bits(1000, <u16 as p::BitPack>::MAX_BITS), 4 + 9 + 1000 * 16);
    assert_eq!(p::column_len_min_bits(1000), 4);
    assert_ne!(
        p::schema::adaptive_len_vec(1000, <u16 as p::BitPack>::SCHEMA),
        p::schema::vec(1000, <u16 as p::BitPack>::SCHEMA)
    );
}

/// `#[derive(BitPack)] struct RowRead { #[quantize(min = -8.0, max = 8.0,
/// res = 0.01)] v: [f32; 3], #[quantize(min = 0.0, max = 6.3, res =
/// 0.001)] yaw: f32, #[quantize(min = -1.0, max = 1.0, res = 0.5)] w: f32,
/// target: Option<u16> }` as `expand/batch.rs` and `run.rs` read a window's
/// block of it (the eighth pass): each element's five `f32` leaves taken as
/// steps and dequantized in two rows of four (`dequantized_row`, the second
/// padded with the step 0 under `(0, 1, 1)`), the `Option`'s value loaded
/// whether present or not (`take_if`), each element put into the room
/// reserved for the block (`block_slots`). Its `write_to` and `read_from`
/// are the fields' own calls, as the scalar path's.
#[derive(Debug, Clone, PartialEq)]
struct RowRead {
    v: [f32; 3],
    yaw: f32,
    w: f32,
    target: Option<u16>,
}

/// Its run's widths: `Rowed`'s floats and the presence bit (the
/// `Option`'s value, 16 bits, follows the run).
const ROW_READ_WIDTHS: [u32; 6] =
    [ROWED_WIDTHS[0], ROWED_WIDTHS[1], ROWED_WIDTHS[2], ROWED_WIDTHS[3], ROWED_WIDTHS[4], 1];

impl p::BitPack for RowRead {
    const MAX_BITS: usize = p::run_bits(&ROW_READ_WIDTHS) + 16;
    const MIN_BITS: usize = p::run_bits(&ROW_READ_WIDTHS);
    const SCHEMA: u64 = 0;

    fn write_to<W: p::BitWrite>(&self, writer: &mut W) -> p::Result<(), p::Error> {
        p::write_atomic(writer, |writer| {
            // The floats as `Rowed` writes them, one by one.
            p::BitPack::write_to(&Rowed { v: self.v, yaw: self.yaw, w: self.w }, writer)?;
            p::BitWrite::write_bool(writer, self.target.is_some())?;
            if let p::Some(target) = self.target {
                p::BitWrite::write_bits(writer, u32::from(target), 16)?;
            }
            p::Ok(())
        })
    }

    fn read_from<R: p::BitRead>(reader: &mut R) -> p::Result<Self, p::Error> {
        p::read_atomic(reader, |reader| {
            let Rowed { v, yaw, w } = <Rowed as p::BitPack>::read_from(reader)?;
            let target = if p::BitRead::read_bool(reader)? {
                p::Some(p::BitRead::read_bits(reader, 16)? as u16)
            } else {
                p::None
            };
            p::Ok(RowRead { v, yaw, w, target })
        })
    }

    fn __read_items<R: p::BitRead>(
        reader: &mut R,
        len: usize,
        items: &mut p::Vec<Self>,
    ) -> p::Result<(), p::Error> {
        // The derive emits this under `p::fits_window(MAX_BITS)`, a test of
        // constants that holds here.
        p::read_blocks(reader, len, items, |reader, items| {
            let mut valid = true;
            let p::Some(mut slots) = p::block_slots(items) else {
                return p::Ok(false);
            };
            let mut pad = p::None;
            let mut window = p::read_window(&*reader, &mut pad);
            // The derive writes the eight elements out one after another.
            for _ in 0..8 {
                let (v, yaw, w, target) = {
                    const WIDTHS: [u32; 6] = ROW_READ_WIDTHS;
                    let mut run = p::RunReader::new(p::run_bits(&WIDTHS));
                    let leaf0 = p::lane_steps(run.get_in(&mut window, WIDTHS[0]));
                    let leaf1 = p::lane_steps(run.get_in(&mut window, WIDTHS[1]));
                    let leaf2 = p::lane_steps(run.get_in(&mut window, WIDTHS[2]));
                    let leaf3 = p::lane_steps(run.get_in(&mut window, WIDTHS[3]));
                    let leaf4 = p::lane_steps(run.get_in(&mut window, WIDTHS[4]));
                    let leaf5 = run.get_in(&mut window, WIDTHS[5]);
                    let [leaf0, leaf1, leaf2, leaf3] = p::dequantized_row(
                        [leaf0, leaf1, leaf2, leaf3],
                        [(-8.0, 8.0, 0.01), (-8.0, 8.0, 0.01), (-8.0, 8.0, 0.01), (0.0, 6.3, 0.001)],
                        &mut valid,
                    );
                    let [leaf4, _, _, _] = p::dequantized_row(
                        [leaf4, 0u32, 0u32, 0u32],
                        [
                            (-1.0, 1.0, 0.5),
                            (0.0f32, 1.0f32, 1.0f32),
                            (0.0f32, 1.0f32, 1.0f32),
                            (0.0f32, 1.0f32, 1.0f32),
                        ],
                        &mut valid,
                    );
                    ([leaf0, leaf1, leaf2], leaf3, leaf4, {
                        let value1 = window.take_if(leaf5 != 0, 16);
                        if leaf5 != 0 { p::Some(value1 as u16) } else { p::None }
                    })
                };
                if !valid {
                    return p::Ok(false);
                }
                slots.put(RowRead { v, yaw, w, target });
            }
            let taken = window.end();
            p::Ok(valid && p::close_window(reader, taken))
        })
    }
}

#[test]
fn rows_read_as_generated() {
    assert!(p::fits_window(<RowRead as p::BitPack>::MAX_BITS));
    let items: alloc::vec::Vec<RowRead> = (0..21)
        .map(|i| {
            let f = i as f32;
            let target = (i % 3 != 1).then_some(i as u16 * 3001);
            RowRead { v: [f * 0.37 - 4.0, 7.0 - f * 0.6, -f * 0.3], yaw: f * 0.3, w: f / 21.0 - 0.4, target }
        })
        .collect();
    let mut buf = [0u8; 512];
    let mut writer = BitWriter::new(&mut buf);
    p::write_len(&mut writer, items.len(), 24).unwrap();
    let start = writer.bits_written();
    items.iter().for_each(|item| p::BitPack::write_to(item, &mut writer).unwrap());
    let bits = writer.bits_written();
    let used = writer.finish().unwrap();
    // Every cut, and `w`'s steps raised past its maximum (4) in elements
    // of both blocks and the tail: what the elements' own reads give, at
    // the same bit.
    let (base, w_offset) = (p::run_bits(&ROW_READ_WIDTHS), p::run_bits(&ROW_READ_WIDTHS[..4]));
    let w_at = |element: usize| {
        let before: usize =
            items[..element].iter().map(|item| base + if item.target.is_some() { 16 } else { 0 }).sum();
        start + before + w_offset
    };
    for (element, step) in [(None, 0), (Some(2), 5), (Some(9), 7), (Some(15), 6), (Some(20), 7)] {
        let mut bytes = buf;
        if let p::Some(element) = element {
            for bit in 0..3 {
                let at = w_at(element) + bit;
                bytes[at / 8] = bytes[at / 8] & !(1 << (at % 8)) | (((step >> bit) & 1) << (at % 8));
            }
        }
        for cut in (0..=used).rev() {
            let (mut blocks, mut scalar) = (BitReader::new(&bytes[..cut]), BitReader::new(&bytes[..cut]));
            let read: p::Result<alloc::vec::Vec<RowRead>, _> = p::read_items(&mut blocks, 24);
            let one_by_one = p::read_vec(&mut scalar, 24, base, RowRead::read_from);
            assert_eq!(read, one_by_one, "{element:?} cut at {cut}");
            assert_eq!(blocks.bits_read(), scalar.bits_read());
            if cut == used && element.is_none() {
                assert_eq!((read.map(|read| read.len()), blocks.bits_read()), (Ok(items.len()), bits));
            } else if cut == used {
                assert_eq!(read.unwrap_err().kind(), ErrorKind::OutOfRange);
            }
        }
    }
}

/// The relative codes of a group of relative floats in `write_delta_cached`
/// (`expand/change_groups/cached.rs`, `steps_group`): gathered last first in
/// a `StepCodes` (`code_steps`, `code_predicted_steps`) for one reservation,
/// written one by one (`write_steps`, `write_predicted_steps`) when they do
/// not all fit; either way the closures' bits, or their error at their bit.
#[test]
fn a_group_of_relative_floats_gathers_its_codes() {
    let write = |(x, v): (f32, f32), (bx, bv): (f32, f32), bytes: usize| {
        let mut buf = [0u8; 16];
        let mut writer = BitWriter::new(&mut buf[..bytes]);
        let writer = &mut writer;
        let mut valid = true;
        let now_steps0 = p::quantized_bits(x, -10.0, 10.0, 0.01, &mut valid);
        let now_steps1 = p::quantized_bits(v, -4.0, 4.0, 0.01, &mut valid);
        assert!(valid);
        p::BitWrite::write_bool(writer, true)?;
        let base_steps0 = p::relative_f32::agreed(p::None, bx, -10.0, 10.0, 0.01);
        let base_steps1 = p::relative_f32::agreed(p::None, bv, -4.0, 4.0, 0.01);
        let mut codes = p::relative_f32::StepCodes::new();
        p::relative_f32::code_steps(&mut codes, now_steps1, base_steps1, -4.0, 4.0, 0.01);
        p::relative_f32::code_predicted_steps(
            &mut codes,
            now_steps0,
            base_steps0,
            (base_steps1, -4.0, 4.0, 0.01, 0.5),
            -10.0,
            10.0,
            0.01,
        );
        if !codes.write(writer) {
            p::relative_f32::write_predicted_steps(
                writer,
                now_steps0,
                base_steps0,
                (base_steps1, -4.0, 4.0, 0.01, 0.5),
                -10.0,
                10.0,
                0.01,
            )?;
            p::relative_f32::write_steps(writer, now_steps1, base_steps1, -4.0, 4.0, 0.01)?;
        }
        p::Ok::<_, crate::Error>((writer.bits_written(), buf))
    };
    // The closures' form.
    let plain = |(x, v): (f32, f32), (bx, bv): (f32, f32), bytes: usize| {
        let mut buf = [0u8; 16];
        let mut writer = BitWriter::new(&mut buf[..bytes]);
        let writer = &mut writer;
        p::BitWrite::write_bool(writer, true)?;
        p::relative_f32::write_predicted(writer, x, bx, (bv, -4.0, 4.0, 0.01, 0.5), -10.0, 10.0, 0.01)?;
        p::relative_f32::write(writer, v, bv, -4.0, 4.0, 0.01)?;
        p::Ok::<_, crate::Error>((writer.bits_written(), buf))
    };
    let then = (1.0, 2.0);
    for now in [(2.0, 2.0), (1.0, -3.0), (9.5, 0.0), (2.01, 2.01)] {
        for bytes in 0..=16 {
            match (write(now, then, bytes), plain(now, then, bytes)) {
                (Ok(gathered), Ok(expected)) => assert_eq!(gathered, expected, "{now:?} in {bytes} bytes"),
                (Err(gathered), Err(expected)) => {
                    assert_eq!((gathered.kind(), gathered.bit()), (expected.kind(), expected.bit()))
                }
                (gathered, expected) => panic!("{now:?} in {bytes} bytes: {gathered:?}, {expected:?}"),
            }
        }
    }
}
