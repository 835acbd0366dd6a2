//! What every fuzz check shares: re-encoding a decoded value and comparing
//! the bits it writes with the bits it was read from.

use bitpack::{BitWrite, BitWriter, Error};

/// Bit `bit` of `bytes` (LSB first); past the end, 0.
fn bit(bytes: &[u8], bit: usize) -> bool {
    bytes.get(bit / 8).is_some_and(|byte| (byte >> (bit % 8)) & 1 == 1)
}

/// Whether bits `from..to` of `a` and `b` are the same.
pub fn same_bits(a: &[u8], b: &[u8], from: usize, to: usize) -> bool {
    (from..to).all(|index| bit(a, index) == bit(b, index))
}

/// What `write` writes starting at stream bit `start` (zeros before it):
/// the bytes and the bit it ends at. `room` bytes are enough for the value.
pub fn written_at(
    start: usize,
    room: usize,
    write: impl FnOnce(&mut BitWriter<'_>) -> Result<(), Error>,
) -> Result<(Vec<u8>, usize), Error> {
    let mut buf = vec![0u8; start / 8 + 1 + room];
    let mut writer = BitWriter::new(&mut buf);
    let mut left = start;
    while left > 0 {
        let step = left.min(32) as u32;
        writer.write_bits(0, step)?;
        left -= step as usize;
    }
    write(&mut writer)?;
    let end = writer.bits_written();
    writer.finish()?;
    Ok((buf, end))
}

/// Asserts that `write`, started at `start`, writes exactly the bits
/// `start..end` of `stream`: the decoded value re-encodes to the bits it
/// was read from.
pub fn assert_rewrites(
    stream: &[u8],
    start: usize,
    end: usize,
    what: &str,
    write: impl FnOnce(&mut BitWriter<'_>) -> Result<(), Error>,
) {
    let room = stream.len() + 8;
    let (again, again_end) = written_at(start, room, write).unwrap_or_else(|error| panic!("{what}: {error}"));
    assert_eq!(again_end, end, "{what} re-encodes to {} bits, read {}", again_end - start, end - start);
    assert!(same_bits(stream, &again, start, end), "{what} re-encodes to other bits");
}

/// Whether `bytes` end with at most the last byte's padding after bit
/// `end`, all zeros: what `decode` accepts after a value.
// Not every target decodes whole messages.
#[allow(dead_code)]
pub fn ends_at(bytes: &[u8], end: usize) -> bool {
    let total = bytes.len() * 8;
    total - end < 8 && (end..total).all(|index| !bit(bytes, index))
}
