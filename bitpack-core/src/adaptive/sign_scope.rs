//! The message's sign bit, shared by the nested types of a message.

use super::int::{AdaptiveInt, Signs};
use super::value::atomically;
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::write::{BitWrite, write_atomic};

/// Whether any signed value of a group is negative: a pre-pass helper.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::any_negative;
/// assert!(any_negative(&[3i16, -1, 4]));
/// assert!(!any_negative(&[3u16, 1, 4]));
/// ```
#[inline]
pub fn any_negative<T: AdaptiveInt>(values: &[T]) -> bool {
    T::SIGNED && values.iter().any(|value| value.is_negative())
}

/// A type whose adaptive signed values share the sign bit of the message
/// around it. The derive implements it for types with adaptive fields;
/// their `BitPack::write_to` is [`write_scope`], and a parent that nests one
/// calls [`SignScope::write_scoped`] with its own [`Signs`] instead, so the
/// whole message spends one sign bit.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::{self, Signs, SignScope};
/// use bitpack::{BitCounter, BitRead, BitReader, BitWrite, Error};
///
/// struct Score { delta: i32 }
///
/// impl SignScope for Score {
///     const HAS_SIGNED: bool = true;
///     fn any_negative(&self) -> bool { self.delta < 0 }
///     fn write_scoped<W: BitWrite>(&self, w: &mut W, signs: Signs) -> Result<(), Error> {
///         adaptive::write_adaptive(w, self.delta, signs)
///     }
///     fn read_scoped<R: BitRead>(r: &mut R, signs: Signs) -> Result<Self, Error> {
///         Ok(Score { delta: adaptive::read_adaptive(r, signs)? })
///     }
/// }
///
/// let mut counter = BitCounter::new();
/// adaptive::write_scope(&Score { delta: -3 }, &mut counter)?;
/// assert_eq!(counter.bits_written(), 1 + 5 + 2); // sign bit, prefix, zig-zag 5 = 101
/// # Ok::<(), Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot share a sign bit: it has no adaptive fields",
    label = "`#[bitpack(adaptive)]` on this field needs a type with adaptive fields",
    note = "derive BitPack with #[bitpack(adaptive)] fields on `{Self}`, or remove `adaptive` from this field"
)]
pub trait SignScope: Sized {
    /// Whether the type holds an adaptive signed value anywhere (nested
    /// types included): only then does a message of it spend the sign bit.
    const HAS_SIGNED: bool;

    /// Whether any adaptive signed value inside (nested included) is
    /// negative: the pre-pass that picks the message's [`Signs`].
    fn any_negative(&self) -> bool;

    /// Writes the value under `signs`, without a sign bit of its own.
    fn write_scoped<W: BitWrite>(&self, writer: &mut W, signs: Signs) -> Result<(), Error>;

    /// Reads a value written by [`SignScope::write_scoped`] under `signs`.
    fn read_scoped<R: BitRead>(reader: &mut R, signs: Signs) -> Result<Self, Error>;
}

/// Writes `value` as a whole message: the sign bit (only when the type
/// holds signed adaptive values), then the value under the chosen mode; on
/// `Err` the writer is left at its position with every byte before it as
/// it was (bytes past it are unspecified).
/// This is `BitPack::write_to` of a type with adaptive fields; see
/// [`SignScope`] for an example.
#[inline]
pub fn write_scope<T: SignScope, W: BitWrite>(value: &T, writer: &mut W) -> Result<(), Error> {
    write_atomic(writer, |writer| {
        let signs = if T::HAS_SIGNED {
            let signs = Signs::for_any_negative(value.any_negative());
            signs.write(writer)?;
            signs
        } else {
            Signs::NonNegative
        };
        value.write_scoped(writer, signs)
    })
}

/// Reads a message written by [`write_scope`]; on `Err` the reader has not
/// moved. This is `BitPack::read_from` of a type with adaptive fields.
/// Refuses a sign bit of 1 when no value decodes negative (`NonCanonical`):
/// the writer sets it only when one is.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::adaptive::{read_scope, Signs};
/// use bitpack::{BitRead, BitReader};
///
/// // An optional nested scope: presence bit 0 reads `None`, after the sign bit.
/// struct Unit;
/// # impl bitpack::SignScope for Unit {
/// #     const HAS_SIGNED: bool = true;
/// #     fn any_negative(&self) -> bool { false }
/// #     fn write_scoped<W: bitpack::BitWrite>(&self, _: &mut W, _: Signs) -> Result<(), bitpack::Error> { Ok(()) }
/// #     fn read_scoped<R: BitRead>(_: &mut R, _: Signs) -> Result<Self, bitpack::Error> { Ok(Unit) }
/// # }
/// let mut reader = BitReader::new(&[0b00]);
/// assert!(read_scope::<Option<Unit>>(&mut reader)?.is_none());
/// assert_eq!(reader.bits_read(), 2);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[inline]
pub fn read_scope<T: SignScope>(reader: &mut impl BitRead) -> Result<T, Error> {
    atomically(reader, |reader, start| {
        let signs = if T::HAS_SIGNED { Signs::read(reader)? } else { Signs::NonNegative };
        let value = T::read_scoped(reader, signs)?;
        // The writer sets the sign bit only for a message with a negative value.
        if signs == Signs::ZigZag && !value.any_negative() {
            return Err(Error::new(ErrorKind::NonCanonical, start));
        }
        Ok(value)
    })
}

/// A nested optional value shares the message's sign bit: a presence bit,
/// then the value.
impl<T: SignScope> SignScope for Option<T> {
    const HAS_SIGNED: bool = T::HAS_SIGNED;

    fn any_negative(&self) -> bool {
        self.as_ref().is_some_and(T::any_negative)
    }

    fn write_scoped<W: BitWrite>(&self, writer: &mut W, signs: Signs) -> Result<(), Error> {
        writer.write_bool(self.is_some())?;
        match self {
            Some(value) => value.write_scoped(writer, signs),
            None => Ok(()),
        }
    }

    fn read_scoped<R: BitRead>(reader: &mut R, signs: Signs) -> Result<Self, Error> {
        if reader.read_bool()? { T::read_scoped(reader, signs).map(Some) } else { Ok(None) }
    }
}
