//! No write or read path allocates, bar `read_wstr` (and, on write, the
//! sort of a `HashMap` or `HashSet`): a counting global allocator (per
//! thread) watches every operation.

use crate::counting_allocator;

use bitpack::{BitCounter, BitRead, BitReader, BitWrite, BitWriter, Error};
use counting_allocator::{allocations, measure};

fn write_everything<W: BitWrite>(w: &mut W) -> Result<(), Error> {
    w.write_bits(5, 3)?;
    w.write_bits64(1 << 40, 41)?;
    w.write_bool(true)?;
    w.write_int(-7, -10, 10)?;
    w.write_int64(-5_000_000_000, -6_000_000_000, 0)?;
    w.write_int128(1 << 100, 0, 1 << 101)?;
    w.write_u8(1)?;
    w.write_u16(2)?;
    w.write_u32(3)?;
    w.write_u64(4)?;
    w.write_u128(5)?;
    w.write_f32(1.5)?;
    w.write_f64(-2.5)?;
    w.write_compressed_float(-33.34, -100.0, 100.0, 0.01)?;
    w.write_align()?;
    w.write_bytes(b"raw")?;
    w.write_str("héllo", 16)?;
    w.write_wstr("wide 😀", 16)?;
    w.write_int_relative(100u32, 5000)?;
    w.write_int_relative(-3i32, 70_000)?;
    w.write_ack_relative(100, 90)?;
    w.write_sequence_relative(65_000, 3)?;
    // Refusals must not allocate either (errors are plain values).
    assert!(w.write_int(11, 0, 10).is_err());
    assert!(w.write_str("too long", 2).is_err());
    Ok(())
}

/// Reads back what `write_everything` wrote; returns the allocations
/// `read_wstr` made (the one read that allocates).
fn read_everything<R: BitRead>(r: &mut R) -> Result<usize, Error> {
    assert_eq!(r.read_bits(3)?, 5);
    assert_eq!(r.read_bits64(41)?, 1 << 40);
    assert!(r.read_bool()?);
    assert_eq!(r.read_int(-10, 10)?, -7);
    assert_eq!(r.read_int64(-6_000_000_000, 0)?, -5_000_000_000);
    assert_eq!(r.read_int128(0, 1 << 101)?, 1 << 100);
    assert_eq!(r.read_u8()?, 1);
    assert_eq!(r.read_u16()?, 2);
    assert_eq!(r.read_u32()?, 3);
    assert_eq!(r.read_u64()?, 4);
    assert_eq!(r.read_u128()?, 5);
    assert_eq!(r.read_f32()?, 1.5);
    assert_eq!(r.read_f64()?, -2.5);
    assert_eq!(r.read_compressed_float(-100.0, 100.0, 0.01)?.to_bits(), 0xC205_5C2A);
    r.read_align()?;
    assert_eq!(r.read_bytes(3)?, b"raw");
    assert_eq!(r.read_str(16)?, "héllo");
    let (text, usage) = measure(|| r.read_wstr(16));
    assert_eq!(text?, "wide 😀");
    assert!(usage.allocations > 0, "read_wstr allocates its String");
    assert_eq!(r.read_int_relative(100u32)?, 5000);
    assert_eq!(r.read_int_relative(-3i32)?, 70_000);
    assert_eq!(r.read_ack_relative(100)?, 90);
    assert_eq!(r.read_sequence_relative(65_000)?, 3);
    // Refusals allocate nothing.
    assert!(r.read_u64().is_err());
    Ok(usage.allocations)
}

#[test]
fn no_write_count_or_read_allocates() {
    let mut buf = [0u8; 256];
    let start = allocations();

    let mut counter = BitCounter::new();
    write_everything(&mut counter).expect("count");
    let mut writer = BitWriter::new(&mut buf);
    write_everything(&mut writer).expect("write");
    assert_eq!(writer.bits_written(), counter.bits_written());
    let used = writer.finish().expect("finish");
    assert_eq!(allocations(), start, "writing and counting allocated");

    let mut reader = BitReader::new(&buf[..used]);
    let start = allocations();
    let wide = read_everything(&mut reader).expect("read");
    assert_eq!(allocations() - start, wide, "a read other than read_wstr allocated");
}

#[test]
fn arrays_and_tuples_read_without_allocating() {
    let value: ([f32; 3], [u16; 4], Option<[i8; 2]>) =
        ([1.0, -2.5, 3.25], [1, 2, 3, 65535], Some([-128, 127]));
    let mut buf = [0u8; 64];
    let start = allocations();
    let used = bitpack::encode_into(&value, &mut buf).expect("encode");
    let back: ([f32; 3], [u16; 4], Option<[i8; 2]>) = bitpack::decode(&buf[..used]).expect("decode");
    assert_eq!(allocations(), start, "encode_into and decode of arrays allocated");
    assert_eq!(back, value);
    // A truncated array is an error, still without allocating.
    assert!(bitpack::decode::<([f32; 3], [u16; 4], Option<[i8; 2]>)>(&buf[..used - 2]).is_err());
    assert_eq!(allocations(), start);
}

/// The one write that allocates: a `HashMap` or `HashSet` not iterating in
/// ascending order sorts references to its entries (one `Vec` of `len`).
#[test]
fn only_hash_maps_and_sets_allocate_to_sort_on_write() {
    use bitpack::__private::{write_map, write_sequence, write_set};
    use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
    use std::hash::{BuildHasherDefault, DefaultHasher};
    type Fixed = BuildHasherDefault<DefaultHasher>;
    let tree: BTreeMap<u16, u8> = (0..50).map(|key| (key * 7, key as u8)).collect();
    let hash: HashMap<u16, u8, Fixed> = tree.iter().map(|(&key, &value)| (key, value)).collect();
    assert!(!hash.keys().is_sorted(), "a hash map iterating in order would not sort");
    let tree_set: BTreeSet<u16> = tree.keys().copied().collect();
    let hash_set: HashSet<u16, Fixed> = tree.keys().copied().collect();
    let deque: VecDeque<u16> = tree.keys().copied().collect();
    let key = |writer: &mut BitWriter<'_>, key: &u16| writer.write_u16(*key);
    let value = |writer: &mut BitWriter<'_>, value: &u8| writer.write_u8(*value);
    let written = |write: &mut dyn FnMut(&mut BitWriter<'_>) -> Result<(), Error>| {
        let mut buf = [0u8; 256];
        let mut writer = BitWriter::new(&mut buf);
        let (result, usage) = counting_allocator::measure(|| write(&mut writer));
        result.expect("writes");
        let used = writer.finish().expect("fits");
        (buf[..used].to_vec(), usage)
    };
    let (tree_bytes, usage) = written(&mut |writer| write_map(writer, &tree, 64, key, value));
    assert_eq!(usage.allocations, 0);
    let (hash_bytes, usage) = written(&mut |writer| write_map(writer, &hash, 64, key, value));
    assert_eq!(hash_bytes, tree_bytes);
    assert_eq!((usage.allocations, usage.bytes), (1, 50 * size_of::<(&u16, &u8)>()));
    let (tree_bytes, usage) = written(&mut |writer| write_set(writer, &tree_set, 64, key));
    assert_eq!(usage.allocations, 0);
    let (hash_bytes, usage) = written(&mut |writer| write_set(writer, &hash_set, 64, key));
    assert_eq!(hash_bytes, tree_bytes);
    assert_eq!((usage.allocations, usage.bytes), (1, 50 * size_of::<&u16>()));
    let (_, usage) = written(&mut |writer| write_sequence(writer, &deque, 64, key));
    assert_eq!(usage.allocations, 0);
}
