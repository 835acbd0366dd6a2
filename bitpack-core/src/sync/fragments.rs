//! Packets split over several datagrams, and put back together.
//!
//! Wire form of a fragment: a 32-bit check of the rest of its bytes
//! (little-endian, like every field here), the packet's sequence in all 32
//! bits, the fragment's index (a byte), the packet's count of fragments
//! less one (a byte), then its part of the packet. Every fragment of a
//! packet but the last carries the same number of bytes, the last at most
//! that many and at least one: a receiver places each part from its index
//! alone, and needs to know only its own limits.
//!
//! The sequence is carried whole, not as the packet's 16 bits, so that the
//! receiver tells a fragment of a packet it decoded already (dropped on
//! arrival) from one of the next lap of the counter after a long outage,
//! as the [`Receiver`] does for a whole state.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use super::packet::{Digest, Incoming, Sequence, newer, wire};
use super::receiver::Receiver;
use super::sender::{Entry, Sender};
use super::view::View;
use crate::change::ChangeGroups;
use crate::error::{Error, ErrorKind};
use crate::reader::BitReader;

/// Bytes of a fragment's header: its check, the packet's sequence, its
/// index and the packet's count of fragments. The rest of a datagram is
/// the packet's.
pub const FRAGMENT_HEADER_BYTES: usize = 10;

/// Most fragments a packet is split into (the count is one byte).
pub const MAX_FRAGMENTS: usize = 256;

/// Where each field of the header starts.
const SEQUENCE_AT: usize = 4;
const INDEX_AT: usize = 8;
const COUNT_AT: usize = 9;

/// A sender's packets split into fragments of at most `datagram` bytes
/// each, so that a packet carries up to `max_fragments` datagrams' worth of
/// the world whole, where the packet budget would hold entries back (the
/// `bitpack` crate's `sync` guide, "The datagram limit", says when to
/// choose which). It holds the fragments of the last packet written, in
/// buffers allocated once.
///
/// The client puts them back together with a [`Reassembly`] whose limits
/// are at least these. A packet that fits one fragment is one datagram of
/// [`FRAGMENT_HEADER_BYTES`] more than the packet; every fragment carries
/// `datagram - FRAGMENT_HEADER_BYTES` bytes of the packet, the last one
/// what is left.
pub struct Fragments {
    datagram: usize,
    /// The packet, before it is split.
    packet: Vec<u8>,
    /// The fragments, one every `datagram` bytes.
    datagrams: Vec<u8>,
    /// Fragments of the last packet written.
    count: usize,
    /// Bytes of the last one.
    last: usize,
}

impl fmt::Debug for Fragments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fragments")
            .field("datagram", &self.datagram)
            .field("max_fragments", &self.max_fragments())
            .field("count", &self.count)
            .finish_non_exhaustive()
    }
}

impl Fragments {
    /// Fragments of at most `datagram` bytes, at most `max_fragments` of
    /// them per packet; allocates `max_fragments` times `datagram` bytes
    /// twice (the packet, and its fragments).
    ///
    /// # Panics
    ///
    /// When `datagram` is not more than [`FRAGMENT_HEADER_BYTES`], or
    /// `max_fragments` is 0 or more than [`MAX_FRAGMENTS`].
    pub fn new(datagram: usize, max_fragments: usize) -> Self {
        let part = part_bytes(datagram, max_fragments);
        Fragments {
            datagram,
            packet: vec![0; part * max_fragments],
            datagrams: vec![0; datagram * max_fragments],
            count: 0,
            last: 0,
        }
    }

    /// The most bytes of a packet the fragments of one can carry.
    pub fn max_packet(&self) -> usize {
        self.packet.len()
    }

    /// The most fragments a packet is split into.
    pub fn max_fragments(&self) -> usize {
        self.datagrams.len() / self.datagram
    }

    /// Writes `sender`'s next packet for `world` ([`Sender::write`], into
    /// [`max_packet`](Fragments::max_packet) bytes) and splits it; returns
    /// how many fragments it takes. A world whose delta takes more than
    /// `max_fragments` datagrams holds entries back as the packet budget
    /// does. On `Err` (the sender's) there are no fragments, and the
    /// sender recorded nothing.
    pub fn write<W: ChangeGroups + Clone, const N: usize>(
        &mut self,
        sender: &mut Sender<W, N>,
        world: &W,
    ) -> Result<usize, Error> {
        self.write_prioritized(sender, world, |_, _| 1.0)
    }

    /// [`Fragments::write`] through [`Sender::write_prioritized`].
    pub fn write_prioritized<W: ChangeGroups + Clone, const N: usize>(
        &mut self,
        sender: &mut Sender<W, N>,
        world: &W,
        priority: impl FnMut(&W, Entry) -> f32,
    ) -> Result<usize, Error> {
        self.write_with(sender, |sender, packet| sender.write_prioritized(world, packet, priority))
    }

    /// [`Fragments::write`] through [`Sender::write_view`]: the packet of
    /// a client that sees the world through `view`.
    pub fn write_view<W: ChangeGroups + Clone, const N: usize>(
        &mut self,
        sender: &mut Sender<W, N>,
        world: &W,
        view: &mut impl View<W>,
    ) -> Result<usize, Error> {
        self.write_with(sender, |sender, packet| sender.write_view(world, packet, view))
    }

    /// Writes `sender`'s next packet with `write` into the packet buffer,
    /// and splits it.
    fn write_with<W: ChangeGroups + Clone, const N: usize>(
        &mut self,
        sender: &mut Sender<W, N>,
        write: impl FnOnce(&mut Sender<W, N>, &mut [u8]) -> Result<usize, Error>,
    ) -> Result<usize, Error> {
        self.count = 0;
        let sequence = sender.next_packet();
        let used = write(sender, &mut self.packet)?;
        self.split(sequence, used);
        Ok(self.count)
    }

    /// Splits the first `used` bytes of the packet buffer, the packet
    /// `sequence`, into fragments.
    fn split(&mut self, sequence: Sequence, used: usize) {
        let part = self.datagram - FRAGMENT_HEADER_BYTES;
        // A packet is never empty (its header alone is 7 bytes).
        let count = used.div_ceil(part).max(1);
        let parts = self.packet[..used].chunks(part);
        for ((index, part), datagram) in parts.enumerate().zip(self.datagrams.chunks_mut(self.datagram)) {
            let datagram = &mut datagram[..FRAGMENT_HEADER_BYTES + part.len()];
            datagram[SEQUENCE_AT..INDEX_AT].copy_from_slice(&sequence.to_le_bytes());
            // `new` bounds the count by 256.
            datagram[INDEX_AT] = index as u8;
            datagram[COUNT_AT] = (count - 1) as u8;
            datagram[FRAGMENT_HEADER_BYTES..].copy_from_slice(part);
            seal(datagram);
        }
        self.count = count;
        self.last = FRAGMENT_HEADER_BYTES + (used - (count - 1) * part);
    }

    /// Fragments of the last packet written (0 after an `Err`).
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there are none (nothing written yet, or the last write
    /// failed).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The datagram of fragment `index` of the last packet written.
    pub fn get(&self, index: usize) -> Option<&[u8]> {
        let len = match index + 1 {
            last if last == self.count => self.last,
            within if within < self.count => self.datagram,
            _ => return None,
        };
        Some(&self.datagrams[index * self.datagram..][..len])
    }

    /// The datagrams of the last packet written, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        (0..self.count).map(|index| self.get(index).unwrap_or_default())
    }
}

/// Bytes of a packet a fragment of `datagram` bytes carries, after checking
/// the limits.
fn part_bytes(datagram: usize, max_fragments: usize) -> usize {
    assert!(datagram > FRAGMENT_HEADER_BYTES, "a datagram of fragments is more than its 10-byte header");
    assert!((1..=MAX_FRAGMENTS).contains(&max_fragments), "a packet takes 1 to 256 fragments");
    datagram - FRAGMENT_HEADER_BYTES
}

/// Writes the check of `datagram`, a fragment with its header.
pub fn seal(datagram: &mut [u8]) {
    let check = Digest::of(datagram).fragment_check();
    if let Some((head, _)) = datagram.split_first_chunk_mut::<4>() {
        *head = check.to_le_bytes();
    }
}

/// A fragment as read, its check held.
struct Fragment<'a> {
    sequence: Sequence,
    index: usize,
    count: usize,
    part: &'a [u8],
}

/// Puts fragments from [`Fragments`] back together and hands each packet
/// complete to a [`Receiver`]. It holds the fragments of up to `PACKETS`
/// packets at once (default 2: the newest, and one before it whose last
/// fragments are late), each up to `max_fragments` parts of
/// `datagram - FRAGMENT_HEADER_BYTES` bytes, allocated once.
///
/// A fragment lost loses its packet: the packet is dropped when fragments
/// of `PACKETS` newer packets have arrived, or one newer is decoded. The
/// sender's next packet is a delta against what the client acknowledged,
/// as always, so the next complete packet catches the client up.
#[derive(Clone)]
pub struct Reassembly<const PACKETS: usize = 2> {
    datagram: usize,
    max_fragments: usize,
    packets: [Partial; PACKETS],
    /// A packet put together, when its parts are not contiguous (a sender
    /// with smaller datagrams than this receiver's).
    joined: Vec<u8>,
}

/// The fragments held of one packet.
#[derive(Clone)]
struct Partial {
    /// Its sequence, while fragments of it are held.
    sequence: Option<Sequence>,
    count: usize,
    held: usize,
    /// Bytes of every fragment's part but the last, once one is held; else 0.
    stride: usize,
    /// Bytes of each fragment's part, 0 while it is missing (no part is
    /// empty).
    lens: Vec<usize>,
    /// Part `i` at `i` times the most bytes a part can have.
    bytes: Vec<u8>,
}

impl<const PACKETS: usize> fmt::Debug for Reassembly<PACKETS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        /// A packet in progress: its sequence, and which fragments are held.
        struct Held<'a>(&'a Partial);
        impl fmt::Debug for Held<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let Held(partial) = self;
                let held = (0..partial.count).filter(|&index| partial.lens[index] > 0);
                write!(f, "{}: ", wire(partial.sequence.unwrap_or_default()))?;
                f.debug_list().entries(held).finish()?;
                write!(f, " of {}", partial.count)
            }
        }
        f.debug_struct("Reassembly")
            .field("datagram", &self.datagram)
            .field("max_fragments", &self.max_fragments)
            .field(
                "packets",
                &self.packets.iter().filter(|p| p.sequence.is_some()).map(Held).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// What became of a fragment.
enum Placed {
    /// Held, its packet not complete; or a copy of one held; or dropped, of
    /// a packet older than every one in progress.
    Waiting,
    /// The whole packet: a packet of one fragment.
    Alone,
    /// The last fragment missing of packet `packets[_]`.
    Completes(usize),
}

impl<const PACKETS: usize> Reassembly<PACKETS> {
    /// Takes datagrams of at most `datagram` bytes, packets of at most
    /// `max_fragments` fragments: [`Fragments`] with limits up to these.
    /// Allocates `PACKETS` times `max_fragments` times `datagram` bytes.
    ///
    /// # Panics
    ///
    /// When `datagram` is not more than [`FRAGMENT_HEADER_BYTES`], or
    /// `max_fragments` is 0 or more than [`MAX_FRAGMENTS`] (and at
    /// compile time when `PACKETS` is 0).
    pub fn new(datagram: usize, max_fragments: usize) -> Self {
        const { assert!(PACKETS > 0, "a Reassembly holds at least one packet") };
        let part = part_bytes(datagram, max_fragments);
        let partial = || Partial {
            sequence: None,
            count: 0,
            held: 0,
            stride: 0,
            lens: vec![0; max_fragments],
            bytes: vec![0; part * max_fragments],
        };
        Reassembly {
            datagram,
            max_fragments,
            packets: core::array::from_fn(|_| partial()),
            joined: Vec::new(),
        }
    }

    /// Takes one datagram. `Ok(Some(world))` when it completes a packet
    /// that `receiver` decodes to a state newer than any before (what
    /// [`Receiver::read`] answers); `Ok(None)` for a fragment held until
    /// its packet is complete, a copy of one held, and one dropped: of a
    /// packet not newer than the newest decoded, or older than every packet
    /// in progress when `PACKETS` are.
    ///
    /// `Err` for a datagram that is not such a fragment, and then nothing
    /// changes, neither the receiver nor the fragments held: longer than
    /// the limit (`TooLong`), shorter than a header and a byte
    /// (`UnexpectedEnd`), a check that does not hold (`ChecksumMismatch`),
    /// a count over `max_fragments` or an index past the count
    /// (`OutOfRange`), a fragment that disagrees with those held of its
    /// packet (`FragmentMismatch`: another count, a length no split gives,
    /// other bytes at an index held, a packet of another sequence); and
    /// for the last fragment of a packet, what [`Receiver::read`] refuses
    /// the packet for (that fragment is then not held, the others are).
    pub fn read<'r, W: ChangeGroups, const N: usize>(
        &mut self,
        receiver: &'r mut Receiver<W, N>,
        datagram: &[u8],
    ) -> Result<Option<&'r W>, Error> {
        let fragment = self.parse(datagram)?;
        if receiver.newest().is_some_and(|newest| !newer(fragment.sequence, newest)) {
            return Ok(None);
        }
        let completed = match self.place(&fragment)? {
            Placed::Waiting => return Ok(None),
            Placed::Alone => None,
            Placed::Completes(at) => Some(at),
        };
        let packet = match completed {
            Some(at) => self.join(at),
            None => fragment.part,
        };
        let decoded = match names(packet, fragment.sequence) {
            true => receiver.read(packet),
            false => Err(Error::new(ErrorKind::FragmentMismatch, SEQUENCE_AT * 8)),
        };
        match decoded {
            Ok(Some(world)) => {
                // Packets not newer can never be decoded now.
                for partial in &mut self.packets {
                    if partial.sequence.is_some_and(|held| !newer(held, fragment.sequence)) {
                        partial.sequence = None;
                    }
                }
                Ok(Some(world))
            }
            Ok(None) => {
                if let Some(at) = completed {
                    self.packets[at].sequence = None;
                }
                Ok(None)
            }
            Err(error) => {
                if let Some(at) = completed {
                    self.packets[at].remove(fragment.index);
                }
                Err(error)
            }
        }
    }

    /// How many fragments of packet `sequence` are held, and of how many,
    /// while it is in progress.
    pub fn held(&self, sequence: u16) -> Option<(usize, usize)> {
        self.packets.iter().find_map(|partial| match partial.sequence {
            Some(held) if wire(held) == sequence => Some((partial.held, partial.count)),
            _ => None,
        })
    }

    /// The fragment in `datagram`, its check and limits held.
    fn parse<'a>(&self, datagram: &'a [u8]) -> Result<Fragment<'a>, Error> {
        if datagram.len() > self.datagram {
            return Err(Error::new(ErrorKind::TooLong, self.datagram * 8));
        }
        let Some((header, part)) = datagram.split_first_chunk::<FRAGMENT_HEADER_BYTES>() else {
            return Err(Error::new(ErrorKind::UnexpectedEnd, datagram.len() * 8));
        };
        if part.is_empty() {
            return Err(Error::new(ErrorKind::UnexpectedEnd, datagram.len() * 8));
        }
        let [c0, c1, c2, c3, s0, s1, s2, s3, index, count] = *header;
        if Digest::of(datagram).fragment_check() != u32::from_le_bytes([c0, c1, c2, c3]) {
            return Err(Error::new(ErrorKind::ChecksumMismatch, 0));
        }
        let (index, count) = (usize::from(index), usize::from(count) + 1);
        if count > self.max_fragments {
            return Err(Error::new(ErrorKind::OutOfRange, COUNT_AT * 8));
        }
        if index >= count {
            return Err(Error::new(ErrorKind::OutOfRange, INDEX_AT * 8));
        }
        Ok(Fragment { sequence: u32::from_le_bytes([s0, s1, s2, s3]), index, count, part })
    }

    /// Holds `fragment` with the others of its packet, in a packet of its
    /// own when it is the first: a free one, else the oldest when this
    /// packet is newer. `Err` when it disagrees with those held, and then
    /// nothing moved.
    fn place(&mut self, fragment: &Fragment<'_>) -> Result<Placed, Error> {
        let part = self.datagram - FRAGMENT_HEADER_BYTES;
        let placed =
            |at: usize, complete: bool| if complete { Placed::Completes(at) } else { Placed::Waiting };
        if let Some(at) = self.packets.iter().position(|partial| partial.sequence == Some(fragment.sequence))
        {
            return Ok(placed(at, self.packets[at].add(fragment, part)?));
        }
        if fragment.count == 1 {
            return Ok(Placed::Alone);
        }
        let free = self.packets.iter().position(|partial| partial.sequence.is_none());
        let oldest = || {
            let ages = self.packets.iter().enumerate().filter_map(|(at, partial)| {
                Some((fragment.sequence.wrapping_sub(partial.sequence?) as i32, at))
            });
            ages.max().filter(|&(age, _)| age > 0).map(|(_, at)| at)
        };
        let Some(at) = free.or_else(oldest) else { return Ok(Placed::Waiting) };
        let partial = &mut self.packets[at];
        partial.sequence = Some(fragment.sequence);
        partial.count = fragment.count;
        partial.held = 0;
        partial.stride = 0;
        partial.lens[..fragment.count].fill(0);
        Ok(placed(at, partial.add(fragment, part)?))
    }

    /// The bytes of packet `packets[at]`, complete.
    fn join(&mut self, at: usize) -> &[u8] {
        let part = self.datagram - FRAGMENT_HEADER_BYTES;
        let partial = &self.packets[at];
        let len = (partial.count - 1) * partial.stride + partial.lens[partial.count - 1];
        if partial.stride == part {
            return &partial.bytes[..len];
        }
        self.joined.clear();
        for (index, &bytes) in partial.lens[..partial.count].iter().enumerate() {
            self.joined.extend_from_slice(&partial.bytes[index * part..][..bytes]);
        }
        &self.joined
    }
}

impl Partial {
    /// Holds `fragment`, a fragment of this packet, if it agrees with the
    /// fragments held; `part` is the most bytes a part can have. Whether
    /// the packet is complete now (not after a copy of a fragment held).
    fn add(&mut self, fragment: &Fragment<'_>, part: usize) -> Result<bool, Error> {
        let mismatch = Err(Error::new(ErrorKind::FragmentMismatch, 0));
        if fragment.count != self.count {
            return mismatch;
        }
        let at = fragment.index * part;
        let len = fragment.part.len();
        let held = self.lens[fragment.index];
        if held > 0 {
            return if self.bytes[at..at + held] == *fragment.part { Ok(false) } else { mismatch };
        }
        // Every part the same length but the last, which is no longer.
        let last = fragment.index + 1 == self.count;
        let agrees = match last {
            true => self.stride == 0 || len <= self.stride,
            false => (self.stride == 0 || len == self.stride) && self.lens[self.count - 1] <= len,
        };
        if !agrees {
            return mismatch;
        }
        self.bytes[at..at + len].copy_from_slice(fragment.part);
        self.lens[fragment.index] = len;
        self.held += 1;
        if !last {
            self.stride = len;
        }
        Ok(self.held == self.count)
    }

    /// Lets go of fragment `index` again: as it was before `add` held it.
    fn remove(&mut self, index: usize) {
        self.lens[index] = 0;
        self.held -= 1;
        self.stride = self.lens[..self.count - 1].iter().copied().find(|&len| len > 0).unwrap_or(0);
    }
}

/// Whether `packet` is packet `sequence`: its 16 bits, and for a whole
/// state its lap. Bytes that are no packet say nothing (the receiver
/// refuses them).
fn names(packet: &[u8], sequence: Sequence) -> bool {
    match Incoming::read(&mut BitReader::new(packet)) {
        Some(Incoming::Whole { sequence: whole, .. }) => whole == sequence,
        Some(Incoming::Delta { sequence: low, .. }) => low == wire(sequence),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    /// `fragments` holding `len` bytes of a made-up packet, split.
    fn split(fragments: &mut Fragments, sequence: Sequence, len: usize) -> Vec<u8> {
        let packet: Vec<u8> = (0..len).map(|index| (index * 7 + 3) as u8).collect();
        fragments.packet[..len].copy_from_slice(&packet);
        fragments.split(sequence, len);
        packet
    }

    /// Places every datagram in `order`: the packet once complete.
    fn put_together(reassembly: &mut Reassembly, datagrams: &[Vec<u8>], order: &[usize]) -> Option<Vec<u8>> {
        for (step, &index) in order.iter().enumerate() {
            let fragment = reassembly.parse(&datagrams[index]).expect("a fragment");
            match reassembly.place(&fragment).expect("agrees") {
                Placed::Waiting => assert!(step + 1 < order.len(), "complete after {step}"),
                Placed::Alone => return Some(fragment.part.to_vec()),
                Placed::Completes(at) => {
                    assert_eq!(step + 1, order.len());
                    return Some(reassembly.join(at).to_vec());
                }
            }
        }
        None
    }

    #[test]
    fn packets_split_and_join_in_any_order() {
        for (datagram, limit) in [(11, 11), (48, 48), (48, 64), (200, 1200)] {
            let mut fragments = Fragments::new(datagram, 16);
            let part = datagram - FRAGMENT_HEADER_BYTES;
            // A packet is 7 bytes or more.
            for len in [7, part - 1, part, part + 1, 3 * part, 3 * part + 2, 16 * part].map(|len| len.max(7))
            {
                let packet = split(&mut fragments, 70_000 + len as u32, len);
                assert_eq!(fragments.len(), len.div_ceil(part));
                let datagrams: Vec<Vec<u8>> = fragments.iter().map(<[u8]>::to_vec).collect();
                assert_eq!(datagrams.len(), fragments.len());
                assert!(datagrams.iter().all(|bytes| bytes.len() <= datagram));
                assert_eq!(
                    datagrams.iter().map(|bytes| bytes.len() - FRAGMENT_HEADER_BYTES).sum::<usize>(),
                    len
                );
                let count = datagrams.len();
                for order in [(0..count).collect::<Vec<_>>(), (0..count).rev().collect(), {
                    let mut odd_first: Vec<usize> = (0..count).filter(|i| i % 2 == 1).collect();
                    odd_first.extend((0..count).filter(|i| i % 2 == 0));
                    odd_first
                }] {
                    let mut reassembly = Reassembly::new(limit, 16);
                    let joined = put_together(&mut reassembly, &datagrams, &order);
                    assert_eq!(joined.as_deref(), Some(&packet[..]), "{datagram} {limit} {len}");
                }
            }
        }
    }

    #[test]
    fn any_flipped_bit_or_cut_refuses_a_fragment() {
        let mut fragments = Fragments::new(40, 4);
        split(&mut fragments, 5, 80);
        let reassembly: Reassembly = Reassembly::new(40, 4);
        for datagram in fragments.iter() {
            assert!(reassembly.parse(datagram).is_ok());
            for bit in 0..datagram.len() * 8 {
                let mut flipped = datagram.to_vec();
                flipped[bit / 8] ^= 1 << (bit % 8);
                let error = reassembly.parse(&flipped).err().map(|error| error.kind());
                assert_eq!(error, Some(ErrorKind::ChecksumMismatch), "bit {bit}");
            }
            for cut in 0..datagram.len() {
                assert!(reassembly.parse(&datagram[..cut]).is_err(), "cut at {cut}");
            }
        }
    }

    #[test]
    fn limits_and_disagreements_are_refused_and_change_nothing() {
        let mut fragments = Fragments::new(40, 4);
        split(&mut fragments, 9, 100);
        let held: Vec<Vec<u8>> = fragments.iter().map(<[u8]>::to_vec).collect();
        let mut reassembly: Reassembly = Reassembly::new(40, 4);
        for datagram in &held[..3] {
            let fragment = reassembly.parse(datagram).expect("a fragment");
            assert!(matches!(reassembly.place(&fragment), Ok(Placed::Waiting)));
        }
        let before = format!("{reassembly:?}");
        assert_eq!(before, "Reassembly { datagram: 40, max_fragments: 4, packets: [9: [0, 1, 2] of 4] }");
        let refused = |reassembly: &mut Reassembly, datagram: &[u8]| {
            let kind = match reassembly.parse(datagram) {
                Err(error) => error.kind(),
                Ok(fragment) => reassembly.place(&fragment).err().expect("refused").kind(),
            };
            assert_eq!(format!("{reassembly:?}"), before);
            kind
        };
        // Forged, their checks made to hold.
        let forged = |edit: Edit| {
            let mut datagram = held[1].clone();
            edit(&mut datagram);
            seal(&mut datagram);
            datagram
        };
        type Edit = fn(&mut Vec<u8>);
        let cases: [(Edit, ErrorKind); 8] = [
            (|d| d[COUNT_AT] = 4, ErrorKind::OutOfRange),       // 5 fragments
            (|d| d[COUNT_AT] = 255, ErrorKind::OutOfRange),     // 256
            (|d| d[INDEX_AT] = 4, ErrorKind::OutOfRange),       // past the count
            (|d| d[COUNT_AT] = 2, ErrorKind::FragmentMismatch), // another count
            (|d| d[FRAGMENT_HEADER_BYTES] ^= 1, ErrorKind::FragmentMismatch), // other bytes
            (|d| d.truncate(30), ErrorKind::FragmentMismatch),  // shorter
            (|d| d.truncate(FRAGMENT_HEADER_BYTES), ErrorKind::UnexpectedEnd), // empty
            (|d| d.push(0), ErrorKind::TooLong),                // over the limit
        ];
        for (edit, kind) in cases {
            assert_eq!(refused(&mut reassembly, &forged(edit)), kind);
        }
        // The last fragment, longer than the others: over this limit, and
        // a disagreement within a higher one.
        let mut longer = held[3].clone();
        longer.resize(41, 1);
        seal(&mut longer);
        assert_eq!(refused(&mut reassembly, &longer), ErrorKind::TooLong);
        let mut wide: Reassembly = Reassembly::new(41, 4);
        for datagram in &held[..3] {
            let fragment = wide.parse(datagram).expect("a fragment");
            assert!(wide.place(&fragment).is_ok());
        }
        let fragment = wide.parse(&longer).expect("within the limit");
        assert_eq!(wide.place(&fragment).err().map(|e| e.kind()), Some(ErrorKind::FragmentMismatch));
        // A copy of one held is taken, and changes nothing.
        let fragment = reassembly.parse(&held[1]).expect("a fragment");
        assert!(matches!(reassembly.place(&fragment), Ok(Placed::Waiting)));
        assert_eq!(format!("{reassembly:?}"), before);
        // The last one completes the packet; let go, it is missing again.
        let fragment = reassembly.parse(&held[3]).expect("a fragment");
        let Ok(Placed::Completes(at)) = reassembly.place(&fragment) else { panic!("completes") };
        reassembly.packets[at].remove(3);
        assert_eq!(format!("{reassembly:?}"), before);
    }

    #[test]
    fn the_oldest_packet_makes_room_for_a_newer_one() {
        let mut fragments = Fragments::new(20, 4);
        let mut reassembly: Reassembly = Reassembly::new(20, 4);
        let mut first = |sequence: Sequence| {
            split(&mut fragments, sequence, 30);
            let fragment = reassembly.parse(fragments.get(0).expect("fragment 0")).expect("a fragment");
            assert!(matches!(reassembly.place(&fragment), Ok(Placed::Waiting)));
            format!("{reassembly:?}")
        };
        assert!(first(u32::MAX - 1).ends_with("[65534: [0] of 3] }"));
        assert!(first(u32::MAX).ends_with("[65534: [0] of 3, 65535: [0] of 3] }"));
        // Newer (across the 32-bit wrap) than the oldest: replaces it.
        assert!(first(0).ends_with("[0: [0] of 3, 65535: [0] of 3] }"));
        // Older than both: dropped.
        assert!(first(u32::MAX - 2).ends_with("[0: [0] of 3, 65535: [0] of 3] }"));
        assert_eq!(reassembly.held(0), Some((1, 3)));
        assert_eq!(reassembly.held(65_534), None);
    }
}
