//! The client's side: the states decoded, and what to acknowledge.

use core::fmt;

use super::acks::{ACK_BITS, Acks};
use super::packet::{Header, open};
use crate::change::{ChangeGroups, sequence_newer};
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::reader::BitReader;

/// Receives a world from a [`Sender`](super::Sender) (see the
/// `sync` module docs): decodes each packet against the state its header
/// names and keeps the last `N` states decoded (`N` world values), which
/// the sender may name as baselines.
pub struct Receiver<W, const N: usize = 32> {
    held: [Option<(u16, W)>; N],
    latest: Option<u16>,
}

impl<W: ChangeGroups, const N: usize> Default for Receiver<W, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<W, const N: usize> fmt::Debug for Receiver<W, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Receiver")
            .field("latest", &self.latest)
            .field(
                "held",
                &self.held.iter().flatten().map(|(sequence, _)| *sequence).collect::<alloc::vec::Vec<_>>(),
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
    /// are not a packet for this world type (`ChecksumMismatch`,
    /// `UnexpectedEnd`, ...), or a delta against a state this receiver does
    /// not hold (`MissingBaseline`). Only `Ok(Some)` changes the receiver.
    pub fn read(&mut self, bytes: &[u8]) -> Result<Option<&W>, Error> {
        open(bytes, W::SCHEMA)?;
        let mut reader = BitReader::new(bytes);
        let header = Header::read(&mut reader)?;
        if self.latest.is_some_and(|latest| !sequence_newer(header.sequence, latest)) {
            return Ok(None);
        }
        let world = match header.baseline {
            Some(baseline) => {
                let held =
                    self.get(baseline).ok_or(Error::new(ErrorKind::MissingBaseline, reader.bits_read()))?;
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
        let slot = &mut self.held[usize::from(header.sequence) % N];
        *slot = Some((header.sequence, world));
        self.latest = Some(header.sequence);
        Ok(slot.as_ref().map(|(_, world)| world))
    }

    /// The newest state decoded.
    pub fn latest(&self) -> Option<&W> {
        self.get(self.latest?)
    }

    /// The newest sequence decoded.
    pub fn latest_sequence(&self) -> Option<u16> {
        self.latest
    }

    /// The state decoded from packet `sequence`, while kept.
    pub fn get(&self, sequence: u16) -> Option<&W> {
        match &self.held[usize::from(sequence) % N] {
            Some((held, world)) if *held == sequence => Some(world),
            _ => None,
        }
    }

    /// What to send back: the newest sequence decoded, and which of the 32
    /// before it this receiver still holds.
    pub fn acks(&self) -> Acks {
        let Some(latest) = self.latest else { return Acks::none() };
        let earlier = (1..=ACK_BITS)
            .filter(|&behind| self.get(latest.wrapping_sub(behind)).is_some())
            .fold(0u32, |field, behind| field | 1 << (behind - 1));
        Acks::new(latest, earlier)
    }
}
