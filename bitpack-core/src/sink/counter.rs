//! The measure stream: counts bits exactly, writes nothing.

use super::BitSink;
use crate::error::{Error, ErrorKind};

/// Counts the bits a [`crate::BitWriter`] would write for the same calls,
/// exactly (alignment included), and refuses what the writer refuses except
/// for lack of space.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::{BitCounter, BitWrite};
/// let mut counter = BitCounter::new();
/// counter.write_u8(1)?;
/// counter.write_align()?;
/// counter.write_bytes(b"abc")?;
/// assert_eq!(counter.bits_written(), 32);
/// # Ok::<(), bitpack::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BitCounter {
    bits: usize,
}

impl BitCounter {
    /// A counter at zero bits.
    #[inline]
    pub const fn new() -> Self {
        BitCounter { bits: 0 }
    }

    /// Whole bytes the counted bits fill: `ceil(bits / 8)`.
    #[inline]
    pub const fn bytes(&self) -> usize {
        self.bits.div_ceil(8)
    }
}

impl BitSink for BitCounter {
    type Checkpoint = usize;
    const COUNTS_ONLY: bool = true;

    #[inline(always)]
    fn checkpoint(&self) -> usize {
        self.bits
    }

    #[inline(always)]
    fn rewind(&mut self, bits: usize) {
        self.bits = bits;
    }

    #[inline(always)]
    fn position(&self) -> usize {
        self.bits
    }

    #[inline(always)]
    fn reserve(&self, bits: usize) -> Result<(), Error> {
        match self.bits.checked_add(bits) {
            Some(_) => Ok(()),
            None => Err(Error::new(ErrorKind::BufferFull, self.bits)),
        }
    }

    #[inline(always)]
    fn push(&mut self, _value: u64, bits: u32) {
        self.bits += bits as usize;
    }

    #[inline(always)]
    fn push_aligned_bytes(&mut self, bytes: &[u8]) {
        self.bits += bytes.len() * 8;
    }

    #[inline(always)]
    fn push_zeros(&mut self, bits: usize) {
        self.bits += bits;
    }
}

/// Tests' `$write` (an expression over `$sink`, `&mut` a sink) through form
/// `$form` (`0..COUNTER_FORMS`) of `$counter`, a `&mut BitCounter`: every
/// form a write meets, each of which counts only. The counter itself, its
/// local, reserved, held (kept on `Ok`), window; a reserved one's local and
/// held form (kept on `Ok`); a held one's local and window. `$room` bits
/// are reserved where the form reserves.
#[cfg(test)]
macro_rules! in_counter_form {
    ($counter:expr, $form:expr, $room:expr, |$sink:ident| $write:expr) => {{
        use $crate::sink::Reserve as _;
        let counter: &mut $crate::BitCounter = $counter;
        let room: usize = $room;
        let reserve = "the counter reserves what its count can take";
        match $form {
            0 => {
                let $sink = counter;
                $write
            }
            1 => {
                let $sink = &mut counter.local();
                $write
            }
            2 => {
                let $sink = &mut counter.reserve_all(room).expect(reserve);
                $write
            }
            3 => {
                let mut held = counter.hold(room).expect(reserve);
                let result = {
                    let $sink = &mut held;
                    $write
                };
                if result.is_ok() {
                    $crate::BitCounter::keep(held);
                }
                result
            }
            4 => {
                let $sink = &mut counter.window(room).expect(reserve);
                $write
            }
            5 => {
                let mut reserved = counter.reserve_all(room).expect(reserve);
                let $sink = &mut reserved.local();
                $write
            }
            6 => {
                let mut reserved = counter.reserve_all(room).expect(reserve);
                let mut held = reserved.hold(room).expect(reserve);
                let result = {
                    let $sink = &mut held;
                    $write
                };
                if result.is_ok() {
                    <$crate::sink::reserved::Reserved<'_, $crate::BitCounter>>::keep(held);
                }
                result
            }
            7 => {
                let mut held = counter.hold(room).expect(reserve);
                let result = {
                    let $sink = &mut held.local();
                    $write
                };
                if result.is_ok() {
                    $crate::BitCounter::keep(held);
                }
                result
            }
            _ => {
                let mut held = counter.hold(room).expect(reserve);
                let result = {
                    let $sink = &mut held.window(room).expect(reserve);
                    $write
                };
                if result.is_ok() {
                    $crate::BitCounter::keep(held);
                }
                result
            }
        }
    }};
}

#[cfg(test)]
pub(crate) use in_counter_form;

/// The forms of [`in_counter_form`].
#[cfg(test)]
pub(crate) const COUNTER_FORMS: u8 = 9;
