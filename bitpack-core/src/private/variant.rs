//! An `Option` of a derived enum whose variants' fields are all fixed-width
//! scalars (`BitPack::__write_some`): the presence bit, the variant's tag
//! and its fields gathered into one word and pushed at once, where they
//! were a push each and a jump to the variant's own writes. The same bits;
//! a value refused, more than 64 bits or no room for them goes the old way
//! (the bit, then the enum's `write_to`), which refuses where it always did.

use crate::error::Error;
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

/// `Some` of a derived enum: `gathered` in one push when every value was
/// accepted (`valid`), it is at most 64 bits and they fit; else the
/// presence bit and then `write` (the enum's `write_to`).
///
/// Generated code: `#p::write_some(__writer, __valid, __gathered, |__writer| ...)`.
#[inline(always)]
pub fn write_some<W: BitWrite>(
    writer: &mut W,
    valid: bool,
    gathered: Gathered,
    write: impl FnOnce(&mut W) -> Result<(), Error>,
) -> Result<(), Error> {
    if valid && gathered.bits <= 64 && writer.reserve(gathered.bits as usize).is_ok() {
        writer.push(gathered.word, gathered.bits);
        return Ok(());
    }
    writer.write_bool(true)?;
    write(writer)
}
