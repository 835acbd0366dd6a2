//! An integer column: one header for the whole column, then every value in
//! the form it names (see the module docs of `columns` for the wire).
//!
//! The plan is made in one pass over the values, branch-free: the OR of the
//! magnitudes gives the shared width, a count of their lengths the
//! per-value cost, the smallest and largest key the offset width and the
//! sign (a key below half is a negative value), so no separate pre-scan for
//! a negative is needed. `u8` columns count each of the 256 values instead.
//! The reader tallies the same as it decodes (the sign mode known from the
//! header) and refuses a header the writer would not have written.

use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::sink::BitSink;
use crate::source::SourceExt;
use crate::write::BitWrite;
use alloc::vec::Vec;
use core::convert::Infallible;
use core::marker::PhantomData;

mod sealed {
    pub trait Sealed {}
}

/// An integer type a column holds: `u8`..`u64`, `i8`..`i64`, `usize` and
/// `isize` (as 64 bits on every target).
pub trait ColumnInt: Copy + sealed::Sealed {
    /// Bits of the type on the wire.
    const WIDTH: u32;
    /// Bits of a length prefix: `2^PREFIX_BITS == WIDTH`.
    const PREFIX_BITS: u32;
    /// Whether it has negative values.
    const SIGNED: bool;
    /// The most bits a column's header takes (mode, sign, shared width):
    /// with `WIDTH` per value, a bound on the whole column.
    const HEADER_MAX_BITS: usize = 2 + Self::SIGNED as usize + Self::PREFIX_BITS as usize + 1;

    /// The value's `WIDTH` bits (two's complement), zero-extended.
    fn raw(self) -> u64;
    /// The value of `raw` (below `2^WIDTH`); `None` when it does not fit
    /// the type on this target (`usize` on 32 bits).
    fn from_raw(raw: u64) -> Option<Self>;
    /// [`ColumnInt::from_raw`] cut to the type: the same value whenever
    /// that is `Some` (a column checks its extremes once instead).
    fn from_raw_wrapping(raw: u64) -> Self;
}

macro_rules! column_int {
    ($($t:ty, $unsigned:ty, $wide:ty, $width:expr, $prefix:expr, $signed:expr;)*) => {$(
        impl sealed::Sealed for $t {}
        impl ColumnInt for $t {
            const WIDTH: u32 = $width;
            const PREFIX_BITS: u32 = $prefix;
            const SIGNED: bool = $signed;
            #[inline(always)]
            fn raw(self) -> u64 {
                // Through the unsigned type of the wire width: sign bits above it cleared.
                (self as $unsigned) as u64
            }
            #[inline(always)]
            fn from_raw(raw: u64) -> Option<Self> {
                // `$wide` is the wire width's type, signed or not (64 bits for usize and isize).
                <$t>::try_from(raw as $unsigned as $wide).ok()
            }
            #[inline(always)]
            fn from_raw_wrapping(raw: u64) -> Self {
                raw as $unsigned as $wide as $t
            }
        }
    )*};
}

column_int! {
    u8, u8, u8, 8, 3, false;
    u16, u16, u16, 16, 4, false;
    u32, u32, u32, 32, 5, false;
    u64, u64, u64, 64, 6, false;
    usize, u64, u64, 64, 6, false;
    i8, u8, i8, 8, 3, true;
    i16, u16, i16, 16, 4, true;
    i32, u32, i32, 32, 5, true;
    i64, u64, i64, 64, 6, true;
    isize, u64, i64, 64, 6, true;
}

/// How a column's values follow its header.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Form {
    /// Every magnitude in the one width.
    Shared(u32),
    /// Every magnitude in the single-value adaptive form.
    PerValue,
    /// The smallest value (single-value form), then every value's distance
    /// from it in the one width.
    Offset { min: u64, width: u32 },
}

impl Form {
    const fn mode(self) -> u32 {
        match self {
            Form::Shared(_) => 0,
            Form::PerValue => 1,
            Form::Offset { .. } => 2,
        }
    }
}

/// A column's header as planned: its form, whether magnitudes are zig-zag
/// coded, and the column's exact bits (header included).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Plan {
    form: Form,
    zigzag: bool,
    bits: u64,
    count: u64,
}

#[inline(always)]
const fn bit_length(value: u64) -> u32 {
    64 - value.leading_zeros()
}

#[inline(always)]
const fn mask<T: ColumnInt>() -> u64 {
    u64::MAX >> (64 - T::WIDTH)
}

/// The zig-zag image of `raw` in `T`'s width (`0, -1, 1, -2` to `0, 1, 2, 3`).
#[inline(always)]
fn zigzag_of<T: ColumnInt>(raw: u64) -> u64 {
    let sign = (raw >> (T::WIDTH - 1)) & 1;
    ((raw << 1) & mask::<T>()) ^ (0u64.wrapping_sub(sign) & mask::<T>())
}

#[inline(always)]
fn unzigzag<T: ColumnInt>(coded: u64) -> u64 {
    ((coded >> 1) ^ 0u64.wrapping_sub(coded & 1)) & mask::<T>()
}

/// An order-preserving image of `raw` in `[0, 2^WIDTH)`: the sign bit flipped.
#[inline(always)]
fn key<T: ColumnInt>(raw: u64) -> u64 {
    if T::SIGNED { raw ^ (1u64 << (T::WIDTH - 1)) } else { raw }
}

/// Bits of a width's header: the prefix, and one more bit for the two
/// longest widths (the prefix holds `WIDTH` values, widths are `0..=WIDTH`).
#[inline(always)]
const fn width_header_bits<T: ColumnInt>(width: u32) -> u64 {
    T::PREFIX_BITS as u64 + (width >= T::WIDTH - 1) as u64
}

/// Bits of one magnitude in the single-value form, beyond its prefix: its
/// length less the implied leading 1, and the escape bit. Branch-free: the
/// length of `magnitude | 1` is one more than the payload's for any
/// magnitude (0 and 1 both send none), so no zero check.
#[inline(always)]
const fn value_extra_bits<T: ColumnInt>(magnitude: u64) -> u64 {
    (63 - (magnitude | 1).leading_zeros()) as u64 + (magnitude >> (T::WIDTH - 2) != 0) as u64
}

/// Bits of a magnitude of bit length `length` in the single-value form,
/// beyond its prefix: [`value_extra_bits`] of any such magnitude.
#[inline(always)]
const fn length_extra_bits<T: ColumnInt>(length: u32) -> u64 {
    length.saturating_sub(1) as u64 + (length >= T::WIDTH - 1) as u64
}

/// The shortest header for the column of `raws` (each value's `WIDTH`
/// bits), computed exactly in one pass; ties go to shared width, then per
/// value, then offset.
///
/// Per value the pass takes one magnitude (the zig-zag code for a signed
/// type), counts its bit length in a histogram and keeps the smallest and
/// largest key; the count and the per-value cost are summed from the
/// histogram once, the sign read from the smallest key. A
/// signed column without a negative sends plain magnitudes, each the half
/// of its zig-zag code (one bit shorter unless zero), so the one histogram
/// serves both signs.
#[inline(always)]
fn plan<T: ColumnInt>(raws: impl Walk) -> Plan {
    if is_byte::<T>() {
        let mut counts = [0u64; 256];
        raws.walk(|raw| counts[(raw & 0xFF) as usize] += 1);
        let count = counts.iter().sum();
        return Tally::of_bytes(&counts).plan::<T>(count, false).unwrap_or(EMPTY);
    }
    // Counted by the bit length of `coded | 1`: no zero case, and 0 and 1
    // cost the same (no payload); the count is their sum.
    let mut or = 0u64;
    let mut lengths = [0u64; 65];
    let (mut low, mut high) = (u64::MAX, 0u64);
    raws.walk(|raw| {
        let coded = if T::SIGNED { zigzag_of::<T>(raw) } else { raw };
        or |= coded;
        lengths[bit_length(coded | 1) as usize] += 1;
        let key = key::<T>(raw);
        low = low.min(key);
        high = high.max(key);
    });
    // Signed values are zig-zag coded when one is negative: a key below half.
    let zigzag = T::SIGNED && low < 1u64 << (T::WIDTH - 1);
    // Plain magnitudes of a signed column are one bit shorter than their codes.
    let shift = (T::SIGNED && !zigzag) as u32;
    let width = bit_length(or >> shift);
    let (mut count, mut extra) = (0u64, 0u64);
    for length in 1..=bit_length(or | 1) {
        count += lengths[length as usize];
        extra += lengths[length as usize] * length_extra_bits::<T>(length - shift);
    }
    choose::<T>(Summary { count, zigzag, width, extra, low, high })
}

/// What one pass over a column finds, under its sign mode: enough to cost
/// every form exactly.
#[derive(Clone, Copy)]
struct Summary {
    count: u64,
    zigzag: bool,
    /// The bit length of the largest magnitude.
    width: u32,
    /// Every magnitude's bits beyond its prefix in the single-value form.
    extra: u64,
    /// The smallest and largest keys.
    low: u64,
    high: u64,
}

/// The shortest form for a column so summed; ties go to shared width, then
/// per value, then offset.
#[inline(always)]
fn choose<T: ColumnInt>(column: Summary) -> Plan {
    let Summary { count, zigzag, width, extra, low, high } = column;
    let sign_bit = T::SIGNED as u64;
    let shared = sign_bit + width_header_bits::<T>(width) + count * width as u64;
    let per_value = sign_bit + count * T::PREFIX_BITS as u64 + extra;
    let (min, offset_width) = if count == 0 { (0, 0) } else { (low, bit_length(high - low)) };
    let min_magnitude = if T::SIGNED { zigzag_of::<T>(key::<T>(min)) } else { min };
    let offset = T::PREFIX_BITS as u64
        + value_extra_bits::<T>(min_magnitude)
        + width_header_bits::<T>(offset_width)
        + count * offset_width as u64;
    let (form, zigzag, bits) = if shared <= per_value && shared <= offset {
        (Form::Shared(width), zigzag, shared)
    } else if per_value <= offset {
        (Form::PerValue, zigzag, per_value)
    } else {
        (Form::Offset { min, width: offset_width }, false, offset)
    };
    Plan { form, zigzag, bits: bits + 2, count }
}

/// Whether `T` is `u8`: its columns (a string's bytes, small counters)
/// are planned from a count of each of the 256 values, one increment per
/// value, and the plan from the counts once per column.
#[inline(always)]
const fn is_byte<T: ColumnInt>() -> bool {
    T::WIDTH == 8 && !T::SIGNED
}

/// A plan no column uses (an unsigned column's tally always has one).
const EMPTY: Plan = Plan { form: Form::PerValue, zigzag: false, bits: 0, count: 0 };

/// What a reader tallies over a column as it decodes it, the sign mode
/// known from the header: enough to make the writer's plan for the values
/// and so refuse a header it would not have chosen, in the read loop
/// itself (no second pass).
#[derive(Clone, Copy)]
struct Tally {
    /// The OR of the magnitudes.
    or: u64,
    /// Every magnitude's bits beyond its prefix in the single-value form.
    extra: u64,
    /// The smallest and largest keys.
    low: u64,
    high: u64,
}

impl Tally {
    const fn new() -> Self {
        Tally { or: 0, extra: 0, low: u64::MAX, high: 0 }
    }

    /// Counts a value: its magnitude on the wire and its key.
    #[inline(always)]
    fn add<T: ColumnInt>(&mut self, magnitude: u64, key: u64) {
        self.or |= magnitude;
        self.extra += value_extra_bits::<T>(magnitude);
        self.low = self.low.min(key);
        self.high = self.high.max(key);
    }

    /// The tally of a `u8` column from the count of each value: magnitudes
    /// and keys are the values, summed by bit length (a value's cost in
    /// the single-value form depends only on it).
    fn of_bytes(counts: &[u64; 256]) -> Self {
        let mut extra = 0;
        for length in 1..=8u32 {
            let (first, end) = (1usize << (length - 1), 1usize << length);
            let values: u64 = counts[first..end].iter().sum();
            extra += values * value_extra_bits::<u8>(first as u64);
        }
        let low = counts.iter().position(|&n| n != 0).map_or(u64::MAX, |value| value as u64);
        let high = counts.iter().rposition(|&n| n != 0).map_or(0, |value| value as u64);
        Tally { or: high, extra, low, high }
    }

    /// The writer's plan for the `count` values so tallied under the sign
    /// mode `zigzag`, or `None` when the writer would have used the other
    /// (it zig-zags exactly when a value is negative: a key below half).
    #[inline(always)]
    fn plan<T: ColumnInt>(self, count: u64, zigzag: bool) -> Option<Plan> {
        let negative = T::SIGNED && self.low < 1u64 << (T::WIDTH - 1);
        if negative != zigzag {
            return None;
        }
        let Tally { or, extra, low, high } = self;
        Some(choose::<T>(Summary { count, zigzag, width: bit_length(or), extra, low, high }))
    }
}

/// The magnitude `raw` goes on the wire as, under the plan's sign mode.
#[inline(always)]
fn magnitude<T: ColumnInt>(raw: u64, zigzag: bool) -> u64 {
    if T::SIGNED && zigzag { zigzag_of::<T>(raw) } else { raw }
}

/// Bits gathered in a local word and handed to the sink 64 at a time: a
/// column's values are short, and the sink's own word lives behind a
/// reference.
pub(crate) struct Packer {
    word: u64,
    bits: u32,
}

impl Packer {
    pub(crate) const fn new() -> Self {
        Packer { word: 0, bits: 0 }
    }

    /// Adds the low `bits` (at most 64) of `value`, which must be below
    /// `2^bits` (room already reserved).
    #[inline(always)]
    pub(crate) fn put<S: BitSink + ?Sized>(&mut self, sink: &mut S, value: u64, bits: u32) {
        self.word |= value << self.bits;
        let total = self.bits + bits;
        if total >= 64 {
            sink.push(self.word, 64);
            self.word = value.checked_shr(64 - self.bits).unwrap_or(0);
            self.bits = total - 64;
        } else {
            self.bits = total;
        }
    }

    /// Hands the sink what is left.
    #[inline(always)]
    pub(crate) fn finish<S: BitSink + ?Sized>(self, sink: &mut S) {
        sink.push(self.word, self.bits);
    }
}

/// Packs a width's header.
#[inline(always)]
fn push_width<T: ColumnInt, S: BitSink + ?Sized>(packer: &mut Packer, sink: &mut S, width: u32) {
    let escape = T::WIDTH - 1;
    if width < escape {
        packer.put(sink, u64::from(width), T::PREFIX_BITS);
    } else {
        packer.put(
            sink,
            u64::from(escape) | (u64::from(width - escape) << T::PREFIX_BITS),
            T::PREFIX_BITS + 1,
        );
    }
}

/// Packs one magnitude in the single-value form: the prefix and the
/// payload in one word when they fit (all but the widest 64-bit values).
#[inline(always)]
fn push_value<T: ColumnInt, S: BitSink + ?Sized>(packer: &mut Packer, sink: &mut S, magnitude: u64) {
    let length = bit_length(magnitude);
    let escape = T::WIDTH - 1;
    let (header, header_bits) = if length < escape {
        (u64::from(length), T::PREFIX_BITS)
    } else {
        (u64::from(escape) | (u64::from(length - escape) << T::PREFIX_BITS), T::PREFIX_BITS + 1)
    };
    let payload_bits = length.saturating_sub(1);
    let payload = magnitude & !(1u64 << payload_bits);
    if header_bits + payload_bits <= 64 {
        packer.put(sink, header | (payload << header_bits), header_bits + payload_bits);
    } else {
        packer.put(sink, header, header_bits);
        packer.put(sink, payload, payload_bits);
    }
}

/// Writes a column of integers: one header, then the values (nothing for
/// none; the reader knows the count). The writer checks room for the whole
/// column once, then writes without further checks.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::__private::write_int_column;
/// use bitpack::{BitCounter, BitWrite};
///
/// let mut counter = BitCounter::new();
/// write_int_column(&mut counter, [3u32, 7, 1, 6].into_iter())?;
/// // Mode (2 bits), width 3 (5 bits), four values of 3 bits.
/// assert_eq!(counter.bits_written(), 2 + 5 + 4 * 3);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[inline]
pub fn write_int_column<T: ColumnInt, W: BitWrite>(
    writer: &mut W,
    values: impl Iterator<Item = T> + Clone,
) -> Result<(), Error> {
    write_walked::<T, W>(writer, Each(values))
}

/// A column's values as its plan and then its writes walk them.
pub(crate) trait Walk: Clone {
    /// Hands each value's `WIDTH` bits to `each`, in order.
    fn walk(self, each: impl FnMut(u64));
}

/// The values of an iterator.
#[derive(Clone)]
pub(crate) struct Each<I>(pub I);

impl<T: ColumnInt, I: Iterator<Item = T> + Clone> Walk for Each<I> {
    #[inline(always)]
    fn walk(self, mut each: impl FnMut(u64)) {
        for value in self.0 {
            each(value.raw());
        }
    }
}

/// The values of slices, one after another (the elements of a column's
/// `Vec`s or arrays, a string's bytes): walked a slice at a time, not
/// through a flattening iterator's checks per value.
#[derive(Clone)]
pub(crate) struct Slices<T, I>(pub I, pub PhantomData<fn() -> T>);

impl<'a, T: ColumnInt + 'a, S: AsRef<[T]> + ?Sized + 'a, I: Iterator<Item = &'a S> + Clone> Walk
    for Slices<T, I>
{
    #[inline(always)]
    fn walk(self, mut each: impl FnMut(u64)) {
        for slice in self.0 {
            for value in slice.as_ref() {
                each(value.raw());
            }
        }
    }
}

/// Writes the integers of all of `slices` as one column: what
/// [`write_int_column`] writes for them flattened.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::__private::{write_int_column, write_int_slices};
/// use bitpack::BitWriter;
///
/// let vecs = [vec![3u16, 900], vec![], vec![7]];
/// let (mut flat, mut slices) = ([0u8; 16], [0u8; 16]);
/// let mut writer = BitWriter::new(&mut flat);
/// write_int_column(&mut writer, vecs.iter().flatten().copied())?;
/// let used = writer.finish()?;
/// let mut writer = BitWriter::new(&mut slices);
/// write_int_slices(&mut writer, vecs.iter())?;
/// assert_eq!(writer.finish()?, used);
/// assert_eq!(flat, slices);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[inline]
pub fn write_int_slices<'a, T: ColumnInt + 'a, S: AsRef<[T]> + ?Sized + 'a, W: BitWrite>(
    writer: &mut W,
    slices: impl Iterator<Item = &'a S> + Clone,
) -> Result<(), Error> {
    write_walked::<T, W>(writer, Slices(slices, PhantomData))
}

/// [`write_int_column`] of walked values.
#[inline(always)]
fn write_walked<T: ColumnInt, W: BitWrite>(writer: &mut W, raws: impl Walk) -> Result<(), Error> {
    let plan = plan::<T>(raws.clone());
    if plan.count == 0 {
        return Ok(());
    }
    let bits = usize::try_from(plan.bits).unwrap_or(usize::MAX);
    writer.reserve(bits)?;
    let mut packer = Packer::new();
    packer.put(writer, u64::from(plan.form.mode()), 2);
    if T::SIGNED && !matches!(plan.form, Form::Offset { .. }) {
        packer.put(writer, u64::from(plan.zigzag), 1);
    }
    match plan.form {
        Form::Shared(width) => {
            push_width::<T, W>(&mut packer, writer, width);
            if plan.zigzag {
                raws.walk(|raw| packer.put(writer, zigzag_of::<T>(raw), width));
            } else {
                raws.walk(|raw| packer.put(writer, raw, width));
            }
        }
        Form::PerValue => {
            raws.walk(|raw| push_value::<T, W>(&mut packer, writer, magnitude::<T>(raw, plan.zigzag)));
        }
        Form::Offset { min, width } => {
            push_value::<T, W>(&mut packer, writer, magnitude::<T>(key::<T>(min), true));
            push_width::<T, W>(&mut packer, writer, width);
            raws.walk(|raw| packer.put(writer, key::<T>(raw) - min, width));
        }
    }
    packer.finish(writer);
    Ok(())
}

/// The exact bits [`write_int_column`] takes for `values`.
pub fn int_column_bits<T: ColumnInt>(values: impl Iterator<Item = T> + Clone) -> usize {
    let plan = plan::<T>(Each(values));
    if plan.count == 0 {
        return 0;
    }
    usize::try_from(plan.bits).unwrap_or(usize::MAX)
}

/// Reads a width's header.
#[inline(always)]
fn read_width<T: ColumnInt>(reader: &mut impl BitRead) -> Result<u32, Error> {
    width_from::<T, _>(|bits| reader.take(bits))
}

/// Reads one magnitude in the single-value form.
#[inline(always)]
fn read_value<T: ColumnInt>(reader: &mut impl BitRead) -> Result<u64, Error> {
    value_from::<T, _>(|bits| reader.take(bits))
}

/// A width's header from `take` (a reader's take, or a run's).
#[inline(always)]
fn width_from<T: ColumnInt, E>(mut take: impl FnMut(u32) -> Result<u64, E>) -> Result<u32, E> {
    let escape = T::WIDTH - 1;
    let prefix = take(T::PREFIX_BITS)? as u32;
    if prefix < escape { Ok(prefix) } else { Ok(escape + take(1)? as u32) }
}

/// One magnitude in the single-value form from `take`.
#[inline(always)]
fn value_from<T: ColumnInt, E>(mut take: impl FnMut(u32) -> Result<u64, E>) -> Result<u64, E> {
    let length = width_from::<T, E>(&mut take)?;
    if length <= 1 {
        return Ok(u64::from(length));
    }
    Ok((1u64 << (length - 1)) | take(length - 1)?)
}

/// Refuses `count` values of at least `bits` bits each that cannot be in
/// what remains, then claims their allocation from the budget.
#[inline(always)]
pub(crate) fn claim_values<T>(reader: &mut impl BitRead, count: usize, bits: u64) -> Result<(), Error> {
    if (count as u64).saturating_mul(bits) > reader.bits_remaining() as u64 {
        return Err(Error::new(ErrorKind::UnexpectedEnd, reader.bits_read()));
    }
    reader.claim_allocation::<T>(count)
}

/// `count` values of `width` bits (at most `T`'s), each as the `T` of its
/// bits, checked to remain once.
#[inline(always)]
fn take_run<T: ColumnInt>(reader: &mut impl BitRead, count: usize, width: u32) -> Result<Vec<T>, Error> {
    let mut run = reader.take_run(count, width)?;
    // Zeroed (one `calloc`), then filled: no capacity check per value.
    let mut values = alloc::vec![T::from_raw_wrapping(0); count];
    for value in &mut values {
        *value = T::from_raw_wrapping(run.next_value());
    }
    Ok(values)
}

/// Tallies the coded magnitudes of a shared or per-value column and puts
/// each value in its place (the sign mode a constant: one loop each).
#[inline(always)]
fn tally_coded<T: ColumnInt, const ZIGZAG: bool>(values: &mut [T]) -> Tally {
    if is_byte::<T>() {
        // The values are their codes: counted, not moved.
        let mut counts = [0u64; 256];
        for value in values.iter() {
            counts[(value.raw() & 0xFF) as usize] += 1;
        }
        return Tally::of_bytes(&counts);
    }
    let mut tally = Tally::new();
    for value in values {
        let coded = value.raw();
        let raw = if ZIGZAG { unzigzag::<T>(coded) } else { coded };
        tally.add::<T>(coded, key::<T>(raw));
        *value = T::from_raw_wrapping(raw);
    }
    tally
}

/// Tallies an offset column's values from their distances to `min` (keys
/// tallied as the distances) and puts each value in its place.
#[inline(always)]
fn tally_offsets<T: ColumnInt, const ZIGZAG: bool>(values: &mut [T], min: u64) -> Tally {
    let mut tally = Tally::new();
    for value in values {
        let distance = value.raw();
        let raw = key::<T>(min.wrapping_add(distance));
        tally.add::<T>(magnitude::<T>(raw, ZIGZAG), distance);
        *value = T::from_raw_wrapping(raw);
    }
    tally
}

/// Reads a column of `count` integers written by [`write_int_column`].
/// Refuses a mode no writer uses, values that cannot be in the input or
/// past the allocation budget (before allocating), a value past the type,
/// and a header the writer would not have chosen for the values read
/// (`NonCanonical`): the writer's plan is tallied as the values are read.
/// On `Err` the reader is back where it was.
pub fn read_int_column<T: ColumnInt>(reader: &mut impl BitRead, count: usize) -> Result<Vec<T>, Error> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let start = reader.bits_read();
    reader
        .rolled_back(|reader| {
            let mode = reader.take(2)?;
            let zigzag = T::SIGNED && mode != 2 && reader.take(1)? == 1;
            let mut tally = Tally::new();
            let out_of_range = Error::new(ErrorKind::OutOfRange, start);
            let (values, form, costed_zigzag) = match mode {
                0 => {
                    let width = read_width::<T>(reader)?;
                    claim_values::<T>(reader, count, u64::from(width))?;
                    let mut values = take_run::<T>(reader, count, width)?;
                    tally = if zigzag {
                        tally_coded::<T, true>(&mut values)
                    } else {
                        tally_coded::<T, false>(&mut values)
                    };
                    (values, Form::Shared(width), zigzag)
                }
                1 => {
                    claim_values::<T>(reader, count, u64::from(T::PREFIX_BITS))?;
                    // Read as a run, checked once after: past the input's
                    // end it reads zeros, and then the whole column is refused.
                    let mut run = reader.open_run();
                    let mut values = alloc::vec![T::from_raw_wrapping(0); count];
                    for value in &mut values {
                        let Ok(coded) = value_from::<T, Infallible>(|bits| Ok(run.take(bits)));
                        let raw = if zigzag { unzigzag::<T>(coded) } else { coded };
                        tally.add::<T>(coded, key::<T>(raw));
                        *value = T::from_raw_wrapping(raw);
                    }
                    let taken = run.taken();
                    reader.close_run(taken)?;
                    (values, Form::PerValue, zigzag)
                }
                2 => {
                    let coded = read_value::<T>(reader)?;
                    let min = key::<T>(if T::SIGNED { unzigzag::<T>(coded) } else { coded });
                    let width = read_width::<T>(reader)?;
                    claim_values::<T>(reader, count, u64::from(width))?;
                    // The writer costed the magnitudes zig-zag coded when a
                    // value is negative: when the smallest is.
                    let negative = T::SIGNED && min < 1u64 << (T::WIDTH - 1);
                    // Keys tallied as distances, moved by `min` after the loop.
                    let mut values = take_run::<T>(reader, count, width)?;
                    tally = if negative {
                        tally_offsets::<T, true>(&mut values, min)
                    } else {
                        tally_offsets::<T, false>(&mut values, min)
                    };
                    // The farthest value past the type (or past 64 bits).
                    match min.checked_add(tally.high) {
                        Some(high) if high <= mask::<T>() => {
                            (tally.low, tally.high) = (min + tally.low, high)
                        }
                        _ => return Err(out_of_range),
                    }
                    (values, Form::Offset { min, width }, negative)
                }
                _ => return Err(Error::new(ErrorKind::NonCanonical, start)),
            };
            // Every value fits the type when the extremes do (the values
            // that fit are one run of keys): only `usize` and `isize` on
            // 32 bits can miss.
            if T::from_raw(key::<T>(tally.low)).is_none() || T::from_raw(key::<T>(tally.high)).is_none() {
                return Err(out_of_range);
            }
            // The header the writer would pick for these values, or a refusal.
            match tally.plan::<T>(count as u64, costed_zigzag) {
                Some(planned) if planned.form == form && planned.zigzag == zigzag => Ok(values),
                _ => Err(Error::new(ErrorKind::NonCanonical, start)),
            }
        })
        .map_err(|error| Error::new(error.kind(), start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::BitReader;
    use crate::sink::counter::BitCounter;
    use crate::sink::writer::BitWriter;

    fn round_trip<T: ColumnInt + PartialEq + core::fmt::Debug>(values: &[T]) -> usize {
        let mut counter = BitCounter::new();
        write_int_column(&mut counter, values.iter().copied()).unwrap();
        assert_eq!(counter.bits_written(), int_column_bits(values.iter().copied()));
        let mut buf = alloc::vec![0u8; counter.bits_written().div_ceil(8) + 8];
        let mut writer = BitWriter::new(&mut buf);
        write_int_column(&mut writer, values.iter().copied()).unwrap();
        assert_eq!(writer.bits_written(), counter.bits_written());
        writer.finish().unwrap();
        let mut reader = BitReader::new(&buf);
        assert_eq!(read_int_column::<T>(&mut reader, values.len()).unwrap(), values);
        assert_eq!(reader.bits_read(), counter.bits_written());
        counter.bits_written()
    }

    /// The reader's plan: each value's length summed as it goes (the
    /// sign mode known), the histogram's must equal it.
    fn plan_per_value<T: ColumnInt>(raws: impl Iterator<Item = u64> + Clone) -> Plan {
        // Signed values with the sign bit set anywhere are zig-zag coded.
        let zigzag = T::SIGNED && raws.clone().any(|raw| (raw >> (T::WIDTH - 1)) & 1 == 1);
        let mut tally = Tally::new();
        let mut count = 0u64;
        for raw in raws {
            count += 1;
            tally.add::<T>(magnitude::<T>(raw, zigzag), key::<T>(raw));
        }
        let plan = tally.plan::<T>(count, zigzag).expect("the sign mode is the writer's");
        // Under the other sign mode, the reader refuses.
        assert!(!T::SIGNED || count == 0 || tally.plan::<T>(count, !zigzag).is_none());
        plan
    }

    /// The value of `raw`, or `OutOfRange` (a `usize` past this target's).
    #[inline(always)]
    fn value_of<T: ColumnInt>(raw: u64, start: usize) -> Result<T, Error> {
        T::from_raw(raw).ok_or(Error::new(ErrorKind::OutOfRange, start))
    }

    /// The reader before the tally and the runs: one take per value, then
    /// the writer's plan over what it read. The reader must agree with it
    /// on every input, hostile ones included.
    fn read_int_column_reference<T: ColumnInt>(
        reader: &mut impl BitRead,
        count: usize,
    ) -> Result<Vec<T>, Error> {
        if count == 0 {
            return Ok(Vec::new());
        }
        let start = reader.bits_read();
        reader
            .rolled_back(|reader| {
                let mode = reader.take(2)?;
                let zigzag = T::SIGNED && mode != 2 && reader.take(1)? == 1;
                let mut values: Vec<T> = Vec::new();
                let form = match mode {
                    0 => {
                        let width = read_width::<T>(reader)?;
                        claim_values::<T>(reader, count, u64::from(width))?;
                        for _ in 0..count {
                            let coded = reader.take(width)?;
                            values.push(value_of::<T>(
                                if zigzag { unzigzag::<T>(coded) } else { coded },
                                start,
                            )?);
                        }
                        Form::Shared(width)
                    }
                    1 => {
                        claim_values::<T>(reader, count, u64::from(T::PREFIX_BITS))?;
                        for _ in 0..count {
                            let coded = read_value::<T>(reader)?;
                            values.push(value_of::<T>(
                                if zigzag { unzigzag::<T>(coded) } else { coded },
                                start,
                            )?);
                        }
                        Form::PerValue
                    }
                    2 => {
                        let coded = read_value::<T>(reader)?;
                        let min = key::<T>(if T::SIGNED { unzigzag::<T>(coded) } else { coded });
                        let width = read_width::<T>(reader)?;
                        claim_values::<T>(reader, count, u64::from(width))?;
                        for _ in 0..count {
                            let key = min.checked_add(reader.take(width)?).filter(|key| *key <= mask::<T>());
                            let key = key.ok_or(Error::new(ErrorKind::OutOfRange, start))?;
                            values.push(value_of::<T>(self::key::<T>(key), start)?);
                        }
                        Form::Offset { min, width }
                    }
                    _ => return Err(Error::new(ErrorKind::NonCanonical, start)),
                };
                let planned = plan::<T>(Each(values.iter().copied()));
                if planned.form != form || planned.zigzag != zigzag {
                    return Err(Error::new(ErrorKind::NonCanonical, start));
                }
                Ok(values)
            })
            .map_err(|error| Error::new(error.kind(), start))
    }

    /// A xorshift stream: the tests' random values.
    fn stream(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    #[test]
    fn the_reader_agrees_with_the_reference_on_any_bytes() {
        fn check<T: ColumnInt + PartialEq + core::fmt::Debug>(bytes: &[u8], skip: u32, count: usize) {
            let mut fast = BitReader::with_limit(bytes, 1 << 16);
            let mut reference = fast.clone();
            if fast.read_bits64(skip).is_err() || reference.read_bits64(skip).is_err() {
                return;
            }
            let (got, want) = (
                read_int_column::<T>(&mut fast, count),
                read_int_column_reference::<T>(&mut reference, count),
            );
            match (&got, &want) {
                (Ok(got), Ok(want)) => assert_eq!(got, want),
                (Err(got), Err(want)) => assert_eq!(got, want),
                _ => panic!("{got:?} != {want:?}"),
            }
            assert_eq!(fast.bits_read(), reference.bits_read());
            assert_eq!(fast.allocation_left(), reference.allocation_left());
        }
        fn column<T: ColumnInt + PartialEq + core::fmt::Debug>(
            next: &mut impl FnMut() -> u64,
            cast: impl Fn(u64) -> T,
        ) {
            // A written column after a few bits, then the same bytes
            // damaged: a flipped bit, cut short, or replaced by noise.
            let len = (next() % 80) as usize;
            let shift = (next() % 65) as u32;
            let (base, spread) = (next(), next().checked_shr(shift).unwrap_or(0));
            let values: Vec<T> = (0..len).map(|_| cast(base.wrapping_add(next() & spread))).collect();
            let skip = (next() % 8) as u32;
            let mut buf = alloc::vec![0u8; 16 + len * 9];
            let mut writer = BitWriter::new(&mut buf);
            writer.write_bits64(0, skip.max(1)).unwrap();
            write_int_column(&mut writer, values.iter().copied()).unwrap();
            let used = writer.finish().unwrap();
            let skip = skip.max(1);
            check::<T>(&buf[..used], skip, len);
            let mut damaged = buf[..used].to_vec();
            let bit = (next() as usize) % (used * 8);
            damaged[bit / 8] ^= 1 << (bit % 8);
            check::<T>(&damaged, skip, len);
            check::<T>(&buf[..(next() as usize) % used + 1], skip, len);
            let noise: Vec<u8> = (0..used).map(|_| next() as u8).collect();
            check::<T>(&noise, skip, len);
            check::<T>(&noise, skip, len / 2 + 1);
        }
        let mut next = stream(0x2545_F491_4F6C_DD1D);
        for _ in 0..1_500 {
            column::<u8>(&mut next, |x| x as u8);
            column::<u16>(&mut next, |x| x as u16);
            column::<u32>(&mut next, |x| x as u32);
            column::<u64>(&mut next, |x| x);
            column::<usize>(&mut next, |x| x as usize);
            column::<i8>(&mut next, |x| x as i8);
            column::<i16>(&mut next, |x| x as i16);
            column::<i32>(&mut next, |x| x as i32);
            column::<i64>(&mut next, |x| x as i64);
            column::<isize>(&mut next, |x| x as isize);
        }
    }

    #[test]
    fn slices_write_what_their_flattening_writes() {
        fn check<T: ColumnInt>(vecs: &[Vec<T>]) {
            let (mut flat, mut slices) = ([0u8; 1024], [0u8; 1024]);
            let mut writer = BitWriter::new(&mut flat);
            write_int_column(&mut writer, vecs.iter().flatten().copied()).unwrap();
            let used = writer.finish().unwrap();
            let mut writer = BitWriter::new(&mut slices);
            write_int_slices(&mut writer, vecs.iter()).unwrap();
            assert_eq!(writer.finish().unwrap(), used);
            assert_eq!(flat, slices);
        }
        let mut next = stream(0x0DDB_1A5E_5BAD_5EED);
        for _ in 0..500 {
            let shift = (next() % 65) as u32;
            let vecs: Vec<Vec<u64>> = (0..next() % 6)
                .map(|_| (0..next() % 12).map(|_| next().checked_shr(shift).unwrap_or(0)).collect())
                .collect();
            check::<u8>(&vecs.iter().map(|vec| vec.iter().map(|&x| x as u8).collect()).collect::<Vec<_>>());
            check::<u16>(&vecs.iter().map(|vec| vec.iter().map(|&x| x as u16).collect()).collect::<Vec<_>>());
            check::<i32>(&vecs.iter().map(|vec| vec.iter().map(|&x| x as i32).collect()).collect::<Vec<_>>());
            check::<u64>(&vecs);
        }
    }

    #[test]
    fn the_histogram_plan_equals_the_per_value_plan() {
        fn check<T: ColumnInt>(values: &[T]) {
            let raws = || values.iter().map(|value| value.raw());
            assert_eq!(plan::<T>(Each(raws())), plan_per_value::<T>(raws()));
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..2_000u32 {
            let len = (next() % 40) as usize;
            // Values of every width: a random mask keeps them short or long.
            let shift = (next() % 65) as u32;
            let mut draw =
                || next().checked_shr(shift).unwrap_or(0) ^ if round % 3 == 0 { u64::MAX } else { 0 };
            let v: Vec<u64> = (0..len).map(|_| draw()).collect();
            check::<u8>(&v.iter().map(|&x| x as u8).collect::<Vec<_>>());
            check::<u16>(&v.iter().map(|&x| x as u16).collect::<Vec<_>>());
            check::<u32>(&v.iter().map(|&x| x as u32).collect::<Vec<_>>());
            check::<u64>(&v);
            check::<i8>(&v.iter().map(|&x| x as i8).collect::<Vec<_>>());
            check::<i16>(&v.iter().map(|&x| x as i16).collect::<Vec<_>>());
            check::<i32>(&v.iter().map(|&x| x as i32).collect::<Vec<_>>());
            check::<i64>(&v.iter().map(|&x| x as i64).collect::<Vec<_>>());
            check::<i16>(&v.iter().map(|&x| (x as i16) & 0x7FFF).collect::<Vec<_>>());
            check::<i64>(&v.iter().map(|&x| (x >> 1) as i64).collect::<Vec<_>>());
        }
        check::<i64>(&[i64::MIN, i64::MAX, 0, -1]);
        check::<i8>(&[i8::MAX, 0, 63, 64]);
        check::<u8>(&[u8::MAX, 0, 63, 64, 127]);
    }

    #[test]
    fn each_form_round_trips_and_is_the_shortest() {
        // Shared: mode, 5-bit width 3, then 3 bits each.
        assert_eq!(round_trip(&[3u32, 7, 1, 6]), 2 + 5 + 4 * 3);
        // Per value: one large outlier among zeros.
        assert_eq!(round_trip(&[0u32, 0, 0, 0, 0, 0, 0, u32::MAX]), 2 + 7 * 5 + (5 + 1 + 31));
        // Offset: values in [1000, 1003].
        let offset = round_trip(&[1000u16, 1001, 1003, 1002, 1000, 1001]);
        assert_eq!(offset, 2 + (4 + 9) + 4 + 6 * 2);
        // Signed: the header's sign bit, zig-zag only with a negative.
        assert_eq!(round_trip(&[1i16, 2, 3]), 2 + 1 + 4 + 3 * 2);
        assert_eq!(round_trip(&[-1i16, 1, 0]), 2 + 1 + 4 + 3 * 2);
        round_trip(&[i64::MIN, i64::MAX, 0, -1]);
        round_trip(&[u64::MAX, 0]);
        round_trip(&[i8::MIN, i8::MIN]);
        round_trip(&[usize::MAX, 3]);
        round_trip(&[isize::MIN, 3]);
        assert_eq!(round_trip::<u8>(&[]), 0);
        // All equal: offset of width 0 beats shared when they are large.
        assert_eq!(round_trip(&[50_000u32; 10]), 2 + (5 + 15) + 5);
    }

    #[test]
    fn a_header_the_writer_would_not_choose_is_refused() {
        // Shared width 4 for values whose widest is 3.
        let mut buf = [0u8; 8];
        let mut writer = BitWriter::new(&mut buf);
        writer.write_bits(0, 2).unwrap();
        writer.write_bits(4, 5).unwrap();
        for value in [3u32, 7, 1, 6] {
            writer.write_bits(value, 4).unwrap();
        }
        writer.finish().unwrap();
        let error = read_int_column::<u32>(&mut BitReader::new(&buf), 4).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::NonCanonical);
        // Mode 3 is no mode.
        let error = read_int_column::<u32>(&mut BitReader::new(&[0x03, 0, 0]), 1).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::NonCanonical);
    }

    #[test]
    fn an_offset_past_the_type_is_refused() {
        // Offset mode, min 255 (u8, single-value form: length 8 is the escape 7 and 1, then 7 bits),
        // width 1, one value 1: 256.
        let mut buf = [0u8; 8];
        let mut writer = BitWriter::new(&mut buf);
        writer.write_bits(2, 2).unwrap();
        writer.write_bits(7 | (1 << 3), 4).unwrap();
        writer.write_bits(0x7F, 7).unwrap();
        writer.write_bits(1, 3).unwrap();
        writer.write_bits(1, 1).unwrap();
        writer.finish().unwrap();
        let error = read_int_column::<u8>(&mut BitReader::new(&buf), 1).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::OutOfRange);
    }

    #[test]
    fn zeros_in_width_zero_are_bounded_by_the_budget() {
        let mut buf = [0u8; 2];
        let mut writer = BitWriter::new(&mut buf);
        write_int_column(&mut writer, [0u64; 4].into_iter()).unwrap();
        writer.finish().unwrap();
        let mut reader = BitReader::with_limit(&buf, 64);
        let error = read_int_column::<u64>(&mut reader, 1_000_000).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::AllocationLimit);
        assert_eq!(reader.bits_read(), 0);
    }
}
