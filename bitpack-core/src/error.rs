//! The one error type: what failed, and at which bit of the stream.

use core::fmt;

/// What went wrong. New kinds may be added, so match with a wildcard arm.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::ErrorKind;
///
/// // One byte too many for a `u8`.
/// let error = bitpack::decode::<u8>(&[7, 0]).unwrap_err();
/// let action = match error.kind() {
///     ErrorKind::UnexpectedEnd | ErrorKind::TrailingBytes => "drop the packet: wrong length",
///     ErrorKind::AllocationLimit => "drop the peer: it asks for too much",
///     _ => "drop the packet",
/// };
/// assert_eq!(action, "drop the packet: wrong length");
/// assert_eq!(error.kind().to_string(), "bytes left over after the value");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The writer's buffer has no room for the value.
    BufferFull,
    /// The reader needed more bits than the stream holds.
    UnexpectedEnd,
    /// A value lies outside its declared range (on write), or a decoded
    /// value does (on read).
    OutOfRange,
    /// A declaration is unusable: `min > max`, a bit width outside what the
    /// operation takes, a quantization with `min >= max`, `res <= 0` or a
    /// non-finite bound.
    InvalidDeclaration,
    /// A float that must be finite (a quantized value) was NaN or infinite.
    NonFiniteFloat,
    /// Alignment padding held a nonzero bit.
    NonZeroPadding,
    /// A string or byte sequence is longer than its declared maximum.
    TooLong,
    /// A string holds a NUL character.
    InteriorNul,
    /// String bytes are not valid UTF-8.
    InvalidUtf8,
    /// Wide-string code units are not valid UTF-16.
    InvalidUtf16,
    /// A relative encoding needs its value to come strictly after the
    /// previous one, and it does not.
    NotIncreasing,
    /// An enum variant tag names no variant.
    InvalidTag,
    /// Whole bytes were left over after decoding a value.
    TrailingBytes,
    /// Decoding would allocate past the reader's allocation budget (see
    /// [`crate::BitReader::with_limit`]); nothing was allocated.
    AllocationLimit,
    /// Bits that decode to a valid value but that no writer produces for
    /// it (a value sent in a longer form than the one the writer picks):
    /// refused so that every decoded value re-encodes to the bits it came
    /// from.
    NonCanonical,
    /// A packet is a delta against a state the receiver does not hold
    /// (never decoded, or dropped from its ring since).
    MissingBaseline,
    /// A keyed entry's value names a key other than the one it is stored
    /// under (a `Vec` kept sorted by a `#[bitpack(key)]` field).
    KeyMismatch,
    /// A packet's check does not match its bytes: corrupted, truncated, or
    /// a delta written for another world type.
    ChecksumMismatch,
    /// A packet is intact but written for another world type (another
    /// `SCHEMA`: a client built from other source than its server).
    SchemaMismatch,
    /// A fragment of a packet disagrees with the fragments held of it:
    /// another count, a length no split gives, other bytes at an index
    /// held, or the packet they make names another sequence.
    FragmentMismatch,
}

impl ErrorKind {
    fn describe(self) -> &'static str {
        match self {
            ErrorKind::BufferFull => "buffer full",
            ErrorKind::UnexpectedEnd => "unexpected end of stream",
            ErrorKind::OutOfRange => "value out of range",
            ErrorKind::InvalidDeclaration => "invalid declaration",
            ErrorKind::NonFiniteFloat => "non-finite float",
            ErrorKind::NonZeroPadding => "nonzero alignment padding",
            ErrorKind::TooLong => "length over its maximum",
            ErrorKind::InteriorNul => "string holds a NUL",
            ErrorKind::InvalidUtf8 => "invalid UTF-8",
            ErrorKind::InvalidUtf16 => "invalid UTF-16",
            ErrorKind::NotIncreasing => "value does not come after the previous one",
            ErrorKind::InvalidTag => "invalid variant tag",
            ErrorKind::TrailingBytes => "bytes left over after the value",
            ErrorKind::AllocationLimit => "allocation over the decode limit",
            ErrorKind::NonCanonical => "encoding no writer produces",
            ErrorKind::MissingBaseline => "delta against a state the receiver does not hold",
            ErrorKind::KeyMismatch => "entry's key differs from the key it is sent under",
            ErrorKind::ChecksumMismatch => "packet check does not match its bytes",
            ErrorKind::SchemaMismatch => "packet written for another world type",
            ErrorKind::FragmentMismatch => "fragment disagrees with the others of its packet",
        }
    }
}

/// A failed write or read: its [`ErrorKind`] and the stream bit position
/// where the failing operation started.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitRead, BitReader, Error, ErrorKind};
///
/// let mut reader = BitReader::new(&[0xFF]);
/// assert_eq!(reader.read_int(0, 15)?, 15); // 4 bits
/// let error = reader.read_u32().unwrap_err(); // 32 bits, 4 left
/// assert_eq!(error.kind(), ErrorKind::UnexpectedEnd);
/// assert_eq!(error.bit(), 4); // where the refused read started
/// assert_eq!(error, Error::new(ErrorKind::UnexpectedEnd, 4));
/// assert_eq!(error.to_string(), "unexpected end of stream at bit 4");
/// assert_eq!(reader.bits_read(), 4); // and the reader stays there
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    kind: ErrorKind,
    bit: usize,
}

impl Error {
    /// An error of `kind` for the operation that started at stream bit `bit`.
    #[inline]
    #[cold]
    pub const fn new(kind: ErrorKind, bit: usize) -> Self {
        Error { kind, bit }
    }

    /// What went wrong.
    #[inline]
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The stream bit position where the failing operation started.
    #[inline]
    pub const fn bit(&self) -> usize {
        self.bit
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at bit {}", self.kind.describe(), self.bit)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

impl core::error::Error for Error {}
