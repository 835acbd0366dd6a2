//! Checks shared by the `types_*` tests: round trips with the measure stream
//! checked against the writer and `MAX_BITS`/`MIN_BITS`, canonical reads of
//! hostile bytes, and a deterministic generator.

#![allow(dead_code)] // each test binary uses part of this module

use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter};
use std::fmt::Debug;

/// xorshift64*: deterministic and dependency-free.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [min, max).
    pub fn range(&mut self, min: f64, max: f64) -> f64 {
        min + (max - min) * self.unit()
    }

    pub fn bytes(&mut self, max_len: usize) -> Vec<u8> {
        (0..(self.next() as usize % (max_len + 1))).map(|_| self.next() as u8).collect()
    }

    /// A uniformly random rotation (Shoemaker), `(x, y, z, w)`.
    pub fn rotation(&mut self) -> [f64; 4] {
        let (u1, u2, u3) = (self.unit(), self.unit(), self.unit());
        let tau = std::f64::consts::TAU;
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        [a * (tau * u2).sin(), a * (tau * u2).cos(), b * (tau * u3).sin(), b * (tau * u3).cos()]
    }
}

/// Encodes `value` through the writer and the counter, checking they agree
/// and lie within `MIN_BITS..=MAX_BITS`: (bytes, bits).
pub fn encode<T: BitPack>(value: &T) -> (Vec<u8>, usize) {
    let mut counter = BitCounter::new();
    value.write_to(&mut counter).unwrap();
    let bits = counter.bits_written();
    assert!(bits <= T::MAX_BITS, "{bits} bits over MAX_BITS {}", T::MAX_BITS);
    assert!(bits >= T::MIN_BITS, "{bits} bits under MIN_BITS {}", T::MIN_BITS);
    let mut buf = vec![0u8; bits.div_ceil(8) + 8];
    let mut writer = BitWriter::new(&mut buf);
    value.write_to(&mut writer).unwrap();
    assert_eq!(writer.bits_written(), bits, "writer and counter disagree");
    let used = writer.finish().unwrap();
    buf.truncate(used);
    (buf, bits)
}

/// Round-trips `value`: read back equal, reading exactly the bits written.
pub fn round_trip<T: BitPack + PartialEq + Debug>(value: &T) -> usize {
    let (bytes, bits) = encode(value);
    let mut reader = BitReader::new(&bytes);
    assert_eq!(&T::read_from(&mut reader).unwrap(), value);
    assert_eq!(reader.bits_read(), bits);
    bits
}

/// The low `bits` bits of `bytes`, LSB first, as bools.
pub fn bit_string(bytes: &[u8], bits: usize) -> Vec<bool> {
    (0..bits).map(|bit| bytes.get(bit / 8).is_some_and(|byte| byte >> (bit % 8) & 1 == 1)).collect()
}

/// Reads `T` from random and truncated bytes: never a panic; what is read
/// writes back to exactly the bits it was read from (decoding is
/// canonical); with `atomic`, a refused read leaves the reader where it was
/// (reads of several values one after the other, as arrays, do not yet).
pub fn hostile<T: BitPack + Debug>(rng: &mut Rng, rounds: usize, max_len: usize, atomic: bool) -> usize {
    let mut accepted = 0;
    for _ in 0..rounds {
        let bytes = rng.bytes(max_len);
        let mut reader = BitReader::new(&bytes);
        match T::read_from(&mut reader) {
            Ok(value) => {
                accepted += 1;
                let (again, bits) = encode(&value);
                assert_eq!(bits, reader.bits_read(), "{value:?}");
                assert_eq!(bit_string(&again, bits), bit_string(&bytes, bits), "{value:?} from {bytes:?}");
            }
            Err(_) if atomic => assert_eq!(reader.bits_read(), 0, "a refused read moved the reader"),
            Err(_) => {}
        }
    }
    accepted
}

/// `value` writes the same bits, and has the same sizes and fingerprint, as
/// `array` (the array of its components), and round-trips.
pub fn same_as_array<T, A>(value: &T, array: &A)
where
    T: BitPack + PartialEq + Debug,
    A: BitPack,
{
    assert_eq!(encode(value), encode(array));
    assert_eq!((T::MAX_BITS, T::MIN_BITS, T::SCHEMA), (A::MAX_BITS, A::MIN_BITS, A::SCHEMA));
    round_trip(value);
}
