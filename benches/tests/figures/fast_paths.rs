//! The speed paths of the derived code change nothing observable: a write
//! with `MAX_BITS` of room (reserved once, no per-field room checks) and one
//! without (the checked copy) write the same bytes and refuse the same
//! values at the same bit; runs of bools packed into one write or read
//! behave exactly like one `write_bool`/`read_bool` each, failing at the
//! same bit (and, as every derived write and read does, failing whole).

use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, Error, ErrorKind};
use bitpack_benches::dataset::{self, EntityFlags, Snapshot};

/// Writes `value` into a buffer of `len` bytes: the bytes used, or the error.
fn write_into<T: BitPack>(value: &T, len: usize) -> Result<Vec<u8>, Error> {
    let mut buf = vec![0u8; len];
    let mut writer = BitWriter::new(&mut buf);
    value.write_to(&mut writer)?;
    let used = writer.finish()?;
    buf.truncate(used);
    Ok(buf)
}

fn sample() -> Snapshot {
    dataset::generate().snapshots.swap_remove(7)
}

#[test]
fn reserved_and_checked_writes_agree_byte_for_byte() {
    let snapshot = sample();
    let max_bytes = Snapshot::MAX_BITS.div_ceil(8);
    let reserved = write_into(&snapshot, max_bytes).expect("room for MAX_BITS: the reserved path");
    // Exactly the bytes needed is under MAX_BITS here: the checked copy.
    assert!(reserved.len() < max_bytes, "the sample must leave MAX_BITS unused");
    let checked = write_into(&snapshot, reserved.len()).expect("exactly enough room");
    assert_eq!(reserved, checked);
    let mut counter = BitCounter::new();
    snapshot.write_to(&mut counter).expect("counts");
    assert_eq!(counter.bytes(), reserved.len());
    let back = Snapshot::read_from(&mut BitReader::new(&reserved)).expect("reads back");
    assert_eq!(back.entities.len(), snapshot.entities.len());
    assert_eq!(back.tick, snapshot.tick);
}

#[test]
fn a_buffer_one_byte_short_fails_at_the_same_bit_as_separate_writes() {
    let snapshot = sample();
    let needed = write_into(&snapshot, Snapshot::MAX_BITS.div_ceil(8)).expect("writes").len();
    let error = write_into(&snapshot, needed - 1).expect_err("one byte short");
    assert_eq!(error.kind(), ErrorKind::BufferFull);
    // The failing field starts inside the last byte's reach: never before
    // the space actually ran out.
    assert!(error.bit() > (needed - 2) * 8 - 64, "failed at bit {}", error.bit());
    assert!(error.bit() <= (needed - 1) * 8, "failed at bit {}", error.bit());
}

#[test]
fn reserved_writes_still_refuse_out_of_range_values() {
    let mut snapshot = sample();
    snapshot.entities[3].health = 1001;
    let max_bytes = Snapshot::MAX_BITS.div_ceil(8);
    let reserved = write_into(&snapshot, max_bytes).expect_err("health over 1000");
    let checked = write_into(&snapshot, max_bytes - 1).expect_err("health over 1000");
    let mut counter = BitCounter::new();
    let counted = snapshot.write_to(&mut counter).expect_err("the counter refuses it too");
    assert_eq!(reserved.kind(), ErrorKind::OutOfRange);
    assert_eq!((reserved.kind(), reserved.bit()), (checked.kind(), checked.bit()));
    assert_eq!((reserved.kind(), reserved.bit()), (counted.kind(), counted.bit()));

    snapshot.entities[3].health = 1000;
    snapshot.entities[5].position[1] = f32::NAN;
    let reserved = write_into(&snapshot, max_bytes).expect_err("NaN position");
    let checked = write_into(&snapshot, max_bytes - 1).expect_err("NaN position");
    assert_eq!(reserved.kind(), ErrorKind::NonFiniteFloat);
    assert_eq!(reserved.bit(), checked.bit());
}

const FLAG_SETS: [EntityFlags; 3] = [
    EntityFlags { on_ground: true, crouching: false, firing: true, reloading: false, invisible: true },
    EntityFlags { on_ground: false, crouching: true, firing: false, reloading: true, invisible: false },
    EntityFlags { on_ground: true, crouching: true, firing: true, reloading: true, invisible: true },
];

fn bools(flags: &EntityFlags) -> [bool; 5] {
    [flags.on_ground, flags.crouching, flags.firing, flags.reloading, flags.invisible]
}

#[test]
fn packed_bools_are_the_separate_bools() {
    for flags in FLAG_SETS {
        // Two bits in front, so the run straddles no particular alignment.
        let mut derived = [0u8; 2];
        let mut writer = BitWriter::new(&mut derived);
        writer.write_bits(2, 2).expect("room");
        flags.write_to(&mut writer).expect("room");
        writer.finish().expect("finishes");
        let mut separate = [0u8; 2];
        let mut writer = BitWriter::new(&mut separate);
        writer.write_bits(2, 2).expect("room");
        for bit in bools(&flags) {
            writer.write_bool(bit).expect("room");
        }
        writer.finish().expect("finishes");
        assert_eq!(derived, separate);
        let mut reader = BitReader::new(&derived);
        assert_eq!(reader.read_bits(2).expect("two bits"), 2);
        assert_eq!(EntityFlags::read_from(&mut reader).expect("reads"), flags);
        assert_eq!(reader.bits_read(), 7);
    }
}

#[test]
fn packed_bools_fail_where_the_separate_ones_would() {
    let flags = FLAG_SETS[0];
    // One byte: 5 bits in front leave room for 3 of the 5 bools.
    let mut buf = [0u8; 1];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bits(0, 5).expect("room");
    let error = flags.write_to(&mut writer).expect_err("two bools do not fit");
    assert_eq!((error.kind(), error.bit()), (ErrorKind::BufferFull, 8));
    assert_eq!(writer.bits_written(), 5, "the three that fit were taken back");

    // Reading: a byte with 5 bits consumed holds 3 of the 5 bools.
    let bytes = [0b1010_0000u8];
    let mut reader = BitReader::new(&bytes);
    reader.read_bits(5).expect("five bits");
    let error = EntityFlags::read_from(&mut reader).expect_err("two bools are missing");
    assert_eq!((error.kind(), error.bit()), (ErrorKind::UnexpectedEnd, 8));
    assert_eq!(reader.bits_read(), 5, "the reader is back where the value started");
}
