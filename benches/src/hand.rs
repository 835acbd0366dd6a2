//! The speed reference: the same workloads packed by hand, as a careful
//! programmer would without a library. A u64 scratch word, each field in
//! exactly its bits, the same wire layout as bitpack (LSB first, 32-bit
//! little-endian words), and only the checks a packer cannot do without:
//! one buffer-size check per message, and on read the checks that keep the
//! values valid (int ranges, the float step maximum, the string's length
//! and UTF-8). Widths and quantizer constants are written out by hand; the
//! tests prove the bytes equal bitpack's.

use crate::object::{GameObject, NAME_MAX_LEN, POSITION_MIN, SMALL_BITS, YAW_MIN};

/// Bits of a position: `bits_required(0, POSITION_STEPS)`.
pub const POSITION_BITS: u32 = 18;
/// `ceil((1024 - -1024) / 0.01)` in f32.
pub const POSITION_STEPS: u32 = 204_800;
const POSITION_DELTA: f32 = 2048.0;
/// Bits of a yaw: `bits_required(0, YAW_STEPS)`.
pub const YAW_BITS: u32 = 13;
/// `ceil(TAU / 0.001)` in f32.
pub const YAW_STEPS: u32 = 6284;
const YAW_DELTA: f32 = core::f32::consts::TAU;

/// Bits before the name's bytes: 3 bools, ints of 12+3+10+7+2 bits, three
/// positions, a yaw, the u64, a 4-bit length, then 4 bits of padding.
pub const OBJECT_FIXED_BITS: usize = 3 + 34 + 3 * 18 + 13 + 64 + 4 + 4;

/// A bit writer reduced to its core: no validation at all.
pub struct HandWriter<'a> {
    buf: &'a mut [u8],
    scratch: u64,
    scratch_bits: u32,
    index: usize,
}

impl<'a> HandWriter<'a> {
    /// A writer over `buf`; the caller has checked the message fits.
    #[inline(always)]
    pub fn new(buf: &'a mut [u8]) -> Self {
        HandWriter { buf, scratch: 0, scratch_bits: 0, index: 0 }
    }

    /// Appends the low `bits` (at most 32) bits of `value`.
    #[inline(always)]
    pub fn put(&mut self, value: u64, bits: u32) {
        self.scratch |= value << self.scratch_bits;
        self.scratch_bits += bits;
        if self.scratch_bits >= 32 {
            if let Some(word) = self.buf.get_mut(self.index..self.index + 4) {
                word.copy_from_slice(&(self.scratch as u32).to_le_bytes());
            }
            self.index += 4;
            self.scratch >>= 32;
            self.scratch_bits -= 32;
        }
    }

    /// Zero bits up to the next byte boundary.
    #[inline(always)]
    pub fn align(&mut self) {
        let padding = (8 - (self.scratch_bits & 7)) & 7;
        self.scratch_bits += padding;
        if self.scratch_bits >= 32 {
            self.put(0, 0);
        }
    }

    /// Flushes the last partial word; returns the bytes used.
    #[inline(always)]
    pub fn finish(self) -> usize {
        let tail = self.scratch_bits.div_ceil(8) as usize;
        if let Some(dest) = self.buf.get_mut(self.index..self.index + tail) {
            dest.copy_from_slice(&self.scratch.to_le_bytes()[..tail]);
        }
        self.index + tail
    }
}

/// A bit reader reduced to its core: the caller checks the length once.
pub struct HandReader<'a> {
    bytes: &'a [u8],
    scratch: u64,
    scratch_bits: u32,
    index: usize,
}

impl<'a> HandReader<'a> {
    /// A reader at the first bit of `bytes`.
    #[inline(always)]
    pub fn new(bytes: &'a [u8]) -> Self {
        HandReader { bytes, scratch: 0, scratch_bits: 0, index: 0 }
    }

    /// The next `bits` (at most 32) bits; zeros past the end of the slice.
    #[inline(always)]
    pub fn get(&mut self, bits: u32) -> u32 {
        if self.scratch_bits < bits {
            let word = match self.bytes.get(self.index..self.index + 4) {
                Some(word) => u32::from_le_bytes([word[0], word[1], word[2], word[3]]),
                None => self.tail_word(),
            };
            self.scratch |= u64::from(word) << self.scratch_bits;
            self.scratch_bits += 32;
            self.index += 4;
        }
        let value = (self.scratch & ((1u64 << bits) - 1)) as u32;
        self.scratch >>= bits;
        self.scratch_bits -= bits;
        value
    }

    #[cold]
    fn tail_word(&self) -> u32 {
        let mut word = [0u8; 4];
        let tail = self.bytes.get(self.index..).unwrap_or(&[]);
        let len = tail.len().min(4);
        word[..len].copy_from_slice(&tail[..len]);
        u32::from_le_bytes(word)
    }

    /// Skips to the next byte boundary (the padding is not checked).
    #[inline(always)]
    pub fn align(&mut self) {
        let padding = self.scratch_bits & 7;
        self.scratch >>= padding;
        self.scratch_bits -= padding;
    }

    /// Bits taken so far, counting any read past the end of the slice.
    #[inline(always)]
    pub fn bits_consumed(&self) -> usize {
        self.index * 8 - self.scratch_bits as usize
    }

    /// The byte offset of the next unread bit; the position is aligned.
    #[inline(always)]
    pub fn byte_position(&self) -> usize {
        self.index - (self.scratch_bits / 8) as usize
    }
}

/// The reference's compressed float with constants worked out by hand.
#[inline(always)]
pub(crate) fn quantize(value: f32, min: f32, delta: f32, steps: u32) -> u64 {
    let normalized = ((value - min) / delta).clamp(0.0, 1.0);
    // Non-negative, so truncation is floor; a NaN converts to 0 as the reference's clamp does.
    // Then the reference's clamp to the step count.
    ((normalized * steps as f32 + 0.5) as u64).min(u64::from(steps))
}

#[inline(always)]
pub(crate) fn dequantize(integer: u32, min: f32, delta: f32, steps: u32) -> Option<f32> {
    if integer > steps {
        return None;
    }
    Some(integer as f32 / steps as f32 * delta + min)
}

/// Writes every value in [`SMALL_BITS`] bits; `None` if `buf` is too short.
#[inline]
pub fn write_small(values: &[u32], buf: &mut [u8]) -> Option<usize> {
    if buf.len() < (values.len() * SMALL_BITS as usize).div_ceil(8) {
        return None;
    }
    let mut writer = HandWriter::new(buf);
    for &value in values {
        writer.put(u64::from(value), SMALL_BITS);
    }
    Some(writer.finish())
}

/// Reads `count` small values, XOR-folded; `None` if `bytes` is too short.
#[inline]
pub fn read_small(bytes: &[u8], count: usize) -> Option<u32> {
    if bytes.len() < (count * SMALL_BITS as usize).div_ceil(8) {
        return None;
    }
    let mut reader = HandReader::new(bytes);
    let mut folded = 0;
    for _ in 0..count {
        folded ^= reader.get(SMALL_BITS);
    }
    Some(folded)
}

/// Writes every value as a position; `None` if `buf` is too short.
#[inline]
pub fn write_positions(values: &[f32], buf: &mut [u8]) -> Option<usize> {
    if buf.len() < (values.len() * POSITION_BITS as usize).div_ceil(8) {
        return None;
    }
    let mut writer = HandWriter::new(buf);
    for &value in values {
        writer.put(quantize(value, POSITION_MIN, POSITION_DELTA, POSITION_STEPS), POSITION_BITS);
    }
    Some(writer.finish())
}

/// Reads `count` positions, summed; `None` if short or a step is out of range.
#[inline]
pub fn read_positions(bytes: &[u8], count: usize) -> Option<f32> {
    if bytes.len() < (count * POSITION_BITS as usize).div_ceil(8) {
        return None;
    }
    let mut reader = HandReader::new(bytes);
    let mut sum = 0.0;
    for _ in 0..count {
        sum += dequantize(reader.get(POSITION_BITS), POSITION_MIN, POSITION_DELTA, POSITION_STEPS)?;
    }
    Some(sum)
}

/// Writes one object in bitpack's layout; `None` if `buf` is too short or
/// the name is too long (the one check a packer needs to stay in sync).
#[inline]
pub fn write_object(object: &GameObject<'_>, buf: &mut [u8]) -> Option<usize> {
    let name = object.name.as_bytes();
    if name.len() > NAME_MAX_LEN || buf.len() < OBJECT_FIXED_BITS / 8 + name.len() {
        return None;
    }
    let mut w = HandWriter::new(buf);
    w.put(u64::from(object.alive), 1);
    w.put(u64::from(object.visible), 1);
    w.put(u64::from(object.crouching), 1);
    w.put(object.id as u64, 12);
    w.put(object.kind as u64, 3);
    w.put(object.health as u64, 10);
    w.put(object.armor as u64, 7);
    w.put(object.team as u64, 2);
    w.put(quantize(object.x, POSITION_MIN, POSITION_DELTA, POSITION_STEPS), POSITION_BITS);
    w.put(quantize(object.y, POSITION_MIN, POSITION_DELTA, POSITION_STEPS), POSITION_BITS);
    w.put(quantize(object.z, POSITION_MIN, POSITION_DELTA, POSITION_STEPS), POSITION_BITS);
    w.put(quantize(object.yaw, YAW_MIN, YAW_DELTA, YAW_STEPS), YAW_BITS);
    w.put(object.owner & 0xFFFF_FFFF, 32);
    w.put(object.owner >> 32, 32);
    w.put(name.len() as u64, 4);
    w.align();
    for &byte in name {
        w.put(u64::from(byte), 8);
    }
    Some(w.finish())
}

/// Bits one object takes: the fixed fields plus the name's bytes.
#[inline]
pub fn count_object(object: &GameObject<'_>) -> Option<usize> {
    let len = object.name.len();
    if len > NAME_MAX_LEN {
        return None;
    }
    Some(OBJECT_FIXED_BITS + 8 * len)
}

/// Reads one object; `None` on a short buffer, an out-of-range int or
/// step, a long name or invalid UTF-8.
#[inline]
pub fn read_object(bytes: &[u8]) -> Option<GameObject<'_>> {
    if bytes.len() < OBJECT_FIXED_BITS / 8 {
        return None;
    }
    let mut r = HandReader::new(bytes);
    let alive = r.get(1) != 0;
    let visible = r.get(1) != 0;
    let crouching = r.get(1) != 0;
    let id = r.get(12) as i32;
    let kind = r.get(3) as i32;
    let health = r.get(10) as i32;
    let armor = r.get(7) as i32;
    let team = r.get(2) as i32;
    if health > 1000 || armor > 100 {
        return None;
    }
    let x = dequantize(r.get(POSITION_BITS), POSITION_MIN, POSITION_DELTA, POSITION_STEPS)?;
    let y = dequantize(r.get(POSITION_BITS), POSITION_MIN, POSITION_DELTA, POSITION_STEPS)?;
    let z = dequantize(r.get(POSITION_BITS), POSITION_MIN, POSITION_DELTA, POSITION_STEPS)?;
    let yaw = dequantize(r.get(YAW_BITS), YAW_MIN, YAW_DELTA, YAW_STEPS)?;
    let owner = u64::from(r.get(32)) | (u64::from(r.get(32)) << 32);
    let len = r.get(4) as usize;
    r.align();
    let start = r.byte_position();
    let name = bytes.get(start..start + len)?;
    let name = core::str::from_utf8(name).ok()?;
    Some(GameObject { alive, visible, crouching, id, kind, health, armor, team, x, y, z, yaw, owner, name })
}
