//! A failed write of a value leaves the writer exactly as it was (position
//! and bytes), and a failed read leaves the reader where it was (position
//! and allocation budget), so the next value is written or read where the
//! failed one started.

use bitpack::__private;
use bitpack::change::{BitFingerprint, Fingerprint};
use bitpack::{BitCounter, BitPack, BitReader, BitWrite, BitWriter, Error, ErrorKind};

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

    fn read_from(reader: &mut BitReader<'_>) -> Result<Self, Error> {
        Ok(Partial { a: reader.read_u32()?, b: __private::ranged_u8::read(reader, 0, 5)? })
    }
}

const BAD: Partial = Partial { a: 0xDEAD_BEEF, b: 9 };
const GOOD: Partial = Partial { a: 7, b: 5 };

/// Writes a marker, tries `write` (which must fail), writes another marker:
/// the bytes, and where the failure left the writer.
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
fn failed_writes_of_core_composites_change_nothing() {
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
fn a_rollback_across_flushed_words_restores_the_bytes() {
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
    assert_eq!(reader.allocation_left(), 92);
}

#[derive(bitpack::BitPack, Debug, Clone, PartialEq)]
struct Derived {
    a: u32,
    #[bits(min = 0, max = 5)]
    b: u8,
}

#[test]
fn a_failed_derived_write_changes_nothing() {
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
