//! An `Option` of a derived enum whose variants' fields are all fixed-width
//! scalars (`BitPack::__gathered_some`, `__write_some`): the presence bit,
//! the variant's tag and its fields gathered into one word and pushed at
//! once, where they were a push each and a jump to the variant's own
//! writes; counted as one value by a counter. The same bits; a value
//! refused, more than 64 bits or no room for them goes the old way (the
//! bit, then the enum's `write_to`), which refuses where it always did.

use crate::error::Error;
use crate::pack::BitPack;
use crate::write::BitWrite;

/// Bits gathered for one push, the first in the low bits.
#[derive(Clone, Copy, Debug)]
pub struct Gathered {
    word: u64,
    /// Saturated past 64: then the word is not used.
    bits: u32,
}

impl Gathered {
    /// An `Option`'s presence bit (set), then the variant's `index` in
    /// `tag_bits` bits.
    #[inline(always)]
    pub const fn some(index: u32, tag_bits: u32) -> Self {
        Gathered { word: 1 | (index as u64) << 1, bits: 1 + tag_bits }
    }

    /// `value` (below `2^width`) after the bits gathered so far.
    #[inline(always)]
    #[must_use]
    pub const fn put(self, value: u64, width: u32) -> Self {
        // Past 64 bits the word is never pushed: a shift that would
        // overflow adds nothing.
        let shifted = match value.checked_shl(self.bits) {
            Some(shifted) => shifted,
            None => 0,
        };
        Gathered { word: self.word | shifted, bits: self.bits.saturating_add(width) }
    }
}

impl Gathered {
    /// These bits when every value was accepted (`valid`) and they are at
    /// most 64: what `Some` of the enum pushes at once.
    #[inline(always)]
    pub const fn accepted(self, valid: bool) -> Option<Self> {
        if valid && self.bits <= 64 { Some(self) } else { None }
    }
}

/// `Some` of a value: what [`BitPack::__gathered_some`] gathered in one push
/// when there is room for it; else the presence bit and then `write` (the
/// value's `write_to`).
#[inline(always)]
pub(crate) fn write_some<W: BitWrite>(
    writer: &mut W,
    gathered: Option<Gathered>,
    write: impl FnOnce(&mut W) -> Result<(), Error>,
) -> Result<(), Error> {
    if let Some(gathered) = gathered
        && writer.reserve(gathered.bits as usize).is_ok()
    {
        writer.push(gathered.word, gathered.bits);
        return Ok(());
    }
    writer.write_bool(true)?;
    write(writer)
}

/// An `Option` field of a type with its own impl: `Some` as
/// [`BitPack::__write_some`], `None` as its presence bit (clear). On a sink
/// that only counts, the count first as one value (the compiler then makes
/// the variants' counts a table, where it branched to a push for each),
/// then the same room check and as many bits.
///
/// Generated code: `#p::write_option::<_, Type>(__writer, #p::Option::as_ref(&self.field))?;`
#[inline(always)]
pub fn write_option<W: BitWrite, T: BitPack>(writer: &mut W, value: Option<&T>) -> Result<(), Error> {
    if W::COUNTS_ONLY {
        let bits = match value {
            None => Some(1),
            Some(value) => value.__gathered_some().map(|gathered| gathered.bits as usize),
        };
        if let Some(bits) = bits
            && writer.reserve(bits).is_ok()
        {
            writer.push_zeros(bits);
            return Ok(());
        }
    }
    match value {
        Some(value) => value.__write_some(writer),
        None => writer.write_bool(false),
    }
}
