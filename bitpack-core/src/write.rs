//! The write interface shared by the writer and the measure stream.
//!
//! Every operation is a provided method of [`BitWrite`]: it validates, asks
//! the sink for room, then pushes raw bits. The sinks ([`crate::BitWriter`],
//! [`crate::BitCounter`]) implement only the raw pushes, so what is written
//! and what is counted cannot drift apart, and both refuse the same values.

use crate::bits::{
    Nul, align_padding, bit_length_u128, bits_required, bits_required64, bits_required128, has_nul,
};
use crate::error::{Error, ErrorKind};
use crate::quantize::{Quantizer, Quantizer64};
use crate::relative::{
    ABSOLUTE_PREFIX_ZEROS, ACK_DELTA_BITS, ACK_WINDOW, RELATIVE_TIERS, RelativeInt, SEQUENCE_WRAP, ack_delta,
    tier_bits,
};

use crate::sink::{BitSink, Reserve};
use crate::words::Pending;

/// `bits` more bits, or `None` when that overflows `usize`.
#[inline(always)]
fn plus_bytes(bits: usize, bytes: usize) -> Option<usize> {
    bytes.checked_mul(8).and_then(|b| b.checked_add(bits))
}

/// Writes values as bits: implemented by [`crate::BitWriter`], which
/// fills a buffer, and [`crate::BitCounter`], which only counts.
///
/// Every method validates before it writes: on `Err` nothing was written.
/// The trait is sealed; use it as a generic bound (`W: BitWrite`).
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitCounter, BitWrite, BitWriter};
///
/// fn write_player<W: BitWrite>(w: &mut W) -> Result<(), bitpack::Error> {
///     w.write_int(750, 0, 1000)?;                          // 10 bits
///     w.write_compressed_float(12.5, -1024.0, 1024.0, 0.01)?; // 18 bits
///     w.write_bool(true)                                   // 1 bit
/// }
///
/// let mut counter = BitCounter::new();
/// write_player(&mut counter)?;
/// assert_eq!(counter.bits_written(), 29);
///
/// let mut buf = [0u8; 4];
/// let mut writer = BitWriter::new(&mut buf);
/// write_player(&mut writer)?;
/// assert_eq!(writer.finish()?, 4);
/// # Ok::<(), bitpack::Error>(())
/// ```
pub trait BitWrite: BitSink + Reserve {
    /// Bits written so far (not counting padding `finish` may add).
    #[inline]
    fn bits_written(&self) -> usize {
        self.position()
    }

    /// Writes the low `bits` bits of `value`, `bits` in `1..=32`; `value`
    /// must be below `2^bits`.
    #[inline]
    fn write_bits(&mut self, value: u32, bits: u32) -> Result<(), Error> {
        if bits == 0 || bits > 32 {
            return Err(fail(self, ErrorKind::InvalidDeclaration));
        }
        if bits < 32 && value >> bits != 0 {
            return Err(fail(self, ErrorKind::OutOfRange));
        }
        self.reserve(bits as usize)?;
        self.push(u64::from(value), bits);
        Ok(())
    }

    /// Writes the low `bits` bits of `value`, `bits` in `1..=64`; `value`
    /// must be below `2^bits`. Over 32 bits this is the reference's low 32
    /// bits then the rest, which on this LSB-first stream is the same.
    #[inline]
    fn write_bits64(&mut self, value: u64, bits: u32) -> Result<(), Error> {
        if bits == 0 || bits > 64 {
            return Err(fail(self, ErrorKind::InvalidDeclaration));
        }
        if bits < 64 && value >> bits != 0 {
            return Err(fail(self, ErrorKind::OutOfRange));
        }
        self.reserve(bits as usize)?;
        self.push(value, bits);
        Ok(())
    }

    /// One bit: 1 for `true`. Always inline: out of line (a derived
    /// struct's fields written one by one when its reservation fails, in
    /// `Entity::write_delta_cached`'s nested flags) the call took the
    /// writer's address, and the compiler kept its state in memory for the
    /// whole function (`Sender::write` 321 instructions a tick dearer).
    #[inline(always)]
    fn write_bool(&mut self, value: bool) -> Result<(), Error> {
        self.reserve(1)?;
        self.push(u64::from(value), 1);
        Ok(())
    }

    /// `value - min` in [`bits_required`]`(min, max)` bits (none when
    /// `min == max`).
    #[inline]
    fn write_int(&mut self, value: i32, min: i32, max: i32) -> Result<(), Error> {
        check_range(self, value, min, max)?;
        let bits = bits_required(min, max);
        self.reserve(bits as usize)?;
        self.push(u64::from((value as u32).wrapping_sub(min as u32)), bits);
        Ok(())
    }

    /// [`BitWrite::write_int`] for `i64`.
    #[inline]
    fn write_int64(&mut self, value: i64, min: i64, max: i64) -> Result<(), Error> {
        check_range(self, value, min, max)?;
        let bits = bits_required64(min, max);
        self.reserve(bits as usize)?;
        self.push((value as u64).wrapping_sub(min as u64), bits);
        Ok(())
    }

    /// [`BitWrite::write_int`] for `i128` (also the form for `u64` ranges
    /// and for the reference's fixed-point values).
    #[inline]
    fn write_int128(&mut self, value: i128, min: i128, max: i128) -> Result<(), Error> {
        check_range(self, value, min, max)?;
        let bits = bits_required128(min, max);
        self.reserve(bits as usize)?;
        let offset = (value as u128).wrapping_sub(min as u128);
        push_u128(self, offset, bits);
        Ok(())
    }

    /// 8 raw bits.
    #[inline]
    fn write_u8(&mut self, value: u8) -> Result<(), Error> {
        self.reserve(8)?;
        self.push(u64::from(value), 8);
        Ok(())
    }

    /// 16 raw bits.
    #[inline]
    fn write_u16(&mut self, value: u16) -> Result<(), Error> {
        self.reserve(16)?;
        self.push(u64::from(value), 16);
        Ok(())
    }

    /// 32 raw bits.
    #[inline]
    fn write_u32(&mut self, value: u32) -> Result<(), Error> {
        self.reserve(32)?;
        self.push(u64::from(value), 32);
        Ok(())
    }

    /// 64 raw bits, low 32 first.
    #[inline]
    fn write_u64(&mut self, value: u64) -> Result<(), Error> {
        self.reserve(64)?;
        self.push(value, 64);
        Ok(())
    }

    /// 128 raw bits, low 64 first.
    #[inline]
    fn write_u128(&mut self, value: u128) -> Result<(), Error> {
        self.reserve(128)?;
        push_u128(self, value, 128);
        Ok(())
    }

    /// The 32 IEEE-754 bits; NaN payloads, -0 and denormals survive.
    #[inline]
    fn write_f32(&mut self, value: f32) -> Result<(), Error> {
        self.write_u32(value.to_bits())
    }

    /// The 64 IEEE-754 bits.
    #[inline]
    fn write_f64(&mut self, value: f64) -> Result<(), Error> {
        self.write_u64(value.to_bits())
    }

    /// The reference's compressed float: `value` clamped to `[min, max]` and
    /// quantized to steps of `res`, computed in f32 exactly as the
    /// reference does, the integer clamped to the last step after the
    /// floor. A NaN or infinite `value`, or a declaration with `min >= max`,
    /// `res <= 0` or a non-finite number, is an `Err`.
    ///
    /// # Accuracy
    ///
    /// With `N = ceil((max - min) / res)` steps of `h = (max - min) / N`
    /// (at most `res`) and `M = max(|min|, |max|)`, a value in `[min, max]`
    /// reads back within `h / 2 + (6 * N + M / h + 1) * 2^-24 * h`: half a
    /// step, plus the f32 rounding of the write's and the read's three
    /// operations each. Under a million steps the rounding adds a few
    /// hundredths of a step (under 0.08 for `[-1024, 1024]` at 0.01). It
    /// grows with `N`: measured, 1.2 `res` at 2^23 steps, 2.4 `res` for
    /// `[-4096, 4096]` at 0.0005 (16,383,999 steps), and past 2^24 steps
    /// odd integers are never written (32 `res` for `[0, 1e9]` by 1). This
    /// call keeps the reference's arithmetic whatever the declaration, to
    /// read and write what a C++ peer does. For declarations over 2^23
    /// steps use [`BitWrite::write_compressed_double`]: the same bound with
    /// 2^-53.
    #[inline]
    fn write_compressed_float(&mut self, value: f32, min: f32, max: f32, res: f32) -> Result<(), Error> {
        let quantizer =
            Quantizer::new(min, max, res).ok_or_else(|| fail(self, ErrorKind::InvalidDeclaration))?;
        if !value.is_finite() {
            return Err(fail(self, ErrorKind::NonFiniteFloat));
        }
        self.reserve(quantizer.bits as usize)?;
        self.push(u64::from(quantizer.quantize(value)), quantizer.bits);
        Ok(())
    }

    /// [`BitWrite::write_compressed_float`] for an `f64`: the same steps
    /// computed in f64, up to 2^53 of them (so up to 54 bits). bitpack's
    /// own extension: the reference has no compressed double.
    ///
    /// ```
    /// # extern crate bitpack_core as bitpack;
    /// use bitpack::{BitRead, BitReader, BitWrite, BitWriter};
    ///
    /// let mut buf = [0u8; 8];
    /// let mut writer = BitWriter::new(&mut buf);
    /// // A world a million units across, to the millimetre: 31 bits.
    /// writer.write_compressed_double(123_456.789_4, -1.0e6, 1.0e6, 0.001)?;
    /// assert_eq!(writer.bits_written(), 31);
    /// let used = writer.finish()?;
    /// let back = BitReader::new(&buf[..used]).read_compressed_double(-1.0e6, 1.0e6, 0.001)?;
    /// assert!((back - 123_456.789_4).abs() <= 0.000_5);
    /// # Ok::<(), bitpack::Error>(())
    /// ```
    #[inline]
    fn write_compressed_double(&mut self, value: f64, min: f64, max: f64, res: f64) -> Result<(), Error> {
        let quantizer =
            Quantizer64::new(min, max, res).ok_or_else(|| fail(self, ErrorKind::InvalidDeclaration))?;
        if !value.is_finite() {
            return Err(fail(self, ErrorKind::NonFiniteFloat));
        }
        self.reserve(quantizer.bits as usize)?;
        self.push(quantizer.quantize(value), quantizer.bits);
        Ok(())
    }

    /// Zero bits up to the next byte boundary (none when aligned).
    #[inline]
    fn write_align(&mut self) -> Result<(), Error> {
        let padding = align_padding(self.position());
        self.reserve(padding as usize)?;
        self.push(0, padding);
        Ok(())
    }

    /// Aligns (even for an empty slice), then the raw bytes. The length is
    /// not sent: the reader must know it.
    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let padding = align_padding(self.position());
        let total = plus_bytes(padding as usize, bytes.len());
        self.reserve(total.unwrap_or(usize::MAX))?;
        push_text(self, 0, padding, bytes);
        Ok(())
    }

    /// A string of at most `max_len` bytes and no NUL: its length as
    /// `int(len, 0, max_len)`, then its bytes as [`BitWrite::write_bytes`].
    /// The reference's `serialize_string(s, max_len + 1)`.
    #[inline]
    fn write_str(&mut self, value: &str, max_len: usize) -> Result<(), Error> {
        write_text(self, value, max_len, Nul::Refused)
    }

    /// A string of at most `max_units` UTF-16 code units and no NUL: the
    /// unit count as `int(units, 0, max_units)`, then each unit in its own
    /// 32-bit group, unaligned. The reference's
    /// `serialize_wstring(s, max_units + 1)`.
    #[inline]
    fn write_wstr(&mut self, value: &str, max_units: usize) -> Result<(), Error> {
        let units = value.encode_utf16().count();
        if units > max_units {
            return Err(fail(self, ErrorKind::TooLong));
        }
        if value.contains('\0') {
            return Err(fail(self, ErrorKind::InteriorNul));
        }
        let length_bits = bit_length_u128(max_units as u128);
        let total = units.checked_mul(32).and_then(|b| b.checked_add(length_bits as usize));
        self.reserve(total.unwrap_or(usize::MAX))?;
        self.push(units as u64, length_bits);
        for unit in value.encode_utf16() {
            self.push(u64::from(unit), 32);
        }
        Ok(())
    }

    /// `current` relative to `previous`, which must come strictly before it
    /// in `T`'s order: 1 bit for a difference of 1, up to 23 bits for
    /// differences up to 69914, else 38 bits.
    #[inline]
    fn write_int_relative<T: RelativeInt>(&mut self, previous: T, current: T) -> Result<(), Error> {
        if previous >= current {
            return Err(fail(self, ErrorKind::NotIncreasing));
        }
        let difference = current.to_wire().wrapping_sub(previous.to_wire());
        for (zeros, &(low, high)) in (0u32..).zip(RELATIVE_TIERS.iter()) {
            if difference <= high {
                let offset_bits = tier_bits(low, high);
                let bits = zeros + 1 + offset_bits;
                self.reserve(bits as usize)?;
                // `zeros` zero bits, a one bit, then the offset, low bit first.
                self.push((1u64 << zeros) | (u64::from(difference - low) << (zeros + 1)), bits);
                return Ok(());
            }
        }
        self.reserve(ABSOLUTE_PREFIX_ZEROS as usize + 32)?;
        self.push(u64::from(current.to_wire()) << ABSOLUTE_PREFIX_ZEROS, ABSOLUTE_PREFIX_ZEROS + 32);
        Ok(())
    }

    /// An acknowledged sequence number relative to the current one: 7 bits
    /// when `ack` is 1 to 64 behind `sequence` on the u16 circle, else 17.
    #[inline]
    fn write_ack_relative(&mut self, sequence: u16, ack: u16) -> Result<(), Error> {
        let delta = ack_delta(sequence, ack);
        if delta <= ACK_WINDOW {
            self.reserve(1 + ACK_DELTA_BITS as usize)?;
            self.push(1 | (u64::from(delta - 1) << 1), 1 + ACK_DELTA_BITS);
        } else {
            self.reserve(17)?;
            self.push(u64::from(ack) << 1, 17);
        }
        Ok(())
    }

    /// `sequence2` relative to `sequence1` on the u16 circle (they must
    /// differ), as `int_relative` of `sequence2` lifted past `sequence1`.
    #[inline]
    fn write_sequence_relative(&mut self, sequence1: u16, sequence2: u16) -> Result<(), Error> {
        if sequence1 == sequence2 {
            return Err(fail(self, ErrorKind::NotIncreasing));
        }
        let lifted = u32::from(sequence2) + if sequence1 > sequence2 { SEQUENCE_WRAP } else { 0 };
        self.write_int_relative(u32::from(sequence1), lifted)
    }
}

impl<S: BitSink + Reserve + ?Sized> BitWrite for S {}

/// Runs `write` as one write of a value: on `Err` the writer is put back
/// at its position with every bit before it as it was (bytes past the
/// position are unspecified: stores the write made there stay), so what
/// follows is written where the value would have started. One saved
/// state, a few words, put back on the cold path.
///
/// Generated code: the body of `write_to` (and of `write_changes`,
/// `write_delta`) as `#p::write_atomic(__writer, |__writer| { BODY })`.
#[inline(always)]
pub fn write_atomic<W: BitWrite + ?Sized, R>(
    writer: &mut W,
    write: impl FnOnce(&mut W) -> Result<R, Error>,
) -> Result<R, Error> {
    let start = writer.checkpoint();
    let result = write(writer);
    if result.is_err() {
        // Inline, the cold path marked by a call that takes nothing: a
        // call that took the writer would take its address, and a writer
        // held in a local could then no longer keep its state in
        // registers.
        cold_path();
        writer.rewind(start);
    }
    result
}

/// Marks the path that calls it as unlikely; takes nothing, so a local
/// sink's address never reaches a call.
#[cold]
#[inline(never)]
pub(crate) fn cold_path() {}

/// `write_str`'s wire: the length as `int(len, 0, max_len)`, align, the
/// bytes; a NUL refused or not.
#[inline(always)]
pub(crate) fn write_text<S: BitWrite + ?Sized>(
    sink: &mut S,
    value: &str,
    max_len: usize,
    nul: Nul,
) -> Result<(), Error> {
    let bytes = value.as_bytes();
    if bytes.len() > max_len {
        return Err(fail(sink, ErrorKind::TooLong));
    }
    if nul == Nul::Refused && has_nul(bytes) {
        return Err(fail(sink, ErrorKind::InteriorNul));
    }
    let length_bits = bit_length_u128(max_len as u128);
    let padding = align_padding(sink.position() + length_bits as usize);
    let total = plus_bytes(length_bits as usize + padding as usize, bytes.len());
    sink.reserve(total.unwrap_or(usize::MAX))?;
    if length_bits + padding < 64 {
        // The padding is the zero bits above the length.
        push_text(sink, bytes.len() as u64, length_bits + padding, bytes);
    } else {
        sink.push(bytes.len() as u64, length_bits);
        sink.push(0, padding);
        sink.push_aligned_bytes(bytes);
    }
    Ok(())
}

/// Strings shorter than this go inline, eight bytes to a push after their
/// length and padding; longer ones through the sink's aligned copy.
const INLINE_BYTES: usize = 64;

/// The low `header_bits` (under 64) of `header` (a length and padding
/// that end on a byte boundary), then `bytes`: stored straight into a
/// writer's buffer (`BitSink::store_text`); into another sink a short
/// string gathered a word at a time and pushed, all inlined, a long one
/// through the sink's aligned copy.
#[inline(always)]
fn push_text<S: BitSink + ?Sized>(sink: &mut S, header: u64, header_bits: u32, bytes: &[u8]) {
    if S::COUNTS_ONLY {
        // No word to gather: only the bits' count is kept.
        sink.push_zeros(header_bits as usize + bytes.len() * 8);
        return;
    }
    if sink.store_text(header, header_bits, bytes) {
        return;
    }
    if bytes.len() < INLINE_BYTES {
        let mut pending = Pending::after(sink, header, header_bits);
        pending.put_bytes(sink, bytes);
        pending.finish(sink);
    } else {
        Pending::after(sink, header, header_bits).finish(sink);
        sink.push_aligned_bytes(bytes);
    }
}

/// The error at the sink's position, built inline on a path marked cold:
/// a call that took the sink would take its address (a held writer's
/// state would then live in memory, see `write_atomic`), and one that
/// returned the error would hide from the compiler that it is an error, so
/// the state on that path would reach the fields after it as if written.
#[inline(always)]
fn fail<S: BitSink + ?Sized>(sink: &S, kind: ErrorKind) -> Error {
    cold_path();
    Error::new(kind, sink.position())
}

/// [`fail`] for a ranged value's check, the position read before the cold
/// mark. Measured, not derived: in a derived struct's `write_to` over a
/// writer in memory (the replication world's entities) the mark first cost
/// about 5 instructions an entity (whole encode 100,474 -> 101,907 a tick);
/// no mark at all cost a delta's ranged fields more (`Sender::write`
/// 135,708 -> 135,955); every check this way cost short strings theirs
/// (logs encode 31,145 -> 32,919 a batch), so the rest keep `fail`.
#[inline(always)]
fn range_error<S: BitSink + ?Sized>(sink: &S, kind: ErrorKind) -> Error {
    let error = Error::new(kind, sink.position());
    cold_path();
    error
}

#[inline(always)]
fn check_range<S: BitSink + ?Sized, T: PartialOrd>(sink: &S, value: T, min: T, max: T) -> Result<(), Error> {
    if min > max {
        return Err(range_error(sink, ErrorKind::InvalidDeclaration));
    }
    if value < min || value > max {
        return Err(range_error(sink, ErrorKind::OutOfRange));
    }
    Ok(())
}

/// Writes the low `bits` (0..=128) bits of `value` (which must fit in
/// them), low 64 first, as one write: on `Err` nothing was written. For
/// the core's own encodings wider than `write_bits64`.
#[inline(always)]
pub(crate) fn write_wide_bits<S: BitSink + ?Sized>(
    sink: &mut S,
    value: u128,
    bits: u32,
) -> Result<(), Error> {
    if bits > 128 {
        return Err(fail(sink, ErrorKind::InvalidDeclaration));
    }
    if bits < 128 && value >> bits != 0 {
        return Err(fail(sink, ErrorKind::OutOfRange));
    }
    sink.reserve(bits as usize)?;
    push_u128(sink, value, bits);
    Ok(())
}

/// Pushes the low `bits` (0..=128) bits of `value`, low 64 first.
#[inline(always)]
fn push_u128<S: BitSink + ?Sized>(sink: &mut S, value: u128, bits: u32) {
    if bits <= 64 {
        sink.push(value as u64, bits);
    } else {
        sink.push(value as u64, 64);
        sink.push((value >> 64) as u64, bits - 64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BitWriter;
    use crate::sink::Reserve;

    /// A string (its length's declaration) or aligned bytes.
    #[derive(Clone, Copy)]
    enum Text<'a> {
        Str(&'a str, usize),
        Bytes(&'a [u8]),
    }

    /// `lead` bits, `text` through `write_text` or `write_bytes`, then 11
    /// bits, so the bits left waiting are checked too.
    fn through<W: BitWrite>(writer: &mut W, lead: (u64, u32), text: Text<'_>) -> Result<(), Error> {
        if lead.1 > 0 {
            writer.write_bits64(lead.0, lead.1)?;
        }
        match text {
            Text::Str(value, max_len) => write_text(writer, value, max_len, Nul::Allowed)?,
            Text::Bytes(bytes) => writer.write_bytes(bytes)?,
        }
        writer.write_bits(0x5A5, 11)
    }

    /// The same bits written one at a time: the buffer, the bits and the
    /// bytes used.
    fn one_by_one(lead: (u64, u32), text: Text<'_>) -> ([u8; 256], usize, usize) {
        let mut buf = [0u8; 256];
        let mut one = BitWriter::new(&mut buf);
        if lead.1 > 0 {
            one.write_bits64(lead.0, lead.1).unwrap();
        }
        let bytes = match text {
            Text::Str(value, max_len) => {
                let length_bits = bit_length_u128(max_len as u128);
                if length_bits > 0 {
                    one.write_bits64(value.len() as u64, length_bits).unwrap();
                }
                value.as_bytes()
            }
            Text::Bytes(bytes) => bytes,
        };
        one.write_align().unwrap();
        bytes.iter().for_each(|&byte| one.write_u8(byte).unwrap());
        one.write_bits(0x5A5, 11).unwrap();
        let bits = one.bits_written();
        let used = one.finish().unwrap();
        (buf, bits, used)
    }

    /// `text` after `lead` through a writer and its local (up to 63 bits
    /// waiting) into buffers that end `rooms` bytes after the bits (the
    /// straight stores or, near the end, the pushes), against the bits
    /// written one at a time; one byte short, refused as before: at the
    /// text's start when it does not fit, else at the bits after it.
    fn check(lead: (u64, u32), text: Text<'_>, rooms: &[usize]) {
        let (one_buf, bits, used) = one_by_one(lead, text);
        for &room in rooms {
            for in_local in [false, true] {
                let mut buf = [0xEEu8; 256 + 150];
                let mut writer = BitWriter::new(&mut buf[..used + room]);
                if in_local {
                    through(&mut writer.local(), lead, text).unwrap();
                } else {
                    through(&mut writer, lead, text).unwrap();
                }
                let at = (lead.1, room, in_local);
                assert_eq!(writer.bits_written(), bits, "{at:?}");
                assert_eq!(writer.finish(), Ok(used), "{at:?}");
                assert_eq!(buf[..used], one_buf[..used], "{at:?}");
            }
        }
        let text_end = bits - 11;
        let refused_at = if text_end > (used - 1) * 8 { lead.1 as usize } else { text_end };
        for in_local in [false, true] {
            let mut buf = [0u8; 256];
            let mut writer = BitWriter::new(&mut buf[..used - 1]);
            let refused = if in_local {
                through(&mut writer.local(), lead, text)
            } else {
                through(&mut writer, lead, text)
            };
            assert_eq!(refused, Err(Error::new(ErrorKind::BufferFull, refused_at)), "{in_local}");
        }
    }

    /// Every bit offset 0 to 63, with bits set in it.
    fn leads() -> impl Iterator<Item = (u64, u32)> {
        (0..64u32).map(|bits| (0x9E37_79B9_7F4A_7C15 & crate::bits::low_mask(bits), bits))
    }

    /// A short string stored straight into the buffer, or gathered and
    /// pushed when the buffer's end is near, lands as its length, padding
    /// and bytes written one at a time, for every length up to its
    /// declaration (and past the inline limit), every bit offset and every
    /// room left after it; one byte short, it is refused at the same bit.
    #[test]
    fn short_strings_are_their_bytes_written_one_by_one() {
        let pattern: [u8; 80] = core::array::from_fn(|index| b'!' + index as u8);
        let pattern = core::str::from_utf8(&pattern).unwrap();
        let rooms = [0, 1, 3, 4, 7, 8, 60, 64, 79, 80, 81, 128, 136, 150];
        for max_len in [0, 1, 3, 4, 7, 8, 9, 15, 16, 31, 32, 33, 62, 63, 64, 100, 1000] {
            for len in 0..=max_len.min(66) {
                for lead in leads() {
                    check(lead, Text::Str(&pattern[..len], max_len), &rooms);
                }
            }
        }
    }

    /// Strings of 0 to two past their declaration (refused), with a NUL or
    /// not, where NULs are refused or not, and bytes without a length, after
    /// 0 to 63 bits: through every form of a counter they count the bits the
    /// writer writes, or refuse with its error at its bit.
    #[test]
    fn strings_measure_as_written() {
        use crate::sink::counter::{COUNTER_FORMS, in_counter_form};
        let pattern: [u8; 80] = core::array::from_fn(|index| b'!' + index as u8);
        let mut with_nul = pattern;
        with_nul[5] = 0;
        let check = |lead: (u64, u32), text: Option<(&str, usize, Nul)>, bytes: &[u8]| {
            let mut buf = [0u8; 256];
            let mut writer = BitWriter::new(&mut buf);
            writer.push(lead.0, lead.1);
            let written = match text {
                Some((text, max_len, nul)) => write_text(&mut writer, text, max_len, nul),
                None => writer.write_bytes(bytes),
            };
            let written =
                written.map(|()| writer.bits_written()).map_err(|error| (error.kind(), error.bit()));
            for form in 0..COUNTER_FORMS {
                let mut counter = crate::BitCounter::new();
                counter.push_zeros(lead.1 as usize);
                let counted = in_counter_form!(&mut counter, form, 1024, |sink| match text {
                    Some((text, max_len, nul)) => write_text(sink, text, max_len, nul),
                    None => sink.write_bytes(bytes),
                });
                let counted =
                    counted.map(|()| counter.bits_written()).map_err(|error| (error.kind(), error.bit()));
                assert_eq!(counted, written, "{:?} after {}, form {form}", text.map(|text| text.1), lead.1);
            }
        };
        for max_len in [0, 1, 7, 8, 9, 31, 32, 62, 63, 64, 65, 77] {
            for len in 0..=max_len + 2 {
                for (text, nul) in [
                    (&pattern, Nul::Allowed),
                    (&pattern, Nul::Refused),
                    (&with_nul, Nul::Allowed),
                    (&with_nul, Nul::Refused),
                ] {
                    let text = core::str::from_utf8(&text[..len]).unwrap();
                    leads().for_each(|lead| check(lead, Some((text, max_len, nul)), &[]));
                }
            }
        }
        for len in 0..=pattern.len() {
            leads().for_each(|lead| check(lead, None, &pattern[..len]));
        }
    }

    /// `write_bytes` (its padding as the header, no length) the same way,
    /// 0 to 80 bytes.
    #[test]
    fn aligned_bytes_are_the_bytes_written_one_by_one() {
        let pattern: [u8; 80] = core::array::from_fn(|index| (index as u8).wrapping_mul(73) ^ 0xA5);
        for len in 0..=pattern.len() {
            for lead in leads() {
                check(lead, Text::Bytes(&pattern[..len]), &[0, 5, 79, 80, 81, 140]);
            }
        }
    }
}
