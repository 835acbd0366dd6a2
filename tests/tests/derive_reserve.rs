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
