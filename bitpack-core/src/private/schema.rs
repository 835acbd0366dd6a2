//! `SCHEMA` fingerprints: FNV-1a (64-bit) over kind codes and parameters,
//! never names. A node's fingerprint hashes its kind and its children's
//! fingerprints, so the derive and the core's own impls agree whenever the
//! wire layouts do (`Option<u8>` hashes the same written either way).

const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// `bool`.
pub const BOOL: u64 = 1;
/// A ranged integer: its range, as the 128-bit image of `min` and `max`.
pub const INT: u64 = 2;
/// Raw `f32`.
pub const F32: u64 = 3;
/// Raw `f64`.
pub const F64: u64 = 4;
/// A compressed float: the bits of `min`, `max` and `res`.
pub const QUANTIZED: u64 = 5;
/// A string: its `max_len`.
pub const STR: u64 = 6;
/// A `Vec`: its `max_len`, then its element.
pub const VEC: u64 = 7;
/// An `Option`: its value.
pub const OPTION: u64 = 8;
/// An array: its length, then its element.
pub const ARRAY: u64 = 9;
/// Fields written one after the other (structs, tuples, enum variants).
pub const SEQUENCE: u64 = 10;
/// An enum: its variants, in order.
pub const ENUM: u64 = 11;
/// An adaptive integer: its prefix bits and signedness.
pub const ADAPTIVE: u64 = 12;
/// A group of adaptive integers sharing a length: its count, then its element.
pub const ADAPTIVE_GROUP: u64 = 13;
/// A fixed-point float: the bits of `res` and the float's width.
pub const FIXED: u64 = 14;
/// A nested type sharing its parent's sign bit: its own fingerprint.
pub const SCOPED: u64 = 15;
/// A message with one sign bit for its adaptive values: whether it has one, then its fields.
pub const SIGN_SCOPE: u64 = 16;
/// A `char`: a Unicode scalar value in 21 bits.
pub const CHAR: u64 = 17;
/// A nonzero integer: the integer's fingerprint.
pub const NONZERO: u64 = 18;
/// A map in ascending key order: its `max_len`, its key, then its value.
pub const MAP: u64 = 19;
/// A set in ascending order: its `max_len`, then its element.
pub const SET: u64 = 20;
/// A smallest-three quaternion: its component type's kind and bits per component.
pub const SMALLEST_THREE: u64 = 21;
/// A sequence whose length is written in the bounded-adaptive form
/// (`#[bitpack(adaptive_len)]`): its `max_len`, then its element.
pub const ADAPTIVE_LEN_VEC: u64 = 22;

/// Folds the 8 bytes of `word` into `hash`, low byte first.
#[inline]
pub const fn mix(mut hash: u64, word: u64) -> u64 {
    let mut index = 0;
    while index < 8 {
        hash ^= (word >> (index * 8)) & 0xFF;
        hash = hash.wrapping_mul(PRIME);
        index += 1;
    }
    hash
}

/// The fingerprint of a node of `kind` with `parts` (parameters and
/// children's fingerprints, in wire order).
#[inline]
pub const fn node(kind: u64, parts: &[u64]) -> u64 {
    let mut hash = mix(OFFSET_BASIS, kind);
    hash = mix(hash, parts.len() as u64);
    let mut index = 0;
    while index < parts.len() {
        hash = mix(hash, parts[index]);
        index += 1;
    }
    hash
}

/// A ranged integer's fingerprint from the 128-bit images of its bounds.
#[inline]
pub const fn int(min: u128, max: u128) -> u64 {
    node(INT, &[min as u64, (min >> 64) as u64, max as u64, (max >> 64) as u64])
}

/// A compressed float's fingerprint.
#[inline]
pub const fn quantized(min: f32, max: f32, res: f32) -> u64 {
    node(QUANTIZED, &[min.to_bits() as u64, max.to_bits() as u64, res.to_bits() as u64])
}

/// A compressed double's fingerprint: its declaration, kept apart from
/// an f32 one's.
pub const fn quantized64(min: f64, max: f64, res: f64) -> u64 {
    node(QUANTIZED, &[F64, min.to_bits(), max.to_bits(), res.to_bits()])
}

/// A string's fingerprint.
#[inline]
pub const fn string(max_len: usize) -> u64 {
    node(STR, &[max_len as u64])
}

/// A `Vec`'s fingerprint.
#[inline]
pub const fn vec(max_len: usize, element: u64) -> u64 {
    node(VEC, &[max_len as u64, element])
}

/// The fingerprint of a `Vec` (or `VecDeque`, `Box<[T]>`) with
/// `#[bitpack(adaptive_len)]`: distinct from [`vec`]'s, the length's bits differ.
#[inline]
pub const fn adaptive_len_vec(max_len: usize, element: u64) -> u64 {
    node(ADAPTIVE_LEN_VEC, &[max_len as u64, element])
}

/// An `Option`'s fingerprint.
#[inline]
pub const fn option(value: u64) -> u64 {
    node(OPTION, &[value])
}

/// An array's fingerprint.
#[inline]
pub const fn array(len: usize, element: u64) -> u64 {
    node(ARRAY, &[len as u64, element])
}

/// A map's fingerprint (`BTreeMap` and `HashMap` alike: both write in key order).
#[inline]
pub const fn map(max_len: usize, key: u64, value: u64) -> u64 {
    node(MAP, &[max_len as u64, key, value])
}

/// A set's fingerprint (`BTreeSet` and `HashSet` alike).
#[inline]
pub const fn set(max_len: usize, element: u64) -> u64 {
    node(SET, &[max_len as u64, element])
}

/// Fields in order.
#[inline]
pub const fn sequence(fields: &[u64]) -> u64 {
    node(SEQUENCE, fields)
}

/// Variants in order (each a [`sequence`]).
#[inline]
pub const fn enumeration(variants: &[u64]) -> u64 {
    node(ENUM, variants)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_parameters() {
        // FNV-1a of the single byte 'a' is 0xaf63dc4c8601ec8c; mix folds 8
        // bytes, so fold 'a' by hand to check the constants.
        let hash = (OFFSET_BASIS ^ u64::from(b'a')).wrapping_mul(PRIME);
        assert_eq!(hash, 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn parameters_and_order_change_the_fingerprint() {
        assert_ne!(int(0, 1000), int(0, 999));
        assert_ne!(sequence(&[int(0, 1), node(BOOL, &[])]), sequence(&[node(BOOL, &[]), int(0, 1)]));
        assert_ne!(vec(8, int(0, 9)), vec(9, int(0, 9)));
        assert_ne!(quantized(0.0, 1.0, 0.1), quantized(0.0, 1.0, 0.2));
        assert_ne!(sequence(&[]), enumeration(&[]));
    }
}
