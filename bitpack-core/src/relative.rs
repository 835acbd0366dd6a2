//! Shared tables and the integer types of the relative encodings.

/// Integers `write_int_relative` takes: `u32` and `i32`, compared in their
/// own order, differenced in `u32`. Sealed: the wire format is defined for
/// these two only.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitRead, BitReader, BitWrite, BitWriter, RelativeInt};
///
/// // Ids that only grow, each sent after the one before.
/// fn write_ids<T: RelativeInt>(w: &mut BitWriter<'_>, first: T, ids: &[T]) -> Result<(), bitpack::Error> {
///     let mut previous = first;
///     for &id in ids {
///         w.write_int_relative(previous, id)?;
///         previous = id;
///     }
///     Ok(())
/// }
///
/// let mut buf = [0u8; 16];
/// let mut writer = BitWriter::new(&mut buf);
/// write_ids(&mut writer, 100u32, &[101, 103, 200])?;
/// write_ids(&mut writer, -5i32, &[-4])?;
/// let used = writer.finish()?;
/// let mut reader = BitReader::new(&buf[..used]);
/// assert_eq!(reader.read_int_relative(100u32)?, 101);
/// assert_eq!(reader.read_int_relative(101u32)?, 103);
/// assert_eq!(reader.read_int_relative(103u32)?, 200);
/// assert_eq!(reader.read_int_relative(-5i32)?, -4);
/// // Not after the previous one: refused, nothing written.
/// let mut writer = BitWriter::new(&mut buf);
/// let error = writer.write_int_relative(7u32, 7).unwrap_err();
/// assert_eq!(error.kind(), bitpack::ErrorKind::NotIncreasing);
/// assert_eq!(writer.bits_written(), 0);
/// # Ok::<(), bitpack::Error>(())
/// ```
pub trait RelativeInt: Copy + Ord + sealed::WireU32 {}

impl RelativeInt for u32 {}
impl RelativeInt for i32 {}

pub(crate) mod sealed {
    /// The `u32` image the reference computes differences in.
    pub trait WireU32 {
        fn to_wire(self) -> u32;
        fn from_wire(wire: u32) -> Self;
    }

    impl WireU32 for u32 {
        #[inline(always)]
        fn to_wire(self) -> u32 {
            self
        }
        #[inline(always)]
        fn from_wire(wire: u32) -> Self {
            wire
        }
    }

    impl WireU32 for i32 {
        #[inline(always)]
        fn to_wire(self) -> u32 {
            self as u32
        }
        #[inline(always)]
        fn from_wire(wire: u32) -> Self {
            wire as i32
        }
    }
}

/// The difference ranges of `int_relative`, one per prefix length: tier `k`
/// is `k` zero bits, a one bit, then `difference - low` in
/// `bits_required(low, high)` bits. Past the last tier come
/// `ABSOLUTE_PREFIX_ZEROS` zero bits and the value itself in 32 bits.
pub(crate) const RELATIVE_TIERS: [(u32, u32); 6] =
    [(1, 1), (2, 6), (7, 23), (24, 280), (281, 4377), (4378, 69914)];

pub(crate) const ABSOLUTE_PREFIX_ZEROS: u32 = 6;

/// The largest difference a tier holds; larger ones are sent absolute.
pub(crate) const LAST_TIER_HIGH: u32 = RELATIVE_TIERS[RELATIVE_TIERS.len() - 1].1;

/// Width of the offset inside tier `(low, high)`.
#[inline(always)]
pub(crate) const fn tier_bits(low: u32, high: u32) -> u32 {
    32 - (high - low).leading_zeros()
}

/// `ack_relative` sends deltas in `1..=ACK_WINDOW` as a one bit and
/// `delta - 1` in `ACK_DELTA_BITS` bits, anything else as a zero bit and the
/// 16-bit ack.
pub(crate) const ACK_WINDOW: u32 = 64;
pub(crate) const ACK_DELTA_BITS: u32 = 6;

/// `sequence - ack` on the u16 circle, 65536 when they are equal.
#[inline(always)]
pub(crate) fn ack_delta(sequence: u16, ack: u16) -> u32 {
    if ack < sequence { u32::from(sequence - ack) } else { u32::from(sequence) + 65536 - u32::from(ack) }
}

/// Sequence numbers wrap at this value.
pub(crate) const SEQUENCE_WRAP: u32 = 65536;
