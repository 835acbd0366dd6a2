//! The crate's only `unsafe` code (issue 15), each use small, argued and
//! measured to pay (see `benches/README.md`):
//!
//! - [`Words`], a byte buffer whose 8- and 4-byte stores cost one compare
//!   each. A checked slice (`buf[at..at + 8]`) costs an overflow test and
//!   two compares a word, and its branches kept the compiler from
//!   simplifying a block's element loop. The bounds are computed once, when
//!   the buffer is taken, and kept beside it where nothing else can change
//!   them, so a store never leaves `buf`.
//! - [`ascii_str`]: short strings read as text skip the UTF-8 validation
//!   when their bytes are all ASCII (about 95 instructions a short string
//!   in `from_utf8`, a few words' test here).
//! - [`extend_bools`]: a derived `Vec<bool>` read eight bools to a store
//!   into the room reserved for them (the bit-test loop the compiler makes
//!   of a safe `extend` costs five instructions a bool).
//! - [`extend_lanes`]: a derived `Vec<u8>` or `Vec<u16>` read a take's
//!   lanes to a store, where `extend` stored each after a branch on the
//!   count.
//! - [`read_into`]: a `Vec`'s elements written into the room reserved for
//!   them, without `push`'s capacity check per element.
//! - [`extend_chunks`]: a derived `Vec<u8>`/`Vec<u16>`/`Vec<u32>` read a
//!   whole input word (8, 4 or 2 lanes) to a store, the last overlapping.
//! - [`Slots`]: a decoded block's elements written into the room reserved
//!   for them, the length set once a block (snapshot decode 37,881 ->
//!   34,888 instructions).
//! - [`short_text`]: a derived `String` of 1 to 32 ASCII bytes read
//!   through a window of input, its bytes tested with two `pmovmskb` and
//!   copied into the `String`'s room with fixed-size copies, no branch on
//!   its length (web logs decode: conditional mispredictions 1,573 -> 340 a
//!   batch, bitcode 1,025).
//! - [`sse`]: a block's elements quantized in rows of four `f32`s
//!   (`__private::quantized_row`) and dequantized in rows of four
//!   (`__private::dequantized_row`), pinned to SSE2 (x86-64's baseline) by
//!   its intrinsics: plain lane loops were vectorised across the block
//!   instead, each lane loaded on its own, and calling an intrinsic needs
//!   `unsafe` even where its target feature is in the build's baseline
//!   (snapshot encode 42,116 -> 35,875 instructions, decode 41,657 ->
//!   37,881).

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

    /// The same buffer and ends, reborrowed (a writer held by value,
    /// `sink::held`, keeps them in registers; no `unsafe` here).
    #[inline(always)]
    pub(crate) fn reborrow(&mut self) -> Words<'_> {
        Words { buf: &mut *self.buf, end8: self.end8, end4: self.end4 }
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

/// `bytes` as a `str` when every byte is ASCII; `None` otherwise (the
/// caller then validates them as UTF-8 as it always did).
#[inline(always)]
pub(crate) fn ascii_str(bytes: &[u8]) -> Option<&str> {
    if !is_ascii(bytes) {
        return None;
    }
    // SAFETY: every byte is below 0x80 (checked just above), and a string
    // of ASCII bytes is valid UTF-8: each byte is one character.
    Some(unsafe { core::str::from_utf8_unchecked(bytes) })
}

/// Whether every byte is below 0x80, a word at a time (the last word
/// overlapping the one before it; 4 to 7 bytes in two overlapping halves).
#[inline(always)]
fn is_ascii(bytes: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let any = if let Some(last) = bytes.last_chunk::<8>() {
        let (words, _) = bytes.as_chunks::<8>();
        let mut any = u64::from_le_bytes(*last);
        for word in words {
            any |= u64::from_le_bytes(*word);
        }
        any
    } else if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        u64::from(u32::from_le_bytes(*first) | u32::from_le_bytes(*last))
    } else {
        // 0 to 3 bytes (the last arm meets only 3).
        u64::from(match *bytes {
            [] => 0,
            [a] => a,
            [a, b] => a | b,
            [a, b, c, ..] => a | b | c,
        })
    };
    any & HIGH == 0
}

/// Appends `len` elements made by `read` to `elements`, which has room
/// for them (else they are pushed): each written into the reserved room,
/// with no capacity check. Stops at the first `Err`, the elements before
/// it kept (and so dropped with `elements`).
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn read_into<T, E>(
    elements: &mut alloc::vec::Vec<T>,
    len: usize,
    mut read: impl FnMut() -> Result<T, E>,
) -> Result<(), E> {
    let start = elements.len();
    if elements.capacity() - start < len {
        for _ in 0..len {
            elements.push(read()?);
        }
        return Ok(());
    }
    let slots = elements.as_mut_ptr();
    for index in start..start + len {
        let element = read()?;
        // SAFETY: `index < start + len <= capacity` (checked above; `read`
        // cannot reach `elements`, borrowed here), so the slot lies in the
        // allocation, past the initialised elements: written once, then
        // counted, so an `Err` or a panic in a later `read` leaves a
        // vector of initialised elements only.
        unsafe {
            slots.add(index).write(element);
            elements.set_len(index + 1);
        }
    }
    Ok(())
}

/// Appends the first `count` (at most `K`) of `lanes` to `values`: all
/// `K` in one store into the reserved room when it holds `K` more (those
/// past `count` left uncounted), else one by one.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn extend_lanes<T: Copy, const K: usize>(
    values: &mut alloc::vec::Vec<T>,
    lanes: [T; K],
    count: usize,
) {
    let (len, count) = (values.len(), count.min(K));
    if values.capacity() - len < K {
        values.extend(lanes.into_iter().take(count));
        return;
    }
    // SAFETY: `len + K <= capacity` (checked above), so the `K` slots from
    // `len` lie in the allocation, past the initialised elements; a
    // `[T; K]` has `T`'s alignment, which the vector's pointer has. The
    // first `count` of them are then initialised (`T: Copy`: nothing to
    // drop), and counted.
    unsafe {
        values.as_mut_ptr().add(len).cast::<[T; K]>().write(lanes);
        values.set_len(len + count);
    }
}

/// Eight bits (the first in the low bit) as eight bytes of 0 or 1, the
/// first in the low byte.
#[cfg(feature = "alloc")]
#[inline(always)]
fn spread_bits(bits: u64) -> u64 {
    // The byte copied into every byte, bit `j` kept in byte `j`; adding
    // 0x7F sets a byte's top bit iff its bit was set (no byte carries
    // into the next: 0x7F + 0x80 is 0xFF), which the shift brings down.
    let picked = (bits & 0xFF).wrapping_mul(0x0101_0101_0101_0101) & 0x8040_2010_0804_0201;
    ((picked + 0x7F7F_7F7F_7F7F_7F7F) >> 7) & 0x0101_0101_0101_0101
}

/// Appends `count` (at most 64) bools to `values`, the `i`th bit `i` of
/// `bits`: eight to an 8-byte store when `values` has room for them (the
/// last eight overlapping those before when `count` is not a multiple of
/// eight), else one by one through a safe `extend`.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn extend_bools(values: &mut alloc::vec::Vec<bool>, bits: u64, count: usize) {
    let (len, count) = (values.len(), count.min(64));
    let room = values.capacity() - len;
    let start = values.as_mut_ptr();
    let put = |at: usize, bits: u64| {
        // SAFETY: every caller below passes `at` with `at + 8 <= len +
        // room`, the vector's capacity, so the 8 bytes lie in its
        // allocation (a `bool` is one byte, any alignment is 1 for an
        // unaligned write). Each byte written is 0 or 1, a valid `bool`;
        // bytes below `len` are overwritten only with the values they hold.
        unsafe { start.add(at).cast::<u64>().write_unaligned(spread_bits(bits).to_le()) }
    };
    if count >= 8 && room >= count {
        let whole = count / 8;
        for eight in 0..whole {
            put(len + 8 * eight, bits >> (8 * eight));
        }
        if count % 8 != 0 {
            put(len + count - 8, bits >> (count - 8));
        }
    } else if count < 8 && room >= 8 {
        put(len, bits);
    } else {
        values.extend((0..count).map(|index| (bits >> index) & 1 != 0));
        return;
    }
    // SAFETY: the stores above wrote bytes `len..len + count` (whole
    // eights then the last eight, or one eight from `len`), all within the
    // capacity, each 0 or 1.
    unsafe { values.set_len(len + count) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Nul;
    use crate::error::ErrorKind;
    use crate::read::checked_text;

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

    /// Every count 0 to 64 of every pattern, into vectors with 0 to 12
    /// bools already and room for none, some or all of them: the bools
    /// pushed one by one.
    #[cfg(feature = "alloc")]
    #[test]
    fn bools_extend_as_pushed_one_by_one() {
        use alloc::vec::Vec;
        for pattern in [0u64, u64::MAX, 0x5555_5555_5555_5555, 0x0123_4567_89AB_CDEF, 0x8000_0000_0000_0081] {
            for before in [0, 1, 7, 12] {
                for count in 0..=64usize {
                    for extra in [0, 1, 7, 8, 70] {
                        let mut values: Vec<bool> =
                            Vec::with_capacity(before + count.saturating_sub(8) + extra);
                        values.extend((0..before).map(|index| index % 3 == 0));
                        let mut expected = values.clone();
                        expected.extend((0..count).map(|index| (pattern >> index) & 1 != 0));
                        extend_bools(&mut values, pattern, count);
                        assert_eq!(values, expected, "{pattern:#x} {before} {count} {extra}");
                    }
                }
            }
        }
    }

    /// Every count 0 to 9 of eight lanes (`u16`s, and `u8`s), into vectors
    /// with room for none, some or all of them: the lanes pushed one by one.
    #[cfg(feature = "alloc")]
    #[test]
    fn lanes_extend_as_pushed_one_by_one() {
        use alloc::vec::Vec;
        let lanes: [u16; 8] = core::array::from_fn(|index| 1000 + index as u16);
        for before in [0, 3] {
            for count in 0..=9 {
                for room in 0..10 {
                    let mut values: Vec<u16> = Vec::with_capacity(before + room);
                    values.extend((0..before as u16).map(|index| index * 7));
                    let mut expected = values.clone();
                    expected.extend(lanes.iter().take(count));
                    extend_lanes(&mut values, lanes, count);
                    assert_eq!(values, expected, "{before} {count} {room}");
                    let mut bytes: Vec<u8> = Vec::with_capacity(before + room);
                    bytes.extend((0..before as u8).map(|index| index * 7));
                    let mut expected: Vec<u8> = bytes.clone();
                    expected.extend(lanes.iter().take(count).map(|&lane| lane as u8));
                    extend_lanes(&mut bytes, lanes.map(|lane| lane as u8), count);
                    assert_eq!(bytes, expected, "bytes {before} {count} {room}");
                }
            }
        }
    }

    /// Strings (which own memory, so Miri sees a leak or a double drop)
    /// read into vectors with room for all, some or none of them, failing
    /// at each element or not at all: the elements pushed one by one, up
    /// to the failure, and the same result.
    #[cfg(feature = "alloc")]
    #[test]
    fn elements_read_into_room_as_pushed_one_by_one() {
        use alloc::string::{String, ToString};
        use alloc::vec::Vec;
        for before in [0, 2] {
            for len in 0..6 {
                for room in [0, len / 2, len, len + 3] {
                    for fail_at in 0..=len {
                        // The `index`th element, refused at `fail_at`.
                        let read = |index: &mut usize| {
                            *index += 1;
                            if *index - 1 == fail_at { Err(fail_at) } else { Ok(index.to_string()) }
                        };
                        let mut values: Vec<String> = Vec::with_capacity(before + room);
                        values.extend((0..before).map(|index| index.to_string()));
                        let mut expected = values.clone();
                        let (mut next, mut pushed) = (0, 0);
                        let result = read_into(&mut values, len, || read(&mut next));
                        let expected_result = (0..len).try_for_each(|_| {
                            expected.push(read(&mut pushed)?);
                            Ok(())
                        });
                        assert_eq!(
                            (result, values),
                            (expected_result, expected),
                            "{before} {len} {room} {fail_at}"
                        );
                    }
                }
            }
        }
    }

    /// Every length 0 to 20 of `K` = 8, 4, 2 and 1 lanes to a chunk, into
    /// vectors with 0 or 3 elements already and room for none, some or
    /// all of them: the elements pushed one by one, and no chunk asked for
    /// past `len.max(K)`.
    #[cfg(feature = "alloc")]
    #[test]
    fn chunks_extend_as_pushed_one_by_one() {
        use alloc::vec::Vec;
        fn check<T: Copy + PartialEq + core::fmt::Debug, const K: usize>(value: fn(usize) -> T) {
            for before in [0, 3] {
                for len in 0..=20 {
                    for room in [0, len / 2, len, len + 9] {
                        let mut values: Vec<T> = Vec::with_capacity(before + room);
                        values.extend((0..before).map(|index| value(index + 100)));
                        let mut expected = values.clone();
                        expected.extend((0..len).map(value));
                        extend_chunks::<T, K>(&mut values, len, |at| {
                            assert!(at + K <= len.max(K), "chunk at {at} of {len}");
                            core::array::from_fn(|index| value(at + index))
                        });
                        assert_eq!(values, expected, "{K} {before} {len} {room}");
                    }
                }
            }
        }
        check::<u8, 8>(|index| index as u8 ^ 0xA5);
        check::<u16, 4>(|index| 1000 + index as u16);
        check::<u32, 2>(|index| 70_000 + index as u32);
        check::<u64, 1>(|index| u64::MAX - index as u64);
    }

    /// Every length 0 to 40, all ASCII, then with one byte at each
    /// position replaced by a byte of 0x80 or more: the word test agrees
    /// with the byte-by-byte one.
    #[test]
    fn unchecked_ascii_test_agrees_with_the_bytewise_one() {
        let text: [u8; 40] = core::array::from_fn(|index| b' ' + (index * 7 % 95) as u8);
        for len in 0..=text.len() {
            let mut bytes = text;
            let bytes = &mut bytes[..len];
            assert!(is_ascii(bytes) && bytes.is_ascii(), "{len}");
            assert_eq!(ascii_str(bytes), core::str::from_utf8(bytes).ok());
            for at in 0..len {
                for high in [0x80, 0xC3, 0xFF] {
                    let kept = bytes[at];
                    bytes[at] = high;
                    assert!(!is_ascii(bytes), "{len} {at} {high}");
                    assert_eq!(ascii_str(bytes), None);
                    bytes[at] = kept;
                }
            }
        }
    }

    /// ASCII text reads as itself; valid non-ASCII UTF-8 and invalid
    /// bytes are handed back to the caller's validation (`None`).
    #[test]
    fn unchecked_ascii_str_is_the_text_or_none() {
        for text in ["", "a", "GET", "POST", "/api/v1/users/4711", "Mozilla/5.0", "\0\x7F nul and del"] {
            assert_eq!(ascii_str(text.as_bytes()), Some(text));
        }
        for text in ["é", "caf\u{e9}", "/api/\u{1F600}/x", "\u{7FF}abcdefgh"] {
            assert_eq!(ascii_str(text.as_bytes()), None);
        }
        for bytes in [&b"\xFF"[..], b"a\xC3", b"abcdefgh\x80", b"\xED\xA0\x80 surrogate"] {
            assert!(core::str::from_utf8(bytes).is_err());
            assert_eq!(ascii_str(bytes), None);
        }
    }

    /// `checked_text`, which takes the ASCII shortcut, accepts and refuses
    /// exactly what `from_utf8` then the NUL scan did before it.
    #[test]
    fn unchecked_text_checks_refuse_as_before() {
        let samples: [&[u8]; 10] = [
            b"",
            b"GET",
            b"/api/v1/users/4711",
            b"a\0b",
            "caf\u{e9}".as_bytes(),
            "\u{1F600}\0x".as_bytes(),
            b"\xFF",
            b"abcdefgh\xC3",
            b"\xC3\x28 twelve bytes",
            b"\0\xFF",
        ];
        for bytes in samples {
            for nul in [Nul::Allowed, Nul::Refused] {
                let before = match core::str::from_utf8(bytes) {
                    Err(_) => Err(ErrorKind::InvalidUtf8),
                    Ok(_) if nul == Nul::Refused && bytes.contains(&0) => Err(ErrorKind::InteriorNul),
                    Ok(text) => Ok(text),
                };
                assert_eq!(checked_text(bytes, nul), before, "{bytes:?}");
            }
        }
    }

    /// A window of letters, with `bad` (a byte value) at `at` if any.
    #[cfg(feature = "alloc")]
    fn letters(bad: Option<(u8, usize)>) -> [u8; TEXT_WINDOW] {
        let mut window: [u8; TEXT_WINDOW] = core::array::from_fn(|index| b'a' + (index % 26) as u8);
        if let Some((byte, at)) = bad {
            window[at] = byte;
        }
        window
    }

    /// Every length 0 to 34, the caller's tests passing or not, NUL
    /// refused or not, and a byte at or above 0x80 or a NUL at every
    /// position (or none): `short_text` is the first `len` bytes, at
    /// capacity `len`, exactly when they are 1 to 32 ASCII bytes (no NUL
    /// when refused) and the caller's tests pass. (Under Miri, a copy past
    /// `len` would write out of the allocation.)
    #[cfg(feature = "alloc")]
    #[test]
    fn short_text_is_the_ascii_prefix_or_none() {
        let mut bads = alloc::vec![None];
        for at in 0..TEXT_WINDOW {
            bads.extend([Some((0x80, at)), Some((0xFF, at)), Some((0, at))]);
        }
        for len in 0..=TEXT_WINDOW + 2 {
            for &bad in &bads {
                let window = letters(bad);
                for nul in [Nul::Allowed, Nul::Refused] {
                    for fits in [true, false] {
                        let prefix = window.get(..len).unwrap_or(&window);
                        let taken = fits
                            && (1..=TEXT_WINDOW).contains(&len)
                            && prefix.iter().all(|&byte| byte < 0x80 && (nul == Nul::Allowed || byte != 0));
                        let text = short_text(&window, len, nul, fits);
                        assert_eq!(text.as_deref(), taken.then(|| core::str::from_utf8(prefix).unwrap()));
                        assert!(text.is_none_or(|text| text.capacity() == len), "{len}");
                    }
                }
            }
        }
    }

    /// `copy_short` writes the first `len` bytes where they go and nothing
    /// after them, for every length 1 to 32.
    #[cfg(feature = "alloc")]
    #[test]
    fn short_copies_write_the_string_and_nothing_past_it() {
        let window = letters(None);
        for len in 1..=TEXT_WINDOW {
            let mut buf = [0xAAu8; TEXT_WINDOW + 8];
            // SAFETY: `len` is in 1..=32 and `buf` holds 40 bytes apart
            // from `window`.
            unsafe { copy_short(&window, buf.as_mut_ptr(), len) };
            assert_eq!(&buf[..len], &window[..len]);
            assert!(buf[len..].iter().all(|&byte| byte == 0xAA), "{len}");
        }
    }

    /// The SSE2 refusal mask and the word-at-a-time one agree, on windows
    /// of NUL, 0x01, ASCII, 0x7F, 0x80 and 0xFF bytes.
    #[cfg(feature = "alloc")]
    #[test]
    fn refused_bytes_agree_with_the_word_at_a_time_reference() {
        const BYTES: [u8; 6] = [0, 1, b'q', 0x7F, 0x80, 0xFF];
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        for round in 0..if cfg!(miri) { 40 } else { 4000 } {
            let window: [u8; TEXT_WINDOW] = core::array::from_fn(|_| {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                // Mostly one byte, so that whole words and lanes agree too.
                if (state >> 60) < 12 { b'q' } else { BYTES[(state >> 33) as usize % BYTES.len()] }
            });
            for nul in [Nul::Allowed, Nul::Refused] {
                let expected = window.iter().enumerate().fold(0u64, |mask, (at, &byte)| {
                    mask | (u64::from(byte >= 0x80 || (nul == Nul::Refused && byte == 0)) << at)
                });
                assert_eq!(refused_bytes_by_words(&window, nul), expected, "{round}");
                assert_eq!(refused_bytes(&window, nul), expected, "{round}");
            }
        }
    }
}

/// Appends `len` elements to `values`, elements `at..at + K` given by
/// `chunk(at)` (a function of `at` alone, so overlapping chunks agree on
/// the elements they share; called only with `at + K <= len.max(K)`). With room for `len` more: `K` to a store,
/// the last `K` overlapping those before; fewer than `K` as two
/// overlapping halves (quarters, ...) of `chunk(0)`. Without room, pushed
/// one by one.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn extend_chunks<T: Copy, const K: usize>(
    values: &mut alloc::vec::Vec<T>,
    len: usize,
    mut chunk: impl FnMut(usize) -> [T; K],
) {
    let start = values.len();
    if values.capacity() - start < len {
        values.extend((0..len).map(|index| {
            let at = (index - index % K).min(len.saturating_sub(K));
            chunk(at)[index - at]
        }));
        return;
    }
    let room = values.as_mut_ptr().wrapping_add(start);
    // SAFETY: every call below passes `at` with `at + K <= len`, and the
    // `len` slots from `start` lie in the allocation past the initialised
    // elements (`start + len <= capacity`, checked above); `T: Copy`, so
    // nothing there needs dropping. `[T; K]` has `T`'s alignment.
    let store = |at: usize, elements: [T; K]| unsafe { room.add(at).cast::<[T; K]>().write(elements) };
    // `len` in `half..2 * half`: the first `half` of `first` and its last
    // `half` before `len` cover it, in two fixed-size stores.
    // SAFETY: `room` has room for `len` elements, as above.
    let halves = |first: &[T; K], half: usize| unsafe {
        match half {
            4 => halves_of::<T, K, 4>(room, first, len),
            2 => halves_of::<T, K, 2>(room, first, len),
            _ => halves_of::<T, K, 1>(room, first, len),
        }
    };
    if len >= K {
        let mut at = 0;
        while at + K < len {
            store(at, chunk(at));
            at += K;
        }
        store(len - K, chunk(len - K));
    } else if len > 0 {
        let first = chunk(0);
        match len {
            4.. => halves(&first, 4),
            2.. => halves(&first, 2),
            _ => halves(&first, 1),
        }
    }
    // SAFETY: the stores above initialised slots `start..start + len`, all
    // within the capacity.
    unsafe { values.set_len(start + len) }
}

/// [`extend_chunks`]' fewer than `K`: elements `0..H` and `len - H..len`
/// of `first` into `room` (nothing unless `H <= len <= K`).
///
/// # Safety
///
/// `room` is valid for writes of `len` elements of `T`, aligned for `T`.
#[cfg(feature = "alloc")]
#[inline(always)]
unsafe fn halves_of<T: Copy, const K: usize, const H: usize>(room: *mut T, first: &[T; K], len: usize) {
    let tail = first.get(len.wrapping_sub(H)..).and_then(|rest| rest.first_chunk::<H>());
    if let (Some(head), Some(tail), true) = (first.first_chunk::<H>(), tail, len >= H) {
        // SAFETY: slots `0..H` and `len - H..len` lie in `room`'s `len`
        // (`H <= len`, checked here); `[T; H]` has `T`'s alignment, and the
        // sources are in `first`, which the caller holds apart from `room`.
        unsafe {
            room.cast::<[T; H]>().write(*head);
            room.add(len - H).cast::<[T; H]>().write(*tail);
        }
    }
}

/// A block's elements written into the room a `Vec` has reserved for
/// them (`__private::BlockSlots`), with no capacity test or length
/// update per element: each at a constant offset from the block's
/// first slot, the length set once when the slots are dropped.
#[cfg(feature = "alloc")]
#[derive(Debug)]
pub(crate) struct Slots<'v, T> {
    items: &'v mut alloc::vec::Vec<T>,
    /// The first slot past `items.len()`.
    first: *mut T,
    /// Elements written from `first`, at most `ROOM`.
    written: usize,
}

/// Slots a block claims: `__private::BLOCK`.
#[cfg(feature = "alloc")]
const ROOM: usize = crate::private::BLOCK;

#[cfg(feature = "alloc")]
impl<'v, T> Slots<'v, T> {
    /// The next `ROOM` slots of `items`, `None` unless it has room for them.
    #[inline(always)]
    pub(crate) fn new(items: &'v mut alloc::vec::Vec<T>) -> Option<Self> {
        if items.capacity() - items.len() < ROOM {
            return None;
        }
        // SAFETY: `len < capacity` (the room is at least `ROOM`, which
        // is positive): one past the initialised elements, inside the
        // allocation.
        let first = unsafe { items.as_mut_ptr().add(items.len()) };
        Some(Slots { items, first, written: 0 })
    }

    /// Writes `value` into the next slot (dropped instead past the
    /// `ROOM`th, which a block never puts).
    #[inline(always)]
    pub(crate) fn put(&mut self, value: T) {
        if self.written < ROOM {
            // SAFETY: `first` is slot `len` (taken in `new`; `items` is
            // borrowed here, so neither its length nor its allocation
            // changes but through `drop` below) and `len + written <
            // len + ROOM <= capacity` (checked in `new`): the slot lies
            // in the allocation, past the initialised elements and those
            // written before, written once, with `T`'s alignment (the
            // vector's pointer plus whole elements).
            unsafe { self.first.add(self.written).write(value) };
            self.written += 1;
        }
    }
}

#[cfg(feature = "alloc")]
impl<T> Drop for Slots<'_, T> {
    /// Counts the elements written (so they are dropped with the
    /// vector, or truncated from it by a block read again).
    #[inline(always)]
    fn drop(&mut self) {
        let len = self.items.len() + self.written;
        // SAFETY: the `written` slots after `len()` were initialised by
        // `put`, in order, and lie within the capacity (see `put`).
        unsafe { self.items.set_len(len) }
    }
}

// ---- Decode (issue 15, general data): short strings read into an owned
// `String` without a branch on their length. ----

/// Bytes of input a short string is read through: a string of at most this
/// many bytes, with this many bytes of input from its first, is tested and
/// copied from a window of fixed size.
#[cfg(feature = "alloc")]
pub(crate) const TEXT_WINDOW: usize = 32;

/// The first `len` bytes of `window` as an owned `String` of capacity
/// `len`, when `fits` (the caller's own tests), `len` is in
/// `1..=TEXT_WINDOW` and none of the bytes is at or above 0x80 (nor NUL,
/// when it is refused): all tested together, one branch for all. `None`
/// otherwise, nothing allocated. The bytes past `len` are input after the
/// string: read, never kept.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn short_text(
    window: &[u8; TEXT_WINDOW],
    len: usize,
    nul: crate::bits::Nul,
    fits: bool,
) -> Option<alloc::string::String> {
    // `len` in 1..=32: its low `len` bits, one per byte of the string.
    let in_window = len.wrapping_sub(1) < TEXT_WINDOW;
    let taken = crate::bits::low_mask(len as u32);
    if !(fits & in_window & (refused_bytes(window, nul) & taken == 0)) {
        return None;
    }
    let mut bytes = alloc::vec::Vec::<u8>::with_capacity(len);
    // SAFETY: `len` is in `1..=TEXT_WINDOW` (tested above), so the window
    // holds the `len` bytes read, and the vector has room for `len`; the
    // two do not overlap (the vector was just allocated). Those bytes are
    // all below 0x80 (tested above): ASCII, so valid UTF-8.
    unsafe {
        copy_short(window, bytes.as_mut_ptr(), len);
        bytes.set_len(len);
        Some(alloc::string::String::from_utf8_unchecked(bytes))
    }
}

/// Copies the first `len` bytes of `window` to `to` with fixed-size
/// copies and no branch on `len`: for each width `W` of 16, 8 and 4, when
/// `len >= W`, the first `W` bytes and the `W` bytes ending at `len`
/// (together all of them for `len` below `2 * W`), both into a scratch
/// array when `len < W`; then bytes `0`, `len / 2` and `len - 1` (all of
/// them for `len` up to 3).
///
/// # Safety
///
/// `len` is in `1..=TEXT_WINDOW`, `to` is valid for writes of `len` bytes
/// and does not overlap `window`.
#[cfg(feature = "alloc")]
#[inline(always)]
unsafe fn copy_short(window: &[u8; TEXT_WINDOW], to: *mut u8, len: usize) {
    const { assert!(TEXT_WINDOW <= 32) };
    let mut spare = core::mem::MaybeUninit::<[u8; 16]>::uninit();
    let spare = spare.as_mut_ptr().cast::<u8>();
    // SAFETY: the caller's contract; `W <= 16`, the scratch's size. The
    // bytes `0`, `len / 2` and `len - 1` are below `len`, in `window`
    // (`len <= TEXT_WINDOW`) and in `to`.
    unsafe {
        copy_pair::<16>(window, to, spare, len);
        copy_pair::<8>(window, to, spare, len);
        copy_pair::<4>(window, to, spare, len);
        let from = window.as_ptr();
        to.write(from.read());
        to.add(len / 2).write(from.add(len / 2).read());
        to.add(len - 1).write(from.add(len - 1).read());
    }
}

/// [`copy_short`]'s copies of width `W`.
///
/// # Safety
///
/// As [`copy_short`]'s, and `spare` is valid for writes of `W` bytes.
#[cfg(feature = "alloc")]
#[inline(always)]
unsafe fn copy_pair<const W: usize>(window: &[u8; TEXT_WINDOW], to: *mut u8, spare: *mut u8, len: usize) {
    let fits = len >= W;
    // `len - W`, or 0 when `len < W`.
    let tail = len.saturating_sub(W);
    let base = core::hint::select_unpredictable(fits, to, spare);
    // SAFETY: `tail + W` is `len` (at most `TEXT_WINDOW`) when `len >= W`,
    // else `W`: both reads lie in `window`. When `len >= W` both writes lie
    // in `to`'s `len` bytes (`0..W` and `len - W..len`), else at the start
    // of `spare` (`tail` is 0).
    unsafe {
        let head = window.as_ptr().cast::<[u8; W]>().read_unaligned();
        let last = window.as_ptr().add(tail).cast::<[u8; W]>().read_unaligned();
        base.cast::<[u8; W]>().write_unaligned(head);
        base.wrapping_add(tail).cast::<[u8; W]>().write_unaligned(last);
    }
}

/// One bit per byte of `window` (bit `i` for byte `i`): set for a byte at
/// or above 0x80, or NUL when it is refused.
#[cfg(feature = "alloc")]
#[inline(always)]
fn refused_bytes(window: &[u8; TEXT_WINDOW], nul: crate::bits::Nul) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse::refused_bytes(window, nul == crate::bits::Nul::Refused)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        refused_bytes_by_words(window, nul)
    }
}

/// [`refused_bytes`] a word at a time, where SSE2 is missing (and as its
/// reference in tests).
#[cfg(all(feature = "alloc", any(test, not(all(target_arch = "x86_64", target_feature = "sse2")))))]
#[inline(always)]
fn refused_bytes_by_words(window: &[u8; TEXT_WINDOW], nul: crate::bits::Nul) -> u64 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let (words, _) = window.as_chunks::<8>();
    let mut mask = 0;
    for (index, word) in words.iter().enumerate() {
        let word = u64::from_le_bytes(*word);
        let mut refused = word & HIGH;
        if nul == crate::bits::Nul::Refused {
            // A byte's top bit is set here exactly when the byte is nonzero
            // (its low seven bits plus 0x7F carry into it, or it was set).
            refused |= !(((word & LOW7) + LOW7) | word) & HIGH;
        }
        // Each byte's top bit to bit `i` of a byte (bit 8i + 7 to bit 56 + i).
        let bits = ((refused >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) & 0xFF;
        mask |= bits << (8 * index);
    }
    mask
}

/// `__private::quantized_row` and `RowSums` in SSE2.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(crate) mod sse {
    use core::arch::x86_64::*;

    // SAFETY (every block below): the intrinsics need SSE and SSE2, which
    // this module is compiled only with (`target_feature = "sse2"`, part
    // of x86-64's baseline); none takes a pointer.

    #[inline(always)]
    pub(crate) fn zero() -> __m128 {
        unsafe { _mm_setzero_ps() }
    }

    #[inline(always)]
    pub(crate) fn add(sum: __m128, [a, b, c, d]: [f32; 4]) -> __m128 {
        unsafe { _mm_add_ps(sum, _mm_set_ps(d, c, b, a)) }
    }

    /// Whether every lane of `sum` is finite (`x - x` is 0 for a finite
    /// `x`, NaN otherwise).
    #[inline(always)]
    pub(crate) fn finite(sum: __m128) -> bool {
        unsafe {
            let zero = _mm_sub_ps(sum, sum);
            _mm_movemask_ps(_mm_cmpord_ps(zero, zero)) == 0b1111
        }
    }

    /// Each lane's `Quantizer::row_constants` as three vectors: `min`,
    /// `delta` and the top step as a float, lane `i` from `constants[i]`.
    #[inline(always)]
    fn columns([a, b, c, d]: [(f32, f32, f32); 4]) -> (__m128, __m128, __m128) {
        let column =
            |part: fn((f32, f32, f32)) -> f32| unsafe { _mm_set_ps(part(d), part(c), part(b), part(a)) };
        (column(|c| c.0), column(|c| c.1), column(|c| c.2))
    }

    /// `Quantizer::quantize_lane` on four lanes: the same f32 operations in
    /// the same order (IEEE division, no fused multiply-add), `maxps` and
    /// `minps` giving what its `max(0.0)` and select give (NaN to 0,
    /// `scaled` unless not below `top`), then the same floor. `constants`:
    /// each lane's `Quantizer::row_constants`.
    #[inline(always)]
    pub(crate) fn quantized_row([a, b, c, d]: [f32; 4], constants: [(f32, f32, f32); 4]) -> [u32; 4] {
        let (min, delta, top) = columns(constants);
        unsafe {
            let value = _mm_set_ps(d, c, b, a);
            let normalized = _mm_max_ps(_mm_div_ps(_mm_sub_ps(value, min), delta), _mm_setzero_ps());
            let scaled = _mm_min_ps(_mm_add_ps(_mm_mul_ps(normalized, top), _mm_set1_ps(0.5)), top);
            // `scaled` is in `[0, top]`, below 2^23 (`row_constants`): the
            // truncating conversion is its floor, in one instruction (the
            // lanes' bias and compare are for plain code, where the compiler
            // would not use it).
            let steps = _mm_cvttps_epi32(scaled);
            let low = _mm_cvtsi128_si64(steps) as u64;
            let high = _mm_cvtsi128_si64(_mm_unpackhi_epi64(steps, steps)) as u64;
            [low as u32, (low >> 32) as u32, high as u32, (high >> 32) as u32]
        }
    }

    /// One bit per byte of `window` (bit `i` for byte `i`): set for a
    /// byte at or above 0x80, or NUL when `nul_refused`: a 16-byte load
    /// and its `pmovmskb` (two for NUL) per 16 bytes.
    #[cfg(feature = "alloc")]
    #[inline(always)]
    pub(crate) fn refused_bytes(window: &[u8; super::TEXT_WINDOW], nul_refused: bool) -> u64 {
        let mut mask = 0;
        for (index, chunk) in window.as_chunks::<16>().0.iter().enumerate() {
            // SAFETY: `chunk` is 16 bytes, read unaligned (`loadu`).
            let bytes = unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) };
            let mut refused = unsafe { _mm_movemask_epi8(bytes) } as u32;
            if nul_refused {
                refused |= unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_setzero_si128())) } as u32;
            }
            mask |= u64::from(refused) << (16 * index);
        }
        mask
    }

    // ---- Decode (issue 15, the eighth pass): rows of four steps
    // dequantized, for `__private::dequantized_row`. ----

    /// `Quantizer::dequantize_unchecked` on four lanes, and whether every
    /// lane's step is at most its `max_integer` (`dequantize`'s check): the
    /// same f32 operations in the same order (`cvtdq2ps` is the signed
    /// conversion it takes below 2^30 steps, then IEEE division, multiply
    /// and add; nothing fused), the check one compare and one `movmskps`
    /// for the row. `constants`: each lane's `Quantizer::row_constants`
    /// (`min`, `delta`, `max_integer` as a float, below 2^23).
    #[inline(always)]
    pub(crate) fn dequantized_row(steps: [u32; 4], constants: [(f32, f32, f32); 4]) -> ([f32; 4], bool) {
        let (min, delta, top) = columns(constants);
        // Whole numbers below 2^23: exact as integers.
        let [ta, tb, tc, td] = constants.map(|(_, _, top)| top as i32);
        let [a, b, c, d] = steps.map(|step| step as i32);
        unsafe {
            let steps = _mm_set_epi32(d, c, b, a);
            // Refused: above the top as a signed integer, or at or above
            // 2^31 (negative as one: its sign bit, which `movmskps` takes).
            let above = _mm_cmpgt_epi32(steps, _mm_set_epi32(td, tc, tb, ta));
            let refused = _mm_movemask_ps(_mm_castsi128_ps(_mm_or_si128(above, steps)));
            let values = _mm_add_ps(_mm_mul_ps(_mm_div_ps(_mm_cvtepi32_ps(steps), top), delta), min);
            // The lanes as floats (no pointer): the compiler stores four
            // adjacent fields from the vector as it is.
            let lanes = [
                _mm_cvtss_f32(values),
                _mm_cvtss_f32(_mm_shuffle_ps::<0b01>(values, values)),
                _mm_cvtss_f32(_mm_movehl_ps(values, values)),
                _mm_cvtss_f32(_mm_shuffle_ps::<0b11>(values, values)),
            ];
            (lanes, refused == 0)
        }
    }
}
