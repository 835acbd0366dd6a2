//! Property tests of the core packer: random op sequences round-trip, the
//! counter agrees with the writer, buffers of exactly the needed size work
//! and one byte less fails, and hostile bytes never panic a reader.

use bitpack::{BitCounter, BitRead, BitReader, BitWrite, BitWriter, Error, ErrorKind};
use proptest::prelude::*;

/// One write op with its parameters and an in-range value.
#[derive(Clone, Debug)]
enum Op {
    Bits(u32, u32),
    Bits64(u64, u32),
    Bool(bool),
    Int(i32, i32, i32),
    Int64(i64, i64, i64),
    Int128(i128, i128, i128),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    U128(u128),
    F32(u32),
    F64(u64),
    Compressed(f32, f32, f32, f32),
    Align,
    Bytes(Vec<u8>),
    Str(String, usize),
    WStr(String, usize),
    RelativeU32(u32, u32),
    RelativeI32(i32, i32),
    Ack(u16, u16),
    Sequence(u16, u16),
}

fn ranged<T: Copy + PartialOrd + std::fmt::Debug + 'static>(
    bounds: impl Strategy<Value = (T, T)>,
    pick: impl Fn(T, T, u64) -> T + 'static,
) -> impl Strategy<Value = (T, T, T)> {
    (bounds, any::<u64>()).prop_map(move |((a, b), seed)| {
        let (min, max) = if a <= b { (a, b) } else { (b, a) };
        (pick(min, max, seed), min, max)
    })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (1u32..=32, any::<u32>())
            .prop_map(|(bits, v)| Op::Bits(if bits == 32 { v } else { v % (1 << bits) }, bits)),
        (1u32..=64, any::<u64>())
            .prop_map(|(bits, v)| Op::Bits64(if bits == 64 { v } else { v % (1u64 << bits) }, bits)),
        any::<bool>().prop_map(Op::Bool),
        ranged((any::<i32>(), any::<i32>()), |min, max, s| {
            (min as i64 + (s % ((max as i64 - min as i64) as u64 + 1)) as i64) as i32
        })
        .prop_map(|(v, min, max)| Op::Int(v, min, max)),
        ranged((any::<i64>(), any::<i64>()), |min, max, s| {
            let span = (max as i128 - min as i128) as u128 + 1;
            (min as i128 + (s as u128 % span) as i128) as i64
        })
        .prop_map(|(v, min, max)| Op::Int64(v, min, max)),
        ranged((any::<i128>(), any::<i128>()), |min, max, s| {
            let span = (max as u128).wrapping_sub(min as u128);
            let offset = if span == u128::MAX { s as u128 } else { s as u128 % (span + 1) };
            (min as u128).wrapping_add(offset) as i128
        })
        .prop_map(|(v, min, max)| Op::Int128(v, min, max)),
        any::<u8>().prop_map(Op::U8),
        any::<u16>().prop_map(Op::U16),
        any::<u32>().prop_map(Op::U32),
        any::<u64>().prop_map(Op::U64),
        any::<u128>().prop_map(Op::U128),
        any::<u32>().prop_map(Op::F32),
        any::<u64>().prop_map(Op::F64),
        (-1.0e6f32..1.0e6, 0.001f32..1.0e5, 0.0001f32..100.0, -2.0f32..3.0)
            .prop_map(|(min, span, res, t)| Op::Compressed(min + span * t, min, min + span, res)),
        Just(Op::Align),
        // Runs under 64 bytes and longer ones take different writer paths.
        proptest::collection::vec(any::<u8>(), 0..100).prop_map(Op::Bytes),
        ("[a-zA-Z0-9 é漢😀]{0,12}", 0usize..40).prop_map(|(s, extra)| {
            let max = s.len() + extra;
            Op::Str(s, max)
        }),
        ("[a-zA-Z0-9 é漢😀]{0,8}", 0usize..10).prop_map(|(s, extra)| {
            let max = s.encode_utf16().count() + extra;
            Op::WStr(s, max)
        }),
        (any::<u32>(), any::<u32>()).prop_filter_map("distinct", |(a, b)| match a.cmp(&b) {
            std::cmp::Ordering::Less => Some(Op::RelativeU32(a, b)),
            std::cmp::Ordering::Greater => Some(Op::RelativeU32(b, a)),
            std::cmp::Ordering::Equal => None,
        }),
        (any::<i32>(), 1u32..100_000).prop_filter_map("no overflow", |(a, d)| {
            a.checked_add(d as i32).map(|b| Op::RelativeI32(a, b))
        }),
        (any::<u16>(), any::<u16>()).prop_map(|(s, a)| Op::Ack(s, a)),
        (any::<u16>(), any::<u16>())
            .prop_filter_map("distinct", |(a, b)| (a != b).then_some(Op::Sequence(a, b))),
    ]
}

fn write<W: BitWrite>(w: &mut W, op: &Op) -> Result<(), Error> {
    match op {
        Op::Bits(v, bits) => w.write_bits(*v, *bits),
        Op::Bits64(v, bits) => w.write_bits64(*v, *bits),
        Op::Bool(v) => w.write_bool(*v),
        Op::Int(v, min, max) => w.write_int(*v, *min, *max),
        Op::Int64(v, min, max) => w.write_int64(*v, *min, *max),
        Op::Int128(v, min, max) => w.write_int128(*v, *min, *max),
        Op::U8(v) => w.write_u8(*v),
        Op::U16(v) => w.write_u16(*v),
        Op::U32(v) => w.write_u32(*v),
        Op::U64(v) => w.write_u64(*v),
        Op::U128(v) => w.write_u128(*v),
        Op::F32(bits) => w.write_f32(f32::from_bits(*bits)),
        Op::F64(bits) => w.write_f64(f64::from_bits(*bits)),
        Op::Compressed(v, min, max, res) => w.write_compressed_float(*v, *min, *max, *res),
        Op::Align => w.write_align(),
        Op::Bytes(bytes) => w.write_bytes(bytes),
        Op::Str(s, max) => w.write_str(s, *max),
        Op::WStr(s, max) => w.write_wstr(s, *max),
        Op::RelativeU32(a, b) => w.write_int_relative(*a, *b),
        Op::RelativeI32(a, b) => w.write_int_relative(*a, *b),
        Op::Ack(s, a) => w.write_ack_relative(*s, *a),
        Op::Sequence(a, b) => w.write_sequence_relative(*a, *b),
    }
}

/// Reads `op` back: `Err` when the reader refused, `Ok(Some(why))` when it
/// decoded something other than what `op` wrote.
fn read_back<R: BitRead>(r: &mut R, op: &Op) -> Result<Option<String>, Error> {
    fn differ<T: PartialEq + std::fmt::Debug>(got: T, want: T) -> Option<String> {
        (got != want).then(|| format!("decoded {got:?}, wrote {want:?}"))
    }
    Ok(match op {
        Op::Bits(v, bits) => differ(r.read_bits(*bits)?, *v),
        Op::Bits64(v, bits) => differ(r.read_bits64(*bits)?, *v),
        Op::Bool(v) => differ(r.read_bool()?, *v),
        Op::Int(v, min, max) => differ(r.read_int(*min, *max)?, *v),
        Op::Int64(v, min, max) => differ(r.read_int64(*min, *max)?, *v),
        Op::Int128(v, min, max) => differ(r.read_int128(*min, *max)?, *v),
        Op::U8(v) => differ(r.read_u8()?, *v),
        Op::U16(v) => differ(r.read_u16()?, *v),
        Op::U32(v) => differ(r.read_u32()?, *v),
        Op::U64(v) => differ(r.read_u64()?, *v),
        Op::U128(v) => differ(r.read_u128()?, *v),
        Op::F32(bits) => differ(r.read_f32()?.to_bits(), *bits),
        Op::F64(bits) => differ(r.read_f64()?.to_bits(), *bits),
        Op::Compressed(v, min, max, res) => {
            let got = r.read_compressed_float(*min, *max, *res)?;
            let clamped = v.clamp(*min, *max);
            // Half a step, plus f32 rounding of the reference's arithmetic.
            let step = (max - min) / ((max - min) / res).clamp(1.0, 4_294_967_040.0).ceil();
            let slack = step / 2.0 + max.abs().max(min.abs()) * 4.0 * f32::EPSILON;
            ((got - clamped).abs() > slack).then(|| format!("{got} vs {clamped} (slack {slack})"))
        }
        Op::Align => {
            r.read_align()?;
            None
        }
        Op::Bytes(bytes) => differ(r.read_bytes(bytes.len())?, &bytes[..]),
        Op::Str(s, max) => differ(r.read_str(*max)?, s.as_str()),
        Op::WStr(s, max) => differ(r.read_wstr(*max)?, s.clone()),
        Op::RelativeU32(a, b) => differ(r.read_int_relative(*a)?, *b),
        Op::RelativeI32(a, b) => differ(r.read_int_relative(*a)?, *b),
        Op::Ack(s, a) => differ(r.read_ack_relative(*s)?, *a),
        Op::Sequence(a, b) => differ(r.read_sequence_relative(*a)?, *b),
    })
}

fn count(ops: &[Op]) -> usize {
    let mut counter = BitCounter::new();
    for op in ops {
        write(&mut counter, op).expect("valid op counts");
    }
    counter.bits_written()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(512)))]

    #[test]
    fn random_op_sequences_round_trip(ops in proptest::collection::vec(op(), 0..24)) {
        let bits = count(&ops);
        let mut buf = vec![0u8; bits.div_ceil(8)];
        let mut writer = BitWriter::new(&mut buf);
        for op in &ops {
            write(&mut writer, op).map_err(|e| TestCaseError::fail(format!("{op:?}: {e}")))?;
        }
        prop_assert_eq!(writer.bits_written(), bits);
        prop_assert_eq!(writer.finish().expect("finish"), bits.div_ceil(8));
        let mut reader = BitReader::new(&buf);
        for op in &ops {
            let result = read_back(&mut reader, op);
            prop_assert_eq!(result, Ok(None), "{:?}", op);
        }
        prop_assert_eq!(reader.bits_read(), bits);
    }

    #[test]
    fn one_byte_short_fails_and_changes_nothing(ops in proptest::collection::vec(op(), 1..16)) {
        let bits = count(&ops);
        prop_assume!(bits > 0);
        let mut buf = vec![0u8; bits.div_ceil(8) - 1];
        let mut writer = BitWriter::new(&mut buf);
        let mut failed = false;
        for op in &ops {
            let before = writer.bits_written();
            if let Err(e) = write(&mut writer, op) {
                prop_assert_eq!(e.kind(), ErrorKind::BufferFull);
                prop_assert_eq!(e.bit(), before);
                prop_assert_eq!(writer.bits_written(), before, "a refused write changes nothing");
                failed = true;
                break;
            }
        }
        prop_assert!(failed, "{} bits cannot fit in {} bytes", bits, bits.div_ceil(8) - 1);
    }

    #[test]
    fn hostile_bytes_never_panic_any_read(
        bytes in proptest::collection::vec(any::<u8>(), 0..48),
        ops in proptest::collection::vec(op(), 1..12),
    ) {
        let mut reader = BitReader::new(&bytes);
        for op in &ops {
            let before = reader.bits_read();
            // Any value is fine (the bytes are random); a refused read must
            // leave the position where it was and name it.
            if let Err(error) = read_back(&mut reader, op) {
                prop_assert_eq!(reader.bits_read(), before);
                prop_assert_eq!(error.bit(), before);
            }
            prop_assert!(reader.bits_read() <= bytes.len() * 8);
        }
    }
}

/// Writes that must be refused, with the kind of refusal.
const REFUSALS: [(&str, ErrorKind); 12] = [
    ("bits value too wide", ErrorKind::OutOfRange),
    ("bits width 0", ErrorKind::InvalidDeclaration),
    ("bits width 33", ErrorKind::InvalidDeclaration),
    ("int over max", ErrorKind::OutOfRange),
    ("int min > max", ErrorKind::InvalidDeclaration),
    ("string too long", ErrorKind::TooLong),
    ("string NUL", ErrorKind::InteriorNul),
    ("relative equal", ErrorKind::NotIncreasing),
    ("relative i32 order", ErrorKind::NotIncreasing),
    ("sequence equal", ErrorKind::NotIncreasing),
    ("float NaN", ErrorKind::NonFiniteFloat),
    ("float res 0", ErrorKind::InvalidDeclaration),
];

fn attempt_refusal<W: BitWrite>(w: &mut W, name: &str) -> Result<(), Error> {
    match name {
        "bits value too wide" => w.write_bits(8, 3),
        "bits width 0" => w.write_bits(0, 0),
        "bits width 33" => w.write_bits(0, 33),
        "int over max" => w.write_int(11, 0, 10),
        "int min > max" => w.write_int(0, 1, 0),
        "string too long" => w.write_str("hello", 4),
        "string NUL" => w.write_str("a\0b", 8),
        "relative equal" => w.write_int_relative(5u32, 5),
        "relative i32 order" => w.write_int_relative(1i32, -1),
        "sequence equal" => w.write_sequence_relative(9, 9),
        "float NaN" => w.write_compressed_float(f32::NAN, 0.0, 1.0, 0.1),
        "float res 0" => w.write_compressed_float(0.5, 0.0, 1.0, 0.0),
        other => panic!("no refusal named {other}"),
    }
}

#[test]
fn writes_refuse_bad_values_and_change_nothing() {
    let mut buf = [0u8; 64];
    let mut writer = BitWriter::new(&mut buf);
    let mut counter = BitCounter::new();
    writer.write_bits(1, 3).unwrap();
    counter.write_bits(1, 3).unwrap();
    for (name, kind) in REFUSALS {
        let error = attempt_refusal(&mut writer, name).expect_err(name);
        assert_eq!(error.kind(), kind, "{name}");
        assert_eq!(error.bit(), 3, "{name}: names the bit where it started");
        assert_eq!(
            attempt_refusal(&mut counter, name).expect_err(name).kind(),
            kind,
            "{name}: counter alike"
        );
        assert_eq!(writer.bits_written(), 3, "{name}: writer unchanged");
        assert_eq!(counter.bits_written(), 3, "{name}: counter unchanged");
    }
    assert_eq!(format!("{}", writer.write_int(11, 0, 10).unwrap_err()), "value out of range at bit 3");
}

#[test]
fn compressed_float_declarations_are_checked_on_read_too() {
    let mut reader = BitReader::new(&[0u8; 8]);
    for (min, max, res) in
        [(1.0, 0.0, 0.1), (0.0, 1.0, -0.1), (f32::NEG_INFINITY, 1.0, 0.1), (0.0, 1.0, f32::NAN)]
    {
        let error = reader.read_compressed_float(min, max, res).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidDeclaration);
    }
    assert_eq!(reader.bits_read(), 0);
}

#[test]
fn reader_ignores_unused_bits_of_the_last_byte_and_never_reads_past_the_slice() {
    let backing = [0b1111_1101u8, 0xFF];
    let mut reader = BitReader::new(&backing[..1]);
    assert_eq!(reader.read_bits(2).unwrap(), 1);
    assert_eq!(reader.bits_remaining(), 6);
    assert_eq!(reader.read_bits(7).unwrap_err().kind(), ErrorKind::UnexpectedEnd);
    assert_eq!(reader.bits_read(), 2);
}

/// Found by the `read_ops` fuzz target: readers accept only what the
/// writer produces, so every decoded value re-encodes to the bits it came
/// from.
#[test]
fn non_canonical_relative_encodings_are_refused() {
    // int_relative from 100: six zero flags, then 101 in 32 bits (the writer
    // sends a difference of 1 as a single bit).
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bits(0, 6).unwrap();
    writer.write_u32(101).unwrap();
    let used = writer.finish().unwrap();
    let error = BitReader::new(&buf[..used]).read_int_relative(100u32).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NonCanonical);
    // The largest tier difference sent absolute is refused; one past it is the writer's own form.
    for (current, ok) in [(100 + 69_914, false), (100 + 69_915, true)] {
        let mut buf = [0u8; 8];
        let mut writer = BitWriter::new(&mut buf);
        writer.write_bits(0, 6).unwrap();
        writer.write_u32(current).unwrap();
        let used = writer.finish().unwrap();
        assert_eq!(BitReader::new(&buf[..used]).read_int_relative(100u32).is_ok(), ok, "{current}");
    }

    // ack_relative: an ack 3 behind sent as 16 raw bits.
    let mut buf = [0u8; 4];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bool(false).unwrap();
    writer.write_u16(97).unwrap();
    let used = writer.finish().unwrap();
    let mut reader = BitReader::new(&buf[..used]);
    assert_eq!(reader.read_ack_relative(100).unwrap_err().kind(), ErrorKind::NonCanonical);
    assert_eq!(reader.bits_read(), 0);
}
