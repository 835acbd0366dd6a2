//! The list a packet ends with of the entries it left stale (changed or
//! removed on the server, left as in the baseline for lack of room), by
//! their rank among the baseline's entries: how a receiver knows each
//! entry's age (`Receiver::updated_at`).

use alloc::vec::Vec;

use crate::adaptive::{Signs, adaptive_bits, read_adaptive, write_adaptive};
use crate::error::{Error, ErrorKind};
use crate::read::BitRead;
use crate::write::BitWrite;

/// The list of stale entries: per keyed collection that has some, a 1
/// bit, the collection's number after the previous one's (adaptive), then
/// the entries by their place among the baseline's `len` entries, in
/// whichever form is shorter: a 0 bit and a mark for each (1: stale); or
/// a 1 bit, their count less one (adaptive) and each one's rank gap after
/// the previous (adaptive). Then a 0 bit: one bit when nothing is stale.
pub(crate) fn write_stale<W: BitWrite, R: Iterator<Item = usize> + Clone>(
    writer: &mut W,
    visits: impl Iterator<Item = (usize, usize, R)>,
) -> Result<(), Error> {
    let mut next_collection = 0usize;
    for (collection, len, ranks) in visits {
        let count = ranks.clone().count();
        if count == 0 {
            continue;
        }
        writer.write_bool(true)?;
        write_adaptive(writer, (collection - next_collection) as u64, Signs::NonNegative)?;
        let listed = listed_bits(count, ranks.clone())? < len;
        writer.write_bool(listed)?;
        if listed {
            write_adaptive(writer, (count - 1) as u64, Signs::NonNegative)?;
            for gap in rank_gaps(ranks) {
                write_adaptive(writer, gap, Signs::NonNegative)?;
            }
        } else {
            let mut stale = ranks.peekable();
            for rank in 0..len {
                writer.write_bool(stale.next_if_eq(&rank).is_some())?;
            }
        }
        next_collection = collection + 1;
    }
    writer.write_bool(false)
}

/// Each rank's gap after the previous one (the first's from 0).
fn rank_gaps(ranks: impl Iterator<Item = usize>) -> impl Iterator<Item = u64> {
    let mut next = 0usize;
    ranks.map(move |rank| {
        let gap = rank - next;
        next = rank + 1;
        gap as u64
    })
}

/// Bits of `count` ranks as a list (the count, then the gaps); marks take
/// the baseline's length.
fn listed_bits(count: usize, ranks: impl Iterator<Item = usize>) -> Result<usize, Error> {
    let gaps: usize =
        rank_gaps(ranks).map(|gap| adaptive_bits(gap, Signs::NonNegative)).sum::<Result<_, _>>()?;
    Ok(adaptive_bits((count - 1) as u64, Signs::NonNegative)? + gaps)
}

/// Reads [`write_stale`]'s list into `ranks` (collection, rank), the
/// collections' baseline lengths given by `len_of` (`None`: no such
/// collection). Refuses a list no writer sends.
pub(crate) fn read_stale(
    reader: &mut impl BitRead,
    mut len_of: impl FnMut(usize) -> Option<usize>,
    ranks: &mut Vec<(usize, usize)>,
) -> Result<(), Error> {
    ranks.clear();
    let mut next_collection = 0usize;
    while reader.read_bool()? {
        let at = reader.bits_read();
        let refuse = |kind| Error::new(kind, at);
        let skip: u64 = read_adaptive(reader, Signs::NonNegative)?;
        let collection = usize::try_from(skip)
            .ok()
            .and_then(|skip| next_collection.checked_add(skip))
            .ok_or(refuse(ErrorKind::OutOfRange))?;
        let len = len_of(collection).ok_or(refuse(ErrorKind::OutOfRange))?;
        let first = ranks.len();
        let listed = reader.read_bool()?;
        if listed {
            let count: u64 = read_adaptive(reader, Signs::NonNegative)?;
            let count = usize::try_from(count)
                .ok()
                .filter(|&count| count < len)
                .ok_or(refuse(ErrorKind::OutOfRange))?;
            let mut next = 0usize;
            for _ in 0..=count {
                let gap: u64 = read_adaptive(reader, Signs::NonNegative)?;
                let rank = usize::try_from(gap)
                    .ok()
                    .and_then(|gap| next.checked_add(gap))
                    .filter(|&rank| rank < len)
                    .ok_or(refuse(ErrorKind::OutOfRange))?;
                ranks.push((collection, rank));
                next = rank + 1;
            }
        } else {
            if reader.bits_remaining() < len {
                return Err(refuse(ErrorKind::UnexpectedEnd));
            }
            for rank in 0..len {
                if reader.read_bool()? {
                    ranks.push((collection, rank));
                }
            }
        }
        // Some, in the form the writer picks.
        let count = ranks.len() - first;
        let stale = ranks[first..].iter().map(|&(_, rank)| rank);
        if count == 0 || (listed_bits(count, stale)? < len) != listed {
            return Err(refuse(ErrorKind::NonCanonical));
        }
        next_collection = collection.checked_add(1).ok_or(refuse(ErrorKind::OutOfRange))?;
    }
    Ok(())
}
