//! What a receiver sends back: the states it holds.

use crate::error::{Error, ErrorKind};
use crate::pack::BitPack;
use crate::private::schema;
use crate::read::BitRead;
use crate::source::SourceExt;
use crate::write::BitWrite;

/// Sequences before the newest that [`Acks`] covers.
pub const ACK_BITS: u16 = 32;

/// Missing sequences at most sent as a list; with more, the bitfield.
const MAX_LISTED: i32 = 4;

/// A receiver's acknowledgements ([`Receiver::acks`](super::Receiver::acks)):
/// the newest packet sequence it decoded, and which of the
/// [`ACK_BITS`] sequences before it it still holds (bit `i` for
/// `newest - 1 - i`). A [`Sender`](super::Sender) deltas against the newest
/// state named here that it still keeps.
///
/// # Wire format
///
/// One bit, 0 for "nothing decoded yet". Then the newest sequence in 16
/// bits, and the older ones in whichever of two forms is shorter: a 0 bit
/// and the 32-bit field; or a 1 bit, the number of sequences *not* held
/// (at most 4) as `int(0, 4)`, and each of them nearest first as
/// `write_ack_relative(newest, sequence)` (7 bits each). A receiver that
/// holds everything sends 28 bits; readers refuse the longer form where the
/// shorter one applies, so every value has one encoding.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::sync::Acks;
///
/// let acks = Acks::new(70, !0b101); // 70 held; 69 and 67 not
/// assert!(acks.contains(70) && acks.contains(68) && !acks.contains(69));
/// assert_eq!(bitpack::measure(&acks)?, 1 + 16 + 1 + 3 + 2 * 7);
/// let bytes = bitpack::encode(&acks)?;
/// assert_eq!(bitpack::decode::<Acks>(&bytes)?, acks);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Acks {
    newest: Option<u16>,
    earlier: u32,
}

impl Acks {
    /// No state held.
    pub const fn none() -> Self {
        Acks { newest: None, earlier: 0 }
    }

    /// `newest` held, and of the 32 sequences before it those whose bit is
    /// set in `earlier` (bit `i` for `newest - 1 - i`).
    pub const fn new(newest: u16, earlier: u32) -> Self {
        Acks { newest: Some(newest), earlier }
    }

    /// The newest sequence decoded, if any.
    pub const fn newest(&self) -> Option<u16> {
        self.newest
    }

    /// The field of the 32 sequences before the newest.
    pub const fn earlier(&self) -> u32 {
        self.earlier
    }

    /// Whether `sequence` is acknowledged.
    pub fn contains(&self, sequence: u16) -> bool {
        let Some(newest) = self.newest else { return false };
        match newest.wrapping_sub(sequence) {
            0 => true,
            behind @ 1..=ACK_BITS => self.earlier >> (behind - 1) & 1 == 1,
            _ => false,
        }
    }
}

impl BitPack for Acks {
    const MAX_BITS: usize = 1 + 16 + 1 + 32;
    const MIN_BITS: usize = 1;
    const SCHEMA: u64 = schema::node(0x4143_4B53, &[ACK_BITS as u64, MAX_LISTED as u64]);

    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        let Some(newest) = self.newest else { return writer.write_bool(false) };
        let missing = self.earlier.count_zeros() as i32;
        let listed = missing <= MAX_LISTED;
        // All of it, or nothing: 1 + 16 + 1, then at most 32 bits.
        writer.reserve(18 + if listed { 3 + 7 * missing as usize } else { 32 })?;
        writer.write_bool(true)?;
        writer.write_u16(newest)?;
        writer.write_bool(listed)?;
        if !listed {
            return writer.write_u32(self.earlier);
        }
        writer.write_int(missing, 0, MAX_LISTED)?;
        for behind in 1..=ACK_BITS {
            if self.earlier >> (behind - 1) & 1 == 0 {
                writer.write_ack_relative(newest, newest.wrapping_sub(behind))?;
            }
        }
        Ok(())
    }

    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        let start = reader.bits_read();
        let refuse = |kind| Err(Error::new(kind, start));
        reader.rolled_back(|staged| {
            if !staged.read_bool()? {
                return Ok(Acks::none());
            }
            let newest = staged.read_u16()?;
            let earlier = if staged.read_bool()? {
                let missing = staged.read_int(0, MAX_LISTED)?;
                let mut earlier = u32::MAX;
                let mut last = 0;
                for _ in 0..missing {
                    let behind = newest.wrapping_sub(staged.read_ack_relative(newest)?);
                    // Nearest first, each once, within the field.
                    if behind <= last || behind > ACK_BITS {
                        return refuse(ErrorKind::OutOfRange);
                    }
                    last = behind;
                    earlier &= !(1 << (behind - 1));
                }
                earlier
            } else {
                let earlier = staged.read_u32()?;
                if earlier.count_zeros() as i32 <= MAX_LISTED {
                    return refuse(ErrorKind::OutOfRange);
                }
                earlier
            };
            Ok(Acks::new(newest, earlier))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{decode, encode, measure};
    use crate::reader::BitReader;

    #[test]
    fn every_form_round_trips_in_its_size() {
        for (acks, bits) in [
            (Acks::none(), 1),
            (Acks::new(5, u32::MAX), 18 + 3),
            (Acks::new(0, !(1 << 31)), 18 + 3 + 7),
            (Acks::new(65535, !0b1111), 18 + 3 + 28),
            (Acks::new(9, !0b11111), 18 + 32),
            (Acks::new(9, 0), 18 + 32),
        ] {
            assert_eq!(measure(&acks), Ok(bits), "{acks:?}");
            assert_eq!(encode(&acks).and_then(|bytes| decode::<Acks>(&bytes)), Ok(acks));
        }
    }

    #[test]
    fn wrapping_sequences_are_contained() {
        let acks = Acks::new(1, 0b11);
        assert!(acks.contains(1) && acks.contains(0) && acks.contains(65535));
        assert!(!acks.contains(65534) && !acks.contains(2));
        assert!(!Acks::none().contains(0));
    }

    #[test]
    fn non_canonical_forms_are_refused() {
        // The field form for a field with one zero bit.
        let mut buf = [0u8; 8];
        let mut writer = crate::BitWriter::new(&mut buf);
        for step in [writer.write_bool(true), writer.write_u16(3), writer.write_bool(false)] {
            step.unwrap();
        }
        writer.write_u32(!1).unwrap();
        let used = writer.finish().unwrap();
        assert_eq!(decode::<Acks>(&buf[..used]).map_err(|e| e.kind()), Err(ErrorKind::OutOfRange));
        // A list out of order.
        let mut writer = crate::BitWriter::new(&mut buf);
        for step in [writer.write_bool(true), writer.write_u16(3), writer.write_bool(true)] {
            step.unwrap();
        }
        writer.write_int(2, 0, MAX_LISTED).unwrap();
        writer.write_ack_relative(3, 1).unwrap();
        writer.write_ack_relative(3, 2).unwrap();
        let used = writer.finish().unwrap();
        let mut reader = BitReader::new(&buf[..used]);
        assert_eq!(Acks::read_from(&mut reader).map_err(|e| e.kind()), Err(ErrorKind::OutOfRange));
        assert_eq!(reader.bits_read(), 0);
    }
}
