//! Property tests: every value of every integer type round-trips, alone and
//! in groups, in exactly the bits an independent cost model predicts; random
//! bytes never panic a reader, and what a reader accepts re-encodes to the
//! same bits.

use crate::adaptive_support;

use adaptive_support::{Big, Mixed, Outer, Position, Published, Samples, Single, decode, encode};
use bitpack::adaptive::{self, AdaptiveInt, Signs};
use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter};
use proptest::prelude::*;

/// The magnitude a signed value is sent as, written out independently of
/// the library.
fn reference_signed_magnitude(value: i128, signs: Signs) -> u128 {
    match signs {
        Signs::NonNegative => value as u128,
        // -v - 1 == !v, so negatives map to 2 * !v + 1 without overflow.
        Signs::ZigZag if value < 0 => (!value as u128) * 2 + 1,
        Signs::ZigZag => (value as u128) * 2,
    }
}

/// Bits of one magnitude: the prefix, n - 1 bits, and the escape's bit for
/// the two longest lengths.
fn reference_bits(magnitude: u128, prefix: u32, width: u32) -> usize {
    let n = 128 - magnitude.leading_zeros();
    let bits = match n {
        0 => prefix,
        n if n <= width - 2 => prefix + n - 1,
        n => prefix + 1 + n - 1,
    };
    bits as usize
}

/// Bits of a group: 0 when empty, else the mode bit and the exactly shorter
/// of per-value lengths and one shared width (a tie goes to per value).
fn reference_group_bits(magnitudes: &[u128], prefix: u32, width: u32) -> usize {
    if magnitudes.is_empty() {
        return 0;
    }
    let per_value: usize = magnitudes.iter().map(|&m| reference_bits(m, prefix, width)).sum();
    let shared_width = magnitudes.iter().map(|m| 128 - m.leading_zeros()).max().unwrap_or(0);
    let header = if shared_width <= width - 2 { prefix } else { prefix + 1 };
    let shared = header as usize + magnitudes.len() * shared_width as usize;
    1 + per_value.min(shared)
}

/// The sign modes a value can be written under.
fn modes_for<T: AdaptiveInt>(value: T) -> &'static [Signs] {
    if value.is_negative() { &[Signs::ZigZag] } else { &[Signs::NonNegative, Signs::ZigZag] }
}

/// Writes one value with the counter and the writer; checks they agree with
/// `expected_bits`, then reads it back.
fn round_trip_value<T>(value: T, signs: Signs, expected_bits: usize) -> Result<(), TestCaseError>
where
    T: AdaptiveInt + PartialEq + std::fmt::Debug,
{
    let mut counter = BitCounter::new();
    adaptive::write_adaptive(&mut counter, value, signs).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(counter.bits_written(), expected_bits, "counted bits of {:?} {:?}", value, signs);
    prop_assert_eq!(adaptive::adaptive_bits(value, signs).ok(), Some(expected_bits));
    prop_assert!(expected_bits <= T::MAX_BITS);
    let mut buf = vec![0u8; counter.bytes()];
    let mut writer = BitWriter::new(&mut buf);
    adaptive::write_adaptive(&mut writer, value, signs).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(writer.bits_written(), expected_bits);
    writer.finish().map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut reader = BitReader::new(&buf);
    prop_assert_eq!(adaptive::read_adaptive::<T>(&mut reader, signs).ok(), Some(value));
    prop_assert_eq!(reader.bits_read(), expected_bits);
    Ok(())
}

/// Round-trips `values` as an array-like group and as a `Vec`, checking
/// both sizes against the reference.
fn round_trip_group<T>(values: &[T], magnitudes: &[u128], signs: Signs) -> Result<(), TestCaseError>
where
    T: AdaptiveInt + PartialEq + std::fmt::Debug,
{
    let expected = reference_group_bits(magnitudes, T::PREFIX_BITS, T::WIDTH);
    prop_assert_eq!(adaptive::adaptive_group_bits(values, signs).ok(), Some(expected));
    prop_assert!(expected <= adaptive::adaptive_group_max_bits::<T>(values.len()));
    let max_len: usize = 12;
    let count_bits = (usize::BITS - max_len.leading_zeros()) as usize;
    let mut buf = vec![0u8; (count_bits + expected).div_ceil(8)];
    let mut writer = BitWriter::new(&mut buf);
    adaptive::write_adaptive_group(&mut writer, values, signs)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(writer.bits_written(), expected);
    writer.finish().map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut out = vec![T::ZERO; values.len()];
    let mut reader = BitReader::new(&buf);
    adaptive::read_adaptive_group(&mut reader, &mut out, signs)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&out, values);
    prop_assert_eq!(reader.bits_read(), expected);

    let mut writer = BitWriter::new(&mut buf);
    adaptive::write_adaptive_vec(&mut writer, values, max_len, signs)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(writer.bits_written(), count_bits + expected);
    prop_assert!(count_bits + expected <= adaptive::adaptive_vec_max_bits::<T>(max_len));
    writer.finish().map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut reader = BitReader::new(&buf);
    let back = adaptive::read_adaptive_vec::<T>(&mut reader, max_len, signs)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back, values);
    Ok(())
}

/// Reads a value from arbitrary bits: never panics, and whatever it accepts
/// re-encodes to exactly the bits it consumed (one encoding per value).
fn read_arbitrary<T>(bytes: &[u8], signs: Signs) -> Result<(), TestCaseError>
where
    T: AdaptiveInt + PartialEq + std::fmt::Debug,
{
    let mut reader = BitReader::new(bytes);
    match adaptive::read_adaptive::<T>(&mut reader, signs) {
        Ok(value) => {
            let consumed = reader.bits_read();
            prop_assert_eq!(adaptive::adaptive_bits(value, signs).ok(), Some(consumed));
            let mut buf = vec![0u8; bytes.len()];
            let mut writer = BitWriter::new(&mut buf);
            adaptive::write_adaptive(&mut writer, value, signs)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            writer.finish().map_err(|e| TestCaseError::fail(e.to_string()))?;
            let mut original = BitReader::new(bytes);
            let mut rewritten = BitReader::new(&buf);
            for _ in 0..consumed {
                prop_assert_eq!(original.read_bool().ok(), rewritten.read_bool().ok());
            }
        }
        Err(_) => prop_assert_eq!(reader.bits_read(), 0, "a failed read moved the reader"),
    }
    let mut out = vec![T::ZERO; bytes.first().map_or(0, |b| usize::from(b % 9))];
    let mut reader = BitReader::new(bytes);
    if adaptive::read_adaptive_group(&mut reader, &mut out, signs).is_err() {
        prop_assert_eq!(reader.bits_read(), 0);
    }
    let mut reader = BitReader::new(bytes);
    if let Ok(values) = adaptive::read_adaptive_vec::<T>(&mut reader, 12, signs) {
        prop_assert!(values.len() <= 12);
    }
    Ok(())
}

/// Values worth trying for a type: its ends, 0, ±1, and every power of two
/// and its neighbours (negated too, for signed types).
macro_rules! edges {
    ($t:ty) => {{
        let mut edges: Vec<$t> = vec![<$t>::MIN, <$t>::MAX, 0, 1, <$t>::MIN.wrapping_add(1), <$t>::MAX - 1];
        for shift in 0..<$t>::BITS {
            let power = (1 as $t) << shift;
            edges.extend([power, power.wrapping_sub(1), power.wrapping_add(1)]);
            edges.extend([power.wrapping_neg(), power.wrapping_neg().wrapping_sub(1)]);
        }
        edges
    }};
}

macro_rules! int_props {
    ($name:ident, $t:ty, $magnitude:expr) => {
        mod $name {
            use super::*;

            /// The reference magnitude of a value of this type.
            fn magnitude(value: $t, signs: Signs) -> u128 {
                #[allow(clippy::redundant_closure_call)]
                ($magnitude)(value, signs)
            }

            fn values() -> impl Strategy<Value = $t> {
                prop_oneof![any::<$t>(), proptest::sample::select(edges!($t))]
            }

            #[test]
            fn edges_round_trip() {
                for value in edges!($t) {
                    for &signs in modes_for(value) {
                        let bits = reference_bits(magnitude(value, signs), <$t>::PREFIX_BITS, <$t>::WIDTH);
                        round_trip_value(value, signs, bits).unwrap();
                    }
                }
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(512)))]

                #[test]
                fn every_value_round_trips(value in values()) {
                    for &signs in modes_for(value) {
                        let bits = reference_bits(magnitude(value, signs), <$t>::PREFIX_BITS, <$t>::WIDTH);
                        round_trip_value(value, signs, bits)?;
                    }
                }

                #[test]
                fn groups_round_trip_in_the_exactly_shorter_form(
                    values in proptest::collection::vec(values(), 0..=12),
                    force_zigzag in any::<bool>(),
                ) {
                    let negative = adaptive::any_negative(&values);
                    let signs = Signs::for_any_negative(negative || force_zigzag);
                    let magnitudes: Vec<u128> = values.iter().map(|&v| magnitude(v, signs)).collect();
                    round_trip_group(&values, &magnitudes, signs)?;
                }

                #[test]
                fn groups_of_close_values_round_trip(
                    base in values(),
                    offsets in proptest::collection::vec(0u8..4, 1..=12),
                ) {
                    let values: Vec<$t> = offsets.iter().map(|&o| base.wrapping_add(o as $t)).collect();
                    let signs = Signs::for_any_negative(adaptive::any_negative(&values));
                    let magnitudes: Vec<u128> = values.iter().map(|&v| magnitude(v, signs)).collect();
                    round_trip_group(&values, &magnitudes, signs)?;
                }

                #[test]
                fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
                    read_arbitrary::<$t>(&bytes, Signs::NonNegative)?;
                    read_arbitrary::<$t>(&bytes, Signs::ZigZag)?;
                }
            }
        }
    };
}

fn unsigned(value: impl Into<u128>, _signs: Signs) -> u128 {
    value.into()
}

fn signed(value: impl Into<i128>, signs: Signs) -> u128 {
    reference_signed_magnitude(value.into(), signs)
}

int_props!(props_u8, u8, unsigned);
int_props!(props_u16, u16, unsigned);
int_props!(props_u32, u32, unsigned);
int_props!(props_u64, u64, unsigned);
int_props!(props_u128, u128, unsigned);
int_props!(props_usize, usize, |v: usize, s| unsigned(v as u64, s));
int_props!(props_i8, i8, signed);
int_props!(props_i16, i16, signed);
int_props!(props_i32, i32, signed);
int_props!(props_i64, i64, signed);
int_props!(props_i128, i128, signed);
int_props!(props_isize, isize, |v: isize, s| signed(v as i64, s));

/// Every value of the 8- and 16-bit types, in both modes.
#[test]
fn every_small_value_round_trips_exhaustively() {
    for value in u16::MIN..=u16::MAX {
        let bits = reference_bits(u128::from(value), 4, 16);
        round_trip_value(value, Signs::NonNegative, bits).unwrap();
    }
    for value in i16::MIN..=i16::MAX {
        for &signs in modes_for(value) {
            let bits = reference_bits(reference_signed_magnitude(value.into(), signs), 4, 16);
            round_trip_value(value, signs, bits).unwrap();
        }
    }
    for value in u8::MIN..=u8::MAX {
        round_trip_value(value, Signs::NonNegative, reference_bits(u128::from(value), 3, 8)).unwrap();
    }
    for value in i8::MIN..=i8::MAX {
        for &signs in modes_for(value) {
            let bits = reference_bits(reference_signed_magnitude(value.into(), signs), 3, 8);
            round_trip_value(value, signs, bits).unwrap();
        }
    }
}

/// The published implementation decoded these wrongly.
#[test]
fn values_between_two_to_the_62_and_63_round_trip() {
    for value in [1u64 << 62, (1 << 62) + 1, (1 << 63) - 1, (1 << 63) - 2, 0x5555_5555_5555_5555 | (1 << 62)]
    {
        round_trip_value(value, Signs::NonNegative, 6 + 1 + 62).unwrap();
        let signed = value as i64;
        round_trip_value(signed, Signs::NonNegative, 6 + 1 + 62).unwrap();
        round_trip_value(signed, Signs::ZigZag, 6 + 1 + 63).unwrap();
        // Zig-zag of -2^62 is 2^63 - 1 (63 bits); below it, 64 bits.
        let negative_bits = if signed == 1 << 62 { 6 + 1 + 62 } else { 6 + 1 + 63 };
        round_trip_value(-signed, Signs::ZigZag, negative_bits).unwrap();
    }
}

fn check_message<T: BitPack + PartialEq + std::fmt::Debug>(value: &T) -> Result<(), TestCaseError> {
    let (bytes, _) = encode(value).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&decode::<T>(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?, value);
    Ok(())
}

/// Decodes arbitrary bytes: never panics; a failed read does not move the
/// reader; what it accepts re-encodes to no more bits and decodes the same.
fn decode_arbitrary<T: BitPack + PartialEq + std::fmt::Debug>(bytes: &[u8]) -> Result<(), TestCaseError> {
    let mut reader = BitReader::new(bytes);
    match T::read_from(&mut reader) {
        Ok(value) => {
            let (again, bits) = encode(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(bits <= reader.bits_read(), "{:?} re-encodes longer", value);
            let mut reread = BitReader::new(&again);
            prop_assert_eq!(
                &T::read_from(&mut reread).map_err(|e| TestCaseError::fail(e.to_string()))?,
                &value
            );
        }
        Err(_) => prop_assert_eq!(reader.bits_read(), 0),
    }
    Ok(())
}

proptest! {
    #[test]
    fn messages_round_trip(
        id in any::<i64>(), a in any::<i32>(), b in any::<i32>(), c in any::<u32>(),
        samples in proptest::collection::vec(any::<u16>(), 0..=16),
        xyz in any::<[i32; 3]>(),
        big in any::<(u64, u64)>(),
        target in any::<Option<i32>>(),
        heading_steps in any::<i32>(),
    ) {
        check_message(&Published { id, a, b })?;
        check_message(&Mixed { a, b, c })?;
        check_message(&Samples { values: samples })?;
        check_message(&Position { xyz })?;
        check_message(&Big { a: big.0, b: big.1 })?;
        check_message(&Single { v: a })?;
        let heading = f64::from(heading_steps) * adaptive_support::HEADING_RES;
        let outer = Outer { id: c, position: Position { xyz }, target: target.map(|v| Single { v }), heading };
        let (bytes, _) = encode(&outer).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back = decode::<Outer>(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back.position, &outer.position);
        prop_assert_eq!(back.target, outer.target);
        prop_assert!((back.heading - heading).abs() <= adaptive_support::HEADING_RES / 2.0);
    }

    #[test]
    fn fixed_point_is_within_half_a_step(value in -1.0e12f64..1.0e12, res_exp in -3i32..3) {
        // Up to 1e15 steps: within FIXED_MAX_STEPS (2^50, about 1.13e15).
        let res = 10f64.powi(res_exp);
        let mut buf = [0u8; 16];
        let mut writer = BitWriter::new(&mut buf);
        let signs = Signs::for_any_negative(value < 0.0);
        adaptive::write_fixed(&mut writer, value, res, signs).map_err(|e| TestCaseError::fail(e.to_string()))?;
        writer.finish().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back = adaptive::read_fixed(&mut BitReader::new(&buf), res, signs)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        // Half a step, plus the float error of one division and one product.
        prop_assert!((back - value).abs() <= res / 2.0 + value.abs() * 4.0 * f64::EPSILON);
        // And what was read sends the same quotient again.
        prop_assert_eq!(adaptive::fixed_point(back, res), adaptive::fixed_point(value, res));
    }

    #[test]
    fn random_bytes_never_panic_message_decoders(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
        decode_arbitrary::<Published>(&bytes)?;
        decode_arbitrary::<Mixed>(&bytes)?;
        decode_arbitrary::<Samples>(&bytes)?;
        decode_arbitrary::<Position>(&bytes)?;
        decode_arbitrary::<Big>(&bytes)?;
        decode_arbitrary::<Single>(&bytes)?;
        // Fixed point may re-encode a read-back float one ulp off: only no panic here.
        let _ = Outer::read_from(&mut BitReader::new(&bytes));
        let _ = adaptive::read_fixed_f32(&mut BitReader::new(&bytes), 1e-30, Signs::ZigZag);
    }
}
