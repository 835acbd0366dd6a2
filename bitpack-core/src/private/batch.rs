//! Batched quantization (issue 15): a derived `Vec` of a type whose fused
//! runs hold quantized floats writes and reads its elements in blocks of
//! [`BLOCK`], each float field of the block quantized (or dequantized) lane
//! by lane in one plain loop over a fixed array, which the compiler turns
//! into vector instructions. Each element's bits are then packed (or taken)
//! by the same fused-run code as a single element's, so the wire is the
//! same bits in the same order.
//!
//! The arithmetic is [`Quantizer`]'s, step for step (the same f32 or f64
//! operations in the same order, nothing fused), so every lane gives what
//! the scalar path gives. A block with any value refused (a non-finite
//! float; on read, a step above the maximum, a short input, any other
//! refusal) is done again element by element by the element's own
//! `write_to` / `read_from`, from where the block began, so every error
//! names the same bit and leaves the same position as before.
//!
//! The derive reaches these through [`BitPack`]'s hidden `__write_items` /
//! `__read_items`, which a derived type overrides and every other type
//! keeps as a loop over its elements.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use super::write_len;
use crate::error::Error;
use crate::pack::BitPack;
use crate::quantize::{Quantizer, Quantizer64};
#[cfg(feature = "alloc")]
use crate::read::BitRead;
#[cfg(feature = "alloc")]
use crate::source::BitSource;
use crate::write::BitWrite;

/// Elements per block: eight f32 lanes are two SSE (one AVX) vectors.
pub const BLOCK: usize = 8;

/// Writes a `Vec` (or slice) of `T` as [`write_len`] then the elements,
/// through `T`'s `__write_items` (blocks for a derived type with quantized
/// fused runs, one by one otherwise).
///
/// Generated code: `#p::write_items::<_, T>(__writer, &self.field, MAX_LEN)?;`
#[inline]
pub fn write_items<W: BitWrite, T: BitPack>(
    writer: &mut W,
    items: &[T],
    max_len: usize,
) -> Result<(), Error> {
    write_len(writer, items.len(), max_len)?;
    T::__write_items(items, writer)
}

/// Reads what [`write_items`] wrote, as [`read_vec`](super::read_vec) does
/// (the length refused unless `len` elements of `T::MIN_BITS` can be in the
/// input, `len` `T`s claimed first, the reader back where it was on `Err`),
/// the elements through `T`'s `__read_items`.
///
/// Generated code: `#p::read_items::<_, T>(__reader, MAX_LEN)?`
#[cfg(feature = "alloc")]
#[inline]
pub fn read_items<R: BitRead, T: BitPack>(reader: &mut R, max_len: usize) -> Result<Vec<T>, Error> {
    use crate::source::SourceExt;
    reader.rolled_back(|reader| {
        let len = super::read_claimed_len::<T>(reader, max_len, T::MIN_BITS)?;
        let mut items = Vec::with_capacity(len);
        T::__read_items(reader, len, &mut items)?;
        Ok(items)
    })
}

/// Writes `items` a block at a time through `write_block`, which returns
/// `Ok(false)` before writing anything when a lane refused a value (the
/// block is then written element by element), and the last
/// `items.len() % BLOCK` element by element.
///
/// Generated code (a derived `__write_items`): `#p::write_blocks(__items,
/// __writer, |__writer, __block| { LANES; if !valid { return Ok(false) };
/// EACH ELEMENT; Ok(true) })`.
#[inline(always)]
pub fn write_blocks<W: BitWrite, T: BitPack>(
    items: &[T],
    writer: &mut W,
    mut write_block: impl FnMut(&mut W, &[T; BLOCK]) -> Result<bool, Error>,
) -> Result<(), Error> {
    let (blocks, tail) = items.as_chunks::<BLOCK>();
    for block in blocks {
        let start = writer.checkpoint();
        if !write_block(writer, block)? {
            // Refused before any write, or a window overran: from the start.
            writer.rewind(start);
            for item in block {
                item.write_to(writer)?;
            }
        }
    }
    for item in tail {
        item.write_to(writer)?;
    }
    Ok(())
}

/// Reads `len` elements onto `items` a block at a time through
/// `read_block`, which pushes the block's elements and returns `Ok(true)`,
/// or anything else when one of them is refused or not in the input: the
/// block is then read again element by element (`read_from`) from where it
/// began (the elements it pushed dropped, the reader and its allocation
/// budget back), so the error is the one `read_from` gives. The last
/// `len % BLOCK` are read element by element.
#[cfg(feature = "alloc")]
#[inline(always)]
pub fn read_blocks<R: BitRead, T: BitPack>(
    reader: &mut R,
    len: usize,
    items: &mut Vec<T>,
    mut read_block: impl FnMut(&mut R, &mut Vec<T>) -> Result<bool, Error>,
) -> Result<(), Error> {
    for _ in 0..len / BLOCK {
        let (start, base) = (reader.checkpoint(), items.len());
        if !matches!(read_block(reader, items), Ok(true)) {
            read_again(reader, start, items, base)?;
        }
    }
    for _ in 0..len % BLOCK {
        items.push(T::read_from(reader)?);
    }
    Ok(())
}

/// A block's elements put straight into the room `read_items` reserved for
/// them (`block_slots`): no capacity test and no length stored per element
/// (a `push` each measured 37,881 -> 34,888 instructions a snapshot).
#[cfg(feature = "alloc")]
#[derive(Debug)]
pub struct BlockSlots<'v, T> {
    slots: crate::unchecked::Slots<'v, T>,
}

/// The next [`BLOCK`] slots of `items`, `None` without room for them (the
/// block is then read element by element); the elements put are counted
/// when the slots are dropped, whether the block was accepted or not.
#[cfg(feature = "alloc")]
#[inline(always)]
pub fn block_slots<T>(items: &mut Vec<T>) -> Option<BlockSlots<'_, T>> {
    crate::unchecked::Slots::new(items).map(|slots| BlockSlots { slots })
}

#[cfg(feature = "alloc")]
impl<T> BlockSlots<'_, T> {
    /// Puts the block's next element (of at most [`BLOCK`]).
    #[inline(always)]
    pub fn put(&mut self, value: T) {
        self.slots.put(value);
    }
}

/// A refused block read again element by element, from its start.
#[cfg(feature = "alloc")]
#[cold]
#[inline(never)]
fn read_again<R: BitRead, T: BitPack>(
    reader: &mut R,
    start: <R as BitSource>::Checkpoint,
    items: &mut Vec<T>,
    base: usize,
) -> Result<(), Error> {
    items.truncate(base);
    reader.rewind(start);
    for _ in 0..BLOCK {
        items.push(T::read_from(reader)?);
    }
    Ok(())
}

/// A block's quantized floats summed lane by lane, for one test of their
/// finiteness after all of them ([`LaneSums::finite`]): one addition a lane
/// where each field's own test was a mask, a compare and their combining.
/// A sum of finite values that overflows refuses the block too, which is
/// then written element by element (the same bytes, only slower); a
/// non-finite value always makes its lane's sum non-finite.
#[derive(Clone, Copy, Debug, Default)]
pub struct LaneSums {
    f32s: [f32; BLOCK],
    f64s: [f64; BLOCK],
}

impl LaneSums {
    /// All zero.
    #[inline(always)]
    pub const fn new() -> Self {
        LaneSums { f32s: [0.0; BLOCK], f64s: [0.0; BLOCK] }
    }

    /// Whether every sum is finite (so was every value).
    #[inline(always)]
    pub fn finite(&self) -> bool {
        // `&`, not `&&`: no early exit, so the test vectorises.
        self.f32s.iter().fold(true, |all, sum| all & sum.is_finite())
            & self.f64s.iter().fold(true, |all, sum| all & sum.is_finite())
    }
}

/// The steps `write_compressed_float` writes for each of `values`, as
/// `Quantizer::quantize` computes them, lane by lane
/// (`Quantizer::quantize_lane`); adds `values` to `sums` (the block is
/// refused unless they end finite) and clears `valid` if the declaration is
/// refused (then the steps are not used).
#[inline(always)]
pub fn quantized_lanes(
    values: [f32; BLOCK],
    min: f32,
    max: f32,
    res: f32,
    sums: &mut LaneSums,
    valid: &mut bool,
) -> [u32; BLOCK] {
    let Some(quantizer) = Quantizer::new(min, max, res) else {
        *valid = false;
        return [0; BLOCK];
    };
    for (sum, value) in sums.f32s.iter_mut().zip(values) {
        *sum += value;
    }
    let mut steps = [0; BLOCK];
    for (step, value) in steps.iter_mut().zip(values) {
        *step = quantizer.quantize_lane(value);
    }
    steps
}

/// Per-lane sums of the rows of [`quantized_row`], for one test of their
/// finiteness after the block (as [`LaneSums`]: a value that is not finite
/// leaves its lane's sum not finite).
#[derive(Clone, Copy, Debug)]
pub struct RowSums {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    sse: core::arch::x86_64::__m128,
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    lanes: [f32; 4],
}

impl Default for RowSums {
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

impl RowSums {
    /// All zero.
    #[inline(always)]
    pub fn new() -> Self {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        return RowSums { sse: crate::unchecked::sse::zero() };
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        RowSums { lanes: [0.0; 4] }
    }

    #[inline(always)]
    fn add(&mut self, values: [f32; 4]) {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            self.sse = crate::unchecked::sse::add(self.sse, values);
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        for (sum, value) in self.lanes.iter_mut().zip(values) {
            *sum += value;
        }
    }

    /// Whether every sum is finite (so was every value added).
    #[inline(always)]
    pub fn finite(&self) -> bool {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        return crate::unchecked::sse::finite(self.sse);
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        self.lanes.iter().fold(true, |all, sum| all & sum.is_finite())
    }
}

/// Four `f32` leaves of one element (`values`, each with its own
/// declaration `(min, max, res)`), quantized as `Quantizer::quantize_lane`
/// does each: on x86-64 in one SSE2 chain (`unchecked::sse`) straight from the element's
/// fields, which the compiler cannot turn into a gather across elements
/// (plain lane loops here were vectorised across the block, each lane
/// loaded on its own). Adds `values` to `sums` (the block is refused unless
/// they end finite) and clears `valid` if a declaration is refused (the
/// steps are then not used). Unused lanes: the value `0.0` under
/// `(0.0, 1.0, 1.0)`.
#[inline(always)]
pub fn quantized_row(
    values: [f32; 4],
    declarations: [(f32, f32, f32); 4],
    sums: &mut RowSums,
    valid: &mut bool,
) -> [u32; 4] {
    let Some([a, b, c, d]) = row_quantizers(declarations) else {
        *valid = false;
        return [0; 4];
    };
    sums.add(values);
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(constants) = row_constants([&a, &b, &c, &d]) {
        return crate::unchecked::sse::quantized_row(values, constants);
    }
    let [w, x, y, z] = values;
    [a.quantize_lane(w), b.quantize_lane(x), c.quantize_lane(y), d.quantize_lane(z)]
}

/// A row's four quantizers, `None` if a declaration is refused. Each lane
/// written out (not `array::map`, which was not inlined: the constants did
/// not fold).
#[inline(always)]
fn row_quantizers([a, b, c, d]: [(f32, f32, f32); 4]) -> Option<[Quantizer; 4]> {
    let new = |(min, max, res): (f32, f32, f32)| Quantizer::new(min, max, res);
    Some([new(a)?, new(b)?, new(c)?, new(d)?])
}

/// The SSE2 constants of a row's quantizers (`Quantizer::row_constants`),
/// `None` if one lane's declaration is past 2^23 steps (the row is then
/// computed lane by lane).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn row_constants([a, b, c, d]: [&Quantizer; 4]) -> Option<[(f32, f32, f32); 4]> {
    Some([a.row_constants()?, b.row_constants()?, c.row_constants()?, d.row_constants()?])
}

/// Four quantized `f32` leaves of one element read (`steps`, each from
/// [`lane_steps`], each lane with its own declaration `(min, max, res)`):
/// the values `read_compressed_float` gives, as `Quantizer::dequantize`
/// computes each, on x86-64 in one SSE2 chain (`unchecked::sse`) with one
/// test of the row's steps against their maxima. Clears `valid` if a step
/// is above its maximum or a declaration is refused (the values are then
/// not used). Unused lanes: the step 0 under `(0.0, 1.0, 1.0)`.
#[inline(always)]
pub fn dequantized_row(steps: [u32; 4], declarations: [(f32, f32, f32); 4], valid: &mut bool) -> [f32; 4] {
    let Some([a, b, c, d]) = row_quantizers(declarations) else {
        *valid = false;
        return [0.0; 4];
    };
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(constants) = row_constants([&a, &b, &c, &d]) {
        let (values, accepted) = crate::unchecked::sse::dequantized_row(steps, constants);
        *valid &= accepted;
        return values;
    }
    let [w, x, y, z] = steps;
    let lane = |quantizer: Quantizer, step: u32, valid: &mut bool| {
        *valid &= step <= quantizer.max_integer();
        quantizer.dequantize_unchecked(step)
    };
    [lane(a, w, valid), lane(b, x, valid), lane(c, y, valid), lane(d, z, valid)]
}

/// [`quantized_lanes`] for `f64` fields (`write_compressed_double`).
#[inline(always)]
pub fn quantized64_lanes(
    values: [f64; BLOCK],
    min: f64,
    max: f64,
    res: f64,
    sums: &mut LaneSums,
    valid: &mut bool,
) -> [u64; BLOCK] {
    let Some(quantizer) = Quantizer64::new(min, max, res) else {
        *valid = false;
        return [0; BLOCK];
    };
    for (sum, value) in sums.f64s.iter_mut().zip(values) {
        *sum += value;
    }
    let mut steps = [0; BLOCK];
    for (step, value) in steps.iter_mut().zip(values) {
        *step = quantizer.quantize_lane(value);
    }
    steps
}

/// A quantized leaf's steps as read (`raw`, taken from a fused run of its
/// `quantize_bits`, at most 32), kept for [`dequantized_lanes`], which
/// checks them: one compare a lane for the block rather than a check and a
/// flag per element.
#[inline(always)]
pub fn lane_steps(raw: u64) -> u32 {
    // Never above `u32::MAX` from a run; saturated, it would be refused.
    u32::try_from(raw).unwrap_or(u32::MAX)
}

/// [`lane_steps`] for `f64` fields.
#[inline(always)]
pub fn lane_steps64(raw: u64) -> u64 {
    raw
}

/// The values `read_compressed_float` gives for `steps` (taken by
/// [`lane_steps`]), lane by lane, as `Quantizer::dequantize` computes them;
/// clears `valid` if it would refuse one (a step above the maximum, a
/// refused declaration: the values are then not used).
#[inline(always)]
pub fn dequantized_lanes(
    steps: [u32; BLOCK],
    min: f32,
    max: f32,
    res: f32,
    valid: &mut bool,
) -> [f32; BLOCK] {
    let mut values = [0.0; BLOCK];
    let Some(quantizer) = Quantizer::new(min, max, res) else {
        *valid = false;
        return values;
    };
    let top = quantizer.max_integer();
    // `&`, not `&&`: no early exit, so the test vectorises with the rest.
    *valid &= steps.iter().fold(true, |all, step| all & (*step <= top));
    for (value, step) in values.iter_mut().zip(steps) {
        *value = quantizer.dequantize_unchecked(step);
    }
    values
}

/// [`dequantized_lanes`] for `f64` fields.
#[inline(always)]
pub fn dequantized64_lanes(
    steps: [u64; BLOCK],
    min: f64,
    max: f64,
    res: f64,
    valid: &mut bool,
) -> [f64; BLOCK] {
    let mut values = [0.0; BLOCK];
    let Some(quantizer) = Quantizer64::new(min, max, res) else {
        *valid = false;
        return values;
    };
    let top = quantizer.max_integer();
    *valid &= steps.iter().fold(true, |all, step| all & (*step <= top));
    for (value, step) in values.iter_mut().zip(steps) {
        *value = quantizer.dequantize_unchecked(step);
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    const DECLARATIONS: [(f32, f32, f32); 5] = [
        (-1024.0, 1024.0, 0.01),
        (0.0, core::f32::consts::TAU, 0.001),
        (-1.0, 1.0, 1.0 / 127.0),
        (0.0, 16_777_215.0, 1.0),
        (-3.0e9, 3.0e9, 1.0),
    ];

    /// Random bit patterns, values across and around `(min, max)`, and
    /// values on and next to half steps (where rounding turns).
    fn values(seed: u64, (min, max, res): (f32, f32, f32)) -> [f32; BLOCK] {
        let mut state = seed;
        core::array::from_fn(|_| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let bits = (state >> 32) as u32;
            let unit = (bits >> 8) as f32 / 16_777_216.0;
            match state & 3 {
                0 => f32::from_bits(bits),
                1 => min - (max - min) * 0.1 + (max - min) * 1.2 * unit,
                _ => {
                    let half = min + ((unit * (max - min) / res) as u32 as f32 + 0.5) * res;
                    let nudge = (state >> 8 & 3) as i32 - 1;
                    f32::from_bits(half.to_bits().wrapping_add_signed(nudge))
                }
            }
        })
    }

    #[test]
    fn lanes_quantize_and_dequantize_as_one_value_at_a_time() {
        for (min, max, res) in DECLARATIONS {
            let quantizer = Quantizer::new(min, max, res).unwrap();
            for seed in 0..20_000 {
                let values = values(seed, (min, max, res));
                let (mut sums, mut valid) = (LaneSums::new(), true);
                let steps = quantized_lanes(values, min, max, res, &mut sums, &mut valid);
                assert!(valid);
                // Never accepted with a value that is not finite; accepted
                // whenever the values are within the declaration's tenfold.
                let finite = values.iter().all(|value| value.is_finite());
                assert!(finite || !sums.finite());
                let near = values.iter().all(|value| value.abs() <= 10.0 * min.abs().max(max.abs()));
                assert!(!(finite && near) || sums.finite());
                for (step, value) in steps.iter().zip(values) {
                    if value.is_finite() {
                        assert_eq!(*step, quantizer.quantize(value), "{value} in ({min}, {max}, {res})");
                    }
                }
                let steps = steps.map(|step| step.min(quantizer.max_integer()));
                let mut valid = true;
                let back = dequantized_lanes(steps, min, max, res, &mut valid);
                assert!(valid);
                for (value, step) in back.iter().zip(steps) {
                    assert_eq!(value.to_bits(), quantizer.dequantize(step).unwrap().to_bits());
                }
            }
        }
    }

    /// Values of every class: NaN, both infinities, both zeros, subnormals,
    /// the declarations' bounds and just past them, far out of range.
    const SPECIAL: [f32; 12] = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.0,
        -0.0,
        f32::MIN_POSITIVE / 2.0,
        -f32::MIN_POSITIVE / 2.0,
        f32::MAX,
        f32::MIN,
        1.0e30,
        -1.0e30,
        f32::EPSILON,
    ];

    #[test]
    fn rows_quantize_as_one_value_at_a_time() {
        let declarations = DECLARATIONS;
        for seed in 0..20_000u64 {
            // Each lane its own declaration, rotating with the seed.
            let row: [(f32, f32, f32); 4] =
                core::array::from_fn(|lane| declarations[(seed as usize + lane) % 5]);
            let mut values: [f32; 4] =
                core::array::from_fn(|lane| values(seed * 4 + lane as u64, row[lane])[lane]);
            // Every special value in every lane, between random ones.
            if seed % 3 == 0 {
                values[(seed / 3 % 4) as usize] = SPECIAL[(seed / 12 % 12) as usize];
            }
            if seed % 7 == 0 {
                let (min, max, _) = row[(seed / 7 % 4) as usize];
                let edges = [min, max, min.next_down(), max.next_up(), min.next_up(), max.next_down()];
                values[(seed / 7 % 4) as usize] = edges[(seed / 28 % 6) as usize];
            }
            let (mut sums, mut valid) = (RowSums::new(), true);
            let steps = quantized_row(values, row, &mut sums, &mut valid);
            assert!(valid);
            assert_eq!(sums.finite(), values.iter().all(|value| value.is_finite()));
            for lane in 0..4 {
                let (min, max, res) = row[lane];
                let quantizer = Quantizer::new(min, max, res).unwrap();
                // Equal to the lane path for every value, and to the scalar
                // path for every value it takes.
                assert_eq!(
                    steps[lane],
                    quantizer.quantize_lane(values[lane]),
                    "{} in {:?}",
                    values[lane],
                    row[lane]
                );
                if values[lane].is_finite() {
                    assert_eq!(steps[lane], quantizer.quantize(values[lane]));
                }
            }
        }
    }

    #[test]
    fn rows_refuse_declarations_and_sum_every_lane() {
        let (mut sums, mut valid) = (RowSums::new(), true);
        let steps = quantized_row(
            [0.5; 4],
            [(0.0, 1.0, 0.01), (1.0, 0.0, 0.01), (0.0, 1.0, 0.01), (0.0, 1.0, 0.01)],
            &mut sums,
            &mut valid,
        );
        assert!(!valid);
        assert_eq!(steps, [0; 4]);
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            for lane in 0..4 {
                let (mut sums, mut valid) = (RowSums::new(), true);
                let declarations = [(0.0, 1.0, 0.01); 4];
                quantized_row([0.5; 4], declarations, &mut sums, &mut valid);
                let mut values = [0.25; 4];
                values[lane] = bad;
                quantized_row(values, declarations, &mut sums, &mut valid);
                quantized_row([0.75; 4], declarations, &mut sums, &mut valid);
                assert!(valid && !sums.finite(), "{bad} in lane {lane}");
            }
        }
        // A declaration past 2^23 steps takes the scalar path in its row.
        let fine = (0.0, 16_777_215.0, 1.0);
        let (mut sums, mut valid) = (RowSums::new(), true);
        let values = [12_345_678.5, 0.4, 9.0e6, 16_777_215.0];
        let steps = quantized_row(values, [fine, (0.0, 1.0, 0.5), fine, fine], &mut sums, &mut valid);
        let quantizer = Quantizer::new(0.0, 16_777_215.0, 1.0).unwrap();
        assert_eq!(
            steps,
            [quantizer.quantize(values[0]), 1, quantizer.quantize(values[2]), quantizer.quantize(values[3])]
        );
    }

    /// Every lane of rows of mixed declarations (the SSE2 path, a lane
    /// past 2^23 steps taking the scalar one, and the padding lane), each
    /// step at 0, random, the maximum, one above, far above and `u32::MAX`:
    /// the value of `Quantizer::dequantize`, refused exactly where it
    /// refuses.
    #[test]
    fn rows_dequantize_as_one_value_at_a_time() {
        let declarations =
            [DECLARATIONS[0], DECLARATIONS[1], DECLARATIONS[2], (0.0, 1.0, 1.0), DECLARATIONS[3]];
        let mut state = 7u64;
        // Fewer random rows under Miri, which interprets them; the
        // boundaries below are checked in every lane either way.
        let rows = if cfg!(miri) { 400 } else { 20_000 };
        for seed in 0..rows {
            let rotation = if seed % 2 == 0 { 4 } else { 5 };
            let row: [(f32, f32, f32); 4] =
                core::array::from_fn(|lane| declarations[(seed + lane) % rotation]);
            let quantizers = row.map(|(min, max, res)| Quantizer::new(min, max, res).unwrap());
            let steps: [u32; 4] = core::array::from_fn(|lane| {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let top = quantizers[lane].max_integer();
                let random = (state >> 33) as u32;
                // Mostly accepted steps, so whole rows are accepted too.
                match (state >> 8) % 16 {
                    0 => 0,
                    1 => top,
                    2 => top + 1,
                    3 => u32::MAX,
                    4 => top.wrapping_add(random % 1000 + 1),
                    5 => random.wrapping_mul(2_654_435_761),
                    _ => random % (top + 1),
                }
            });
            let mut valid = true;
            let values = dequantized_row(steps, row, &mut valid);
            let expected: [Option<f32>; 4] =
                core::array::from_fn(|lane| quantizers[lane].dequantize(steps[lane]));
            assert_eq!(valid, expected.iter().all(Option::is_some), "{steps:?} in {row:?}");
            for lane in 0..4 {
                if let Some(expected) = expected[lane] {
                    assert_eq!(
                        values[lane].to_bits(),
                        expected.to_bits(),
                        "{} in {:?}",
                        steps[lane],
                        row[lane]
                    );
                }
            }
        }
        // Each boundary in each lane, the other lanes accepted.
        let row = [DECLARATIONS[0], DECLARATIONS[1], DECLARATIONS[2], (0.0, 1.0, 1.0)];
        let tops = row.map(|(min, max, res)| Quantizer::new(min, max, res).unwrap().max_integer());
        for lane in 0..4 {
            for (step, accepted) in
                [(0, true), (tops[lane], true), (tops[lane] + 1, false), (1 << 31, false), (u32::MAX, false)]
            {
                let mut steps = tops.map(|top| top / 2);
                steps[lane] = step;
                let mut valid = true;
                let values = dequantized_row(steps, row, &mut valid);
                assert_eq!(valid, accepted, "{step} in lane {lane}");
                if accepted {
                    let (min, max, res) = row[lane];
                    let expected = Quantizer::new(min, max, res).unwrap().dequantize(step).unwrap();
                    assert_eq!(values[lane].to_bits(), expected.to_bits());
                }
            }
        }
        let mut valid = true;
        dequantized_row(
            [0; 4],
            [(0.0, 1.0, 0.1), (1.0, 0.0, 0.1), (0.0, 1.0, 0.1), (0.0, 1.0, 0.1)],
            &mut valid,
        );
        assert!(!valid);
    }

    /// Strings (which own memory, so Miri sees a leak, a double drop or a
    /// write past the room) put into vectors with 0 or 3 elements and room
    /// for fewer than a block, exactly one or more, 0 to 9 of them put: the
    /// elements pushed one by one (those past a block dropped), and no
    /// slots without a block's room.
    #[test]
    fn slots_put_as_pushed_one_by_one() {
        use alloc::string::{String, ToString};
        for before in [0, 3] {
            for room in [0, 1, BLOCK - 1, BLOCK, BLOCK + 5] {
                for count in 0..=BLOCK + 1 {
                    let mut items: Vec<String> = Vec::with_capacity(before + room);
                    items.extend((0..before).map(|index| index.to_string()));
                    let mut expected = items.clone();
                    let Some(mut slots) = block_slots(&mut items) else {
                        assert!(room < BLOCK, "{before} {room}");
                        continue;
                    };
                    assert!(room >= BLOCK);
                    for index in 0..count {
                        slots.put(alloc::format!("put {index}"));
                    }
                    drop(slots);
                    expected.extend((0..count.min(BLOCK)).map(|index| alloc::format!("put {index}")));
                    assert_eq!(items, expected, "{before} {room} {count}");
                    // Truncated as a block read again truncates them.
                    items.truncate(before);
                    assert_eq!(items.len(), before);
                }
            }
        }
    }

    #[test]
    fn lanes_in_f64_match_one_value_at_a_time() {
        let (min, max, res) = (-1.0e6, 1.0e6, 1.0e-6);
        let quantizer = Quantizer64::new(min, max, res).unwrap();
        for seed in 0..2_000u64 {
            let values: [f64; BLOCK] = values(seed, (-1.0e6, 1.0e6, 1.0)).map(|value| f64::from(value) * 1.7);
            let (mut sums, mut valid) = (LaneSums::new(), true);
            let steps = quantized64_lanes(values, min, max, res, &mut sums, &mut valid);
            assert!(valid);
            assert_eq!(sums.finite(), values.iter().all(|value| value.is_finite()));
            for (step, value) in steps.iter().zip(values) {
                if value.is_finite() {
                    assert_eq!(*step, quantizer.quantize(value));
                }
            }
            let mut valid = true;
            let back = dequantized64_lanes(steps, min, max, res, &mut valid);
            assert!(valid);
            for (value, step) in back.iter().zip(steps) {
                assert_eq!(value.to_bits(), quantizer.dequantize(step).unwrap().to_bits());
            }
        }
    }

    #[test]
    fn steps_above_the_maximum_and_refused_declarations_clear_valid() {
        let mut steps = [204_800; BLOCK];
        let mut valid = true;
        dequantized_lanes(steps, -1024.0, 1024.0, 0.01, &mut valid);
        assert!(valid);
        for lane in 0..BLOCK {
            steps[lane] = 204_801;
            let mut valid = true;
            dequantized_lanes(steps, -1024.0, 1024.0, 0.01, &mut valid);
            assert!(!valid, "lane {lane}");
            steps[lane] = 0;
        }
        assert_eq!((lane_steps(204_801), lane_steps(1 << 40)), (204_801, u32::MAX));
        let mut valid = true;
        dequantized_lanes([0; BLOCK], 1.0, 1.0, 0.01, &mut valid);
        assert!(!valid);
        let (mut sums, mut valid) = (LaneSums::new(), true);
        quantized_lanes([0.0; BLOCK], 1.0, 0.0, 0.01, &mut sums, &mut valid);
        assert!(!valid);
        // A value that is not finite in any lane of any field, between
        // finite ones, leaves its lane's sum not finite.
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            for lane in 0..BLOCK {
                let (mut sums, mut valid) = (LaneSums::new(), true);
                let mut values = [0.5; BLOCK];
                quantized_lanes(values, 0.0, 1.0, 0.01, &mut sums, &mut valid);
                values[lane] = bad;
                quantized_lanes(values, 0.0, 1.0, 0.01, &mut sums, &mut valid);
                quantized64_lanes([-0.5; BLOCK], -1.0, 1.0, 0.5, &mut sums, &mut valid);
                assert!(valid && !sums.finite(), "{bad} in lane {lane}");
                let (mut sums, mut valid) = (LaneSums::new(), true);
                let mut wide = [0.5; BLOCK];
                wide[lane] = f64::from(bad);
                quantized64_lanes(wide, 0.0, 1.0, 0.5, &mut sums, &mut valid);
                assert!(valid && !sums.finite(), "{bad} in lane {lane}");
            }
        }
        // Opposite infinities in one lane sum to NaN: still refused.
        let (mut sums, mut valid) = (LaneSums::new(), true);
        quantized_lanes([f32::INFINITY; BLOCK], 0.0, 1.0, 0.01, &mut sums, &mut valid);
        quantized_lanes([f32::NEG_INFINITY; BLOCK], 0.0, 1.0, 0.01, &mut sums, &mut valid);
        assert!(!sums.finite());
        let mut valid = true;
        dequantized64_lanes([lane_steps64(1 << 60); BLOCK], 0.0, 1.0, 0.5, &mut valid);
        assert!(!valid);
    }
}
