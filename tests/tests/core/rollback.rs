//! A failed write of a value leaves the writer's position and every byte
//! before it as they were (bytes past the position are unspecified: a
//! derived write stores whole words ahead and does not put them back), and
//! a failed read leaves the reader where it was (position and allocation
//! budget), so the next value is written or read where the failed one
//! started.

use bitpack::__private;
use bitpack::change::{BitFingerprint, Fingerprint};
use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, Error, ErrorKind};

/// A hand-written value that writes 32 bits, then fails on a range check
/// when `b` is over 5 (as `{ a: u32, #[bits(min = 0, max = 5)] b: u8 }`
/// does field by field): on its own it leaves the 32 bits behind.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Partial {
    a: u32,
    b: u8,
}

impl BitPack for Partial {
    const MAX_BITS: usize = 35;
    const SCHEMA: u64 = 0;

    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.write_u32(self.a)?;
        __private::ranged_u8::write(writer, self.b, 0, 5)
    }

    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        Ok(Partial { a: reader.read_u32()?, b: __private::ranged_u8::read(reader, 0, 5)? })
    }
}

const BAD: Partial = Partial { a: 0xDEAD_BEEF, b: 9 };
const GOOD: Partial = Partial { a: 7, b: 5 };

/// Writes a marker, tries `write` (which must fail), writes another marker:
/// the bytes up to the end of the second marker, and where the failure
/// left the writer. Bytes past the position after the failure are not
/// looked at (the second marker and `finish` write over what they need).
fn marker_around(write: impl FnOnce(&mut BitWriter<'_>) -> Result<(), Error>) -> (Vec<u8>, usize) {
    let mut buf = [0xA5u8; 32];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bits(0b101, 3).unwrap();
    assert!(write(&mut writer).is_err());
    let after_failure = writer.bits_written();
    writer.write_bits(0b11, 2).unwrap();
    let used = writer.finish().unwrap();
    (buf[..used].to_vec(), after_failure)
}

#[test]
fn a_partial_write_on_its_own_leaves_its_bits() {
    // Why the composites roll back: a hand-written value cannot be trusted to.
    let (_, after_failure) = marker_around(|writer| BAD.write_to(writer));
    assert_eq!(after_failure, 3 + 32);
}

#[test]
fn failed_writes_of_core_composites_keep_the_position_and_the_bytes_before_it() {
    let expected = (vec![0b11101u8], 3);
    assert_eq!(marker_around(|writer| (1u8, BAD).write_to(writer)), expected);
    assert_eq!(marker_around(|writer| (GOOD, BAD, true).write_to(writer)), expected);
    assert_eq!(marker_around(|writer| [GOOD, GOOD, BAD].write_to(writer)), expected);
    assert_eq!(marker_around(|writer| Some(BAD).write_to(writer)), expected);
    assert_eq!(marker_around(|writer| Box::new((2u16, BAD)).write_to(writer)), expected);
    assert_eq!(marker_around(|writer| Some([(GOOD, Some(BAD))]).write_to(writer)), expected);
    // The helper generated code calls, on a value of its own.
    assert_eq!(
        marker_around(|writer| __private::write_atomic(writer, |writer| BAD.write_to(writer))),
        expected
    );
}

#[test]
fn a_rollback_across_flushed_words_keeps_the_bytes_before_the_position() {
    // 30 bits pending, then a failing write that flushes words of ones.
    let mut buf = [0u8; 32];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bits((1 << 30) - 1, 30).unwrap();
    let failing = [Partial { a: u32::MAX, b: 0 }, Partial { a: u32::MAX, b: 0 }, BAD];
    assert!(failing.write_to(&mut writer).is_err());
    assert_eq!(writer.bits_written(), 30);
    writer.write_bits(0, 10).unwrap();
    let used = writer.finish().unwrap();
    assert_eq!(&buf[..used], &[0xFF, 0xFF, 0xFF, 0x3F, 0x00]);
}

#[test]
fn every_sink_rolls_back() {
    // The counter.
    let mut counter = BitCounter::new();
    counter.write_u8(1).unwrap();
    assert!((3u8, BAD).write_to(&mut counter).is_err());
    assert_eq!(counter.bits_written(), 8);
    // The fingerprint sink: the same fingerprint as without the failure.
    let with_failure = Fingerprint::of(5, |sink: &mut BitFingerprint| {
        sink.write_u8(1)?;
        assert!((3u8, BAD).write_to(sink).is_err());
        sink.write_u128(u128::MAX)?;
        sink.write_u64(42)
    })
    .unwrap();
    let without = Fingerprint::of(5, |sink: &mut BitFingerprint| {
        sink.write_u8(1)?;
        sink.write_u128(u128::MAX)?;
        sink.write_u64(42)
    })
    .unwrap();
    assert_eq!(with_failure, without);
    // A writer inside a reservation, as a derived `write_to` writes.
    let mut buf = [0u8; 16];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bits(1, 1).unwrap();
    {
        let mut reserved = __private::reserve(&mut writer, 64).unwrap();
        assert!((GOOD, BAD).write_to(&mut reserved).is_err());
        assert_eq!(reserved.bits_written(), 1);
    }
    assert_eq!(writer.bits_written(), 1);
}

#[test]
fn failed_reads_of_core_composites_leave_the_reader() {
    // A Partial whose `b` is out of range, after a good one.
    let mut buf = [0u8; 16];
    let mut writer = BitWriter::new(&mut buf);
    GOOD.write_to(&mut writer).unwrap();
    writer.write_u32(1).unwrap();
    writer.write_bits(7, 3).unwrap();
    let used = writer.finish().unwrap();
    let bytes = &buf[..used];
    let left = |read: &dyn Fn(&mut BitReader<'_>) -> Result<(), Error>| {
        let mut reader = BitReader::new(bytes);
        let error = read(&mut reader).unwrap_err();
        (error.kind(), reader.bits_read())
    };
    let expected = (ErrorKind::OutOfRange, 0);
    assert_eq!(left(&|reader| <(Partial, Partial)>::read_from(reader).map(drop)), expected);
    assert_eq!(left(&|reader| <[Partial; 2]>::read_from(reader).map(drop)), expected);
    assert_eq!(left(&|reader| <Box<(Partial, Partial)>>::read_from(reader).map(drop)), expected);
    assert_eq!(
        left(&|reader| __private::read_atomic(reader, |reader| {
            Partial::read_from(reader)?;
            Partial::read_from(reader)
        })
        .map(drop)),
        expected
    );
    // An Option whose value does not fit: the presence bit goes back too.
    let mut reader = BitReader::new(&[0xFF]);
    assert_eq!(<Option<u16>>::read_from(&mut reader).unwrap_err().kind(), ErrorKind::UnexpectedEnd);
    assert_eq!(reader.bits_read(), 0);
    // The error still names the bit of the part that failed.
    let mut reader = BitReader::new(bytes);
    assert_eq!(<(Partial, Partial)>::read_from(&mut reader).unwrap_err().bit(), 35 + 32);
}

#[test]
fn a_failed_read_gives_back_what_it_claimed() {
    // Two boxes, the second truncated: the first one's claim is given back.
    let bytes = bitpack::encode(&(Box::new(1u64), 2u32)).unwrap();
    let mut reader = BitReader::with_limit(&bytes[..10], 100);
    assert!(<(Box<u64>, Box<u64>)>::read_from(&mut reader).is_err());
    assert_eq!((reader.bits_read(), reader.allocation_left()), (0, 100));
    assert_eq!(*<Box<u64>>::read_from(&mut reader).unwrap(), 1);
    assert_eq!(reader.allocation_left(), 100 - 16); // an allocation's least
}

#[derive(bitpack::BitPack, Debug, Clone, PartialEq)]
struct Derived {
    a: u32,
    #[bits(min = 0, max = 5)]
    b: u8,
}

#[test]
fn a_failed_derived_write_keeps_the_position_and_the_bytes_before_it() {
    let (bytes, after_failure) = marker_around(|writer| Derived { a: 0xDEAD_BEEF, b: 9 }.write_to(writer));
    assert_eq!((bytes, after_failure), (vec![0b11101u8], 3));
}

#[test]
fn a_failed_derived_read_leaves_the_reader() {
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_u32(1).unwrap();
    writer.write_bits(7, 3).unwrap();
    let used = writer.finish().unwrap();
    let mut reader = BitReader::new(&buf[..used]);
    assert_eq!(Derived::read_from(&mut reader).unwrap_err().kind(), ErrorKind::OutOfRange);
    assert_eq!(reader.bits_read(), 0);
}

#[derive(bitpack::BitPack, Debug, Clone, PartialEq)]
#[bitpack(adaptive)]
struct Score {
    delta: i32,
    total: i64,
}

#[test]
fn a_derived_adaptive_message_that_does_not_fit_changes_nothing() {
    // Its `write_to` is the core's `write_scope`: the sign bit and `delta`
    // fit in the 16 bits, `total` does not.
    let mut buf = [0u8; 2];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bool(true).unwrap();
    let error = Score { delta: -3, total: 1 << 40 }.write_to(&mut writer).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::BufferFull);
    assert_eq!(writer.bits_written(), 1);
    // A wide value alone: its second part does not fit, its first is taken back.
    let mut buf = [0u8; 9];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bits(0, 8).unwrap();
    assert!(
        bitpack::adaptive::write_adaptive(&mut writer, u128::MAX, bitpack::adaptive::Signs::NonNegative)
            .is_err()
    );
    assert_eq!(writer.bits_written(), 8);
}

#[derive(bitpack::BitPack, Debug, Clone, PartialEq)]
struct Tracked {
    #[change_group]
    a: u32,
    #[change_group]
    #[bits(min = 0, max = 5)]
    b: u8,
}

#[test]
fn a_failed_derived_read_delta_leaves_the_reader() {
    use bitpack::ChangeGroups;
    let baseline = Tracked { a: 1, b: 2 };
    // Group a sent (33 bits), then group b sent with 7, out of range.
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bool(true).unwrap();
    writer.write_u32(5).unwrap();
    writer.write_bool(true).unwrap();
    writer.write_bits(7, 3).unwrap();
    let used = writer.finish().unwrap();
    let mut reader = BitReader::new(&buf[..used]);
    assert_eq!(Tracked::read_delta(&baseline, &mut reader).unwrap_err().kind(), ErrorKind::OutOfRange);
    assert_eq!(reader.bits_read(), 0);
}

/// The bytes `write` writes.
fn bytes_of(write: impl FnOnce(&mut BitWriter<'_>) -> Result<(), Error>) -> Vec<u8> {
    let mut buf = [0u8; 64];
    let mut writer = BitWriter::new(&mut buf);
    write(&mut writer).unwrap();
    let used = writer.finish().unwrap();
    buf[..used].to_vec()
}

/// `GOOD` twice, then a `Partial` whose `b` is out of range: a third value
/// that fails after 32 bits.
fn good_good_bad(writer: &mut BitWriter<'_>) -> Result<(), Error> {
    GOOD.write_to(writer)?;
    GOOD.write_to(writer)?;
    writer.write_u32(1)?;
    writer.write_bits(7, 3)
}

/// What a failed read from `bytes`, under a budget of 1000 bytes, left: the
/// error, the reader's position and the budget.
fn failed_within_budget(
    bytes: &[u8],
    read: impl FnOnce(&mut BitReader<'_>) -> Result<(), Error>,
) -> (ErrorKind, usize, usize) {
    let mut reader = BitReader::with_limit(bytes, 1000);
    let error = read(&mut reader).unwrap_err();
    (error.kind(), reader.bits_read(), reader.allocation_left())
}

/// What a failed read of `T` from `bytes` left: the error and the reader's position.
fn failed_read<T: BitPack>(bytes: &[u8]) -> (ErrorKind, usize) {
    let mut reader = BitReader::new(bytes);
    let error = T::read_from(&mut reader).err().expect("the read fails");
    (error.kind(), reader.bits_read())
}

#[test]
fn glam_and_mint_values_fail_whole() {
    use mint::{Point3, Quaternion, Vector3, Vector4};
    let expected = (vec![0b11101u8], 3);
    // mint: components of any BitPack type, the last one refused.
    assert_eq!(marker_around(|writer| Vector3 { x: GOOD, y: GOOD, z: BAD }.write_to(writer)), expected);
    assert_eq!(marker_around(|writer| Point3 { x: GOOD, y: BAD, z: GOOD }.write_to(writer)), expected);
    let quaternion = Quaternion { v: Vector3 { x: GOOD, y: GOOD, z: GOOD }, s: BAD };
    assert_eq!(marker_around(|writer| quaternion.write_to(writer)), expected);
    let bytes = bytes_of(good_good_bad);
    assert_eq!(failed_read::<Vector3<Partial>>(&bytes), (ErrorKind::OutOfRange, 0));
    assert_eq!(failed_read::<Quaternion<Partial>>(&bytes), (ErrorKind::OutOfRange, 0));
    assert_eq!(failed_read::<Vector4<u32>>(&[0xFF; 15]), (ErrorKind::UnexpectedEnd, 0));
    // glam: f32 components that do not all fit, or are not all there.
    let short = |write: &dyn Fn(&mut BitWriter<'_>) -> Result<(), Error>| {
        let mut buf = [0u8; 8];
        let mut writer = BitWriter::new(&mut buf);
        writer.write_bits(0b101, 3).unwrap();
        let error = write(&mut writer).unwrap_err();
        (error.kind(), writer.bits_written())
    };
    let full = (ErrorKind::BufferFull, 3);
    assert_eq!(short(&|writer| glam::Vec3::new(1.0, 2.0, 3.0).write_to(writer)), full);
    assert_eq!(short(&|writer| glam::Quat::IDENTITY.write_to(writer)), full);
    assert_eq!(short(&|writer| glam::DVec2::new(1.0, 2.0).write_to(writer)), full);
    assert_eq!(short(&|writer| glam::IVec3::new(1, 2, 3).write_to(writer)), full);
    assert_eq!(failed_read::<glam::Vec3>(&[0xFF; 11]), (ErrorKind::UnexpectedEnd, 0));
    assert_eq!(failed_read::<glam::Quat>(&[0xFF; 15]), (ErrorKind::UnexpectedEnd, 0));
    assert_eq!(failed_read::<glam::DVec3>(&[0xFF; 23]), (ErrorKind::UnexpectedEnd, 0));
}

#[test]
fn max_len_collections_fail_whole() {
    use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
    let expected = (vec![0b11101u8], 3);
    let write_partial = |writer: &mut BitWriter<'_>, value: &Partial| value.write_to(writer);
    // Sequences, maps and sets whose last element is refused.
    let deque = VecDeque::from([GOOD, GOOD, BAD]);
    assert_eq!(marker_around(|writer| __private::write_sequence(writer, &deque, 4, write_partial)), expected);
    let boxed: Box<[Partial]> = Box::new([GOOD, BAD]);
    assert_eq!(
        marker_around(|writer| __private::write_sequence(writer, &*boxed, 4, write_partial)),
        expected
    );
    let tree: BTreeMap<u8, Partial> = [(1, GOOD), (2, GOOD), (3, BAD)].into();
    let hash: HashMap<u8, Partial> = tree.clone().into_iter().collect();
    let write_key = |writer: &mut BitWriter<'_>, key: &u8| writer.write_u8(*key);
    for result in [
        marker_around(|writer| __private::write_map(writer, &tree, 4, write_key, write_partial)),
        marker_around(|writer| __private::write_map(writer, &hash, 4, write_key, write_partial)),
    ] {
        assert_eq!(result, expected);
    }
    // A set element refused by its own write (a range of 0..=2).
    let refuse_three = |writer: &mut BitWriter<'_>, key: &u8| __private::ranged_u8::write(writer, *key, 0, 2);
    let tree_set: BTreeSet<u8> = [0, 1, 3].into();
    let hash_set: HashSet<u8> = tree_set.iter().copied().collect();
    assert_eq!(marker_around(|writer| __private::write_set(writer, &tree_set, 4, refuse_three)), expected);
    assert_eq!(marker_around(|writer| __private::write_set(writer, &hash_set, 4, refuse_three)), expected);
    // Strings: too long, after the marker.
    assert_eq!(marker_around(|writer| __private::write_text(writer, "too long", 4)), expected);

    // Reads: the third element refused, the reader and its budget put back.
    let elements = bytes_of(|writer| {
        writer.write_int(3, 0, 4)?;
        good_good_bad(writer)
    });
    let refused = (ErrorKind::OutOfRange, 0, 1000);
    let sequence = |reader: &mut BitReader<'_>| {
        __private::read_sequence::<_, VecDeque<Partial>, _>(reader, 4, 35, Partial::read_from).map(drop)
    };
    assert_eq!(failed_within_budget(&elements, sequence), refused);
    let boxed = |reader: &mut BitReader<'_>| {
        __private::read_sequence::<_, Box<[Partial]>, _>(reader, 4, 35, Partial::read_from).map(drop)
    };
    assert_eq!(failed_within_budget(&elements, boxed), refused);
    // Map entries: a key byte, then a Partial; the third key out of order.
    let entries = bytes_of(|writer| {
        writer.write_int(3, 0, 4)?;
        [1u8, 2, 2].iter().try_for_each(|key| {
            writer.write_u8(*key)?;
            GOOD.write_to(writer)
        })
    });
    let refused = (ErrorKind::NotIncreasing, 0, 1000);
    let tree = |reader: &mut BitReader<'_>| {
        __private::read_map::<_, BTreeMap<u8, Partial>, _, _>(
            reader,
            4,
            43,
            u8::read_from,
            Partial::read_from,
        )
        .map(drop)
    };
    assert_eq!(failed_within_budget(&entries, tree), refused);
    let hash = |reader: &mut BitReader<'_>| {
        __private::read_map::<_, HashMap<u8, Partial>, _, _>(reader, 4, 43, u8::read_from, Partial::read_from)
            .map(drop)
    };
    assert_eq!(failed_within_budget(&entries, hash), refused);
}

#[test]
fn keyed_collection_writes_fail_whole() {
    use bitpack::ChangeGroups;
    use std::collections::BTreeMap;
    let expected = (vec![0b11101u8], 3);
    let map: BTreeMap<u16, Partial> = [(1, GOOD), (5, BAD)].into();
    assert_eq!(marker_around(|writer| __private::keyed::map::write(writer, &map, 4, None)), expected);
    // A delta whose second changed entry is refused.
    let baseline: BTreeMap<u16, Tracked> = [(1, Tracked { a: 1, b: 1 }), (5, Tracked { a: 1, b: 1 })].into();
    let now: BTreeMap<u16, Tracked> = [(1, Tracked { a: 2, b: 1 }), (5, Tracked { a: 1, b: 9 })].into();
    assert_eq!(
        marker_around(|writer| __private::keyed::map::write_delta(
            writer,
            &now,
            &baseline,
            4,
            || Tracked { a: 0, b: 0 },
            None
        )),
        expected
    );
    // The derived write_delta of the entry alone fails whole too.
    let (entry, base) = (&now[&5], &baseline[&5]);
    assert_eq!(marker_around(|writer| entry.write_delta(base, writer)), expected);
}

/// A world whose keyed collection follows a change group: the `Sender`'s
/// methods (`write_to_within`, `write_delta_within`, `write_delta_cached`)
/// write the group before the collection can fail.
#[derive(bitpack::BitPack, Debug, Clone, PartialEq)]
struct Camp {
    #[change_group]
    #[bits(min = 0, max = 1000)]
    tick: u16,
    #[change_group]
    #[bitpack(max_len = 4, spawn = spawn_tracked)]
    units: std::collections::BTreeMap<u16, Tracked>,
}

fn spawn_tracked() -> Tracked {
    Tracked { a: 0, b: 0 }
}

#[test]
fn a_senders_derived_writes_fail_whole() {
    use bitpack::ChangeGroups;
    use bitpack::sync::Budget;
    let expected = (vec![0b11101u8], 3);
    let baseline = Camp { tick: 1, units: [(1, Tracked { a: 1, b: 1 })].into() };
    let now = Camp { tick: 2, units: [(1, Tracked { a: 2, b: 1 }), (4, Tracked { a: 1, b: 9 })].into() };
    let mut budget = Budget::default();
    assert_eq!(marker_around(|writer| now.write_to_within(writer, &mut budget)), expected);
    let mut budget = Budget::default();
    assert_eq!(marker_around(|writer| now.write_delta_within(&baseline, writer, &mut budget)), expected);
    let mut prints = vec![0u64; Camp::PRINTS];
    assert_eq!(marker_around(|writer| now.write_delta_cached(&baseline, &[], &mut prints, writer)), expected);
}

#[derive(bitpack::BitPack, Debug, Clone, PartialEq)]
enum Order {
    Stop,
    Move {
        #[bits(min = 0, max = 1000)]
        distance: u16,
        #[bits(min = 0, max = 5)]
        speed: u8,
    },
}

/// A nested value, a `Vec`, a `String`, an `Option` and an enum, each able
/// to fail after the fields before it were written.
#[derive(bitpack::BitPack, Debug, Clone, PartialEq)]
struct Squad {
    leader: Derived,
    #[bits(min = 0, max = 5)]
    #[bitpack(max_len = 4)]
    levels: Vec<u8>,
    #[bitpack(max_len = 4)]
    name: String,
    order: Option<Order>,
}

fn squad() -> Squad {
    Squad {
        leader: Derived { a: 1, b: 2 },
        levels: vec![1, 2],
        name: "ab".into(),
        order: Some(Order::Move { distance: 10, speed: 3 }),
    }
}

#[test]
fn every_derived_body_fails_whole() {
    let expected = (vec![0b11101u8], 3);
    let failing = [
        Squad { levels: vec![1, 2, 9], ..squad() },
        Squad { name: "too long".into(), ..squad() },
        Squad { order: Some(Order::Move { distance: 10, speed: 9 }), ..squad() },
        Squad { order: Some(Order::Move { distance: 1001, speed: 0 }), ..squad() },
    ];
    for squad in &failing {
        assert_eq!(marker_around(|writer| squad.write_to(writer)), expected, "{squad:?}");
        let mut counter = BitCounter::new();
        assert!(squad.write_to(&mut counter).is_err());
        assert_eq!(counter.bits_written(), 0);
    }
    // Every cut of a good one fails to read, leaving the reader where it started.
    let bytes = bitpack::encode(&squad()).unwrap();
    for len in 0..bytes.len() {
        let mut reader = BitReader::new(&bytes[..len]);
        assert!(Squad::read_from(&mut reader).is_err(), "{len} bytes");
        assert_eq!((reader.bits_read(), reader.allocation_left()), (0, BitReader::default_limit(len)));
    }
    // An enum whose field is out of range once its tag was read.
    let bytes = bytes_of(|writer| {
        writer.write_bool(true)?;
        writer.write_int(1000, 0, 1000)?;
        writer.write_bits(7, 3)
    });
    assert_eq!(failed_read::<Order>(&bytes), (ErrorKind::OutOfRange, 0));
}

#[test]
fn failed_derived_change_writes_and_reads_leave_the_stream() {
    use bitpack::ChangeGroups;
    // Group b refused after group a's flag and data were written.
    let value = Tracked { a: 7, b: 9 };
    let (mut confirmed, mut latest) = (Default::default(), Default::default());
    assert_eq!(
        marker_around(|writer| value.write_changes(writer, &confirmed, &mut latest)),
        (vec![0b11101], 3)
    );
    // The same bits as a delta's, read as changes: group b's 7 is out of range.
    let bytes = bytes_of(|writer| {
        writer.write_bool(true)?;
        writer.write_u32(5)?;
        writer.write_bool(true)?;
        writer.write_bits(7, 3)
    });
    let mut reader = BitReader::new(&bytes);
    assert_eq!(Tracked::decode_changes(&mut reader).unwrap_err().kind(), ErrorKind::OutOfRange);
    assert_eq!(reader.bits_read(), 0);
    // A good value still writes its changes afterwards.
    let good = Tracked { a: 7, b: 5 };
    confirmed = latest.clone();
    let mut counter = BitCounter::new();
    good.write_changes(&mut counter, &confirmed, &mut latest).unwrap();
    assert!(counter.bits_written() > 0);
}

/// Scalars of several widths, 40 bits: in 4 bytes, a whole word is
/// stored before the fifth byte is refused (`BufferFull`).
#[derive(bitpack::BitPack, Debug, Clone, PartialEq)]
struct Scalars {
    a: u8,
    b: u8,
    c: u16,
    d: bool,
    #[bits(min = 0, max = 127)]
    e: u8,
}

const SCALARS: Scalars = Scalars { a: 7, b: 0, c: 0, d: false, e: 99 };

/// A marker of `lead` bits, then `write` tried in a buffer of `len` bytes
/// of 0xA5. When `write` is refused, the writer's position is back at
/// `lead` and every byte before it is as the marker alone left it: the
/// bytes `finish` returns there are the marker's alone, and so are the
/// bytes of a second marker written after it. Bytes past the position
/// are not looked at: they are unspecified after a refused write. Whether
/// `write` was refused.
fn refused_write_keeps_what_came_before(
    len: usize,
    lead: u32,
    write: &dyn Fn(&mut BitWriter<'_>) -> Result<(), Error>,
) -> bool {
    // `lead` bits of 0x5A5A.. in pieces of at most 32.
    let marker = |writer: &mut BitWriter<'_>, bits: u32| {
        let mut left = bits;
        while left > 0 {
            let piece = left.min(32);
            writer.write_bits(0x5A5A_5A5A >> (32 - piece), piece)?;
            left -= piece;
        }
        Ok::<(), Error>(())
    };
    // What the buffer holds with the markers alone, finished after each.
    let alone = |second: u32| {
        let mut buf = vec![0xA5u8; len];
        let mut writer = BitWriter::new(&mut buf);
        marker(&mut writer, lead).unwrap();
        if second > 0 {
            writer.write_bits(0b11, second).unwrap();
        }
        let used = writer.finish().unwrap();
        buf[..used].to_vec()
    };
    let with_failure = |second: u32| {
        let mut buf = vec![0xA5u8; len];
        let mut writer = BitWriter::new(&mut buf);
        marker(&mut writer, lead).unwrap();
        if write(&mut writer).is_ok() {
            return None;
        }
        assert_eq!(writer.bits_written(), lead as usize, "{len} bytes, {lead} bits before");
        if second > 0 {
            writer.write_bits(0b11, second).unwrap();
        }
        let used = writer.finish().unwrap();
        Some(buf[..used].to_vec())
    };
    let Some(finished) = with_failure(0) else { return false };
    assert_eq!(finished, alone(0), "{len} bytes, {lead} bits before");
    if len * 8 >= lead as usize + 2 {
        assert_eq!(with_failure(2), Some(alone(2)), "{len} bytes, {lead} bits before, then 2");
    }
    true
}

/// A write to try, by name.
type BoxedWrite<'a> = Box<dyn Fn(&mut BitWriter<'_>) -> Result<(), Error> + 'a>;

#[test]
fn refused_derived_writes_keep_the_position_and_the_bytes_before_it() {
    use bitpack::ChangeGroups;
    // Refused by a value (out of range, too long) or by the buffer's end.
    let squads = [
        Squad { levels: vec![1, 2, 9], ..squad() },
        Squad { name: "too long".into(), ..squad() },
        Squad { order: Some(Order::Move { distance: 10, speed: 9 }), ..squad() },
        squad(),
    ];
    let tracked = Tracked { a: 7, b: 9 };
    let baseline = Tracked { a: 1, b: 1 };
    let writes: Vec<(&str, BoxedWrite<'_>)> = vec![
        ("scalars", Box::new(|writer| SCALARS.write_to(writer))),
        ("derived", Box::new(|writer| Derived { a: 0xDEAD_BEEF, b: 9 }.write_to(writer))),
        ("squad vec", Box::new(|writer| squads[0].write_to(writer))),
        ("squad string", Box::new(|writer| squads[1].write_to(writer))),
        ("squad enum", Box::new(|writer| squads[2].write_to(writer))),
        ("squad", Box::new(|writer| squads[3].write_to(writer))),
        ("adaptive", Box::new(|writer| Score { delta: -3, total: 1 << 40 }.write_to(writer))),
        ("delta", Box::new(|writer| tracked.write_delta(&baseline, writer))),
    ];
    for (name, write) in &writes {
        let mut refused = 0;
        for len in 0..=24 {
            for lead in [0, 1, 3, 7, 8, 13, 31, 32, 33, 63] {
                if lead as usize <= len * 8 && refused_write_keeps_what_came_before(len, lead, &**write) {
                    refused += 1;
                }
            }
        }
        assert!(refused > 0, "{name} was never refused");
    }
    // The case: `Scalars` in 4 bytes of 0xA5 is refused, and the
    // writer is at 0 with nothing before it; the 4 bytes past it are
    // unspecified (the word stored before the refusal stays).
    let mut buf = [0xA5u8; 4];
    let mut writer = BitWriter::new(&mut buf);
    assert_eq!(SCALARS.write_to(&mut writer).unwrap_err().kind(), ErrorKind::BufferFull);
    assert_eq!(writer.bits_written(), 0);
    assert_eq!(writer.finish(), Ok(0));
    assert!(refused_write_keeps_what_came_before(4, 0, &|writer| SCALARS.write_to(writer)));
}
