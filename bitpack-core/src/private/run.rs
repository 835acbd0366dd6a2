//! Fused runs: consecutive fixed-width fields (bools, integers of up to 64
//! bits, plain and `#[quantize(min, max, res)]` floats, short arrays of
//! them) that a derived type writes as one and reads as one.
//!
//! A field-by-field write carries its own value check, room check and
//! `Result` per field, and the writer's scratch word is one long chain of
//! dependent shifts. A run checks every value into one flag, reserves its
//! bits once and packs the leaves with constant shifts into 64-bit pushes
//! ([`RunWriter`]); a read takes every leaf after one length check, 56 bits
//! per load ([`RunReader`]), and tests all values with one branch. The wire
//! is the same bits in the same order.
//!
//! Should any value be refused, or the bits not fit or not remain, the run
//! does nothing (a read moves back to where it began) and the derived code
//! falls back to its field-by-field body, so every error names the same bit
//! and leaves the same position as before.

use super::window::Window;
use crate::bits::low_mask;
use crate::quantize::{Quantizer, Quantizer64};
use crate::read::BitRead;
use crate::source::SourceExt;
use crate::write::BitWrite;

/// Total bits of a run's leaves.
#[inline]
pub const fn run_bits(widths: &[u32]) -> usize {
    let mut total = 0;
    let mut index = 0;
    while index < widths.len() {
        total += widths[index] as usize;
        index += 1;
    }
    total
}

/// Whether a run of `bits` fits in the writer (nothing is written).
#[inline(always)]
pub fn run_fits<W: BitWrite>(writer: &W, bits: usize) -> bool {
    writer.reserve(bits).is_ok()
}

/// A run's leaves packed into 64-bit pushes. The derive emits one `put` per
/// leaf in straight-line code with constant widths, so the packing folds
/// into constant shifts and a push per 64 bits: no loop, no branch.
#[derive(Debug, Default)]
pub struct RunWriter {
    word: u64,
    /// Bits in `word`, at most 64.
    used: u32,
}

impl RunWriter {
    /// An empty run.
    #[inline(always)]
    pub const fn new() -> Self {
        RunWriter { word: 0, used: 0 }
    }

    /// Appends `value` (below `2^width`, `width` at most 64), pushing the
    /// word first if the leaf does not fit in it.
    #[inline(always)]
    pub fn put<W: BitWrite>(&mut self, writer: &mut W, value: u64, width: u32) {
        if self.used + width > 64 {
            writer.push(self.word, self.used);
            self.word = 0;
            self.used = 0;
        }
        // A zero-width leaf (a range of one value) adds nothing.
        if width > 0 {
            self.word |= value << self.used;
        }
        self.used += width;
    }

    /// [`RunWriter::put`] for a block's elements: a leaf that crosses the
    /// word is split across it, so every push but the last is a whole word,
    /// which the writer stores with no branch on where its scratch word
    /// stands. (One element after another, that branch follows the
    /// elements' varying lengths; for one value it is always predicted, and
    /// the split costs a shift a word.)
    #[inline(always)]
    pub fn put_split<W: BitWrite>(&mut self, writer: &mut W, value: u64, width: u32) {
        if width == 0 {
            return;
        }
        if self.used == 64 {
            writer.push(self.word, 64);
            (self.word, self.used) = (0, 0);
        }
        self.word |= value << self.used;
        let room = 64 - self.used;
        if width >= room {
            writer.push(self.word, 64);
            self.word = value.checked_shr(room).unwrap_or(0);
            self.used = width - room;
        } else {
            self.used += width;
        }
    }

    /// Pushes what is left.
    #[inline(always)]
    pub fn finish<W: BitWrite>(self, writer: &mut W) {
        if self.used > 0 {
            writer.push(self.word, self.used);
        }
    }
}

/// `BitPack::__LEAF_BITS` of a type that no parent's run can hold.
pub const NOT_A_LEAF: u32 = u32::MAX;

/// `BitPack::__LEAF_BITS` of a derived struct whose fields are one run of
/// `total` bits: the total, when one 64-bit leaf holds it.
#[inline]
pub const fn leaf_bits(total: usize) -> u32 {
    if total <= 64 { total as u32 } else { NOT_A_LEAF }
}

/// Whether a type of `leaf_bits` (its `__LEAF_BITS`) can be a leaf of a run.
#[inline]
pub const fn is_leaf(leaf_bits: u32) -> bool {
    leaf_bits != NOT_A_LEAF
}

/// A nested type's width in a parent's run: its `__LEAF_BITS`, or 0 when it
/// is no leaf (the parent then never takes that run: [`is_leaf`] decides
/// at compile time, and this keeps the run's constants finite).
#[inline]
pub const fn leaf_width(leaf_bits: u32) -> u32 {
    if is_leaf(leaf_bits) { leaf_bits } else { 0 }
}

/// Where leaf `index` of `widths` starts in a packed word: the widths
/// before it, summed.
#[inline]
pub const fn leaf_offset(widths: &[u32], index: usize) -> u32 {
    let (mut offset, mut at) = (0, 0);
    while at < index && at < widths.len() {
        offset += widths[at];
        at += 1;
    }
    offset
}

/// A nested leaf's bits (`BitPack::__leaf`) in a parent's run; clears
/// `valid` when the value is refused.
#[inline(always)]
pub fn nested_leaf(bits: Option<u64>, valid: &mut bool) -> u64 {
    *valid &= bits.is_some();
    bits.unwrap_or(0)
}

/// `value` (a leaf's bits) at `offset` of a packed word; nothing past 64.
#[inline(always)]
pub fn leaf_put(value: u64, offset: u32) -> u64 {
    value.checked_shl(offset).unwrap_or(0)
}

/// The `width` bits at `offset` of a packed word.
#[inline(always)]
pub fn leaf_get(word: u64, offset: u32, width: u32) -> u64 {
    word.checked_shr(offset).unwrap_or(0) & low_mask(width)
}

/// Whether `bits` more bits remain to read.
#[inline(always)]
pub fn run_remains<R: BitRead>(reader: &R, bits: usize) -> bool {
    reader.bits_remaining() >= bits
}

/// A run's leaves taken from one 8-byte load per up to 56 bits (the
/// reader's fast path), with constant shifts: like [`RunWriter`], the
/// derive calls `get` in straight-line code with constant widths, so where
/// each load happens and what it takes fold away.
#[derive(Debug)]
pub struct RunReader {
    chunk: u64,
    /// Bits of `chunk` not yet handed out.
    available: u32,
    /// Bits of the run not yet loaded.
    left: u32,
}

impl RunReader {
    /// A run of `bits` bits, which [`run_remains`] checked.
    #[inline(always)]
    pub fn new(bits: usize) -> Self {
        RunReader { chunk: 0, available: 0, left: bits as u32 }
    }

    /// The next leaf, `width` (at most 64) bits.
    #[inline(always)]
    pub fn get(&mut self, reader: &mut impl BitRead, width: u32) -> u64 {
        // Cannot fail: the run's bits remain.
        self.get_with(width, |load| reader.take(load).unwrap_or(0))
    }

    /// [`RunReader::get`] from a block's [`Window`], which the block checks
    /// once for all its elements (`close_window`).
    #[inline(always)]
    pub fn get_in(&mut self, window: &mut Window<'_>, width: u32) -> u64 {
        self.get_with(width, |load| window.take(load))
    }

    /// The next leaf, each load of up to 56 bits from `take`.
    #[inline(always)]
    fn get_with(&mut self, width: u32, mut take: impl FnMut(u32) -> u64) -> u64 {
        while self.available < width {
            // Never past the run, never more than one load gives, and the
            // chunk has room for what it keeps plus what comes.
            let load = self.left.min(56).min(64 - self.available);
            if load == 0 {
                // Widths past the run's total: only a derive bug gets here;
                // end with zeros rather than loop.
                break;
            }
            let bits = take(load);
            self.chunk |= bits << self.available;
            self.available += load;
            self.left -= load;
        }
        let value = self.chunk & low_mask(width);
        self.chunk = self.chunk.checked_shr(width).unwrap_or(0);
        self.available = self.available.saturating_sub(width);
        value
    }
}

/// Moves a reader back over a run of `bits` it read, whose values turned
/// out invalid, so the fields can be read again one by one.
#[inline(always)]
pub fn unread_run(reader: &mut impl BitRead, bits: usize) {
    reader.unread(bits);
}

/// A bool as a leaf.
#[inline(always)]
pub fn bool_bits(value: bool) -> u64 {
    u64::from(value)
}

/// A leaf's bits as a bool.
#[inline(always)]
pub fn bool_value(raw: u64) -> bool {
    raw != 0
}

/// Up to seven bools (`bits`, the first in the low bit) as a byte of 0 or
/// 1 each, the first in the low byte: bit `i` moved to bit `8i` by one
/// multiply (the shifted copies, `j + 7i`, never meet below seven bits, so
/// nothing carries). A nested leaf's consecutive bools each take their
/// byte, which the compiler stores as the word it is.
#[inline(always)]
pub fn spread_bools(bits: u64) -> u64 {
    // 2^(7i) for i below 7.
    const COPIES: u64 = 0x0408_1020_4081;
    ((bits & 0x7F).wrapping_mul(COPIES)) & 0x0001_0101_0101_0101
}

/// A plain `f32` as a leaf: its IEEE bits.
#[inline(always)]
pub fn f32_bits(value: f32) -> u64 {
    u64::from(value.to_bits())
}

/// A leaf's bits as a plain `f32`.
#[inline(always)]
pub fn f32_value(raw: u64) -> f32 {
    f32::from_bits(raw as u32)
}

/// A plain `f64` as a leaf: its IEEE bits.
#[inline(always)]
pub fn f64_bits(value: f64) -> u64 {
    value.to_bits()
}

/// A leaf's bits as a plain `f64`.
#[inline(always)]
pub fn f64_value(raw: u64) -> f64 {
    f64::from_bits(raw)
}

/// What `write_compressed_float` puts on the wire for `value`; clears
/// `valid` when it would refuse it (a non-finite value, a bad declaration).
#[inline(always)]
pub fn quantized_bits(value: f32, min: f32, max: f32, res: f32, valid: &mut bool) -> u64 {
    match Quantizer::new(min, max, res) {
        Some(quantizer) => {
            *valid &= value.is_finite();
            u64::from(quantizer.quantize(value))
        }
        None => {
            *valid = false;
            0
        }
    }
}

/// [`quantized_bits`] for an `f64` (`write_compressed_double`).
#[inline(always)]
pub fn quantized64_bits(value: f64, min: f64, max: f64, res: f64, valid: &mut bool) -> u64 {
    match Quantizer64::new(min, max, res) {
        Some(quantizer) => {
            *valid &= value.is_finite();
            quantizer.quantize(value)
        }
        None => {
            *valid = false;
            0
        }
    }
}

/// [`quantized_value`] for an `f64` (`read_compressed_double`).
#[inline(always)]
pub fn quantized64_value(raw: u64, min: f64, max: f64, res: f64, valid: &mut bool) -> f64 {
    let value = Quantizer64::new(min, max, res).and_then(|quantizer| quantizer.dequantize(raw));
    *valid &= value.is_some();
    value.unwrap_or(0.0)
}

/// The value `read_compressed_float` gives for a leaf's bits; clears
/// `valid` when it would refuse them (a step above the maximum).
#[inline(always)]
pub fn quantized_value(raw: u64, min: f32, max: f32, res: f32, valid: &mut bool) -> f32 {
    // The check and the arithmetic apart, with no branch: `dequantize`'s
    // value where it accepts (the same operations, as for a block's lanes).
    let Some(quantizer) = Quantizer::new(min, max, res) else {
        *valid = false;
        return 0.0;
    };
    *valid &= raw <= u64::from(quantizer.max_integer());
    quantizer.dequantize_unchecked(raw as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BitWriter;
    use crate::reader::BitReader;

    #[test]
    fn leaves_straddle_loads_and_words() {
        // Widths that cross 56-bit loads and 64-bit pushes, a 64-bit leaf
        // and a zero-width one.
        let widths = [3u32, 60, 0, 64, 1, 33, 17, 56];
        let values = [5u64, (1 << 60) - 3, 0, u64::MAX - 7, 1, (1 << 33) - 1, 12_345, (1 << 56) - 99];
        let total = run_bits(&widths);
        let mut buf = [0u8; 40];
        let mut writer = BitWriter::new(&mut buf);
        assert!(run_fits(&writer, total));
        let mut run = RunWriter::new();
        for (value, width) in values.iter().zip(widths) {
            run.put(&mut writer, *value, width);
        }
        run.finish(&mut writer);
        assert_eq!(writer.bits_written(), total);
        let used = writer.finish().unwrap();
        // The same bits as one write_bits64 per leaf.
        let mut separate = [0u8; 40];
        let mut writer = BitWriter::new(&mut separate);
        for (value, width) in values.iter().zip(widths) {
            if width > 0 {
                writer.write_bits64(*value, width).unwrap();
            }
        }
        assert_eq!(writer.finish().unwrap(), used);
        assert_eq!(buf[..used], separate[..used]);

        let mut reader = BitReader::new(&buf[..used]);
        assert!(run_remains(&reader, total));
        let mut run = RunReader::new(total);
        for (value, width) in values.iter().zip(widths) {
            assert_eq!(run.get(&mut reader, width), *value, "{width}");
        }
        assert_eq!(reader.bits_read(), total);
        unread_run(&mut reader, total);
        assert_eq!(reader.bits_read(), 0);
        assert!(!run_remains(&reader, used * 8 + 1));
    }

    #[test]
    fn whole_words_land_after_any_number_of_bits_waiting() {
        // Leaves that fill words exactly, cross them and end them, after 0
        // to 63 bits already written (the writer's scratch at every offset).
        let widths = [64u32, 63, 1, 33, 31, 64, 5];
        let values = [u64::MAX - 1, (1 << 63) - 5, 1, (1 << 33) - 7, 12_345, 0x0123_4567_89AB_CDEF, 17];
        for before in 0..64u32 {
            let mut run_buf = [0u8; 48];
            let mut writer = BitWriter::new(&mut run_buf);
            if before > 0 {
                writer.write_bits64(0x5555_5555_5555_5555 & low_mask(before), before).unwrap();
            }
            let mut run = RunWriter::new();
            for (value, width) in values.iter().zip(widths) {
                run.put_split(&mut writer, *value, width);
            }
            run.finish(&mut writer);
            let bits = writer.bits_written();
            let used = writer.finish().unwrap();
            let mut separate = [0u8; 48];
            let mut writer = BitWriter::new(&mut separate);
            if before > 0 {
                writer.write_bits64(0x5555_5555_5555_5555 & low_mask(before), before).unwrap();
            }
            // The reference in pieces of at most 32 bits, never a whole word.
            for (value, width) in values.iter().zip(widths) {
                let low = width.min(32);
                writer.write_bits((*value & low_mask(low)) as u32, low).unwrap();
                if width > 32 {
                    writer.write_bits((*value >> 32) as u32, width - 32).unwrap();
                }
            }
            assert_eq!(writer.bits_written(), bits, "{before}");
            assert_eq!(writer.finish().unwrap(), used);
            assert_eq!(run_buf[..used], separate[..used], "{before} bits before");
        }
    }

    #[test]
    fn run_leaves_of_the_top_of_the_range_stay_in_their_bits() {
        // 2^24 - 1 steps: `max + 0.5` rounds to 2^24 in f32, one bit past the field.
        let mut valid = true;
        let raw = quantized_bits(16_777_215.0, 0.0, 16_777_215.0, 1.0, &mut valid);
        assert_eq!((raw, valid), (16_777_215, true));
        assert_eq!(quantized_value(raw, 0.0, 16_777_215.0, 1.0, &mut valid), 16_777_215.0);
        assert!(valid);
        let raw = quantized64_bits(f64::MAX, 0.0, 9_007_199_254_740_991.0, 1.0, &mut valid);
        assert_eq!((raw, valid), (9_007_199_254_740_991, true));
    }

    /// Every step of a few declarations and the steps above them: the value
    /// and the refusal of `Quantizer::dequantize`.
    #[test]
    fn quantized_values_are_the_quantizers() {
        for (min, max, res) in [(-1024.0, 1024.0, 0.01), (0.0, 6.283_185_5, 0.001), (-1.0, 1.0, 1.0 / 127.0)]
        {
            let quantizer = Quantizer::new(min, max, res).unwrap();
            let top = u64::from(quantizer.max_integer());
            for raw in (0..=top + 3).chain([u64::from(u32::MAX), 1 << 32, u64::MAX]) {
                let mut valid = true;
                let value = quantized_value(raw, min, max, res, &mut valid);
                let expected = u32::try_from(raw).ok().and_then(|step| quantizer.dequantize(step));
                assert_eq!(valid, expected.is_some(), "{raw}");
                if let Some(expected) = expected {
                    assert_eq!(value.to_bits(), expected.to_bits(), "{raw}");
                }
            }
        }
        let mut valid = true;
        quantized_value(0, 1.0, 1.0, 0.01, &mut valid);
        assert!(!valid);
    }

    /// Every pattern of seven bools (and bits above them, ignored): each
    /// bool in its byte, as 0 or 1.
    #[test]
    fn bools_spread_to_a_byte_each() {
        for bits in 0..1u64 << 9 {
            let spread = spread_bools(bits | 0xFF00_0000_0000_0000);
            for bool in 0..8 {
                let expected = if bool < 7 { (bits >> bool) & 1 } else { 0 };
                assert_eq!((spread >> (8 * bool)) & 0xFF, expected, "{bits:#b} bool {bool}");
            }
        }
    }

    #[test]
    fn a_reader_asked_past_its_run_gives_zeros() {
        let bytes = [0xFFu8; 16];
        let mut reader = BitReader::new(&bytes);
        let mut run = RunReader::new(8);
        assert_eq!(run.get(&mut reader, 8), 0xFF);
        assert_eq!(run.get(&mut reader, 8), 0);
        assert_eq!(reader.bits_read(), 8);
    }
}
