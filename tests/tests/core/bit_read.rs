//! Reading is generic over [`BitRead`], as writing is over `BitWrite`: a
//! derived type's `read_from`, `decode_changes` and `read_delta` take any
//! source, so a second back end needs no change to user types.

use bitpack::{BitPack, BitRead, BitReader, ChangeGroups, Error};

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Unit {
    #[bits(min = 0, max = 1000)]
    health: u16,
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    x: f32,
    #[bitpack(max_len = 16)]
    name: String,
    #[change_group]
    alive: bool,
}

/// A reader of any `BitPack` type from any source.
fn read_any<T: BitPack, R: BitRead>(reader: &mut R) -> Result<T, Error> {
    T::read_from(reader)
}

/// A delta reader from any source.
fn read_delta_any<T: ChangeGroups, R: BitRead>(baseline: &T, reader: &mut R) -> Result<T, Error> {
    T::read_delta(baseline, reader)
}

fn unit(health: u16) -> Unit {
    Unit { health, x: 12.5, name: String::from("scout"), alive: true }
}

#[test]
fn a_derived_type_reads_through_a_generic_source() {
    let value = unit(750);
    let bytes = bitpack::encode(&value).unwrap();
    let mut reader = BitReader::new(&bytes);
    let back: Unit = read_any(&mut reader).unwrap();
    assert_eq!(back, value);
    // The generic read is the one `decode` runs: the same bits consumed.
    assert_eq!(bitpack::decode::<Unit>(&bytes).unwrap(), back);
    assert_eq!(reader.bits_read().div_ceil(8), bytes.len());
    // The reader type is a parameter of the generated method.
    let mut again = BitReader::new(&bytes);
    assert_eq!(<Unit as BitPack>::read_from::<BitReader<'_>>(&mut again).unwrap(), value);
}

#[test]
fn a_derived_delta_reads_through_a_generic_source() {
    let baseline = unit(750);
    let mut moved = baseline.clone();
    moved.health = 20;
    moved.alive = false;
    let mut buf = [0u8; 64];
    let mut writer = bitpack::BitWriter::new(&mut buf);
    moved.write_delta(&baseline, &mut writer).unwrap();
    let used = writer.finish().unwrap();
    let mut reader = BitReader::new(&buf[..used]);
    assert_eq!(read_delta_any(&baseline, &mut reader).unwrap(), moved);
}

#[test]
fn a_failed_generic_read_leaves_the_source_where_it_was() {
    let bytes = bitpack::encode(&unit(750)).unwrap();
    let mut reader = BitReader::new(&bytes[..bytes.len() - 1]);
    assert!(read_any::<Unit, _>(&mut reader).is_err());
    assert_eq!(reader.bits_read(), 0);
}
