//! The client's side: the states decoded, and what to acknowledge.

use core::fmt;

use super::acks::{ACK_BITS, Acks};
use super::packet::{Digest, Incoming, Sequence, carried, fold, nearest, newer, wire};
use crate::change::ChangeGroups;
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::reader::BitReader;

/// Receives a world from a [`Sender`](super::Sender) (see the
/// `sync` module docs): decodes each packet against the state its header
/// names and keeps the last `N` states decoded (`N` world values), which
/// the sender may name as baselines.
pub struct Receiver<W, const N: usize = 32> {
    held: [Option<(Sequence, W)>; N],
    latest: Option<Sequence>,
}

/// Laps of the 16-bit sequence a delta's check is tried at beyond the
/// nearest, so that a delta against a state of another lap (a link lost
/// one way for 65,536 packets) is told apart from a corrupt packet. Only
/// the nearest lap can decode; the others only name the error.
const LAPS_AHEAD: i32 = 256;

impl<W: ChangeGroups, const N: usize> Default for Receiver<W, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<W, const N: usize> fmt::Debug for Receiver<W, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Receiver")
            .field("latest", &self.latest.map(wire))
            .field(
                "held",
                &self
                    .held
                    .iter()
                    .flatten()
                    .map(|(sequence, _)| wire(*sequence))
                    .collect::<alloc::vec::Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl<W: ChangeGroups, const N: usize> Receiver<W, N> {
    /// A receiver that holds nothing.
    pub fn new() -> Self {
        const { assert!(N > 0 && N <= 32_768, "a Receiver keeps between 1 and 32768 states") };
        Receiver { held: core::array::from_fn(|_| None), latest: None }
    }

    /// Decodes a packet: `Ok(Some(world))` for a state newer than any
    /// decoded before (kept, and acknowledged from now on); `Ok(None)` for
    /// a stale or duplicate packet, which is ignored. `Err` for bytes that
    /// are not a packet (`ChecksumMismatch`, `UnexpectedEnd`, ...), a whole
    /// state written for another world type, another `SCHEMA`
    /// (`SchemaMismatch`; a delta for one is `ChecksumMismatch`: this
    /// receiver holds no state of that type), or a delta against a state this receiver does
    /// not hold (`MissingBaseline`), including one that has the same 16-bit
    /// sequence from another lap of the counter. Only `Ok(Some)` changes
    /// the receiver.
    pub fn read(&mut self, bytes: &[u8]) -> Result<Option<&W>, Error> {
        let carried = carried(bytes)?;
        let mut reader = BitReader::new(bytes);
        let corrupt = Error::new(ErrorKind::ChecksumMismatch, 0);
        let read = Incoming::read(&mut reader).ok_or(corrupt)?;
        let digest = Digest::of(bytes);
        let header = match read {
            Incoming::Whole { schema, .. } => {
                let header = read.with_baseline(0);
                if digest.check(&header, W::SCHEMA) != carried {
                    return Err(corrupt);
                }
                if schema != fold(W::SCHEMA) {
                    return Err(Error::new(ErrorKind::SchemaMismatch, 0));
                }
                Some(header)
            }
            Incoming::Delta { baseline, .. } => {
                // The baseline's lap: the nearest, where the state held is,
                // else the lap the check holds for.
                let near = self.latest.map_or(Sequence::from(baseline), |latest| nearest(baseline, latest));
                let laps = [0, -1].into_iter().chain(1..=LAPS_AHEAD);
                laps.map(|lap| read.with_baseline(near.wrapping_add_signed(lap << 16)))
                    .find(|header| digest.check(header, W::SCHEMA) == carried)
            }
        }
        .ok_or(corrupt)?;
        if self.latest.is_some_and(|latest| !newer(header.sequence, latest)) {
            return Ok(None);
        }
        let world = match header.baseline {
            Some(baseline) => {
                let held =
                    self.held(baseline).ok_or(Error::new(ErrorKind::MissingBaseline, reader.bits_read()))?;
                W::read_delta(held, &mut reader)?
            }
            None => W::read_from(&mut reader)?,
        };
        // Whole bytes left over: another layout; the last byte's unused
        // bits must be the writer's zeros.
        let left = reader.bits_remaining();
        if left >= 8 {
            return Err(Error::new(ErrorKind::TrailingBytes, reader.bits_read()));
        }
        if left > 0 && reader.read_bits(left as u32)? != 0 {
            return Err(Error::new(ErrorKind::NonZeroPadding, bytes.len() * 8 - left));
        }
        let slot = &mut self.held[usize::from(wire(header.sequence)) % N];
        *slot = Some((header.sequence, world));
        self.latest = Some(header.sequence);
        Ok(slot.as_ref().map(|(_, world)| world))
    }

    /// The newest state decoded.
    pub fn latest(&self) -> Option<&W> {
        self.held(self.latest?)
    }

    /// The newest sequence decoded, all 32 bits.
    pub(crate) fn newest(&self) -> Option<Sequence> {
        self.latest
    }

    /// The newest sequence decoded.
    pub fn latest_sequence(&self) -> Option<u16> {
        self.latest.map(wire)
    }

    /// The state decoded from packet `sequence`, while kept.
    pub fn get(&self, sequence: u16) -> Option<&W> {
        self.held(nearest(sequence, self.latest?))
    }

    /// The state decoded from packet `sequence` (all 32 bits), while kept.
    fn held(&self, sequence: Sequence) -> Option<&W> {
        match &self.held[usize::from(wire(sequence)) % N] {
            Some((held, world)) if *held == sequence => Some(world),
            _ => None,
        }
    }

    /// What to send back: the newest sequence decoded, and which of the 32
    /// before it this receiver still holds.
    pub fn acks(&self) -> Acks {
        let Some(latest) = self.latest else { return Acks::none() };
        let earlier = (1..=ACK_BITS)
            .filter(|&behind| self.held(latest.wrapping_sub(behind.into())).is_some())
            .fold(0u32, |field, behind| field | 1 << (behind - 1));
        Acks::new(wire(latest), earlier)
    }
}
