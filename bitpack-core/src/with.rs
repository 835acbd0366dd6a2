//! The contract behind `#[bitpack(with = path)]`: a way in for any type
//! bitpack does not implement `BitPack` for (the orphan rule keeps you from
//! implementing it yourself for a type of another crate), as serde's `with`
//! is for serde.
//!
//! `path` names a module (or any path whose items these resolve under) with
//! five items, for the field's type `T`:
//!
//! ```text
//! pub const MAX_BITS: usize;  // the most bits `write` writes, for any value
//! pub const MIN_BITS: usize;  // the fewest (0 is always correct, if loose)
//! pub const SCHEMA: u64;      // the wire's fingerprint (see `BitPack::SCHEMA`)
//! pub fn write<W: BitWrite>(value: &T, writer: &mut W) -> Result<(), Error>;
//! pub fn read(reader: &mut impl BitRead) -> Result<T, Error>;
//! ```
//!
//! On a field: `#[bitpack(with = uuid_bits)] id: Uuid` (see the `bitpack`
//! crate's derive guide). The derive uses them where it would use `T`'s
//! `BitPack` items (`<T as BitPack>::MAX_BITS`, `write_to`, `read_from`),
//! so every item is checked by the compiler where the attribute is: a missing one or a wrong
//! signature is an error at `path`, and [`with_bits_problem`] refuses a
//! `MIN_BITS` above `MAX_BITS`. Build `write` from the core's writes (or
//! other types' `BitPack` impls) so that the measure stream counts what the
//! writer writes, and make `read` refuse what `write` never writes (a
//! decoded value should write back the bits it was read from).
//!
//! A third-party id type, sent as its 128 bits:
//!
//! ```
//! # extern crate bitpack_core as bitpack;
//! mod third_party {
//!     /// A type from another crate: no `BitPack`, private fields.
//!     #[derive(Debug, Clone, Copy, PartialEq)]
//!     pub struct Uuid([u8; 16]);
//!     impl Uuid {
//!         pub fn from_u128(value: u128) -> Self { Uuid(value.to_le_bytes()) }
//!         pub fn as_u128(&self) -> u128 { u128::from_le_bytes(self.0) }
//!     }
//! }
//!
//! /// `#[bitpack(with = uuid_bits)] id: third_party::Uuid`
//! mod uuid_bits {
//!     use super::third_party::Uuid;
//!     use bitpack::{BitPack, BitRead, BitReader, BitWrite, Error};
//!
//!     pub const MAX_BITS: usize = <u128 as BitPack>::MAX_BITS;
//!     pub const MIN_BITS: usize = <u128 as BitPack>::MIN_BITS;
//!     pub const SCHEMA: u64 = <u128 as BitPack>::SCHEMA;
//!
//!     pub fn write<W: BitWrite>(value: &Uuid, writer: &mut W) -> Result<(), Error> {
//!         value.as_u128().write_to(writer)
//!     }
//!
//!     pub fn read(reader: &mut impl BitRead) -> Result<Uuid, Error> {
//!         Ok(Uuid::from_u128(u128::read_from(reader)?))
//!     }
//! }
//!
//! // What the derived code does with it:
//! use bitpack::{BitCounter, BitRead, BitReader, BitWrite, BitWriter};
//! # fn main() -> Result<(), bitpack::Error> {
//! let id = third_party::Uuid::from_u128(0x1234_5678_9abc_def0_1122_3344_5566_7788);
//! let mut buf = [0u8; 16];
//! let mut writer = BitWriter::new(&mut buf);
//! uuid_bits::write(&id, &mut writer)?;
//! let mut counter = BitCounter::new();
//! uuid_bits::write(&id, &mut counter)?;
//! assert_eq!(counter.bits_written(), writer.bits_written());
//! assert!(writer.bits_written() <= uuid_bits::MAX_BITS);
//! writer.finish()?;
//! assert_eq!(uuid_bits::read(&mut BitReader::new(&buf))?, id);
//! const _: () = assert!(bitpack::__private::with_bits_problem(uuid_bits::MIN_BITS, uuid_bits::MAX_BITS).is_none());
//! # Ok(())
//! # }
//! ```
//!
//! The module can wrap anything: a quantized third-party vector is
//! `quantized_axes_f32::write(writer, &value.to_array(), MIN, MAX, RES)`
//! and its `MAX_BITS` `quantized_axes_f32::bits(MIN, MAX, RES)`, from
//! `__private` as the derive uses them (or the public primitives of
//! [`BitWrite`](crate::BitWrite) and [`smallest_three`](crate::smallest_three)).

/// Why a `with` module's sizes are refused, if they are: `MIN_BITS` above
/// `MAX_BITS` (checked at compile time by the derive).
pub const fn with_bits_problem(min_bits: usize, max_bits: usize) -> Option<&'static str> {
    if min_bits > max_bits {
        return Some("with: the module's `MIN_BITS` is above its `MAX_BITS`");
    }
    None
}
