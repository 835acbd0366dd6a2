//! The `BitPack` trait: a type that knows its own wire layout.

use crate::error::Error;
use crate::read::BitRead;
use crate::write::BitWrite;

/// A type with a bit-exact wire layout: written to any [`BitWrite`] sink and
/// read back from any [`BitRead`] source, such as a [`crate::BitReader`].
///
/// Implemented by the core for `bool`, every integer (full range), `f32`
/// and `f64` (raw bits), arrays, tuples, `Option`, `Box`, `Rc`, `Arc` and
/// `()`, `char`, `Duration`, the `NonZero` integers and `PhantomData` (and
/// glam's and mint's vectors and quaternions with those features), and by
/// `#[derive(BitPack)]` for structs and enums.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWriter};
///
/// let value: (bool, Option<i8>) = (true, Some(-3));
/// let mut buf = [0u8; 2];
/// let mut writer = BitWriter::new(&mut buf);
/// value.write_to(&mut writer)?;
/// assert_eq!(writer.finish()?, 2); // 1 + 1 + 8 bits
/// assert_eq!(<(bool, Option<i8>)>::MAX_BITS, 10);
/// let back = <(bool, Option<i8>)>::read_from(&mut BitReader::new(&buf))?;
/// assert_eq!(back, value);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    note = "derive it with #[derive(BitPack)], or send a type of another crate through a module with \
            #[bitpack(with = module)] on the field",
    note = "glam's and mint's vectors and quaternions implement `BitPack` with the `glam` and `mint` features \
            of `bitpack`"
)]
pub trait BitPack: Sized {
    /// The most bits any value of the type writes. Finite for every
    /// implementing type, because every length is bounded.
    const MAX_BITS: usize;

    /// The fewest bits any value of the type writes (a lower bound; `0`
    /// unless the type says better). Readers use it to refuse a length the
    /// remaining input cannot hold before allocating for it.
    const MIN_BITS: usize = 0;

    /// A fingerprint of the wire layout (field order, kinds, ranges,
    /// resolutions, lengths; not names). Two builds whose `SCHEMA` differs
    /// cannot read each other's bits.
    const SCHEMA: u64;

    /// Not part of the API (generated code only): the bits of every value
    /// when its whole wire is one fixed-width scalar of at most 64 bits
    /// (a derived enum without fields: its tag; a derived struct that is
    /// one fused run), which a parent's fused run can hold as one leaf
    /// through [`BitPack::__leaf`] and [`BitPack::__from_leaf`];
    /// `__private::NOT_A_LEAF` for every other type.
    #[doc(hidden)]
    const __LEAF_BITS: u32 = crate::private::NOT_A_LEAF;

    /// Not part of the API: the `__LEAF_BITS` bits [`BitPack::write_to`]
    /// writes for the value (low bit first), `None` when it would refuse it
    /// (and for a type that is no leaf).
    #[doc(hidden)]
    #[inline(always)]
    fn __leaf(&self) -> Option<u64> {
        None
    }

    /// Not part of the API: the value [`BitPack::read_from`] reads from
    /// `raw` (its `__LEAF_BITS` bits), `None` when it would refuse them
    /// (and for a type that is no leaf).
    #[doc(hidden)]
    #[inline(always)]
    fn __from_leaf(raw: u64) -> Option<Self> {
        let _ = raw;
        None
    }

    /// Writes the value's bits.
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error>;

    /// Not part of the API (generated code only): `Some` of the value
    /// gathered for one push (its presence bit, then the bits `write_to`
    /// writes), `None` when it is not (then [`BitPack::__write_some`]
    /// writes the bit and then the value). A derived enum whose variants'
    /// fields are all fixed-width scalars overrides it: the presence bit,
    /// the tag and the fields, when every value is accepted and they are
    /// at most 64 bits.
    #[doc(hidden)]
    #[inline(always)]
    fn __gathered_some(&self) -> Option<crate::private::Gathered> {
        None
    }

    /// Not part of the API (generated code only): writes `Some` of the
    /// value, as an `Option`'s `write_to` does: its presence bit (set),
    /// then the value; in one push what [`BitPack::__gathered_some`]
    /// gathered, when there is room for it. The bits, errors and positions
    /// are the bit's and then `write_to`'s either way.
    #[doc(hidden)]
    #[inline(always)]
    fn __write_some<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        crate::private::write_some(writer, self.__gathered_some(), |writer| self.write_to(writer))
    }

    /// Reads a value written by [`BitPack::write_to`].
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error>;

    /// Not part of the API (generated code only): writes `items` one after
    /// another, as a derived `Vec` of `Self` does. A derived type whose fused
    /// runs hold quantized floats overrides it to quantize blocks of
    /// elements lane by lane; the bits, errors and positions are those of
    /// [`BitPack::write_to`] on each item in turn.
    #[doc(hidden)]
    #[inline]
    fn __write_items<W: BitWrite>(items: &[Self], writer: &mut W) -> Result<(), Error> {
        // The writer held for the whole loop when every item's most fits
        // (`sink::held`: its state in registers, no room checks), kept
        // when all are written (on `Err` the caller's `write_atomic` puts
        // the writer back anyway, and the error is the same).
        let most = items.len().saturating_mul(Self::MAX_BITS);
        if let Some(mut held) = writer.hold(most) {
            for item in items {
                item.write_to(&mut held)?;
            }
            W::keep(held);
            return Ok(());
        }
        write_each_in_local(items, writer)
    }

    /// Not part of the API (generated code only): reads `len` values onto
    /// `items` (which has room for them), as a derived `Vec` of `Self`
    /// does; overridden as [`BitPack::__write_items`] is, with the results
    /// of [`BitPack::read_from`] on each in turn. On `Err` the caller rolls
    /// the reader back.
    #[doc(hidden)]
    #[cfg(feature = "alloc")]
    #[inline]
    fn __read_items<R: BitRead>(
        reader: &mut R,
        len: usize,
        items: &mut alloc::vec::Vec<Self>,
    ) -> Result<(), Error> {
        crate::unchecked::read_into(items, len, || Self::read_from(reader))
    }

    /// Reads a value into a `Box`, as `Box<Self>::read_from` does: claims
    /// `size_of::<Self>()` (at least 16 bytes) from the reader's allocation
    /// budget, then moves the value read into the box. Arrays build their
    /// elements on the heap instead, so a `Box<[u8; 1_000_000]>` never
    /// passes through the stack.
    #[cfg(feature = "alloc")]
    #[inline]
    fn read_boxed<R: BitRead>(reader: &mut R) -> Result<alloc::boxed::Box<Self>, Error> {
        crate::boxed::read_box(reader, Self::read_from)
    }
}

/// [`BitPack::__write_items`] where the items' most does not fit: the writer
/// moved into a local for the whole loop, its state then kept in registers
/// too (`sink::local`), moved back when it is dropped. Out of line: a second
/// copy of the loop inline kept the compiler from inlining `write_to` into
/// either (records encode 30,935 -> 40,123 instructions).
#[inline(never)]
fn write_each_in_local<T: BitPack, W: BitWrite>(items: &[T], writer: &mut W) -> Result<(), Error> {
    let mut local = writer.local();
    for item in items {
        item.write_to(&mut local)?;
    }
    Ok(())
}
