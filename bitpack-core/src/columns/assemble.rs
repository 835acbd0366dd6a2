//! Putting decoded columns back together: an `Option`'s presence with its
//! values, a collection's lengths with the flat column of its elements,
//! arrays, enum tags, and columns of values written one by one (rows).

use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::write::BitWrite;
use alloc::vec::Vec;

/// The next value of a decoded column; `NonCanonical` if the column ran
/// out (its count always matches, so this is a defence, not a path).
#[inline(always)]
pub fn column_next<T>(column: &mut impl Iterator<Item = T>, reader: &impl BitRead) -> Result<T, Error> {
    column.next().ok_or_else(|| Error::new(ErrorKind::NonCanonical, reader.bits_read()))
}

/// A struct's decoded column, refused (`NonCanonical`) unless it holds the
/// struct's `count` values (it does by construction: a defence, so the zip
/// of the columns into structs cannot come up short).
#[inline(always)]
pub fn column_values<T>(
    reader: &impl BitRead,
    column: Vec<T>,
    count: usize,
) -> Result<alloc::vec::IntoIter<T>, Error> {
    if column.len() != count {
        return Err(Error::new(ErrorKind::NonCanonical, reader.bits_read()));
    }
    Ok(column.into_iter())
}

/// Claims `count` values of `T` (the assembled column) from the budget.
#[inline]
pub fn claim_column<T>(reader: &mut impl BitRead, count: usize) -> Result<(), Error> {
    reader.claim_allocation::<T>(count)
}

/// Claims one allocation of `len` values of `T` for each of `lengths`:
/// the `Vec`s (or strings) cut from a flat column are each copied into a
/// heap block of their own while the column is still live.
#[inline]
pub(crate) fn claim_each<T>(reader: &mut impl BitRead, lengths: &[usize]) -> Result<(), Error> {
    lengths.iter().try_for_each(|&len| reader.claim_allocation::<T>(len))
}

/// `Option`s from their presence and the present values, in order.
pub fn zip_options<T>(
    reader: &mut impl BitRead,
    presence: Vec<bool>,
    values: Vec<T>,
) -> Result<Vec<Option<T>>, Error> {
    claim_column::<Option<T>>(reader, presence.len())?;
    let mut values = values.into_iter();
    let mut options = Vec::with_capacity(presence.len());
    for present in presence {
        options.push(if present { Some(column_next(&mut values, reader)?) } else { None });
    }
    Ok(options)
}

/// `Vec`s of the given lengths, cut from the flat column of their elements.
pub fn split_vecs<T>(
    reader: &mut impl BitRead,
    lengths: Vec<usize>,
    values: Vec<T>,
) -> Result<Vec<Vec<T>>, Error> {
    claim_column::<Vec<T>>(reader, lengths.len())?;
    claim_each::<T>(reader, &lengths)?;
    let mut values = values.into_iter();
    let mut vecs = Vec::with_capacity(lengths.len());
    for len in lengths {
        let vec: Vec<T> = values.by_ref().take(len).collect();
        if vec.len() != len {
            return Err(Error::new(ErrorKind::NonCanonical, reader.bits_read()));
        }
        vecs.push(vec);
    }
    Ok(vecs)
}

/// [`split_vecs`] for values that copy (integers, bools): each `Vec` copied
/// from its slice of the column at once.
pub fn split_copy_vecs<T: Copy>(
    reader: &mut impl BitRead,
    lengths: Vec<usize>,
    values: Vec<T>,
) -> Result<Vec<Vec<T>>, Error> {
    claim_column::<Vec<T>>(reader, lengths.len())?;
    claim_each::<T>(reader, &lengths)?;
    let mut rest = values.as_slice();
    let mut vecs = Vec::with_capacity(lengths.len());
    for len in lengths {
        let Some((vec, after)) = rest.split_at_checked(len) else {
            return Err(Error::new(ErrorKind::NonCanonical, reader.bits_read()));
        };
        vecs.push(vec.to_vec());
        rest = after;
    }
    Ok(vecs)
}

/// `count` arrays of `N`, cut from the flat column of their elements.
pub fn split_arrays<T, const N: usize>(
    reader: &mut impl BitRead,
    count: usize,
    values: Vec<T>,
) -> Result<Vec<[T; N]>, Error> {
    claim_column::<[T; N]>(reader, count)?;
    let mut values = values.into_iter();
    let mut arrays = Vec::with_capacity(count);
    for _ in 0..count {
        arrays.push(into_array(reader, values.by_ref().take(N).collect())?);
    }
    Ok(arrays)
}

/// [`split_arrays`] for values that copy (integers, bools): no `Vec` per array.
pub fn split_copy_arrays<T: Copy, const N: usize>(
    reader: &mut impl BitRead,
    count: usize,
    values: Vec<T>,
) -> Result<Vec<[T; N]>, Error> {
    if N == 0 {
        return split_arrays(reader, count, values);
    }
    claim_column::<[T; N]>(reader, count)?;
    let mut arrays = Vec::with_capacity(count);
    for chunk in values.chunks_exact(N) {
        match <[T; N]>::try_from(chunk) {
            Ok(array) => arrays.push(array),
            Err(_) => return Err(Error::new(ErrorKind::NonCanonical, reader.bits_read())),
        }
    }
    Ok(arrays)
}

/// An array from a decoded `Vec` of exactly `N` values.
#[inline]
pub fn into_array<T, const N: usize>(reader: &impl BitRead, values: Vec<T>) -> Result<[T; N], Error> {
    <[T; N]>::try_from(values).map_err(|_| Error::new(ErrorKind::NonCanonical, reader.bits_read()))
}

/// `count * len`, the flat count of `count` arrays of `len`, or `TooLong`.
#[inline]
pub fn flat_count(reader: &impl BitRead, count: usize, len: usize) -> Result<usize, Error> {
    count.checked_mul(len).ok_or_else(|| Error::new(ErrorKind::TooLong, reader.bits_read()))
}

/// Writes each enum's tag, `int(tag, 0, variants - 1)`: a fixed width, no header.
#[inline]
pub fn write_tag_column<W: BitWrite>(
    writer: &mut W,
    tags: impl Iterator<Item = u32>,
    variants: u32,
) -> Result<(), Error> {
    for tag in tags {
        crate::private::write_tag(writer, tag, variants)?;
    }
    Ok(())
}

/// Reads `count` tags written by [`write_tag_column`] (each refused past
/// the last variant), and how many name each variant.
pub fn read_tag_column<const N: usize>(
    reader: &mut impl BitRead,
    count: usize,
) -> Result<(Vec<u32>, [usize; N]), Error> {
    let bits = crate::private::tag_bits(N as u32) as u64;
    super::int::claim_values::<u32>(reader, count, bits)?;
    let mut tags = Vec::with_capacity(count);
    let mut counts = [0usize; N];
    for _ in 0..count {
        let start = reader.bits_read();
        let tag = crate::private::read_tag(reader, N as u32)?;
        match counts.get_mut(tag as usize) {
            Some(slot) => *slot += 1,
            None => return Err(Error::new(ErrorKind::InvalidTag, start)),
        }
        tags.push(tag);
    }
    Ok((tags, counts))
}

/// Reads a column of `count` values written one after another, each by
/// `read_value`: refused before allocating unless `count` values of at
/// least `min_bits` can be in the input and the budget holds them.
pub fn read_rows<R: BitRead, T>(
    reader: &mut R,
    count: usize,
    min_bits: usize,
    mut read_value: impl FnMut(&mut R) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    super::int::claim_values::<T>(reader, count, min_bits as u64)?;
    let mut values = Vec::with_capacity(count);
    for _ in 0..count {
        values.push(read_value(reader)?);
    }
    Ok(values)
}
