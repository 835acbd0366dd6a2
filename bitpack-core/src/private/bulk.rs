//! Bulk paths for derived sequences and arrays of bools and of integers at
//! full width (`u8` to `u64`, `i8` to `i64`, no `#[bits]`): the same wire
//! as the element-by-element code (a sequence's length, then one bit per
//! bool or the integer's bits, low bit first), pushed and taken up to 64
//! bits at a time.
//!
//! Room and input are checked once for the whole run: a write that may not
//! fit, and only that, goes element by element, so that it fails at the
//! same bit as ever; a sequence's length is refused (as
//! [`read_vec`](super::read_vec) refuses it) unless every element is in the
//! input, and an array whose bits are not all there is read element by
//! element, so that it fails where it always did.

#[cfg(feature = "alloc")]
use alloc::{collections::VecDeque, vec::Vec};

#[cfg(feature = "alloc")]
use super::read_claimed_len;
use super::write_len;
use crate::error::Error;
use crate::pack::BitPack;
use crate::read::BitRead;
use crate::source::SourceExt;
#[cfg(feature = "alloc")]
use crate::unchecked::{extend_bools, extend_chunks, extend_lanes};
use crate::words::{Pending, short_word, tail_word};
use crate::write::BitWrite;

/// The most bits one fast take hands out (see `BitReader::take`).
const TAKE_BITS: usize = 56;

/// An integer a derived `Vec` or array packs by words: its `BitPack` wire
/// is its `BITS` bits of [`Lane::to_wire`] (`value - MIN` at full width).
pub trait Lane: BitPack + Copy + Default {
    /// Bits on the wire.
    const BITS: u32;
    /// The wire bits (above them zero).
    fn to_wire(self) -> u64;
    /// The value of `BITS` wire bits.
    fn from_wire(wire: u64) -> Self;
}

macro_rules! lanes {
    ($($ty:ident $unsigned:ident $offset:expr;)*) => {$(
        impl Lane for $ty {
            const BITS: u32 = $ty::BITS;

            #[inline(always)]
            fn to_wire(self) -> u64 {
                u64::from((self as $unsigned) ^ $offset)
            }

            #[inline(always)]
            fn from_wire(wire: u64) -> Self {
                ((wire as $unsigned) ^ $offset) as $ty
            }
        }
    )*};
}

lanes! {
    u8 u8 0; u16 u16 0; u32 u32 0; u64 u64 0;
    i8 u8 1 << 7; i16 u16 1 << 15; i32 u32 1 << 31; i64 u64 1 << 63;
}

/// What a bulk write takes: a slice, or a `VecDeque`'s two halves.
pub trait Halves<T> {
    /// The elements in order, in at most two slices.
    fn halves(&self) -> (&[T], &[T]);
}

impl<T> Halves<T> for [T] {
    #[inline(always)]
    fn halves(&self) -> (&[T], &[T]) {
        (self, &[])
    }
}

#[cfg(feature = "alloc")]
impl<T> Halves<T> for Vec<T> {
    #[inline(always)]
    fn halves(&self) -> (&[T], &[T]) {
        (self, &[])
    }
}

impl<T, const N: usize> Halves<T> for [T; N] {
    #[inline(always)]
    fn halves(&self) -> (&[T], &[T]) {
        (self, &[])
    }
}

#[cfg(feature = "alloc")]
impl<T> Halves<T> for VecDeque<T> {
    #[inline(always)]
    fn halves(&self) -> (&[T], &[T]) {
        self.as_slices()
    }
}

/// Eight bytes of 0 or 1 (the first in the low byte) as eight bits.
#[inline(always)]
fn gather_bits(bytes: u64) -> u64 {
    // Byte `i` times 2^(56 - 7i) lands on bit 56 + i; every other product
    // lands on a bit of its own below 56 or past 63, so nothing carries.
    bytes.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Up to 64 bools as a word, the first in the low bit.
#[inline(always)]
fn bools_word(values: &[bool]) -> u64 {
    let eight = |eight: &[bool; 8]| gather_bits(u64::from_le_bytes(eight.map(u8::from)));
    if let (Some(first), Some(last), 8..=16) = (values.first_chunk(), values.last_chunk(), values.len()) {
        // 8 to 16 (a short flag list): the first eight and the last, which
        // overlap on bools that give the same bits, with no loop.
        return eight(first) | eight(last) << (values.len() - 8);
    }
    let (eights, rest) = values.as_chunks::<8>();
    let mut word = 0;
    for (index, chunk) in eights.iter().enumerate() {
        word |= eight(chunk) << (8 * index);
    }
    if !rest.is_empty() {
        let bits = tail_word(values, rest.len(), 1, eight, |rest| gather_bits(short_word(rest, u8::from)));
        word |= bits << (8 * eights.len());
    }
    word
}

// Sequences' lengths and elements wait in a `Pending` word: a short
// sequence is one or two pushes.
impl<const SUSPENDED: bool> Pending<SUSPENDED> {
    /// One bit per bool, 64 to a word.
    #[inline(always)]
    fn put_bools<W: BitWrite>(&mut self, writer: &mut W, values: &[bool]) {
        let (words, rest) = values.as_chunks::<64>();
        for word in words {
            self.put(writer, bools_word(word), 64);
        }
        if !rest.is_empty() {
            self.put(writer, bools_word(rest), rest.len() as u32);
        }
    }

    /// `T::BITS` bits per value, as many to a word as fit.
    #[inline(always)]
    fn put_lanes<W: BitWrite, T: Lane>(&mut self, writer: &mut W, values: &[T]) {
        match T::BITS {
            8 => self.put_chunks::<W, T, 8>(writer, values),
            16 => self.put_chunks::<W, T, 4>(writer, values),
            32 => self.put_chunks::<W, T, 2>(writer, values),
            _ => self.put_chunks::<W, T, 1>(writer, values),
        }
    }

    /// `K` values of `T::BITS` bits to a word (`K * T::BITS == 64`).
    #[inline(always)]
    fn put_chunks<W: BitWrite, T: Lane, const K: usize>(&mut self, writer: &mut W, values: &[T]) {
        let Some(last) = values.last_chunk::<K>() else {
            // Under a word's worth.
            if !values.is_empty() {
                let word = if K == 8 {
                    short_word(values, |value| value.to_wire() as u8)
                } else {
                    short_lanes(values)
                };
                self.put_lanes_word(writer, word, T::BITS * values.len() as u32);
            }
            return;
        };
        self.put_up_to_last(writer, values, last);
    }

    /// [`Pending::put_chunks`] of `K` or more values, `last` their last `K`:
    /// the words before those (whole, up to one short of the end), then
    /// the last `K`'s word shifted down past the lanes already sent (1 to
    /// `K` lanes), one push with no branch on a tail.
    #[inline(always)]
    fn put_up_to_last<W: BitWrite, T: Lane, const K: usize>(
        &mut self,
        writer: &mut W,
        values: &[T],
        last: &[T; K],
    ) {
        let (words, _) = values[..values.len() - 1].as_chunks::<K>();
        match words {
            // Up to two (a short list) without a loop.
            [] => {}
            [a] => self.put_lanes_word(writer, lanes_word(a), 64),
            [a, b] => {
                self.put_lanes_word(writer, lanes_word(a), 64);
                self.put_lanes_word(writer, lanes_word(b), 64);
            }
            _ => words.iter().for_each(|word| self.put_lanes_word(writer, lanes_word(word), 64)),
        }
        let sent = words.len() * K;
        let last = lanes_word(last) >> (T::BITS as usize * (sent + K - values.len()));
        self.put_lanes_word(writer, last, T::BITS * (values.len() - sent) as u32);
    }
}

/// Fewer than a word's worth of lanes (and not bytes): from two on, the
/// first two and the last two, which overlap on lanes that give the same
/// bits, with no loop.
#[inline(always)]
fn short_lanes<T: Lane>(values: &[T]) -> u64 {
    match (values.first_chunk::<2>(), values.last_chunk::<2>()) {
        (Some(first), Some(last)) => {
            lanes_word(first) | lanes_word(last) << (T::BITS as usize * (values.len() - 2))
        }
        _ => lanes_word(values),
    }
}

/// Values of `T::BITS` bits packed into a word, the first in the low bits.
#[inline(always)]
fn lanes_word<T: Lane>(values: &[T]) -> u64 {
    values
        .iter()
        .enumerate()
        .fold(0, |word, (index, value)| word | value.to_wire() << (T::BITS as usize * index))
}

/// The bits of the length before `len` elements of `bits` bits, when it
/// is in range and everything fits; `None` sends the caller to
/// [`write_len`] and element by element, which fail where they always did.
#[inline(always)]
fn length_first<W: BitWrite>(writer: &W, len: usize, max_len: usize, bits: u32) -> Option<u32> {
    let len_bits = super::len_bits(max_len);
    if len > max_len || len_bits >= 64 {
        return None;
    }
    let total = len.checked_mul(bits as usize).and_then(|elements| elements.checked_add(len_bits))?;
    writer.reserve(total).ok()?;
    Some(len_bits as u32)
}

/// What the bulk writes pack: a bool (one bit) or an integer at full width.
trait Packed: BitPack + Copy {
    /// Bits on the wire.
    const WIDTH: u32;
    /// Whether a sequence continues the bits waiting in the writer
    /// (`Pending::after`): integers do (records encode 35,731 -> 33,499
    /// instructions); bools, a word or less after a short length, do
    /// not (world encode 37,817 -> 38,940 when they did too).
    const SUSPENDS: bool;
    /// Puts `values` after what is waiting.
    fn put_all<W: BitWrite, const S: bool>(pending: &mut Pending<S>, writer: &mut W, values: &[Self]);
    /// Pushes `values`' length (`len_bits` bits) and `values` when a
    /// sequence of `max_len` fits two words and a bit more (a short list):
    /// `false`, nothing pushed, when it may not.
    fn put_short<W: BitWrite>(writer: &mut W, values: &[Self], len_bits: u32, max_len: usize) -> bool;
    /// After `prefix`'s bits (not yet pushed), a sequence of `max_len`'s
    /// length and `values` when its length is in a short range that one
    /// test covers (and checks it is not above `max_len`), and they fit:
    /// what is left to push (the bits gathered, when they do not fill a
    /// word); `None`, nothing pushed, otherwise (the caller then pushes
    /// `prefix` and goes as ever).
    #[inline(always)]
    fn put_in_range<W: BitWrite>(
        writer: &mut W,
        prefix: Prefix,
        values: &[Self],
        max_len: usize,
    ) -> Option<Prefix> {
        let _ = (writer, prefix, values, max_len);
        None
    }
}

impl Packed for bool {
    const WIDTH: u32 = 1;
    const SUSPENDS: bool = false;

    #[inline(always)]
    fn put_all<W: BitWrite, const S: bool>(pending: &mut Pending<S>, writer: &mut W, values: &[Self]) {
        pending.put_bools(writer, values);
    }

    #[inline(always)]
    fn put_short<W: BitWrite>(writer: &mut W, values: &[Self], len_bits: u32, max_len: usize) -> bool {
        if len_bits as usize + max_len > 64 {
            return false;
        }
        let len = values.len();
        writer.push(len as u64 | bools_word(values) << len_bits, len_bits + len as u32);
        true
    }

    /// 8 to 16 bools (a short flag list, not past `max_len`): one test of
    /// the length where `length_first` and `bools_word` tested it twice.
    /// After a prefix (a record's id before its flags), all of it gathered
    /// into one word, left to the next field's first push.
    #[inline(always)]
    fn put_in_range<W: BitWrite>(
        writer: &mut W,
        prefix: Prefix,
        values: &[Self],
        max_len: usize,
    ) -> Option<Prefix> {
        let len_bits = super::len_bits(max_len);
        let top = max_len.min(16);
        let len = values.len();
        let ahead = prefix.bits as usize;
        if ahead + len_bits + top >= 64 || top < 8 || len.wrapping_sub(8) > top - 8 {
            return None;
        }
        let (Some(first), Some(last), true) = (
            values.first_chunk::<8>(),
            values.last_chunk::<8>(),
            writer.reserve(ahead + len_bits + len).is_ok(),
        ) else {
            return None;
        };
        let eight = |eight: &[bool; 8]| gather_bits(u64::from_le_bytes(eight.map(u8::from)));
        let word = eight(first) | eight(last) << (len - 8);
        Some(Prefix {
            word: prefix.word | (len as u64 | word << len_bits) << ahead,
            bits: (ahead + len_bits + len) as u32,
        })
    }
}

impl<T: Lane> Packed for T {
    const WIDTH: u32 = T::BITS;
    const SUSPENDS: bool = true;

    #[inline(always)]
    fn put_all<W: BitWrite, const S: bool>(pending: &mut Pending<S>, writer: &mut W, values: &[Self]) {
        pending.put_lanes(writer, values);
    }

    #[inline(always)]
    fn put_short<W: BitWrite>(writer: &mut W, values: &[Self], len_bits: u32, max_len: usize) -> bool {
        match T::BITS {
            8 => put_short_lanes::<W, T, 8>(writer, values, len_bits, max_len),
            16 => put_short_lanes::<W, T, 4>(writer, values, len_bits, max_len),
            32 => put_short_lanes::<W, T, 2>(writer, values, len_bits, max_len),
            _ => put_short_lanes::<W, T, 1>(writer, values, len_bits, max_len),
        }
    }

    #[inline(always)]
    fn put_in_range<W: BitWrite>(
        writer: &mut W,
        prefix: Prefix,
        values: &[Self],
        max_len: usize,
    ) -> Option<Prefix> {
        match T::BITS {
            8 => lanes_in_range::<W, T, 8>(writer, prefix, values, max_len),
            16 => lanes_in_range::<W, T, 4>(writer, prefix, values, max_len),
            32 => lanes_in_range::<W, T, 2>(writer, prefix, values, max_len),
            _ => None,
        }
    }
}

/// [`Packed::put_in_range`] for lanes, `K` to a word: a list of more than
/// `2 * K` (which [`put_short_lanes`] leaves) up to `64 * K`, of `K` or more
/// (records' payloads of 12 to 20 bytes up to 32): one test of the length
/// where `length_first` and `put_chunks` tested it twice. The prefix's
/// bits go with the length, in the first push.
#[inline(always)]
fn lanes_in_range<W: BitWrite, T: Lane, const K: usize>(
    writer: &mut W,
    prefix: Prefix,
    values: &[T],
    max_len: usize,
) -> Option<Prefix> {
    let len_bits = super::len_bits(max_len);
    let len = values.len();
    let ahead = prefix.bits as usize;
    if max_len <= 2 * K || max_len > 64 * K || ahead + len_bits > 64 || len.wrapping_sub(K) > max_len - K {
        return None;
    }
    let (Some(last), true) =
        (values.last_chunk::<K>(), writer.reserve(ahead + len_bits + len * T::BITS as usize).is_ok())
    else {
        return None;
    };
    let mut pending =
        Pending::after_lanes(writer, prefix.word | (len as u64) << ahead, (ahead + len_bits) as u32);
    pending.put_up_to_last(writer, values, last);
    pending.finish(writer);
    Some(Prefix::EMPTY)
}

/// [`Packed::put_short`] for lanes, `K` to a word: a sequence of at most
/// `2 * K` (the elements two words at most) as one branch on whether a
/// word's worth is there, the first word, the second if whole, and one
/// push of the tail, empty or not, where `Pending` branched on each word
/// and tail being there and on each word filling (world encode: a
/// `Vec<u16>` of 2 to 6 items). Longer ones (records' `Vec<u8>` of 12 to
/// 20 bytes up to 32) keep `Pending`, whose words skip the writer's
/// check for a full word (up to `4 * K` here: records encode 33,386 ->
/// 36,143 instructions and slower).
#[inline(always)]
fn put_short_lanes<W: BitWrite, T: Lane, const K: usize>(
    writer: &mut W,
    values: &[T],
    len_bits: u32,
    max_len: usize,
) -> bool {
    let width = T::BITS;
    // A `u64`'s (one to a word) goes as it did, as do longer sequences.
    if K == 1 || max_len > 2 * K || len_bits > width {
        return false;
    }
    let len = values.len();
    match (values.first_chunk::<K>(), values.last_chunk::<K>()) {
        (Some(first), Some(last)) => {
            let first = lanes_word(first);
            // Whole words after the bits waiting in the writer, gathered
            // with them (`Pending`): a word's carry in two shifts.
            let mut pending = Pending::after(writer, 0, 0);
            pending.put_lanes_word(writer, len as u64 | first << len_bits, 64);
            // Each word's bits the length pushed out, ahead of the next.
            let mut out = (first >> 1) >> (63 - len_bits);
            let (words, rest) = values[K..].as_chunks::<K>();
            // At most one.
            for word in words {
                let word = lanes_word(word);
                pending.put_lanes_word(writer, out | word << len_bits, 64);
                out = (word >> 1) >> (63 - len_bits);
            }
            // The last `rest` (under `K`) lanes, the top of the last `K`'s
            // word (none when `rest` is 0): at most 64 - `width` bits, and
            // the length's at most `width`.
            let tail = (lanes_word(last) >> (width * (K - rest.len()) as u32 - 1)) >> 1;
            pending.put_lanes_word(writer, out | tail << len_bits, len_bits + width * rest.len() as u32);
            pending.finish(writer);
        }
        _ => {
            // Under `K` lanes (64 - `width` bits at most) after the length.
            let word =
                if K == 8 { short_word(values, |value| value.to_wire() as u8) } else { short_lanes(values) };
            writer.push(len as u64 | word << len_bits, len_bits + width * len as u32);
        }
    }
    true
}

/// A sequence: its length, then its elements, packed together.
#[inline(always)]
fn write_packed<W: BitWrite, T: Packed, S: Halves<T> + ?Sized>(
    writer: &mut W,
    values: &S,
    max_len: usize,
) -> Result<(), Error> {
    let (front, back) = values.halves();
    if !W::COUNTS_ONLY
        && back.is_empty()
        && let Some(rest) = T::put_in_range(writer, Prefix::EMPTY, front, max_len)
    {
        rest.push(writer);
        return Ok(());
    }
    let len = front.len() + back.len();
    let Some(len_bits) = length_first(writer, len, max_len, T::WIDTH) else {
        write_len(writer, len, max_len)?;
        return write_packed_array(writer, values);
    };
    if W::COUNTS_ONLY {
        // Checked as a writer's: only the bits' count is left to keep.
        writer.push_zeros(len_bits as usize + len * T::WIDTH as usize);
        return Ok(());
    }
    if back.is_empty() && T::put_short(writer, front, len_bits, max_len) {
        return Ok(());
    }
    if T::SUSPENDS {
        put_packed(Pending::after(writer, len as u64, len_bits), writer, front, back);
    } else {
        put_packed(Pending::new(len as u64, len_bits), writer, front, back);
    }
    Ok(())
}

/// Bits gathered for a derived struct's fields inside its reservation and
/// not yet pushed (fewer than 64, zero above them): plain integers before
/// a bulk sequence, and a short flag list, ride with the next sequence's
/// length in its first push (records encode: an `id: u16`, its flags and
/// its payload's length in one), where each field pushed on its own.
///
/// Generated code, in a reserved body only (every push fits):
/// `let __prefix = #p::Prefix::then(#p::Prefix::EMPTY, __writer, self.id);`,
/// then `let __prefix = #p::write_bools_after(__writer, __prefix, &self.flags, 16)?;`
/// (or `write_ints_after`),
/// and `#p::Prefix::push(__prefix, __writer);` before any other write.
#[derive(Clone, Copy, Debug)]
pub struct Prefix {
    word: u64,
    bits: u32,
}

impl Prefix {
    /// No bits.
    pub const EMPTY: Prefix = Prefix { word: 0, bits: 0 };

    /// `value`'s wire after these bits (both pushed when they would fill a
    /// word: a branch that folds, the widths being constants).
    #[inline(always)]
    pub fn then<W: BitWrite, T: Lane>(self, writer: &mut W, value: T) -> Prefix {
        if self.bits + T::BITS >= 64 {
            self.push(writer);
            writer.push(value.to_wire(), T::BITS);
            return Prefix::EMPTY;
        }
        Prefix { word: self.word | value.to_wire() << self.bits, bits: self.bits + T::BITS }
    }

    /// The bits pushed.
    #[inline(always)]
    pub fn push<W: BitWrite>(self, writer: &mut W) {
        if self.bits > 0 {
            writer.push(self.word, self.bits);
        }
    }
}

/// [`write_packed`] after `prefix`: the short range's bits gathered after
/// it ([`Packed::put_in_range`]), what is left of them returned;
/// otherwise `prefix` pushed and the sequence as ever (the same error at
/// the same bit: the prefix's fields come first either way).
#[inline(always)]
fn write_packed_after<W: BitWrite, T: Packed, S: Halves<T> + ?Sized>(
    writer: &mut W,
    prefix: Prefix,
    values: &S,
    max_len: usize,
) -> Result<Prefix, Error> {
    let (front, back) = values.halves();
    if !W::COUNTS_ONLY
        && back.is_empty()
        && let Some(rest) = T::put_in_range(writer, prefix, front, max_len)
    {
        return Ok(rest);
    }
    prefix.push(writer);
    write_packed(writer, values, max_len)?;
    Ok(Prefix::EMPTY)
}

/// [`write_bools`] after a [`Prefix`] (see it), in a derived reserved body.
///
/// Generated code: `let __prefix = #p::write_bools_after(__writer, __prefix, &self.field, MAX_LEN)?;`
#[inline(always)]
pub fn write_bools_after<W: BitWrite, S: Halves<bool> + ?Sized>(
    writer: &mut W,
    prefix: Prefix,
    values: &S,
    max_len: usize,
) -> Result<Prefix, Error> {
    write_packed_after(writer, prefix, values, max_len)
}

/// [`write_ints`] after a [`Prefix`] (see it), in a derived reserved body.
///
/// Generated code: `let __prefix = #p::write_ints_after(__writer, __prefix, &self.field, MAX_LEN)?;`
#[inline(always)]
pub fn write_ints_after<W: BitWrite, T: Lane, S: Halves<T> + ?Sized>(
    writer: &mut W,
    prefix: Prefix,
    values: &S,
    max_len: usize,
) -> Result<Prefix, Error> {
    write_packed_after(writer, prefix, values, max_len)
}

/// `front` then `back` after what `pending` holds, all pushed.
#[inline(always)]
fn put_packed<W: BitWrite, T: Packed, const S: bool>(
    mut pending: Pending<S>,
    writer: &mut W,
    front: &[T],
    back: &[T],
) {
    T::put_all(&mut pending, writer, front);
    T::put_all(&mut pending, writer, back);
    pending.finish(writer);
}

/// Elements alone, packed (then pushed without checks); element by element
/// when they may not fit.
#[inline]
fn write_packed_array<W: BitWrite, T: Packed, S: Halves<T> + ?Sized>(
    writer: &mut W,
    values: &S,
) -> Result<(), Error> {
    let (front, back) = values.halves();
    let bits = (front.len() + back.len()).saturating_mul(T::WIDTH as usize);
    if writer.reserve(bits).is_err() {
        return front.iter().chain(back).try_for_each(|value| value.write_to(writer));
    }
    if W::COUNTS_ONLY {
        writer.push_zeros(bits);
        return Ok(());
    }
    put_packed(Pending::new(0, 0), writer, front, back);
    Ok(())
}

/// Writes a `Vec<bool>` (or `VecDeque<bool>`, `Box<[bool]>`) as
/// [`write_len`] then one bit per element, the length and up to 64 bits
/// to a push.
///
/// Generated code: `#p::write_bools(__writer, &self.field, MAX_LEN)?;`
#[inline(always)]
pub fn write_bools<W: BitWrite, S: Halves<bool> + ?Sized>(
    writer: &mut W,
    values: &S,
    max_len: usize,
) -> Result<(), Error> {
    write_packed(writer, values, max_len)
}

/// Writes bools one bit each, without a length: a `[bool; N]`.
///
/// Generated code: `#p::write_bool_array(__writer, &self.field)?;`
#[inline]
pub fn write_bool_array<W: BitWrite, S: Halves<bool> + ?Sized>(
    writer: &mut W,
    values: &S,
) -> Result<(), Error> {
    write_packed_array(writer, values)
}

/// Writes a `Vec` (or `VecDeque`, `Box<[T]>`) of an integer at full width
/// as [`write_len`] then each element's bits, the length and the elements
/// packed into 64-bit pushes (aligned or not).
///
/// Generated code: `#p::write_ints(__writer, &self.field, MAX_LEN)?;`
#[inline(always)]
pub fn write_ints<W: BitWrite, T: Lane, S: Halves<T> + ?Sized>(
    writer: &mut W,
    values: &S,
    max_len: usize,
) -> Result<(), Error> {
    write_packed(writer, values, max_len)
}

/// Writes integers at full width without a length: a `[u16; N]`.
///
/// Generated code: `#p::write_int_array(__writer, &self.field)?;`
#[inline]
pub fn write_int_array<W: BitWrite, T: Lane, S: Halves<T> + ?Sized>(
    writer: &mut W,
    values: &S,
) -> Result<(), Error> {
    write_packed_array(writer, values)
}

/// Takes `len` bools (all known to be in the input) into `values`, 56 to
/// a take.
#[inline(always)]
fn take_bools<R: BitRead>(reader: &mut R, len: usize, mut each: impl FnMut(usize, u64)) -> Result<(), Error> {
    let mut done = 0;
    while done < len {
        let count = (len - done).min(TAKE_BITS);
        each(count, reader.take(count as u32)?);
        done += count;
    }
    Ok(())
}

/// Takes `len` integers at full width (all known to be in the input), as
/// many to a take as fit 56 bits, handing each take's count and word to
/// `each`.
#[inline(always)]
fn take_lanes<R: BitRead, T: Lane>(
    reader: &mut R,
    len: usize,
    mut each: impl FnMut(usize, u64),
) -> Result<(), Error> {
    if T::BITS == 64 {
        for _ in 0..len {
            let low = reader.take(32)?;
            each(1, low | reader.take(32)? << 32);
        }
        return Ok(());
    }
    let per_take = TAKE_BITS / T::BITS as usize;
    let mut done = 0;
    while done < len {
        let count = (len - done).min(per_take);
        each(count, reader.take(T::BITS * count as u32)?);
        done += count;
    }
    Ok(())
}

/// The `index`th lane of a taken word.
#[inline(always)]
fn lane<T: Lane>(word: u64, index: usize) -> T {
    T::from_wire((word >> (T::BITS as usize * index)) & (u64::MAX >> (64 - T::BITS)))
}

/// Reads what [`write_bools`] wrote into any collection made from a `Vec`
/// (`VecDeque` and `Box<[bool]>` take its buffer as it is):
/// [`read_vec`](super::read_vec)'s checks (the length, its elements in the
/// input, then claimed from the budget), then the bits 56 at a time. On
/// `Err` the reader is back where it was.
///
/// Generated code: `#p::read_bools(__reader, MAX_LEN)?`.
#[cfg(feature = "alloc")]
#[inline(always)]
pub fn read_bools<R: BitRead, C: From<Vec<bool>>>(reader: &mut R, max_len: usize) -> Result<C, Error> {
    // Put back by hand: through `rolled_back`'s closure the compiler kept
    // the read out of line, a call and its `Result` through memory.
    let start = reader.checkpoint();
    let result = bools_body(reader, max_len);
    if result.is_err() {
        reader.rewind(start);
    }
    result
}

/// [`read_bools`] but for putting the reader back on `Err`.
#[cfg(feature = "alloc")]
#[inline(always)]
fn bools_body<R: BitRead, C: From<Vec<bool>>>(reader: &mut R, max_len: usize) -> Result<C, Error> {
    let len = read_claimed_len::<bool>(reader, max_len, 1)?;
    let mut values = Vec::with_capacity(len);
    take_bools(reader, len, |count, word| extend_bools(&mut values, word, count))?;
    Ok(C::from(values))
}

/// Reads what [`write_bool_array`] wrote: one take per 56 bools once they
/// are all in the input, else element by element (failing where that
/// fails). On `Err` the reader is back where it was.
///
/// Generated code: `#p::read_bool_array(__reader)?`.
#[inline]
pub fn read_bool_array<R: BitRead, const N: usize>(reader: &mut R) -> Result<[bool; N], Error> {
    reader.rolled_back(|reader| {
        let mut values = [false; N];
        if reader.remaining() < N {
            for value in &mut values {
                *value = reader.read_bool()?;
            }
            return Ok(values);
        }
        let mut slots = values.iter_mut();
        take_bools(reader, N, |count, word| {
            for (index, value) in slots.by_ref().take(count).enumerate() {
                *value = (word >> index) & 1 != 0;
            }
        })?;
        Ok(values)
    })
}

/// Reads what [`write_ints`] wrote into any collection made from a `Vec`:
/// [`read_vec`](super::read_vec)'s checks, then the integers as many to a
/// take as fit 56 bits. On `Err` the reader is back where it was.
///
/// Generated code: `#p::read_ints(__reader, MAX_LEN)?`.
#[cfg(feature = "alloc")]
#[inline]
pub fn read_ints<R: BitRead, T: Lane, C: From<Vec<T>>>(reader: &mut R, max_len: usize) -> Result<C, Error> {
    reader.rolled_back(|reader| {
        let len = read_claimed_len::<T>(reader, max_len, T::BITS as usize)?;
        let mut values = Vec::with_capacity(len);
        let copied = match T::BITS {
            8 => copy_lanes::<R, T, 8>(reader, len, &mut values)?,
            16 => copy_lanes::<R, T, 4>(reader, len, &mut values)?,
            32 => copy_lanes::<R, T, 2>(reader, len, &mut values)?,
            _ => false,
        };
        if copied {
            return Ok(C::from(values));
        }
        take_lanes::<R, T>(reader, len, |count, word| match T::BITS {
            // A take's lanes in one store (those past `count` uncounted).
            8 => extend_lanes::<T, 8>(&mut values, core::array::from_fn(|index| lane(word, index)), count),
            16 => extend_lanes::<T, 4>(&mut values, core::array::from_fn(|index| lane(word, index)), count),
            _ => values.extend((0..count).map(|index| lane::<T>(word, index))),
        })?;
        Ok(C::from(values))
    })
}

/// Reads `len` integers of `T::BITS` bits (`K` to a word; all known to be
/// in the input) into `values` by whole 64-bit words of the input, loaded
/// at any bit offset, `K` lanes to a store: `false`, nothing read, within
/// 9 bytes of the input's end (the caller then takes them 56 bits at a
/// time). `Err` (never met: the caller checked) if the bits are not there.
#[cfg(feature = "alloc")]
#[inline(always)]
fn copy_lanes<R: BitRead, T: Lane, const K: usize>(
    reader: &mut R,
    len: usize,
    values: &mut Vec<T>,
) -> Result<bool, Error> {
    let lane_bytes = T::BITS as usize / 8;
    let (rest, offset) = reader.rest();
    // The last chunk's word is the 8 bytes from its first lane's byte and
    // one more for the bits its offset pushed out.
    let Some(bytes) = rest.get(..(len.max(K) * lane_bytes).wrapping_add(1)) else {
        return Ok(false);
    };
    extend_chunks(values, len, |at| {
        let byte = at * lane_bytes;
        let (Some(low), Some(&high)) = (bytes.get(byte..byte + 8), bytes.get(byte + 8)) else {
            // Not reached: `at + K <= len.max(K)`.
            return [T::default(); K];
        };
        let low = u64::from_le_bytes(low.try_into().unwrap_or([0; 8]));
        // `8 - offset` in 1..=8: the byte's bits past the word's top
        // shifted out, none of them at offset 0.
        let word = (low >> offset) | (u64::from(high) << 56 << (8 - offset));
        core::array::from_fn(|index| lane(word, index))
    });
    // Checked to remain by the caller: this only moves the position.
    reader.close_run(len * T::BITS as usize)?;
    Ok(true)
}

/// Reads what [`write_int_array`] wrote: by words once every element is in
/// the input, else element by element. On `Err` the reader is back where
/// it was.
///
/// Generated code: `#p::read_int_array(__reader)?`.
#[inline]
pub fn read_int_array<R: BitRead, T: Lane, const N: usize>(reader: &mut R) -> Result<[T; N], Error> {
    reader.rolled_back(|reader| {
        let mut values = [T::default(); N];
        if reader.remaining() < N.saturating_mul(T::BITS as usize) {
            for value in &mut values {
                *value = T::read_from(reader)?;
            }
            return Ok(values);
        }
        let mut slots = values.iter_mut();
        take_lanes::<R, T>(reader, N, |count, word| {
            for (index, value) in slots.by_ref().take(count).enumerate() {
                *value = lane(word, index);
            }
        })?;
        Ok(values)
    })
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use crate::sink::counter::{COUNTER_FORMS, in_counter_form};
    use crate::sink::{BitSink, Reserve};
    use crate::{BitReader, BitWriter};

    #[test]
    fn bools_gather_to_their_bits() {
        for pattern in
            [0u64, 1, 0x8000_0000_0000_0001, 0x5555_5555_5555_5555, u64::MAX, 0x0123_4567_89AB_CDEF]
        {
            for len in 0..=64 {
                let values: Vec<bool> = (0..len).map(|index| (pattern >> index) & 1 != 0).collect();
                let mask = if len == 64 { u64::MAX } else { (1 << len) - 1 };
                assert_eq!(bools_word(&values), pattern & mask, "{pattern:#x} {len}");
            }
        }
    }

    /// The length then the elements one by one, as before the bulk paths.
    fn one_by_one<W: BitWrite, T: BitPack>(
        writer: &mut W,
        values: &[T],
        max_len: usize,
    ) -> Result<(), Error> {
        write_len(writer, values.len(), max_len)?;
        values.iter().try_for_each(|value| value.write_to(writer))
    }

    /// A sequence written after `lead` bits into `room` bytes, through the
    /// writer or a local of it, by the bulk path or one by one: the bytes
    /// (or the error) and the position.
    fn sequence_outcome<T: Packed>(
        values: &[T],
        max_len: usize,
        (lead, room): (u32, usize),
        local: bool,
        bulk: bool,
    ) -> (Result<Vec<u8>, Error>, usize) {
        let mut buf = alloc::vec![0u8; room];
        let mut writer = BitWriter::new(&mut buf);
        if lead > 0 {
            writer.write_bits64(0x5555_5555_5555_5555 & crate::bits::low_mask(lead), lead).unwrap();
        }
        let result = match (local, bulk) {
            (false, true) => write_packed(&mut writer, values, max_len),
            (false, false) => one_by_one(&mut writer, values, max_len),
            // The local moves back when dropped, at the end of the arm.
            (true, true) => write_packed(&mut writer.local(), values, max_len),
            (true, false) => one_by_one(&mut writer.local(), values, max_len),
        };
        let bits = writer.bits_written();
        let used = result.and_then(|()| writer.finish());
        (used.map(|used| buf[..used].to_vec()), bits)
    }

    /// Every length up to `max_len` after every offset 0 to 63, into a
    /// buffer that ends where the bits do (stores near its end), one byte
    /// short (refused) and one with room to spare, through the writer and
    /// a local of it: the bulk write (`put_short` when the sequence is
    /// short enough) lands as the length and the elements one by one.
    fn short_sequences_as_one_by_one<T: Packed + core::fmt::Debug>(
        max_lens: &[usize],
        value: fn(usize) -> T,
    ) {
        for &max_len in max_lens {
            let len_bits = crate::private::len_bits(max_len);
            // Two past `max_len`: refused, at the length.
            for len in 0..=max_len + 2 {
                let values: Vec<T> = (0..len).map(value).collect();
                for lead in 0..64u32 {
                    let bits = lead as usize + len_bits + len * T::WIDTH as usize;
                    for room in [bits.div_ceil(8), bits.div_ceil(8) - 1, bits.div_ceil(8) + 8] {
                        if room * 8 < lead as usize {
                            continue;
                        }
                        for local in [false, true] {
                            let bulk = sequence_outcome(&values, max_len, (lead, room), local, true);
                            let old = sequence_outcome(&values, max_len, (lead, room), local, false);
                            assert_eq!(
                                bulk, old,
                                "{max_len} {len} after {lead}, {room} bytes, local {local}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn short_sequences_land_as_one_by_one() {
        short_sequences_as_one_by_one::<bool>(&[1, 5, 16, 58, 59], |index| index % 3 != 1);
        // Up to 2 words of lanes (then as before), every length of each.
        // Past 2 words `Pending` (`put_chunks`): 0 to 2 whole words
        // before the last 8 bytes without a loop, more with one (70).
        let u8s: Vec<usize> = (1..=33).chain([70]).collect();
        short_sequences_as_one_by_one::<u8>(&u8s, |index| (index as u8).wrapping_mul(97) ^ 0xA5);
        short_sequences_as_one_by_one::<i16>(&[1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 40], |index| {
            (index as i16).wrapping_mul(4099) ^ -0x7000
        });
        short_sequences_as_one_by_one::<u16>(&[8], |index| 0xFFFF - index as u16);
        short_sequences_as_one_by_one::<u32>(&[1, 2, 3, 4, 5, 8, 9], |index| {
            (index as u32).wrapping_mul(0x9E37_79B9)
        });
        short_sequences_as_one_by_one::<u64>(&[1, 2, 3], |index| {
            (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        });
    }

    /// A sequence (or, `array`, its elements alone) by the bulk path, or
    /// one by one.
    fn sequence_into<W: BitWrite, T: Packed>(
        sink: &mut W,
        values: &VecDeque<T>,
        max_len: usize,
        (array, bulk): (bool, bool),
    ) -> Result<(), Error> {
        match (array, bulk) {
            (false, true) => write_packed(sink, values, max_len),
            (true, true) => write_packed_array(sink, values),
            (false, false) => one_by_one(sink, &values.iter().copied().collect::<Vec<T>>(), max_len),
            (true, false) => values.iter().try_for_each(|value| value.write_to(sink)),
        }
    }

    /// Lengths 0 to two past `max_len` (the short paths' ranges, and the
    /// refused), as a sequence and as an array, in a `Vec`'s one slice and
    /// a `VecDeque`'s two: the bulk write through every form of a counter
    /// counts the bits the writer writes (or refuses with its error, at its
    /// bit) after 0 to 63 bits; and a counter near the most it can count
    /// refuses where the writes one by one do, and counts as they do.
    fn measured_as_written<T: Packed>(max_len: usize, value: fn(usize) -> T) {
        for len in 0..=max_len + 2 {
            let items: Vec<T> = (0..len).map(value).collect();
            let mut wrapped = VecDeque::with_capacity(len);
            wrapped.extend(items[len / 2..].iter().copied());
            items[..len / 2].iter().rev().for_each(|&item| wrapped.push_front(item));
            for values in [VecDeque::from(items.clone()), wrapped] {
                for array in [false, true] {
                    for lead in 0..64u32 {
                        let mut buf = alloc::vec![0u8; 1024];
                        let mut writer = BitWriter::new(&mut buf);
                        writer.push(0x5555_5555_5555_5555 & crate::bits::low_mask(lead), lead);
                        let written = sequence_into(&mut writer, &values, max_len, (array, true))
                            .map(|()| writer.bits_written())
                            .map_err(|error| (error.kind(), error.bit()));
                        for form in 0..COUNTER_FORMS {
                            let mut counter = crate::BitCounter::new();
                            counter.push_zeros(lead as usize);
                            let counted = in_counter_form!(&mut counter, form, 1024, |sink| {
                                sequence_into(sink, &values, max_len, (array, true))
                            });
                            let counted = counted
                                .map(|()| counter.bits_written())
                                .map_err(|error| (error.kind(), error.bit()));
                            assert_eq!(
                                counted, written,
                                "{max_len} {len} after {lead}, array {array}, form {form}"
                            );
                        }
                    }
                    let bits = counted_bits(max_len, len, T::WIDTH);
                    for short in [0, 1, 2, 9, 17, 65, bits / 2, bits] {
                        let Some(start) = usize::MAX.checked_sub(bits.saturating_sub(short)) else {
                            continue;
                        };
                        let outcome = |form, bulk| {
                            let mut counter = crate::BitCounter::new();
                            counter.push_zeros(start);
                            let result = if form == 0 {
                                sequence_into(&mut counter, &values, max_len, (array, bulk))
                            } else {
                                sequence_into(&mut counter.local(), &values, max_len, (array, bulk))
                            };
                            (result.map_err(|error| (error.kind(), error.bit())), counter.bits_written())
                        };
                        for form in [0, 1] {
                            assert_eq!(
                                outcome(form, true),
                                outcome(form, false),
                                "{max_len} {len}, {short} short, array {array}, form {form}"
                            );
                        }
                    }
                }
            }
        }
    }

    fn counted_bits(max_len: usize, len: usize, width: u32) -> usize {
        crate::private::len_bits(max_len) + len * width as usize
    }

    #[test]
    fn short_sequences_measure_as_written() {
        measured_as_written::<bool>(16, |index| index % 3 != 1);
        measured_as_written::<bool>(12, |index| index % 2 == 0);
        measured_as_written::<bool>(59, |index| index % 5 == 0);
        measured_as_written::<bool>(70, |index| index % 7 < 3);
        measured_as_written::<u8>(32, |index| index as u8 ^ 0x5A);
        measured_as_written::<u8>(16, |index| index as u8);
        measured_as_written::<u8>(70, |index| index as u8);
        measured_as_written::<i8>(9, |index| -(index as i8));
        measured_as_written::<u16>(8, |index| index as u16 * 1000);
        measured_as_written::<i16>(20, |index| -(index as i16));
        measured_as_written::<u32>(9, |index| index as u32);
        measured_as_written::<i64>(3, |index| -(index as i64));
    }

    #[test]
    fn a_short_buffer_fails_at_the_same_bit_as_element_by_element() {
        let values: Vec<u8> = (0..20).collect();
        for size in [0, 4, 8, 13, 20] {
            let mut bulk_buf = alloc::vec![0u8; size];
            let mut bulk = BitWriter::new(&mut bulk_buf);
            bulk.write_bits(1, 3).ok();
            let bulk_error = write_ints(&mut bulk, &values, 31).unwrap_err();
            let mut one_buf = alloc::vec![0u8; size];
            let mut one = BitWriter::new(&mut one_buf);
            one.write_bits(1, 3).ok();
            let one_error = write_len(&mut one, values.len(), 31)
                .and_then(|()| values.iter().try_for_each(|&value| one.write_u8(value)))
                .unwrap_err();
            assert_eq!((bulk_error.kind(), bulk_error.bit()), (one_error.kind(), one_error.bit()));
            assert_eq!(bulk_error.kind(), ErrorKind::BufferFull);
        }
    }

    /// Every length 0 to 24 after every offset 1 to 8 (its length at any
    /// bit of a byte), followed by 0 to 12
    /// bytes of input (whole words near the end, takes within 9 bytes of
    /// it): the values, and the position after them, of reads element by
    /// element.
    fn lanes_read_as_element_by_element<T: Lane + PartialEq + core::fmt::Debug>(value: fn(usize) -> T) {
        // Fewer under Miri, which runs these for `extend_chunks`' stores.
        let (offsets, afters): (&[u32], &[usize]) = if cfg!(miri) {
            (&[0, 5], &[0, 8, 9, 12])
        } else {
            (&[0, 1, 2, 3, 4, 5, 6, 7], &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        };
        for &offset in offsets {
            for len in 0..=24 {
                for &after in afters {
                    let values: Vec<T> = (0..len).map(value).collect();
                    let mut buf = alloc::vec![0u8; 256];
                    let mut writer = BitWriter::new(&mut buf);
                    writer.write_bits(0x5A & ((1 << (offset + 1)) - 1), offset + 1).unwrap();
                    write_len(&mut writer, len, 31).unwrap();
                    values.iter().try_for_each(|value| value.write_to(&mut writer)).unwrap();
                    (0..after).try_for_each(|_| writer.write_u8(0xFF)).unwrap();
                    let used = writer.finish().unwrap();
                    let mut reader = BitReader::new(&buf[..used]);
                    reader.read_bits(offset + 1).unwrap();
                    let read = read_ints::<_, T, Vec<T>>(&mut reader, 31).unwrap();
                    let end = offset as usize + 1 + 5 + len * T::BITS as usize;
                    assert_eq!((read, reader.bits_read()), (values, end), "{offset} {len} {after}");
                }
            }
        }
    }

    #[test]
    fn integers_read_by_words_as_element_by_element() {
        lanes_read_as_element_by_element::<u8>(|index| (index * 37) as u8);
        lanes_read_as_element_by_element::<i16>(|index| (index as i16).wrapping_mul(4099) ^ -0x7000);
        lanes_read_as_element_by_element::<u32>(|index| (index as u32).wrapping_mul(0x9E37_79B9));
    }

    #[test]
    fn a_length_past_the_input_is_refused_at_the_length() {
        let mut buf = [0u8; 8];
        let mut writer = BitWriter::new(&mut buf);
        writer.write_bits(1, 1).unwrap();
        write_len(&mut writer, 60, 63).unwrap();
        let used = writer.finish().unwrap();
        let mut reader = BitReader::new(&buf[..used]);
        reader.read_bits(1).unwrap();
        let error = read_ints::<_, u8, Vec<u8>>(&mut reader, 63).unwrap_err();
        assert_eq!((error.kind(), error.bit(), reader.bits_read()), (ErrorKind::UnexpectedEnd, 1, 1));
        let mut reader = BitReader::new(&buf[..used]);
        reader.read_bits(1).unwrap();
        let error = read_bools::<_, Vec<bool>>(&mut reader, 63).unwrap_err();
        assert_eq!((error.kind(), error.bit(), reader.bits_read()), (ErrorKind::UnexpectedEnd, 1, 1));
    }
}
