//! A column of bools: one bit each, 64 to a write or a read.

use crate::error::Error;
use crate::read::BitRead;
use crate::write::BitWrite;
use alloc::vec::Vec;

/// Writes one bit per value, `true` as 1, in order (the reader knows the
/// count), 64 bits at a time.
#[inline]
pub fn write_bool_column<W: BitWrite>(
    writer: &mut W,
    values: impl Iterator<Item = bool>,
) -> Result<(), Error> {
    let (mut word, mut bits, mut full) = (0u64, 0u32, Ok(()));
    values.for_each(|value| {
        word |= u64::from(value) << bits;
        bits += 1;
        if bits == 64 {
            // Room for each word checked as it goes: the count is not known before.
            match writer.reserve(64) {
                Ok(()) => writer.push(word, 64),
                Err(error) => full = Err(error),
            }
            (word, bits) = (0, 0);
        }
    });
    full?;
    writer.reserve(bits as usize)?;
    writer.push(word, bits);
    Ok(())
}

/// Reads `count` bools written by [`write_bool_column`]: refused before
/// allocating unless `count` bits remain and the budget holds them.
pub fn read_bool_column(reader: &mut impl BitRead, count: usize) -> Result<Vec<bool>, Error> {
    super::int::claim_values::<bool>(reader, count, 1)?;
    let mut values = Vec::with_capacity(count);
    let mut left = count;
    while left > 0 {
        let bits = left.min(64) as u32;
        let word = reader.take(bits)?;
        values.extend((0..bits).map(|bit| (word >> bit) & 1 == 1));
        left -= bits as usize;
    }
    Ok(values)
}

/// How many of `presence` are `true`: the count of an `Option` column's values.
#[inline]
pub fn count_present(presence: &[bool]) -> usize {
    presence.iter().filter(|present| **present).count()
}
