//! Hand-written adaptive messages, as `#[bitpack(adaptive)]` will derive
//! them: `BitPack::write_to` is `write_scope`, fields go through
//! `SignScope::write_scoped` under the message's one sign mode.

#![allow(dead_code)] // each test binary uses part of this module

use bitpack::adaptive::{
    self, AdaptiveInt, SignScope, Signs, read_adaptive, read_adaptive_group, read_adaptive_vec,
    write_adaptive, write_adaptive_group, write_adaptive_vec,
};
use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, Error, ErrorKind};

/// Encodes `value`, checking the counter agrees with the writer: (bytes, bits).
pub fn encode<T: BitPack>(value: &T) -> Result<(Vec<u8>, usize), Error> {
    let mut counter = BitCounter::new();
    value.write_to(&mut counter)?;
    let bits = counter.bits_written();
    assert!(bits <= T::MAX_BITS, "{bits} bits over MAX_BITS {}", T::MAX_BITS);
    let mut buf = vec![0u8; counter.bytes()];
    let mut writer = BitWriter::new(&mut buf);
    value.write_to(&mut writer)?;
    assert_eq!(writer.bits_written(), bits, "writer and counter disagree");
    let used = writer.finish()?;
    assert_eq!(used, bits.div_ceil(8));
    Ok((buf, bits))
}

/// Decodes a whole message, refusing whole bytes left over.
pub fn decode<T: BitPack>(bytes: &[u8]) -> Result<T, Error> {
    let mut reader = BitReader::new(bytes);
    let value = T::read_from(&mut reader)?;
    if reader.bits_remaining() >= 8 {
        return Err(Error::new(ErrorKind::TrailingBytes, reader.bits_read()));
    }
    Ok(value)
}

/// Implements `BitPack` for a `SignScope` type the way the derive will.
macro_rules! scoped_bitpack {
    ($t:ty, $max_bits:expr, $schema:expr) => {
        impl BitPack for $t {
            const MAX_BITS: usize = $max_bits;
            const SCHEMA: u64 = $schema;
            fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
                adaptive::write_scope(self, writer)
            }
            fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
                adaptive::read_scope(reader)
            }
        }
    };
}

/// The published example: {i64, i32, i32}, all adaptive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Published {
    pub id: i64,
    pub a: i32,
    pub b: i32,
}

impl SignScope for Published {
    const HAS_SIGNED: bool = true;
    fn any_negative(&self) -> bool {
        self.id < 0 || self.a < 0 || self.b < 0
    }
    fn write_scoped<W: BitWrite>(&self, w: &mut W, signs: Signs) -> Result<(), Error> {
        write_adaptive(w, self.id, signs)?;
        write_adaptive(w, self.a, signs)?;
        write_adaptive(w, self.b, signs)
    }
    fn read_scoped<R: BitRead>(r: &mut R, signs: Signs) -> Result<Self, Error> {
        Ok(Published {
            id: read_adaptive(r, signs)?,
            a: read_adaptive(r, signs)?,
            b: read_adaptive(r, signs)?,
        })
    }
}
scoped_bitpack!(Published, 1 + <i64 as AdaptiveInt>::MAX_BITS + 2 * <i32 as AdaptiveInt>::MAX_BITS, 0xA1);

/// {i32, i32, u32}, all adaptive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mixed {
    pub a: i32,
    pub b: i32,
    pub c: u32,
}

impl SignScope for Mixed {
    const HAS_SIGNED: bool = true;
    fn any_negative(&self) -> bool {
        self.a < 0 || self.b < 0
    }
    fn write_scoped<W: BitWrite>(&self, w: &mut W, signs: Signs) -> Result<(), Error> {
        write_adaptive(w, self.a, signs)?;
        write_adaptive(w, self.b, signs)?;
        write_adaptive(w, self.c, signs)
    }
    fn read_scoped<R: BitRead>(r: &mut R, signs: Signs) -> Result<Self, Error> {
        Ok(Mixed { a: read_adaptive(r, signs)?, b: read_adaptive(r, signs)?, c: read_adaptive(r, signs)? })
    }
}
scoped_bitpack!(Mixed, 1 + 2 * <i32 as AdaptiveInt>::MAX_BITS + <u32 as AdaptiveInt>::MAX_BITS, 0xA2);

pub const SAMPLES_MAX_LEN: usize = 16;

/// A `Vec<u16>` of at most 16 values sharing one length when shorter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Samples {
    pub values: Vec<u16>,
}

impl SignScope for Samples {
    const HAS_SIGNED: bool = false;
    fn any_negative(&self) -> bool {
        false
    }
    fn write_scoped<W: BitWrite>(&self, w: &mut W, signs: Signs) -> Result<(), Error> {
        write_adaptive_vec(w, &self.values, SAMPLES_MAX_LEN, signs)
    }
    fn read_scoped<R: BitRead>(r: &mut R, signs: Signs) -> Result<Self, Error> {
        Ok(Samples { values: read_adaptive_vec(r, SAMPLES_MAX_LEN, signs)? })
    }
}
scoped_bitpack!(Samples, adaptive::adaptive_vec_max_bits::<u16>(SAMPLES_MAX_LEN), 0xA3);

/// A glam-style 3-vector of adaptive `i32`, one group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub xyz: [i32; 3],
}

impl SignScope for Position {
    const HAS_SIGNED: bool = true;
    fn any_negative(&self) -> bool {
        adaptive::any_negative(&self.xyz)
    }
    fn write_scoped<W: BitWrite>(&self, w: &mut W, signs: Signs) -> Result<(), Error> {
        write_adaptive_group(w, &self.xyz, signs)
    }
    fn read_scoped<R: BitRead>(r: &mut R, signs: Signs) -> Result<Self, Error> {
        let mut xyz = [0; 3];
        read_adaptive_group(r, &mut xyz, signs)?;
        Ok(Position { xyz })
    }
}
scoped_bitpack!(Position, 1 + adaptive::adaptive_group_max_bits::<i32>(3), 0xA4);

/// Two adaptive `u64`: no signed field, so no sign bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Big {
    pub a: u64,
    pub b: u64,
}

impl SignScope for Big {
    const HAS_SIGNED: bool = false;
    fn any_negative(&self) -> bool {
        false
    }
    fn write_scoped<W: BitWrite>(&self, w: &mut W, signs: Signs) -> Result<(), Error> {
        write_adaptive(w, self.a, signs)?;
        write_adaptive(w, self.b, signs)
    }
    fn read_scoped<R: BitRead>(r: &mut R, signs: Signs) -> Result<Self, Error> {
        Ok(Big { a: read_adaptive(r, signs)?, b: read_adaptive(r, signs)? })
    }
}
scoped_bitpack!(Big, 2 * <u64 as AdaptiveInt>::MAX_BITS, 0xA5);

/// One adaptive `i32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Single {
    pub v: i32,
}

impl SignScope for Single {
    const HAS_SIGNED: bool = true;
    fn any_negative(&self) -> bool {
        self.v < 0
    }
    fn write_scoped<W: BitWrite>(&self, w: &mut W, signs: Signs) -> Result<(), Error> {
        write_adaptive(w, self.v, signs)
    }
    fn read_scoped<R: BitRead>(r: &mut R, signs: Signs) -> Result<Self, Error> {
        Ok(Single { v: read_adaptive(r, signs)? })
    }
}
scoped_bitpack!(Single, 1 + <i32 as AdaptiveInt>::MAX_BITS, 0xA6);

/// Nested scopes: the whole message spends one sign bit, decided by every
/// signed value inside, the nested ones included.
#[derive(Clone, Debug, PartialEq)]
pub struct Outer {
    pub id: u32,
    pub position: Position,
    pub target: Option<Single>,
    /// Fixed point at res 0.001, no range.
    pub heading: f64,
}

pub const HEADING_RES: f64 = 0.001;

impl SignScope for Outer {
    const HAS_SIGNED: bool = Position::HAS_SIGNED || <Option<Single>>::HAS_SIGNED || true;
    fn any_negative(&self) -> bool {
        let heading_negative = adaptive::fixed_point_is_negative(self.heading, HEADING_RES);
        self.position.any_negative() || self.target.any_negative() || heading_negative
    }
    fn write_scoped<W: BitWrite>(&self, w: &mut W, signs: Signs) -> Result<(), Error> {
        write_adaptive(w, self.id, signs)?;
        self.position.write_scoped(w, signs)?;
        self.target.write_scoped(w, signs)?;
        adaptive::write_fixed(w, self.heading, HEADING_RES, signs)
    }
    fn read_scoped<R: BitRead>(r: &mut R, signs: Signs) -> Result<Self, Error> {
        Ok(Outer {
            id: read_adaptive(r, signs)?,
            position: Position::read_scoped(r, signs)?,
            target: <Option<Single>>::read_scoped(r, signs)?,
            heading: adaptive::read_fixed(r, HEADING_RES, signs)?,
        })
    }
}
scoped_bitpack!(
    Outer,
    1 + <u32 as AdaptiveInt>::MAX_BITS
        + adaptive::adaptive_group_max_bits::<i32>(3)
        + 1
        + <i32 as AdaptiveInt>::MAX_BITS
        + <i64 as AdaptiveInt>::MAX_BITS,
    0xA7
);
