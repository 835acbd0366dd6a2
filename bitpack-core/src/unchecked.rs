//! The core's only `unsafe` code, each use small and argued (issue 15:
//! measured to pay, see `benches/README.md`).
//!
//! - [`ascii_str`]: short strings read as text skip the UTF-8 validation
//!   when their bytes are all ASCII (about 95 instructions a short string
//!   in `from_utf8`, a few words' test here).

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

#[cfg(test)]
mod tests {
    use super::{ascii_str, is_ascii};
    use crate::bits::Nul;
    use crate::error::ErrorKind;
    use crate::read::checked_text;

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
}
