//! Replays every golden case made with the reference C++ `serialize`
//! library (`tests/vectors/serialize-reference.json`, copied from the shared
//! vectors): bytes written, bit positions after each op, values read back
//! (from the exact bytes and with 16 bytes of 0x00 or 0xFF appended), the
//! counter's exact count, and every read failure refused at its op.

use bitpack::{BitCounter, BitRead, BitReader, BitWrite, BitWriter, Error};
use serde_json::Value;

const VECTORS: &str = include_str!("../../vectors/serialize-reference.json");

fn vectors() -> Value {
    serde_json::from_str(VECTORS).expect("vector file is valid JSON")
}

fn hex(text: &str) -> Vec<u8> {
    assert!(text.len().is_multiple_of(2), "odd hex string {text}");
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex digit")).collect()
}

fn text<'a>(op: &'a Value, key: &str) -> &'a str {
    op[key].as_str().unwrap_or_else(|| panic!("{key} is not a string in {op}"))
}

fn num_i64(op: &Value, key: &str) -> i64 {
    op[key].as_i64().unwrap_or_else(|| panic!("{key} is not an integer in {op}"))
}

fn num_u32(op: &Value, key: &str) -> u32 {
    u32::try_from(num_i64(op, key)).expect("u32")
}

fn dec<T: std::str::FromStr>(op: &Value, key: &str) -> T
where
    T::Err: std::fmt::Debug,
{
    text(op, key).parse().expect("decimal string")
}

fn hex_u32(op: &Value, key: &str) -> u32 {
    u32::from_str_radix(text(op, key), 16).expect("hex u32")
}

fn hex_f32(op: &Value, key: &str) -> f32 {
    f32::from_bits(hex_u32(op, key))
}

/// `(min << F, max << F)` of a fixed-point op, the int128 range it is sent in.
fn fixed_range(op: &Value) -> (i128, i128) {
    let fraction_bits = num_u32(op, "fraction_bits");
    let min: i128 = dec(op, "min");
    let max: i128 = dec(op, "max");
    (min << fraction_bits, max << fraction_bits)
}

/// The reference's string buffer size B becomes our `max_len = B - 1`.
fn max_len(op: &Value) -> usize {
    usize::try_from(num_i64(op, "buffer_size") - 1).expect("buffer_size >= 1")
}

fn write_op<W: BitWrite>(w: &mut W, op: &Value) -> Result<(), Error> {
    match text(op, "op") {
        "bits" => w.write_bits(num_u32(op, "value"), num_u32(op, "bits")),
        "bits64" => w.write_bits64(dec(op, "value"), num_u32(op, "bits")),
        "bool" => w.write_bool(op["value"].as_bool().expect("bool")),
        "int" => {
            w.write_int(num_i64(op, "value") as i32, num_i64(op, "min") as i32, num_i64(op, "max") as i32)
        }
        "int64" => w.write_int64(dec(op, "value"), dec(op, "min"), dec(op, "max")),
        "int128" => w.write_int128(dec(op, "value"), dec(op, "min"), dec(op, "max")),
        "fixed" => {
            let (min, max) = fixed_range(op);
            w.write_int128(dec(op, "raw"), min, max)
        }
        "uint8" => w.write_u8(num_u32(op, "value") as u8),
        "uint16" => w.write_u16(num_u32(op, "value") as u16),
        "uint32" => w.write_u32(num_u32(op, "value")),
        "uint64" => w.write_u64(dec(op, "value")),
        "uint128" => w.write_u128(dec(op, "value")),
        "float" => w.write_f32(f32::from_bits(hex_u32(op, "bits_hex"))),
        "double" => w.write_f64(f64::from_bits(u64::from_str_radix(text(op, "bits_hex"), 16).expect("hex"))),
        "compressed_float" => w.write_compressed_float(
            hex_f32(op, "value_hex"),
            hex_f32(op, "min_hex"),
            hex_f32(op, "max_hex"),
            hex_f32(op, "res_hex"),
        ),
        "align" => w.write_align(),
        "bytes" => w.write_bytes(&hex(text(op, "data_hex"))),
        "string" => {
            let bytes = hex(text(op, "value_hex"));
            w.write_str(std::str::from_utf8(&bytes).expect("utf-8"), max_len(op))
        }
        "wstring" => w.write_wstr(text(op, "text"), max_len(op)),
        "int_relative" => match text(op, "type") {
            "u32" => w.write_int_relative(num_u32(op, "previous"), num_u32(op, "current")),
            "i32" => w.write_int_relative(num_i64(op, "previous") as i32, num_i64(op, "current") as i32),
            other => panic!("unknown int_relative type {other}"),
        },
        "ack_relative" => w.write_ack_relative(num_u32(op, "sequence") as u16, num_u32(op, "ack") as u16),
        "sequence_relative" => {
            w.write_sequence_relative(num_u32(op, "sequence1") as u16, num_u32(op, "sequence2") as u16)
        }
        other => panic!("unknown op {other}"),
    }
}

/// Reads `op` back. With `expect_value` the decoded value must equal the
/// op's; without (the failing op of a read-failure case) only the result
/// matters.
fn read_op<R: BitRead>(r: &mut R, op: &Value, expect_value: bool) -> Result<(), Error> {
    macro_rules! check {
        ($read:expr, $expected:expr) => {{
            let got = $read?;
            if expect_value {
                assert_eq!(got, $expected, "decoded value of {op}");
            }
        }};
    }
    match text(op, "op") {
        "bits" => check!(r.read_bits(num_u32(op, "bits")), num_u32(op, "value")),
        "bits64" => check!(r.read_bits64(num_u32(op, "bits")), dec::<u64>(op, "value")),
        "bool" => check!(r.read_bool(), op["value"].as_bool().unwrap_or_default()),
        "int" => check!(
            r.read_int(num_i64(op, "min") as i32, num_i64(op, "max") as i32),
            op["value"].as_i64().unwrap_or_default() as i32
        ),
        "int64" => check!(r.read_int64(dec(op, "min"), dec(op, "max")), dec::<i64>(op, "value")),
        "int128" => check!(r.read_int128(dec(op, "min"), dec(op, "max")), dec::<i128>(op, "value")),
        "fixed" => {
            let (min, max) = fixed_range(op);
            check!(r.read_int128(min, max), dec::<i128>(op, "raw"))
        }
        "uint8" => check!(r.read_u8(), num_u32(op, "value") as u8),
        "uint16" => check!(r.read_u16(), num_u32(op, "value") as u16),
        "uint32" => check!(r.read_u32(), num_u32(op, "value")),
        "uint64" => check!(r.read_u64(), dec::<u64>(op, "value")),
        "uint128" => check!(r.read_u128(), dec::<u128>(op, "value")),
        "float" => check!(r.read_f32().map(f32::to_bits), hex_u32(op, "bits_hex")),
        "double" => check!(
            r.read_f64().map(f64::to_bits),
            u64::from_str_radix(text(op, "bits_hex"), 16).expect("hex")
        ),
        "compressed_float" => check!(
            r.read_compressed_float(hex_f32(op, "min_hex"), hex_f32(op, "max_hex"), hex_f32(op, "res_hex"))
                .map(f32::to_bits),
            hex_u32(op, "decoded_hex")
        ),
        "align" => r.read_align()?,
        "bytes" => {
            let len = usize::try_from(num_i64(op, "len")).expect("len");
            check!(r.read_bytes(len).map(<[u8]>::to_vec), hex(text(op, "data_hex")))
        }
        "string" => {
            check!(r.read_str(max_len(op)).map(|s| s.as_bytes().to_vec()), hex(text(op, "value_hex")))
        }
        "wstring" => check!(r.read_wstr(max_len(op)), text(op, "text").to_string()),
        "int_relative" => match text(op, "type") {
            "u32" => check!(r.read_int_relative(num_u32(op, "previous")), num_u32(op, "current")),
            _ => check!(
                r.read_int_relative(num_i64(op, "previous") as i32),
                op["current"].as_i64().unwrap_or_default() as i32
            ),
        },
        "ack_relative" => {
            check!(r.read_ack_relative(num_u32(op, "sequence") as u16), num_u32(op, "ack") as u16)
        }
        "sequence_relative" => {
            check!(r.read_sequence_relative(num_u32(op, "sequence1") as u16), num_u32(op, "sequence2") as u16)
        }
        other => panic!("unknown op {other}"),
    }
    Ok(())
}

fn bits_after(case: &Value) -> Vec<usize> {
    case["bits_after"]
        .as_array()
        .expect("bits_after")
        .iter()
        .map(|b| b.as_u64().expect("bit") as usize)
        .collect()
}

/// Writes a case into a buffer of exactly its size pre-filled with 0xA5,
/// checking the position after each op, and counts it with `BitCounter`.
fn check_write(case: &Value) {
    let name = text(case, "name");
    let ops = case["ops"].as_array().expect("ops");
    let expected = hex(text(case, "bytes_hex"));
    let after = bits_after(case);
    let mut buf = vec![0xA5u8; expected.len()];
    let mut writer = BitWriter::new(&mut buf);
    let mut counter = BitCounter::new();
    for (i, op) in ops.iter().enumerate() {
        write_op(&mut writer, op).unwrap_or_else(|e| panic!("{name}: op {i} {op}: {e}"));
        write_op(&mut counter, op).unwrap_or_else(|e| panic!("{name}: count op {i} {op}: {e}"));
        assert_eq!(writer.bits_written(), after[i], "{name}: bits after op {i} {op}");
        assert_eq!(counter.bits_written(), after[i], "{name}: counted bits after op {i} {op}");
    }
    assert_eq!(counter.bits_written(), num_i64(case, "bits_written") as usize, "{name}: exact count");
    let used = writer.finish().expect("finish");
    assert_eq!(used, num_i64(case, "bytes_len") as usize, "{name}: bytes used");
    assert_eq!(buf, expected, "{name}: bytes");
}

/// Reads a case back from `bytes` (the exact stream, or with a tail).
fn check_read(case: &Value, bytes: &[u8], tail: &str) {
    let name = text(case, "name");
    let after = bits_after(case);
    let mut reader = BitReader::new(bytes);
    for (i, op) in case["ops"].as_array().expect("ops").iter().enumerate() {
        read_op(&mut reader, op, true).unwrap_or_else(|e| panic!("{name} ({tail}): read op {i} {op}: {e}"));
        assert_eq!(reader.bits_read(), after[i], "{name} ({tail}): bits read after op {i}");
    }
}

fn check_cases(cases: &Value) -> usize {
    let cases = cases.as_array().expect("cases");
    for case in cases {
        check_write(case);
        let bytes = hex(text(case, "bytes_hex"));
        check_read(case, &bytes, "exact");
        for (junk, tail) in [(0x00u8, "+16x00"), (0xFF, "+16xFF")] {
            let mut longer = bytes.clone();
            longer.extend([junk; 16]);
            check_read(case, &longer, tail);
        }
    }
    cases.len()
}

#[test]
fn every_reference_case_is_written_counted_and_read_bit_exactly() {
    let vectors = vectors();
    let replayed = check_cases(&vectors["cases"]);
    assert_eq!(replayed, 41, "all public cases replayed");
}

#[test]
fn historical_ack_and_sequence_cases_match() {
    let vectors = vectors();
    assert_eq!(check_cases(&vectors["historical_cases"]), 4);
}

#[test]
fn every_read_failure_is_refused_at_its_op() {
    let vectors = vectors();
    let failures = vectors["read_failures"].as_array().expect("read_failures");
    for case in failures {
        let name = text(case, "name");
        let bytes = hex(text(case, "bytes_hex"));
        let fails_at = num_i64(case, "fails_at_op") as usize;
        let ops = case["ops"].as_array().expect("ops");
        let mut reader = BitReader::new(&bytes);
        for (i, op) in ops.iter().enumerate().take(fails_at) {
            read_op(&mut reader, op, true)
                .unwrap_or_else(|e| panic!("{name}: op {i} before the failure: {e}"));
        }
        let before = reader.bits_read();
        let result = read_op(&mut reader, &ops[fails_at], false);
        let error = result.expect_err(name);
        assert_eq!(error.bit(), before, "{name}: the error names where the op started");
        assert_eq!(reader.bits_read(), before, "{name}: a failed read leaves the position");
    }
    assert_eq!(failures.len(), 28);
}
