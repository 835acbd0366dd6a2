//! The crate's only `unsafe` code (issue 15): [`Words`], a byte buffer
//! whose 8- and 4-byte stores cost one compare each. A checked slice
//! (`buf[at..at + 8]`) costs an overflow test and two compares a word, and
//! its branches kept the compiler from simplifying a block's element loop.
//! The bounds are computed once, when the buffer is taken, and kept beside
//! it where nothing else can change them, so a store never leaves `buf`.

/// A writer's buffer with the ends of its 8- and 4-byte stores.
#[derive(Debug, Default)]
pub(crate) struct Words<'a> {
    buf: &'a mut [u8],
    /// `buf.len() - 7` (0 below 8 bytes): a u64 fits at `at` iff `at < end8`.
    end8: usize,
    /// `buf.len() - 3` (0 below 4 bytes): a u32 fits at `at` iff `at < end4`.
    end4: usize,
}

impl<'a> Words<'a> {
    #[inline(always)]
    pub(crate) fn new(buf: &'a mut [u8]) -> Self {
        let (end8, end4) = (buf.len().saturating_sub(7), buf.len().saturating_sub(3));
        Words { buf, end8, end4 }
    }

    /// The buffer, for checked accesses.
    #[inline(always)]
    pub(crate) fn buf(&mut self) -> &mut [u8] {
        self.buf
    }

    /// Stores `word` little-endian at `buf[at..at + 8]`, nothing when those
    /// bytes are not all inside `buf`.
    #[inline(always)]
    pub(crate) fn store_u64(&mut self, at: usize, word: u64) {
        if at < self.end8 {
            // SAFETY: `end8` is `buf.len() - 7` (and `buf` at least 8 bytes)
            // or 0, set with `buf` and never changed apart from it, so
            // `at + 8 <= buf.len()`: the 8 bytes from `at` lie inside `buf`,
            // borrowed mutably here. An unaligned write needs no alignment.
            unsafe { self.buf.as_mut_ptr().add(at).cast::<u64>().write_unaligned(word.to_le()) }
        }
    }

    /// Stores `word` little-endian at `buf[at..at + 4]`, nothing when those
    /// bytes are not all inside `buf`.
    #[inline(always)]
    pub(crate) fn store_u32(&mut self, at: usize, word: u32) {
        if at < self.end4 {
            // SAFETY: as in `store_u64`, with `end4`: `at + 4 <= buf.len()`.
            unsafe { self.buf.as_mut_ptr().add(at).cast::<u32>().write_unaligned(word.to_le()) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every offset of buffers of 0 to 19 bytes: the word lands where a
    /// checked slice copy puts it, and nothing is written past the end.
    #[test]
    fn stores_land_as_checked_copies_and_never_past_the_buffer() {
        let word = 0x0807_0605_0403_0201_u64;
        for len in 0..20 {
            for at in 0..len + 10 {
                let (mut stored, mut copied) = ([0xAAu8; 24], [0xAAu8; 24]);
                Words::new(&mut stored[..len]).store_u64(at, word);
                if let Some(bytes) = copied[..len].get_mut(at..at + 8) {
                    bytes.copy_from_slice(&word.to_le_bytes());
                }
                assert_eq!(stored, copied, "u64, {len} bytes at {at}");
                let (mut stored, mut copied) = ([0xAAu8; 24], [0xAAu8; 24]);
                Words::new(&mut stored[..len]).store_u32(at, word as u32);
                if let Some(bytes) = copied[..len].get_mut(at..at + 4) {
                    bytes.copy_from_slice(&(word as u32).to_le_bytes());
                }
                assert_eq!(stored, copied, "u32, {len} bytes at {at}");
            }
        }
    }
}
