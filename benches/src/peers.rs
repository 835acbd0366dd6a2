//! Every encoding in the comparison behind one object-safe interface, each
//! holding its own messages (already converted to the types it takes) and
//! reusing its buffers across calls, as a server would.

use std::hint::black_box;

use bitpack::{BitPack, BitReader, BitWriter};

use crate::dataset::{Dataset, PlayerInput, Snapshot};
use crate::proto::{PbInput, PbInputQ, PbSnapshot, PbSnapshotQ};
use crate::quantized::{PlayerInputQ, SnapshotQ};
use crate::{hand_game, stream};

/// Why an encoding failed; only ever seen if a peer is misused.
#[derive(Debug)]
pub struct PeerError(pub String);

impl core::fmt::Display for PeerError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PeerError {}

fn error(context: &str, cause: impl core::fmt::Display) -> PeerError {
    PeerError(format!("{context}: {cause}"))
}

/// One encoding of one kind of message, over the dataset's messages.
pub trait Contender {
    /// e.g. `bitcode (ints)`.
    fn name(&self) -> &'static str;
    /// How many messages it holds.
    fn len(&self) -> usize;
    /// Whether it holds none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Encodes message `index` into the reused buffer.
    fn encode(&mut self, index: usize) -> Result<&[u8], PeerError>;
    /// Encodes every message once and keeps the bytes for [`Contender::decode`].
    fn prepare(&mut self) -> Result<(), PeerError>;
    /// The bytes [`Contender::prepare`] kept for message `index`.
    fn encoded(&self, index: usize) -> &[u8];
    /// Decodes the kept bytes of message `index` and checks the result equals
    /// the original where the encoding is lossless (always for integer twins).
    fn decode(&mut self, index: usize) -> Result<(), PeerError>;
    /// Decodes message `index` and returns nothing, for timing.
    fn decode_only(&mut self, index: usize) -> Result<(), PeerError>;
}

/// A codec: encode into a reused buffer, decode into a fresh value.
pub trait Codec<T> {
    /// Encodes `value`; the slice lives until the next call.
    fn encode(&mut self, value: &T) -> Result<&[u8], PeerError>;
    /// Decodes one message.
    fn decode(&mut self, bytes: &[u8]) -> Result<T, PeerError>;
}

/// Messages, their kept encodings, and a codec.
pub struct Run<T, C> {
    name: &'static str,
    messages: Vec<T>,
    kept: Vec<Vec<u8>>,
    codec: C,
    /// Whether a decode must give back exactly the message.
    lossless: bool,
}

impl<T, C> Run<T, C> {
    /// A run of `codec` over `messages`.
    pub fn new(name: &'static str, messages: Vec<T>, codec: C, lossless: bool) -> Self {
        Run { name, messages, kept: Vec::new(), codec, lossless }
    }
}

impl<T: PartialEq + core::fmt::Debug, C: Codec<T>> Contender for Run<T, C> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn len(&self) -> usize {
        self.messages.len()
    }

    #[inline]
    fn encode(&mut self, index: usize) -> Result<&[u8], PeerError> {
        let message = self.messages.get(index).ok_or_else(|| error(self.name, "no such message"))?;
        self.codec.encode(message)
    }

    fn prepare(&mut self) -> Result<(), PeerError> {
        let mut kept = Vec::with_capacity(self.messages.len());
        for message in &self.messages {
            kept.push(self.codec.encode(message)?.to_vec());
        }
        self.kept = kept;
        Ok(())
    }

    fn encoded(&self, index: usize) -> &[u8] {
        self.kept.get(index).map_or(&[], Vec::as_slice)
    }

    fn decode(&mut self, index: usize) -> Result<(), PeerError> {
        let bytes = self.kept.get(index).ok_or_else(|| error(self.name, "not prepared"))?;
        let value = self.codec.decode(bytes)?;
        if self.lossless && self.messages.get(index) != Some(&value) {
            return Err(error(self.name, format!("message {index} did not round-trip")));
        }
        Ok(())
    }

    #[inline]
    fn decode_only(&mut self, index: usize) -> Result<(), PeerError> {
        let bytes = self.kept.get(index).ok_or_else(|| error(self.name, "not prepared"))?;
        black_box(self.codec.decode(bytes)?);
        Ok(())
    }
}

/// bitcode 0.6 with its own `Buffer`.
#[derive(Default)]
pub struct Bitcode(bitcode::Buffer);

impl<T: bitcode::Encode + for<'a> bitcode::Decode<'a>> Codec<T> for Bitcode {
    #[inline]
    fn encode(&mut self, value: &T) -> Result<&[u8], PeerError> {
        Ok(self.0.encode(value))
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Result<T, PeerError> {
        self.0.decode(bytes).map_err(|e| error("bitcode", e))
    }
}

/// bitcode 0.6 on the integer twin, converting to and from it inside the
/// timing: what a server holding float game state pays per message with a
/// range-less format (steps into a reused twin, then encode; decode, then
/// `steps * res`). Lossy, as the twin is.
#[derive(Default)]
pub struct BitcodeQuantizing {
    twin: SnapshotQ,
    buffer: bitcode::Buffer,
}

impl Codec<Snapshot> for BitcodeQuantizing {
    #[inline]
    fn encode(&mut self, value: &Snapshot) -> Result<&[u8], PeerError> {
        self.twin.quantize_from(value);
        Ok(self.buffer.encode(&self.twin))
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Result<Snapshot, PeerError> {
        let twin: SnapshotQ = self.buffer.decode(bytes).map_err(|e| error("bitcode", e))?;
        twin.to_floats().ok_or_else(|| error("bitcode", "unknown entity kind"))
    }
}

/// postcard (serde) into a reused buffer.
pub struct Postcard(Vec<u8>);

impl Default for Postcard {
    fn default() -> Self {
        Postcard(vec![0; 1 << 16])
    }
}

impl<T: serde::Serialize + serde::de::DeserializeOwned> Codec<T> for Postcard {
    #[inline]
    fn encode(&mut self, value: &T) -> Result<&[u8], PeerError> {
        postcard::to_slice(value, &mut self.0).map(|bytes| &*bytes).map_err(|e| error("postcard", e))
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Result<T, PeerError> {
        postcard::from_bytes(bytes).map_err(|e| error("postcard", e))
    }
}

/// bincode 2 (its own derive, standard varint config) into a reused buffer.
pub struct Bincode(Vec<u8>);

impl Default for Bincode {
    fn default() -> Self {
        Bincode(vec![0; 1 << 16])
    }
}

impl<T: bincode::Encode + bincode::Decode<()>> Codec<T> for Bincode {
    #[inline]
    fn encode(&mut self, value: &T) -> Result<&[u8], PeerError> {
        let used = bincode::encode_into_slice(value, &mut self.0, bincode::config::standard())
            .map_err(|e| error("bincode", e))?;
        Ok(&self.0[..used])
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Result<T, PeerError> {
        bincode::decode_from_slice(bytes, bincode::config::standard())
            .map(|(value, _)| value)
            .map_err(|e| error("bincode", e))
    }
}

/// prost into a reused `Vec`.
#[derive(Default)]
pub struct Prost(Vec<u8>);

impl<T: prost::Message + Default> Codec<T> for Prost {
    #[inline]
    fn encode(&mut self, value: &T) -> Result<&[u8], PeerError> {
        self.0.clear();
        value.encode(&mut self.0).map_err(|e| error("prost", e))?;
        Ok(&self.0)
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Result<T, PeerError> {
        T::decode(bytes).map_err(|e| error("prost", e))
    }
}

/// bitpack through `BitPack`, into a reused buffer of `T::MAX_BITS`.
pub struct Bitpack(Vec<u8>);

impl Default for Bitpack {
    fn default() -> Self {
        Bitpack(vec![0; 1 << 16])
    }
}

impl<T: BitPack> Codec<T> for Bitpack {
    #[inline]
    fn encode(&mut self, value: &T) -> Result<&[u8], PeerError> {
        let mut writer = BitWriter::new(&mut self.0);
        value.write_to(&mut writer).map_err(|e| error("bitpack", e))?;
        let used = writer.finish().map_err(|e| error("bitpack", e))?;
        Ok(&self.0[..used])
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Result<T, PeerError> {
        T::read_from(&mut BitReader::new(bytes)).map_err(|e| error("bitpack", e))
    }
}

/// The hand packer.
pub struct Hand(Vec<u8>);

impl Default for Hand {
    fn default() -> Self {
        Hand(vec![0; 1 << 16])
    }
}

impl Codec<Snapshot> for Hand {
    #[inline]
    fn encode(&mut self, value: &Snapshot) -> Result<&[u8], PeerError> {
        let used =
            hand_game::write_snapshot(value, &mut self.0).ok_or_else(|| error("hand", "does not fit"))?;
        Ok(&self.0[..used])
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Result<Snapshot, PeerError> {
        hand_game::read_snapshot(bytes).ok_or_else(|| error("hand", "invalid snapshot"))
    }
}

impl Codec<PlayerInput> for Hand {
    #[inline]
    fn encode(&mut self, value: &PlayerInput) -> Result<&[u8], PeerError> {
        let used = hand_game::write_input(value, &mut self.0).ok_or_else(|| error("hand", "does not fit"))?;
        Ok(&self.0[..used])
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Result<PlayerInput, PeerError> {
        hand_game::read_input(bytes).ok_or_else(|| error("hand", "invalid input"))
    }
}

/// The fastest hand packer of the same wire we could write: each entity's
/// fields fused into three words with constant shifts, a branch-free 64-bit
/// writer, one 8-byte load per word on read, the floats quantized lane-wise
/// (snapshots only).
pub struct HandFused(Vec<u8>);

impl Default for HandFused {
    fn default() -> Self {
        HandFused(vec![0; 1 << 16])
    }
}

impl Codec<Snapshot> for HandFused {
    #[inline]
    fn encode(&mut self, value: &Snapshot) -> Result<&[u8], PeerError> {
        let used = hand_game::write_snapshot_fused(value, &mut self.0)
            .ok_or_else(|| error("hand", "does not fit"))?;
        Ok(&self.0[..used])
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Result<Snapshot, PeerError> {
        hand_game::read_snapshot_fused(bytes).ok_or_else(|| error("hand", "invalid snapshot"))
    }
}

/// Which change-group stream a [`StreamRun`] sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamKind {
    /// Groups the peer may not hold; every message acknowledged at once.
    Tracked,
    /// The first snapshot whole, then each against the previous one.
    Delta,
}

/// bitpack's change-group streams as a contender. Messages must be handled
/// in order, from 0, as a connection would: message 0 starts a new stream
/// (a new sender, a new receiver), so each pass over the 60 is one session.
pub struct StreamRun {
    kind: StreamKind,
    snapshots: Vec<Snapshot>,
    kept: Vec<Vec<u8>>,
    buf: Vec<u8>,
    sender: stream::TrackedSender,
    receiver: Snapshot,
}

impl StreamRun {
    /// A stream of `kind` over `snapshots`.
    pub fn new(kind: StreamKind, snapshots: Vec<Snapshot>) -> Self {
        StreamRun {
            kind,
            snapshots,
            kept: Vec::new(),
            buf: vec![0; 1 << 16],
            sender: stream::TrackedSender::new(),
            receiver: Snapshot { tick: 0, entities: Vec::new() },
        }
    }
}

impl Contender for StreamRun {
    fn name(&self) -> &'static str {
        match self.kind {
            StreamKind::Tracked => "bitpack change groups, tracked",
            StreamKind::Delta => "bitpack baseline delta",
        }
    }

    fn len(&self) -> usize {
        self.snapshots.len()
    }

    #[inline]
    fn encode(&mut self, index: usize) -> Result<&[u8], PeerError> {
        let failed = |e: bitpack::Error| error("stream", e);
        let snapshot = self.snapshots.get(index).ok_or_else(|| error("stream", "no such message"))?;
        let used = match (self.kind, index) {
            (StreamKind::Tracked, _) => {
                if index == 0 {
                    self.sender = stream::TrackedSender::new();
                }
                let used = self.sender.write(snapshot, &mut self.buf).map_err(failed)?;
                self.sender.acknowledge();
                used
            }
            (StreamKind::Delta, 0) => bitpack::encode_into(snapshot, &mut self.buf).map_err(failed)?,
            (StreamKind::Delta, _) => {
                let baseline = self.snapshots.get(index - 1).ok_or_else(|| error("stream", "no baseline"))?;
                stream::write_delta(snapshot, baseline, &mut self.buf).map_err(failed)?
            }
        };
        Ok(&self.buf[..used])
    }

    fn prepare(&mut self) -> Result<(), PeerError> {
        let mut kept = Vec::with_capacity(self.snapshots.len());
        for index in 0..self.snapshots.len() {
            kept.push(self.encode(index)?.to_vec());
        }
        self.kept = kept;
        Ok(())
    }

    fn encoded(&self, index: usize) -> &[u8] {
        self.kept.get(index).map_or(&[], Vec::as_slice)
    }

    /// Applies message `index` to the receiver (tests check the result in
    /// `tests/stream.rs`).
    fn decode(&mut self, index: usize) -> Result<(), PeerError> {
        self.decode_only(index)
    }

    #[inline]
    fn decode_only(&mut self, index: usize) -> Result<(), PeerError> {
        let failed = |e: bitpack::Error| error("stream", e);
        let bytes = self.kept.get(index).ok_or_else(|| error("stream", "not prepared"))?;
        match (self.kind, index) {
            (StreamKind::Tracked, _) => {
                if index == 0 {
                    let count = self.snapshots.first().map_or(0, |first| first.entities.len());
                    self.receiver = stream::blank_snapshot(count);
                }
                stream::read_tracked(&mut self.receiver, bytes).map_err(failed)?;
            }
            (StreamKind::Delta, 0) => self.receiver = bitpack::decode(bytes).map_err(failed)?,
            (StreamKind::Delta, _) => {
                self.receiver = stream::read_delta(&self.receiver, bytes).map_err(failed)?;
            }
        }
        black_box(&self.receiver);
        Ok(())
    }
}

/// Name of the reference every ratio is taken to.
pub const REFERENCE: &str = "bitcode (ints)";
/// bitcode on the twin with the conversion timed: writes the twin's bytes.
pub const BITCODE_QUANTIZING: &str = "bitcode (ints), converting in the loop";

/// Every snapshot contender, bitpack and the hand packer first.
pub fn snapshot_contenders(data: &Dataset) -> Vec<Box<dyn Contender>> {
    let floats = data.snapshots.clone();
    let ints: Vec<SnapshotQ> = floats.iter().map(SnapshotQ::from).collect();
    let pb_floats: Vec<PbSnapshot> = floats.iter().map(PbSnapshot::from).collect();
    let pb_ints: Vec<PbSnapshotQ> = ints.iter().map(PbSnapshotQ::from).collect();
    vec![
        // The dataset types derive BitPack (issue 3).
        Box::new(Run::new("bitpack", floats.clone(), Bitpack::default(), false)),
        Box::new(Run::new("hand packer", floats.clone(), Hand::default(), false)),
        Box::new(Run::new("hand packer, fused", floats.clone(), HandFused::default(), false)),
        Box::new(Run::new("bitpack (ints)", ints.clone(), Bitpack::default(), true)),
        Box::new(Run::new("bitcode (floats)", floats.clone(), Bitcode::default(), true)),
        Box::new(Run::new(REFERENCE, ints.clone(), Bitcode::default(), true)),
        Box::new(Run::new(BITCODE_QUANTIZING, floats.clone(), BitcodeQuantizing::default(), false)),
        Box::new(Run::new("postcard (floats)", floats.clone(), Postcard::default(), true)),
        Box::new(Run::new("postcard (ints)", ints.clone(), Postcard::default(), true)),
        Box::new(Run::new("bincode (floats)", floats, Bincode::default(), true)),
        Box::new(Run::new("bincode (ints)", ints, Bincode::default(), true)),
        Box::new(Run::new("prost (floats)", pb_floats, Prost::default(), true)),
        Box::new(Run::new("prost (ints)", pb_ints, Prost::default(), true)),
        Box::new(StreamRun::new(StreamKind::Tracked, data.snapshots.clone())),
        Box::new(StreamRun::new(StreamKind::Delta, data.snapshots.clone())),
    ]
}

/// Every input contender, bitpack and the hand packer first.
pub fn input_contenders(data: &Dataset) -> Vec<Box<dyn Contender>> {
    let floats = data.inputs.clone();
    let ints: Vec<PlayerInputQ> = floats.iter().map(PlayerInputQ::from).collect();
    let pb_floats: Vec<PbInput> = floats.iter().map(PbInput::from).collect();
    let pb_ints: Vec<PbInputQ> = ints.iter().map(PbInputQ::from).collect();
    vec![
        Box::new(Run::new("bitpack", floats.clone(), Bitpack::default(), false)),
        Box::new(Run::new("hand packer", floats.clone(), Hand::default(), false)),
        Box::new(Run::new("bitpack (ints)", ints.clone(), Bitpack::default(), true)),
        Box::new(Run::new("bitcode (floats)", floats.clone(), Bitcode::default(), true)),
        Box::new(Run::new(REFERENCE, ints.clone(), Bitcode::default(), true)),
        Box::new(Run::new("postcard (floats)", floats.clone(), Postcard::default(), true)),
        Box::new(Run::new("postcard (ints)", ints.clone(), Postcard::default(), true)),
        Box::new(Run::new("bincode (floats)", floats, Bincode::default(), true)),
        Box::new(Run::new("bincode (ints)", ints, Bincode::default(), true)),
        Box::new(Run::new("prost (floats)", pb_floats, Prost::default(), true)),
        Box::new(Run::new("prost (ints)", pb_ints, Prost::default(), true)),
    ]
}
