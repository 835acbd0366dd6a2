// A valid `with` module for a `u32`, shared by the `bitpack-with-*` cases
// (`#[path = "support/u32_bits.rs"] mod u32_bits;`).

use bitpack::{BitPack, BitRead, BitWrite, Error};

pub const MAX_BITS: usize = 32;
pub const MIN_BITS: usize = 32;
pub const SCHEMA: u64 = <u32 as BitPack>::SCHEMA;

pub fn write<W: BitWrite>(value: &u32, writer: &mut W) -> Result<(), Error> {
    value.write_to(writer)
}

pub fn read(reader: &mut impl BitRead) -> Result<u32, Error> {
    u32::read_from(reader)
}
