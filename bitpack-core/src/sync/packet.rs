//! A packet's header and check.
//!
//! Wire form: a 32-bit check, the sequence (16 bits), one bit for "a delta",
//! then the baseline's sequence as `write_ack_relative(sequence, baseline)`
//! (7 bits when it is at most 64 behind); then the world, whole or as a
//! delta. 56 bits before the world's for a delta, 49 for a whole state.

use crate::change::sequence_newer;
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::write::BitWrite;

/// Bytes of the check at the start of every packet.
const CHECK_BYTES: usize = 4;

/// What a packet is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub(crate) sequence: u16,
    /// The state it is a delta against, or `None` for a whole state.
    pub(crate) baseline: Option<u16>,
}

impl Header {
    /// Writes the header, its check as zeros until [`seal`] fills it in.
    pub(crate) fn write<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.write_u32(0)?;
        writer.write_u16(self.sequence)?;
        writer.write_bool(self.baseline.is_some())?;
        match self.baseline {
            Some(baseline) => writer.write_ack_relative(self.sequence, baseline),
            None => Ok(()),
        }
    }

    /// Reads the header of a packet [`open`] accepted.
    pub(crate) fn read(reader: &mut impl BitRead) -> Result<Self, Error> {
        let _check = reader.read_u32()?;
        let sequence = reader.read_u16()?;
        let start = reader.bits_read();
        let baseline = if reader.read_bool()? { Some(reader.read_ack_relative(sequence)?) } else { None };
        // A sender deltas only against states it sent before.
        if baseline.is_some_and(|baseline| !sequence_newer(sequence, baseline)) {
            return Err(Error::new(ErrorKind::OutOfRange, start));
        }
        Ok(Header { sequence, baseline })
    }
}

/// Writes the check of `packet` (its first 4 bytes) over the rest of it and
/// the world type's `schema`.
pub(crate) fn seal(packet: &mut [u8], schema: u64) {
    if let Some((head, rest)) = packet.split_first_chunk_mut::<CHECK_BYTES>() {
        *head = check(schema, rest).to_le_bytes();
    }
}

/// `Ok` when `packet`'s check matches the rest of it and `schema`.
pub(crate) fn open(packet: &[u8], schema: u64) -> Result<(), Error> {
    match packet.split_first_chunk::<CHECK_BYTES>() {
        Some((head, rest)) if u32::from_le_bytes(*head) == check(schema, rest) => Ok(()),
        Some(_) => Err(Error::new(ErrorKind::ChecksumMismatch, 0)),
        None => Err(Error::new(ErrorKind::UnexpectedEnd, 0)),
    }
}

/// A 32-bit hash of `bytes` and `schema`: one multiply per 8 bytes, then
/// a finalizer, so any change of one word changes the running state, and
/// any change at all changes the check with probability about 1 - 2^-32.
/// It detects corruption and stray packets, not forgery.
fn check(schema: u64, bytes: &[u8]) -> u32 {
    const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;
    let step = |state: u64, word: u64| (state ^ word).wrapping_mul(MULTIPLIER).rotate_left(29);
    let (words, tail) = bytes.as_chunks::<8>();
    let mut state = step(schema, bytes.len() as u64);
    for word in words {
        state = step(state, u64::from_le_bytes(*word));
    }
    let mut last = [0u8; 8];
    last[..tail.len()].copy_from_slice(tail);
    state = step(state, u64::from_le_bytes(last));
    state ^= state >> 33;
    state = state.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    state ^= state >> 33;
    (state ^ (state >> 32)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_flipped_bit_fails_the_check() {
        let mut packet = [0u8; 21];
        for (index, byte) in packet.iter_mut().enumerate() {
            *byte = (index * 37) as u8;
        }
        seal(&mut packet, 7);
        assert_eq!(open(&packet, 7), Ok(()));
        assert_eq!(open(&packet, 8).map_err(|e| e.kind()), Err(ErrorKind::ChecksumMismatch));
        for bit in 0..packet.len() * 8 {
            let mut flipped = packet;
            flipped[bit / 8] ^= 1 << (bit % 8);
            assert!(open(&flipped, 7).is_err(), "bit {bit}");
        }
        assert!(open(&packet[..20], 7).is_err());
        assert!(open(&packet[..3], 7).is_err());
    }
}
