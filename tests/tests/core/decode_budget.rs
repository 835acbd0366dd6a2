//! The allocation budget: hostile bytes that ask a decoder for more memory
//! than the reader's limit are refused with `AllocationLimit` before
//! anything is allocated. A counting global allocator (per thread) watches
//! each input the issue measured.

use crate::counting_allocator;

use bitpack::__private;
use bitpack::adaptive::{self, Signs};
use bitpack::{BitPack, BitRead, BitReader, BitWrite, BitWriter, Error, ErrorKind};
use counting_allocator::measure;
use std::sync::mpsc::RecvTimeoutError;

/// Bytes written by `write`, finished.
fn bytes_of(write: impl FnOnce(&mut BitWriter<'_>) -> Result<(), Error>) -> Vec<u8> {
    let mut buf = vec![0u8; 1 << 16];
    let mut writer = BitWriter::new(&mut buf);
    write(&mut writer).unwrap();
    let used = writer.finish().unwrap();
    buf.truncate(used);
    buf
}

/// `decode::<T>(bytes)`'s error kind and what it allocated at its peak.
fn decode_usage<T: BitPack>(bytes: &[u8]) -> (Result<(), ErrorKind>, usize) {
    let (result, usage) = measure(|| bitpack::decode::<T>(bytes).map(drop).map_err(|error| error.kind()));
    (result, usage.peak_live)
}

/// An adaptive `Vec` of `count` zeros of a shared width 0: a length, a mode
/// bit of 1 and a width prefix of 0, whatever the count.
fn zeros_in_width_zero<T: bitpack::adaptive::AdaptiveInt>(count: u32, max_len: usize) -> Vec<u8> {
    bytes_of(|writer| {
        writer.write_int64(i64::from(count), 0, max_len as i64)?;
        writer.write_bool(true)?;
        writer.write_bits64(0, T::PREFIX_BITS)
    })
}

#[derive(BitPack, Debug, PartialEq)]
struct AdaptiveU64s {
    #[bitpack(adaptive, max_len = 100_000_000)]
    values: Vec<u64>,
}

#[derive(BitPack, Debug, PartialEq)]
struct AdaptiveU128s {
    #[bitpack(adaptive, max_len = 100_000_000)]
    values: Vec<u128>,
}

#[derive(BitPack, Debug, PartialEq)]
struct NestedAdaptive {
    #[bitpack(adaptive, max_len = 100_000)]
    rows: Vec<Vec<u64>>,
}

#[test]
fn width_zero_adaptive_vecs_are_refused_before_allocating() {
    // 5 bytes that allocated 800 MB (u64) and aborted asking for 16 GB (u128).
    let bytes = zeros_in_width_zero::<u64>(100_000_000, 100_000_000);
    assert_eq!(bytes.len(), 5);
    assert_eq!(decode_usage::<AdaptiveU64s>(&bytes), (Err(ErrorKind::AllocationLimit), 0));
    let bytes = zeros_in_width_zero::<u128>(100_000_000, 100_000_000);
    assert_eq!(decode_usage::<AdaptiveU128s>(&bytes), (Err(ErrorKind::AllocationLimit), 0));
    // The core call alike, and the error names the length's bit.
    let bytes = zeros_in_width_zero::<u64>(100_000_000, 100_000_000);
    let mut reader = BitReader::new(&bytes);
    let error = adaptive::read_adaptive_vec::<u64>(&mut reader, 100_000_000, Signs::NonNegative).unwrap_err();
    assert_eq!((error.kind(), error.bit(), reader.bits_read()), (ErrorKind::AllocationLimit, 0, 0));
    assert_eq!(reader.allocation_left(), BitReader::default_limit(5));
    // Within the budget the same form decodes: 8000 zeros, 64,000 bytes.
    let bytes = zeros_in_width_zero::<u64>(8000, 100_000_000);
    let (result, usage) = measure(|| bitpack::decode::<AdaptiveU64s>(&bytes));
    assert_eq!(result.unwrap().values, vec![0; 8000]);
    assert_eq!(usage.largest, 64_000);
}

/// `rows` inner Vecs of 100,000 zeros each: a 17-bit length, mode 1 and
/// width 0, so 24 bits for 800,000 bytes of `u64`s.
fn full_rows(rows: i32) -> Vec<u8> {
    bytes_of(|writer| {
        writer.write_int(rows, 0, 100_000)?;
        for _ in 0..rows {
            writer.write_int(100_000, 0, 100_000)?;
            writer.write_bool(true)?;
            writer.write_bits(0, 6)?;
        }
        Ok(())
    })
}

/// `decode_with_limit::<NestedAdaptive>`: the rows' lengths, or the error.
fn rows_within(bytes: &[u8], limit: usize) -> Result<Vec<usize>, ErrorKind> {
    bitpack::decode_with_limit::<NestedAdaptive>(bytes, limit)
        .map(|value| value.rows.iter().map(Vec::len).collect())
        .map_err(|error| error.kind())
}

#[test]
fn nested_vecs_claim_their_total() {
    // 40 rows: 32 MB from these 123 bytes before.
    let bytes = full_rows(40);
    assert_eq!(bytes.len(), 123);
    let (result, peak) = decode_usage::<NestedAdaptive>(&bytes);
    assert_eq!(result, Err(ErrorKind::AllocationLimit));
    assert!(peak <= BitReader::default_limit(bytes.len()), "{peak} bytes live");
    // With room for two rows (and the outer Vec's two slots) it decodes
    // them, and allocates what they claimed.
    let two_rows = full_rows(2);
    let (result, usage) = measure(|| rows_within(&two_rows, 1_600_000 + 2 * size_of::<Vec<u64>>()));
    assert_eq!(result, Ok(vec![100_000; 2]));
    assert_eq!(usage.largest, 800_000);
}

#[test]
fn nested_vecs_claim_the_outer_vec_too() {
    let two_rows = full_rows(2);
    let total = 1_600_000 + 2 * size_of::<Vec<u64>>();
    assert_eq!(rows_within(&two_rows, total), Ok(vec![100_000; 2]));
    assert_eq!(rows_within(&two_rows, total - 1), Err(ErrorKind::AllocationLimit));
}

/// 32 skipped `u64`s: 256 bytes in memory, no bits on the wire.
#[derive(Debug, Default, PartialEq)]
struct Cache([u64; 32]);

#[derive(BitPack, Debug, PartialEq)]
struct Cached {
    #[bitpack(skip)]
    cache: Cache,
}

#[derive(BitPack, Debug, PartialEq)]
struct Cacheds {
    #[bitpack(max_len = 1_000_000_000)]
    items: Vec<Cached>,
}

#[derive(BitPack, Debug, PartialEq)]
struct Sevens {
    #[bits(min = 7, max = 7)]
    #[bitpack(max_len = 100_000_000)]
    items: Vec<u8>,
}

#[derive(BitPack, Debug, PartialEq)]
struct Pages {
    #[bitpack(max_len = 65_535)]
    pages: Vec<Option<[u64; 1024]>>,
}

/// A `Vec` of `len` elements of no bits: just the length.
fn just_a_length(len: i64, max_len: i64) -> Vec<u8> {
    bytes_of(|writer| writer.write_int64(len, 0, max_len))
}

/// 65,535 `None` pages: 8 KB of input for 537 MB of `[u64; 1024]` slots.
fn empty_pages() -> Vec<u8> {
    bytes_of(|writer| {
        writer.write_int(65_535, 0, 65_535)?;
        for _ in 0..65_535 {
            writer.write_bool(false)?;
        }
        Ok(())
    })
}

#[test]
fn derived_vecs_of_large_elements_are_refused_before_allocating() {
    // 4 bytes: "memory allocation of 256000000000 bytes failed", an abort.
    let bytes = just_a_length(1_000_000_000, 1_000_000_000);
    assert_eq!(bytes.len(), 4);
    assert_eq!(decode_usage::<Cacheds>(&bytes), (Err(ErrorKind::AllocationLimit), 0));
    // 4 bytes: 100 MB.
    let bytes = just_a_length(100_000_000, 100_000_000);
    assert_eq!(decode_usage::<Sevens>(&bytes), (Err(ErrorKind::AllocationLimit), 0));
    // 8 KB: 537 MB.
    let bytes = empty_pages();
    assert_eq!(decode_usage::<Pages>(&bytes), (Err(ErrorKind::AllocationLimit), 0));
}

/// What the derive generates for a `Vec<T>` field once it reads through
/// `__private::read_vec`: the same three inputs, refused alike.
struct Through<T, const MAX_LEN: usize>(Vec<T>);

impl<T: BitPack, const MAX_LEN: usize> BitPack for Through<T, MAX_LEN> {
    const MAX_BITS: usize = __private::vec_max_bits(MAX_LEN, T::MAX_BITS);
    const SCHEMA: u64 = 0;

    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        __private::write_len(writer, self.0.len(), MAX_LEN)?;
        self.0.iter().try_for_each(|element| element.write_to(writer))
    }

    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        __private::read_vec(reader, MAX_LEN, T::MIN_BITS, T::read_from).map(Through)
    }
}

/// A `u8` in `[7, 7]`: no bits.
struct Seven(u8);

impl BitPack for Seven {
    const MAX_BITS: usize = 0;
    const SCHEMA: u64 = 0;

    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        __private::ranged_u8::write(writer, self.0, 7, 7)
    }

    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        __private::ranged_u8::read(reader, 7, 7).map(Seven)
    }
}

#[test]
fn read_vec_claims_len_times_size_of_before_allocating() {
    let bytes = just_a_length(1_000_000_000, 1_000_000_000);
    assert_eq!(decode_usage::<Through<Cached, 1_000_000_000>>(&bytes), (Err(ErrorKind::AllocationLimit), 0));
    let bytes = just_a_length(100_000_000, 100_000_000);
    assert_eq!(decode_usage::<Through<Seven, 100_000_000>>(&bytes), (Err(ErrorKind::AllocationLimit), 0));
    let bytes = empty_pages();
    assert_eq!(
        decode_usage::<Through<Option<[u64; 1024]>, 65_535>>(&bytes),
        (Err(ErrorKind::AllocationLimit), 0)
    );
    // Within the budget: exactly the claim is allocated, and a refused read
    // leaves the reader and its budget as they were.
    let bytes = just_a_length(200, 1_000_000_000);
    let (result, usage) = measure(|| bitpack::decode::<Through<Cached, 1_000_000_000>>(&bytes));
    assert_eq!(result.unwrap().0.len(), 200);
    assert_eq!(usage.bytes, 200 * size_of::<Cached>());
    let mut reader = BitReader::with_limit(&bytes, 199 * size_of::<Cached>());
    let error = <Through<Cached, 1_000_000_000>>::read_from(&mut reader).err().unwrap();
    assert_eq!((error.kind(), error.bit()), (ErrorKind::AllocationLimit, 0));
    assert_eq!((reader.bits_read(), reader.allocation_left()), (0, 199 * size_of::<Cached>()));
}

#[derive(BitPack, Debug, PartialEq)]
struct Note {
    #[bitpack(max_len = 100_000)]
    text: String,
}

#[test]
fn strings_claim_their_bytes() {
    let text = "x".repeat(70_000);
    let bytes = bitpack::encode(&Note { text: text.clone() }).unwrap();
    // Within the default budget of 70 KB of input.
    assert_eq!(bitpack::decode::<Note>(&bytes).unwrap().text, text);
    let (result, usage) = measure(|| bitpack::decode_with_limit::<Note>(&bytes, 69_999));
    assert_eq!(result.unwrap_err().kind(), ErrorKind::AllocationLimit);
    assert_eq!(usage.bytes, 0);
    assert_eq!(bitpack::decode_with_limit::<Note>(&bytes, 70_000).unwrap().text, text);
    // A wide string claims its UTF-8 bytes: 2 or 3 for each of these units.
    let bytes = bytes_of(|writer| writer.write_wstr("éééé€€€€", 8));
    let read = |limit| BitReader::with_limit(&bytes, limit).read_wstr(8).map_err(|error| error.kind());
    assert_eq!(read(19), Err(ErrorKind::AllocationLimit));
    assert_eq!(read(20).as_deref(), Ok("éééé€€€€"));
    let (_, usage) = measure(|| read(20));
    assert_eq!(usage.bytes, 20);
}

#[test]
fn boxes_claim_what_they_hold() {
    let bytes = bitpack::encode(&Box::new([9u64; 16])).unwrap();
    assert_eq!(*bitpack::decode_with_limit::<Box<[u64; 16]>>(&bytes, 128).unwrap(), [9; 16]);
    let error = bitpack::decode_with_limit::<Box<[u64; 16]>>(&bytes, 127).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::AllocationLimit);
    // Two allocations, of 16 and 8 bytes: each claims at least 16.
    let bytes = bitpack::encode(&Box::new((1u32, Box::new(2u64)))).unwrap();
    let limit = size_of::<(u32, Box<u64>)>() + 16;
    let (result, usage) = measure(|| bitpack::decode_with_limit::<Box<(u32, Box<u64>)>>(&bytes, limit));
    assert_eq!(*result.unwrap(), (1, Box::new(2)));
    assert_eq!((usage.allocations, usage.bytes), (2, size_of::<(u32, Box<u64>)>() + size_of::<u64>()));
    assert!(bitpack::decode_with_limit::<Box<(u32, Box<u64>)>>(&bytes, limit - 1).is_err());
}

#[test]
fn a_boxed_megabyte_array_decodes_on_a_two_mib_stack() {
    let boxed: Box<[u8; 1_000_000]> =
        (0..1_000_000u32).map(|index| index as u8).collect::<Vec<_>>().into_boxed_slice().try_into().unwrap();
    let bytes = bitpack::encode(&boxed).unwrap();
    let decoded = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let (decoded, usage) = measure(|| bitpack::decode::<Box<[u8; 1_000_000]>>(&bytes));
            // The elements go straight into the one heap array.
            assert_eq!((usage.allocations, usage.bytes), (1, 1_000_000));
            decoded.map(|array| array.iter().enumerate().all(|(index, &byte)| byte == index as u8))
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(decoded, Ok(true));
}

#[test]
fn a_large_array_holds_only_itself_on_the_stack() {
    // A megabyte array read on a 10 MiB thread. Its `Option` slots were 2
    // MB more, and an unoptimized build copies each through several frames:
    // it needed 12 to 16 MiB, now 6 to 8 (an optimized build, 3 and 2).
    let values: Vec<u8> = (0..1_000_000u32).map(|index| index as u8).collect();
    let array: Box<[u8; 1_000_000]> = values.into_boxed_slice().try_into().unwrap();
    let bytes = bitpack::encode(&array).unwrap();
    let decoded = std::thread::Builder::new()
        .stack_size(10 << 20)
        .spawn(move || {
            let mut reader = BitReader::new(&bytes);
            let array = <[u8; 1_000_000]>::read_from(&mut reader).unwrap();
            array.iter().enumerate().all(|(index, &value)| value == index as u8)
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(decoded);
    // A refused large array leaves the reader where it was.
    let mut reader = BitReader::new(&[0xFF; 1000]);
    assert_eq!(<[u32; 100_000]>::read_from(&mut reader).unwrap_err().kind(), ErrorKind::UnexpectedEnd);
    assert_eq!(reader.bits_read(), 0);
}

#[derive(BitPack)]
struct Frame {
    pixels: Box<[u8; 1_000_000]>,
}

#[test]
fn a_derived_boxed_megabyte_array_decodes_on_a_two_mib_stack() {
    let pixels: Box<[u8; 1_000_000]> = vec![3u8; 1_000_000].into_boxed_slice().try_into().unwrap();
    let bytes = bitpack::encode(&Frame { pixels }).unwrap();
    let decoded = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let refused =
                bitpack::decode_with_limit::<Frame>(&bytes, 999_999).map(drop).map_err(|e| e.kind());
            let frame = bitpack::decode::<Frame>(&bytes).map(|frame| frame.pixels.iter().all(|&p| p == 3));
            (refused, frame)
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(decoded, (Err(ErrorKind::AllocationLimit), Ok(true)));
}

/// The other fields a derived `decode` allocates for: `max_len` text and
/// collections, and `Rc` and `Arc`.
#[derive(BitPack, Debug, PartialEq)]
struct Holdings {
    #[bitpack(max_len = 16)]
    name: Box<str>,
    #[bitpack(max_len = 16)]
    title: std::borrow::Cow<'static, str>,
    #[bitpack(max_len = 16)]
    recent: std::collections::VecDeque<u32>,
    #[bitpack(max_len = 16)]
    slice: Box<[u16]>,
    #[bitpack(max_len = 16)]
    scores: std::collections::BTreeMap<u16, u64>,
    #[bitpack(max_len = 16)]
    tags: std::collections::HashSet<u8>,
    shared: std::rc::Rc<[u64; 8]>,
    synced: std::sync::Arc<u64>,
}

#[test]
fn collections_and_shared_pointers_claim_what_they_hold() {
    let holdings = Holdings {
        name: "pilot".into(),
        title: "captain".into(),
        recent: [1, 2, 3].into_iter().collect(),
        slice: vec![4, 5].into_boxed_slice(),
        scores: [(1, 10), (2, 20)].into_iter().collect(),
        tags: [7, 8, 9, 10].into_iter().collect(),
        shared: std::rc::Rc::new([6; 8]),
        synced: std::sync::Arc::new(11),
    };
    let bytes = bitpack::encode(&holdings).unwrap();
    // Each its bytes, at least 16 (two strings, the deque, the slice, the
    // set and the `Arc` are under).
    let claimed = 16 + 16 + 16 + 16 + 2 * size_of::<(u16, u64)>() + 16 + size_of::<[u64; 8]>() + 16;
    assert_eq!(bitpack::decode_with_limit::<Holdings>(&bytes, claimed).unwrap(), holdings);
    let error = bitpack::decode_with_limit::<Holdings>(&bytes, claimed - 1).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::AllocationLimit);
    // Each claims before it allocates: refused at its own claim, a field
    // allocates nothing.
    let alone = bitpack::encode(&std::rc::Rc::new([6u64; 8])).unwrap();
    let (result, usage) = measure(|| bitpack::decode_with_limit::<std::rc::Rc<[u64; 8]>>(&alone, 63));
    assert_eq!(result.unwrap_err().kind(), ErrorKind::AllocationLimit);
    assert_eq!(usage.bytes, 0);
}

/// Zero-sized elements (`()` reads no bits and takes no room), in every
/// collection a derived field reads, with the largest `max_len`.
#[derive(BitPack, Debug, PartialEq)]
struct Units {
    #[bitpack(max_len = 18446744073709551615)]
    units: Vec<()>,
}

#[derive(BitPack, Debug, PartialEq)]
struct UnitDeque {
    #[bitpack(max_len = 18446744073709551615)]
    units: std::collections::VecDeque<()>,
}

#[derive(BitPack, Debug, PartialEq)]
struct UnitSlice {
    #[bitpack(max_len = 18446744073709551615)]
    units: Box<[()]>,
}

#[derive(BitPack, Debug, PartialEq)]
struct AdaptiveUnits {
    #[bitpack(max_len = 18446744073709551615, adaptive_len)]
    units: Vec<()>,
}

#[derive(BitPack, Debug, PartialEq)]
struct UnitSet {
    #[bitpack(max_len = 18446744073709551615)]
    units: std::collections::HashSet<()>,
}

#[derive(BitPack, Debug, PartialEq)]
struct UnitMap {
    #[bitpack(max_len = 18446744073709551615)]
    units: std::collections::BTreeMap<(), ()>,
}

/// `decode::<T>(bytes)`'s error kind, from a thread given 20 seconds: a
/// decoder that loops once per zero-sized element does not return (2^64
/// turns), and the test fails instead of hanging.
fn refused_in_time<T: BitPack + Send + 'static>(bytes: &[u8]) -> Result<(), ErrorKind> {
    let bytes = bytes.to_vec();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(bitpack::decode::<T>(&bytes).map(drop).map_err(|error| error.kind()));
    });
    match receiver.recv_timeout(std::time::Duration::from_secs(20)) {
        Ok(result) => result,
        Err(RecvTimeoutError::Timeout) => panic!("still decoding {} after 20 s", std::any::type_name::<T>()),
        Err(RecvTimeoutError::Disconnected) => panic!("decoding {} panicked", std::any::type_name::<T>()),
    }
}

#[test]
fn zero_sized_elements_are_bounded_by_the_budget() {
    // 8 bytes, a length of 2^64 - 2: it looped 2^64 times (8.7 s for 2^32
    // elements in an optimized build; an unoptimized one never returned).
    let bytes = [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF];
    assert_eq!(refused_in_time::<Units>(&bytes), Err(ErrorKind::AllocationLimit));
    assert_eq!(refused_in_time::<UnitDeque>(&bytes), Err(ErrorKind::AllocationLimit));
    assert_eq!(refused_in_time::<UnitSlice>(&bytes), Err(ErrorKind::AllocationLimit));
    assert_eq!(refused_in_time::<UnitSet>(&bytes), Err(ErrorKind::AllocationLimit));
    assert_eq!(refused_in_time::<UnitMap>(&bytes), Err(ErrorKind::AllocationLimit));
    let adaptive = bytes_of(|writer| __private::write_column_len(writer, usize::MAX - 1, usize::MAX));
    assert_eq!(refused_in_time::<AdaptiveUnits>(&adaptive), Err(ErrorKind::AllocationLimit));
    // Refused at the length, having allocated nothing.
    let (result, usage) = measure(|| bitpack::decode::<Units>(&bytes).map(drop));
    let error = result.unwrap_err();
    assert_eq!((error.kind(), error.bit(), usage.bytes), (ErrorKind::AllocationLimit, 0, 0));
    // Each element claims a byte: 100 of them decode within 100 bytes, not 99.
    let hundred = bitpack::encode(&Units { units: vec![(); 100] }).unwrap();
    assert_eq!(bitpack::decode_with_limit::<Units>(&hundred, 100).unwrap().units.len(), 100);
    let refused = bitpack::decode_with_limit::<Units>(&hundred, 99).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::AllocationLimit);
    // The core's sequence read alike.
    let mut reader = BitReader::with_limit(&hundred, 99);
    let error = __private::read_vec(&mut reader, usize::MAX, 0, <()>::read_from).unwrap_err();
    assert_eq!(
        (error.kind(), reader.bits_read(), reader.allocation_left()),
        (ErrorKind::AllocationLimit, 0, 99)
    );
}

/// A box per flag, as the issue measured (boxes of one byte on purpose).
#[allow(clippy::vec_box)]
#[derive(BitPack, Debug, PartialEq)]
struct Flags {
    #[bitpack(max_len = 4_000_000)]
    flags: Vec<Box<bool>>,
}

#[test]
fn each_heap_allocation_claims_at_least_16_bytes() {
    // 100,000 boxes of one byte each, 12.5 KB of input: the Vec's slots,
    // then 16 bytes per box (an allocator hands out no less), not 1.
    let count = 100_000;
    let bytes = bitpack::encode(&Flags { flags: (0..count).map(|index| Box::new(index % 3 == 0)).collect() })
        .unwrap();
    assert!(bytes.len() < 12_600, "{} bytes", bytes.len());
    let claimed = count * size_of::<Box<bool>>() + count * 16;
    let (result, usage) = measure(|| bitpack::decode_with_limit::<Flags>(&bytes, claimed));
    assert_eq!(result.unwrap().flags.len(), count);
    assert_eq!(usage.allocations, count + 1);
    assert!(usage.bytes <= claimed, "{usage:?}");
    let refused = bitpack::decode_with_limit::<Flags>(&bytes, claimed - 1).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::AllocationLimit);
    // One box alone, and a short string: 16 bytes each.
    let one = bitpack::encode(&Box::new(true)).unwrap();
    assert!(*bitpack::decode_with_limit::<Box<bool>>(&one, 16).unwrap());
    assert_eq!(
        bitpack::decode_with_limit::<Box<bool>>(&one, 15).unwrap_err().kind(),
        ErrorKind::AllocationLimit
    );
    let short = bitpack::encode(&Note { text: "x".into() }).unwrap();
    assert_eq!(bitpack::decode_with_limit::<Note>(&short, 16).unwrap().text, "x");
    assert_eq!(
        bitpack::decode_with_limit::<Note>(&short, 15).unwrap_err().kind(),
        ErrorKind::AllocationLimit
    );
    // A string past the short path's 32 bytes claims its bytes.
    let long = bitpack::encode(&Note { text: "y".repeat(40) }).unwrap();
    assert!(bitpack::decode_with_limit::<Note>(&long, 40).is_ok());
    assert_eq!(bitpack::decode_with_limit::<Note>(&long, 39).unwrap_err().kind(), ErrorKind::AllocationLimit);
    // An empty one allocates nothing and claims nothing.
    let empty = bitpack::encode(&Note { text: String::new() }).unwrap();
    assert_eq!(bitpack::decode_with_limit::<Note>(&empty, 0).unwrap().text, "");
}

/// Rows read as columns: each row's `Vec` and `String` are cut from a
/// flat column of their elements, each copied into an allocation of its own.
#[derive(BitPack, Clone, Debug, PartialEq)]
#[bitpack(columns)]
struct Tagged {
    #[bitpack(max_len = 4)]
    tags: Vec<u8>,
    #[bitpack(max_len = 8)]
    name: String,
}

#[derive(BitPack, Debug, PartialEq)]
struct TaggedRows {
    #[bitpack(columns, max_len = 100_000)]
    rows: Vec<Tagged>,
}

/// The least limit `decode_with_limit::<T>(bytes, limit)` decodes within.
fn least_limit<T: BitPack>(bytes: &[u8]) -> usize {
    let (mut refused, mut decodes) = (0, 1 << 30);
    assert!(bitpack::decode_with_limit::<T>(bytes, decodes).is_ok());
    while decodes - refused > 1 {
        let limit = refused + (decodes - refused) / 2;
        match bitpack::decode_with_limit::<T>(bytes, limit) {
            Ok(_) => decodes = limit,
            Err(error) => {
                assert_eq!(error.kind(), ErrorKind::AllocationLimit);
                refused = limit;
            }
        }
    }
    decodes
}

#[test]
fn columns_claim_each_rows_allocation() {
    // 1000 rows of one tag and a one-byte name, against 1000 rows of none:
    // 2 flat columns of 1000 bytes, and the 2000 rows' copies cut from them.
    // Only the flat columns were claimed; now each copy claims 16 bytes.
    let least = |tags: Vec<u8>, name: &str| {
        let rows: Vec<Tagged> = (0..1000).map(|_| Tagged { tags: tags.clone(), name: name.into() }).collect();
        let bytes = bitpack::encode(&TaggedRows { rows: rows.clone() }).unwrap();
        let (result, usage) = measure(|| bitpack::decode_with_limit::<TaggedRows>(&bytes, 1 << 30));
        assert_eq!(result.unwrap().rows, rows);
        (least_limit::<TaggedRows>(&bytes), usage.allocations)
    };
    let (empty, empty_allocations) = least(vec![], "");
    let (full, full_allocations) = least(vec![7], "n");
    assert_eq!(full_allocations - empty_allocations, 2 + 2000);
    assert_eq!(full - empty, 2000 + 2000 * 16);
}
