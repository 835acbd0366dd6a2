//! A packet's header and check.
//!
//! Wire form: a 32-bit check, the sequence's low 16 bits, one bit for "a
//! delta", then for a delta the baseline's sequence as
//! `write_ack_relative(sequence, baseline)` (7 bits when it is at most 64
//! behind), for a whole state the sequence's high 16 bits (its lap) and
//! the world type's schema folded to 32 bits; then the world, whole or as
//! a delta. 56 bits before the world's for a delta, 97 for a whole state.
//!
//! Both sides count sequences in 32 bits. A delta does not carry its lap:
//! its check covers the baseline's lap and the world type's schema, so a
//! receiver holding the same 16-bit sequence from another lap of the
//! counter finds the check wrong for the state it holds and never decodes
//! against it. A whole state's check covers its bytes alone, schema
//! included, so a receiver tells a whole state of another world type
//! (`SchemaMismatch`) from a corrupt packet (`ChecksumMismatch`).

use crate::change::sequence_newer;
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::write::BitWrite;

/// Bytes of the check at the start of every packet.
const CHECK_BYTES: usize = 4;

/// A sequence counted in 32 bits: the 16 on the wire and the lap.
pub(crate) type Sequence = u32;

/// The low 16 bits, as on the wire.
pub(crate) const fn wire(sequence: Sequence) -> u16 {
    sequence as u16
}

/// Whether `a` is newer than `b` (half the 32-bit circle ahead).
pub(crate) const fn newer(a: Sequence, b: Sequence) -> bool {
    let ahead = a.wrapping_sub(b);
    ahead != 0 && ahead < 1 << 31
}

/// The 32-bit sequence whose low bits are `low` nearest to `near`.
pub(crate) const fn nearest(low: u16, near: Sequence) -> Sequence {
    near.wrapping_add_signed(low.wrapping_sub(wire(near)) as i16 as i32)
}

/// What a sender's packet is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub(crate) sequence: Sequence,
    /// The state it is a delta against, or `None` for a whole state.
    pub(crate) baseline: Option<Sequence>,
}

impl Header {
    /// Writes the header of a packet for a world type of `schema`, its
    /// check as zeros until [`seal`] fills it in.
    pub(crate) fn write<W: BitWrite>(&self, writer: &mut W, schema: u64) -> Result<(), Error> {
        writer.write_u32(0)?;
        writer.write_u16(wire(self.sequence))?;
        writer.write_bool(self.baseline.is_some())?;
        match self.baseline {
            Some(baseline) => writer.write_ack_relative(wire(self.sequence), wire(baseline)),
            None => {
                writer.write_u16((self.sequence >> 16) as u16)?;
                writer.write_u32(fold(schema))
            }
        }
    }
}

/// A schema in 32 bits, as a whole state carries it.
pub(crate) const fn fold(schema: u64) -> u32 {
    (schema ^ schema >> 32) as u32
}

/// A header as read, before the check is known to hold: a delta's laps
/// are the receiver's to find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Incoming {
    /// The sequence and the folded schema of the world type it is for.
    Whole { sequence: Sequence, schema: u32 },
    /// The low bits of the sequence and of the baseline, and how far the
    /// baseline is behind.
    Delta { sequence: u16, baseline: u16, behind: u16 },
}

impl Incoming {
    /// Reads the header after the check; `None` for bits no sender writes.
    pub(crate) fn read(reader: &mut impl BitRead) -> Option<Self> {
        let _check = reader.read_u32().ok()?;
        let sequence = reader.read_u16().ok()?;
        if !reader.read_bool().ok()? {
            let lap = reader.read_u16().ok()?;
            let schema = reader.read_u32().ok()?;
            return Some(Incoming::Whole { sequence: u32::from(lap) << 16 | u32::from(sequence), schema });
        }
        let baseline = reader.read_ack_relative(sequence).ok()?;
        // A sender deltas only against states it sent before.
        sequence_newer(sequence, baseline).then_some(Incoming::Delta {
            sequence,
            baseline,
            behind: sequence.wrapping_sub(baseline),
        })
    }

    /// The header this one is when its baseline is `baseline` (all 32
    /// bits; a whole state's header has none).
    pub(crate) fn with_baseline(self, baseline: Sequence) -> Header {
        match self {
            Incoming::Whole { sequence, .. } => Header { sequence, baseline: None },
            Incoming::Delta { behind, .. } => {
                Header { sequence: baseline.wrapping_add(u32::from(behind)), baseline: Some(baseline) }
            }
        }
    }
}

/// The bytes' part of the check: every check of a packet starts from it.
#[derive(Clone, Copy)]
pub(crate) struct Digest(u64);

const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

fn step(state: u64, word: u64) -> u64 {
    (state ^ word).wrapping_mul(MULTIPLIER).rotate_left(29)
}

impl Digest {
    /// A packet's bytes after the check: one multiply per 8 bytes.
    pub(crate) fn of(packet: &[u8]) -> Self {
        let bytes = packet.get(CHECK_BYTES..).unwrap_or_default();
        let (words, tail) = bytes.as_chunks::<8>();
        let mut state = step(0, bytes.len() as u64);
        for word in words {
            state = step(state, u64::from_le_bytes(*word));
        }
        let mut last = [0u8; 8];
        last[..tail.len()].copy_from_slice(tail);
        Digest(step(state, u64::from_le_bytes(last)))
    }

    /// The 32-bit check of a packet with `header` for a world type of
    /// `schema`: the digest, for a delta the schema and the baseline's lap,
    /// then a finalizer, so any change of one word changes the check with
    /// probability about 1 - 2^-32. It detects corruption, stray packets
    /// and a baseline from another lap, not forgery.
    pub(crate) fn check(self, header: &Header, schema: u64) -> u32 {
        finish(match header.baseline {
            Some(baseline) => step(step(self.0, schema), 1 + u64::from(baseline >> 16)),
            None => self.0,
        })
    }

    /// The 32-bit check of a fragment (see `fragments.rs`): the digest
    /// stepped with a word of its own, so that a fragment is no packet's
    /// check and a packet no fragment's.
    pub(crate) fn fragment_check(self) -> u32 {
        finish(step(self.0, FRAGMENT))
    }
}

/// What a fragment's check steps its digest with.
const FRAGMENT: u64 = 0x4652_4147_4D45_4E54;

/// The finalizer: every bit of `state` moves about half the check's bits.
fn finish(mut state: u64) -> u32 {
    state ^= state >> 33;
    state = state.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    state ^= state >> 33;
    (state ^ (state >> 32)) as u32
}

/// Writes the check of `packet` (its first 4 bytes), written with `header`
/// for a world type of `schema`.
pub(crate) fn seal(packet: &mut [u8], schema: u64, header: &Header) {
    let check = Digest::of(packet).check(header, schema);
    if let Some((head, _)) = packet.split_first_chunk_mut::<CHECK_BYTES>() {
        *head = check.to_le_bytes();
    }
}

/// The check a packet carries; `UnexpectedEnd` when it is shorter.
pub(crate) fn carried(packet: &[u8]) -> Result<u32, Error> {
    match packet.split_first_chunk::<CHECK_BYTES>() {
        Some((head, _)) => Ok(u32::from_le_bytes(*head)),
        None => Err(Error::new(ErrorKind::UnexpectedEnd, 0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BitWriter;

    fn sealed(header: &Header) -> [u8; 24] {
        let mut packet = [0u8; 24];
        let mut writer = BitWriter::new(&mut packet);
        header.write(&mut writer, 7).unwrap();
        writer.finish().unwrap();
        for (index, byte) in packet.iter_mut().enumerate().skip(14) {
            *byte = (index * 37) as u8;
        }
        seal(&mut packet, 7, header);
        packet
    }

    fn opens(packet: &[u8], schema: u64, header: &Header) -> bool {
        carried(packet).is_ok_and(|check| check == Digest::of(packet).check(header, schema))
    }

    #[test]
    fn any_flipped_bit_fails_the_check() {
        for header in
            [Header { sequence: 70_000, baseline: Some(69_990) }, Header { sequence: 70_000, baseline: None }]
        {
            let packet = sealed(&header);
            assert!(opens(&packet, 7, &header));
            for bit in 0..packet.len() * 8 {
                let mut flipped = packet;
                flipped[bit / 8] ^= 1 << (bit % 8);
                assert!(!opens(&flipped, 7, &header), "bit {bit}");
            }
            assert!(!opens(&packet[..20], 7, &header));
            assert!(carried(&packet[..3]).is_err());
        }
        // A delta's check covers the schema; a whole state carries it.
        let delta = Header { sequence: 70_000, baseline: Some(69_990) };
        assert!(!opens(&sealed(&delta), 8, &delta));
    }

    #[test]
    fn a_baseline_from_another_lap_fails_the_check() {
        let header = Header { sequence: 70_000, baseline: Some(69_990) };
        let packet = sealed(&header);
        let read = Incoming::read(&mut crate::BitReader::new(&packet)).unwrap();
        assert_eq!(
            read,
            Incoming::Delta { sequence: 70_000u32 as u16, baseline: 69_990u32 as u16, behind: 10 }
        );
        assert_eq!(read.with_baseline(69_990), header);
        for other in [69_990 - 65_536, 69_990 + 65_536, 69_990 + 2 * 65_536] {
            assert!(!opens(&packet, 7, &read.with_baseline(other)), "{other}");
        }
    }

    #[test]
    fn whole_states_carry_their_lap_and_schema() {
        let header = Header { sequence: 3 << 16 | 5, baseline: None };
        let packet = sealed(&header);
        let read = Incoming::read(&mut crate::BitReader::new(&packet));
        assert_eq!(read, Some(Incoming::Whole { sequence: 3 << 16 | 5, schema: fold(7) }));
        assert!(opens(&packet, 7, &header));
    }

    #[test]
    fn nearest_sequences() {
        assert_eq!(nearest(5, 70_000), 65_541);
        assert_eq!(nearest(65_535, 65_536), 65_535);
        assert_eq!(nearest(0, 65_535), 65_536);
        assert!(newer(1, u32::MAX) && !newer(u32::MAX, 1) && !newer(4, 4));
    }
}
