//! Derived writes check room for `MAX_BITS` once, then skip per-field room
//! checks. A hand-written `BitPack` whose `MAX_BITS` understates what it
//! writes must still never write past the buffer, never panic, and end in
//! `BufferFull` rather than in bytes that claim to be a whole message.

use bitpack::{BitPack, BitRead, BitWrite, BitWriter, Error, ErrorKind};

/// Claims 1 bit, writes 64.
#[derive(Debug, PartialEq)]
struct Understated(u64);

impl BitPack for Understated {
    const MAX_BITS: usize = 1;
    const SCHEMA: u64 = 0;

    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.write_u64(self.0)
    }

    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        reader.read_u64().map(Understated)
    }
}

#[derive(BitPack, Debug, PartialEq)]
struct Outer {
    #[bits(min = 0, max = 15)]
    tag: u8,
    inner: Understated,
    flag: bool,
}

#[test]
fn an_understated_max_bits_ends_in_buffer_full_not_in_an_overrun() {
    let value = Outer { tag: 9, inner: Understated(u64::MAX), flag: true };
    assert_eq!(Outer::MAX_BITS, 4 + 1 + 1);
    // Room for what MAX_BITS claims, and a guard byte after the slice.
    let mut backing = [0u8; 3];
    let (buf, guard) = backing.split_at_mut(1);
    let result = bitpack::encode_into(&value, buf);
    assert_eq!(result.unwrap_err().kind(), ErrorKind::BufferFull);
    assert_eq!(guard, [0, 0], "nothing written past the buffer");

    // Written by hand: later writes land nowhere (no panic, nothing past
    // the buffer) and `finish` refuses the message.
    let mut backing = [0u8; 3];
    let (buf, guard) = backing.split_at_mut(1);
    let mut writer = BitWriter::new(buf);
    let _ = value.write_to(&mut writer);
    let _ = writer.write_u32(u32::MAX);
    assert_eq!(writer.finish().unwrap_err().kind(), ErrorKind::BufferFull);
    assert_eq!(guard, [0, 0], "nothing written past the buffer");

    // With room for what it really writes, it round-trips.
    let mut buf = [0u8; 16];
    let used = bitpack::encode_into(&value, &mut buf).unwrap();
    assert_eq!(used, 9);
    assert_eq!(bitpack::decode::<Outer>(&buf[..used]).unwrap(), value);
}

/// Claims 1 bit, writes ten 64-bit words: eight of them in a block overrun
/// the window its stores go into (see `sink/window.rs`).
#[derive(Debug, Clone, PartialEq)]
struct Flood(u64);

impl BitPack for Flood {
    const MAX_BITS: usize = 1;
    const SCHEMA: u64 = 0;

    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        (0..10).try_for_each(|word| writer.write_u64(self.0.rotate_left(word)))
    }

    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        let first = reader.read_u64()?;
        for _ in 1..10 {
            reader.read_u64()?;
        }
        Ok(Flood(first))
    }
}

/// Quantized floats in a run: a `Vec` of it is written in blocks.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Drop {
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    x: f32,
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    y: f32,
    flood: Flood,
}

#[derive(BitPack, Debug, Clone, PartialEq)]
struct Drops {
    #[bitpack(max_len = 40)]
    drops: Vec<Drop>,
}

/// A block whose elements write far more than their `MAX_BITS` writes, with
/// room in the buffer, the bytes of the elements written one by one (its
/// window's overrun detected and the block written again), and without
/// room ends in `BufferFull` with nothing past the buffer.
#[test]
fn an_understated_max_bits_in_a_block_writes_as_the_elements_one_by_one() {
    for len in [8, 16, 21] {
        let drops = Drops {
            drops: (0..len)
                .map(|i| Drop { x: i as f32 - 9.5, y: 3.25, flood: Flood(0x0123_4567_89AB_CDEF ^ i as u64) })
                .collect(),
        };
        let mut blocks = [0u8; 4096];
        let used = bitpack::encode_into(&drops, &mut blocks).unwrap();
        let mut one_by_one = [0u8; 4096];
        let mut writer = BitWriter::new(&mut one_by_one);
        bitpack::__private::write_len(&mut writer, drops.drops.len(), 40).unwrap();
        drops.drops.iter().try_for_each(|drop| drop.write_to(&mut writer)).unwrap();
        assert_eq!(writer.finish().unwrap(), used);
        assert_eq!(blocks, one_by_one, "{len} elements");
        assert_eq!(bitpack::decode::<Drops>(&blocks[..used]).unwrap(), drops);

        let mut backing = [0u8; 700];
        let (buf, guard) = backing.split_at_mut(600);
        let result = bitpack::encode_into(&drops, buf);
        assert_eq!(result.unwrap_err().kind(), ErrorKind::BufferFull);
        assert_eq!(guard, [0; 100], "nothing written past the buffer");
    }
}
