//! The other standard types games hold: `char`, `Duration`, the `NonZero`
//! integers, `Rc`/`Arc`, `PhantomData`, and `max_len` on `Box<str>`,
//! `Cow<str>`, `Box<[T]>`, `VecDeque`, maps and sets: derived, and checked
//! against the runtime called by hand.

use crate::types_support;

use bitpack::__private::{
    self, len_bits, ranged_u8, read_map, read_sequence, read_set, read_text, schema, sum, vec_max_bits,
    write_map, write_sequence, write_set, write_text,
};
use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, Error, ErrorKind};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::marker::PhantomData;
use std::num::{NonZeroI8, NonZeroI32, NonZeroI128, NonZeroU8, NonZeroU16, NonZeroU64};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;
use types_support::{Rng, encode, hostile, round_trip};

#[test]
fn chars_are_21_bits_and_surrogates_are_refused() {
    assert_eq!((char::MAX_BITS, char::MIN_BITS), (21, 21));
    for c in ['\0', 'a', 'é', '€', '\u{D7FF}', '\u{E000}', '🦀', char::MAX] {
        assert_eq!(round_trip(&c), 21);
    }
    // Every 97th scalar value, and the edges of the gap.
    for value in (0..=0x10FFFFu32).step_by(97).chain([0xD7FF, 0xE000]) {
        if let Some(c) = char::from_u32(value) {
            let (bytes, _) = encode(&c);
            assert_eq!(bytes[..3], value.to_le_bytes()[..3], "the scalar value itself");
        }
    }
    for value in [0xD800u32, 0xDBFF, 0xDC00, 0xDFFF, 0x11_0000, 0x1F_FFFF] {
        let bytes = value.to_le_bytes();
        let mut reader = BitReader::new(&bytes[..3]);
        assert_eq!(char::read_from(&mut reader).unwrap_err().kind(), ErrorKind::OutOfRange, "{value:#x}");
        assert_eq!(reader.bits_read(), 0);
    }
    assert_ne!(char::SCHEMA, u32::SCHEMA);
    let accepted = hostile::<char>(&mut Rng(21), 20_000, 4, true);
    assert!(accepted > 1_000);
}

#[test]
fn durations_are_seconds_then_nanoseconds() {
    assert_eq!((Duration::MAX_BITS, Duration::MIN_BITS), (94, 94));
    let mut rng = Rng(22);
    for _ in 0..5_000 {
        let duration = Duration::new(rng.next() >> (rng.next() % 64), (rng.next() % 1_000_000_000) as u32);
        assert_eq!(round_trip(&duration), 94);
    }
    round_trip(&Duration::MAX);
    round_trip(&Duration::ZERO);
    // Nanoseconds of a full second or more are refused.
    let mut buf = [0u8; 12];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_u64(5).unwrap();
    writer.write_bits(1_000_000_000, 30).unwrap();
    writer.finish().unwrap();
    let mut reader = BitReader::new(&buf);
    assert_eq!(Duration::read_from(&mut reader).unwrap_err().kind(), ErrorKind::OutOfRange);
    assert_eq!(reader.bits_read(), 0);
    // Room is checked once: a short buffer writes nothing.
    let mut short = [0u8; 11];
    let mut writer = BitWriter::new(&mut short);
    assert_eq!(Duration::MAX.write_to(&mut writer).unwrap_err().kind(), ErrorKind::BufferFull);
    assert_eq!(writer.bits_written(), 0);
    hostile::<Duration>(&mut Rng(23), 20_000, 13, true);
}

#[test]
fn nonzero_integers_write_as_the_integer_and_refuse_zero() {
    let mut rng = Rng(24);
    for _ in 0..2_000 {
        let value = rng.next();
        if let Some(v) = NonZeroU8::new(value as u8) {
            assert_eq!(encode(&v), encode(&(value as u8)));
            round_trip(&v);
        }
        if let Some(v) = NonZeroI32::new(value as i32) {
            assert_eq!(encode(&v), encode(&(value as i32)));
            round_trip(&v);
        }
        round_trip(&NonZeroU64::new(value | 1).unwrap());
        round_trip(&NonZeroI128::new(-((value | 1) as i128)).unwrap());
    }
    assert_eq!((NonZeroU16::MAX_BITS, NonZeroU16::MIN_BITS), (16, 16));
    assert_ne!(NonZeroU16::SCHEMA, u16::SCHEMA);
    // Zero is refused: 0u8 for NonZeroU8, i8's offset 128 for NonZeroI8.
    let mut reader = BitReader::new(&[0]);
    assert_eq!(NonZeroU8::read_from(&mut reader).unwrap_err().kind(), ErrorKind::OutOfRange);
    assert_eq!(reader.bits_read(), 0);
    let mut reader = BitReader::new(&[128]);
    assert_eq!(NonZeroI8::read_from(&mut reader).unwrap_err().kind(), ErrorKind::OutOfRange);
    hostile::<NonZeroU16>(&mut Rng(25), 5_000, 3, true);
    hostile::<NonZeroI8>(&mut Rng(26), 5_000, 2, true);
}

#[test]
fn shared_pointers_and_phantoms() {
    assert_eq!(encode(&Rc::new(7u16)), encode(&7u16));
    assert_eq!(encode(&Arc::new(Some('x'))), encode(&Some('x')));
    assert_eq!((<Rc<u16>>::SCHEMA, <Arc<u16>>::MAX_BITS), (u16::SCHEMA, 16));
    round_trip(&Rc::new([1u8, 2, 3]));
    round_trip(&Arc::new(Duration::from_millis(1500)));
    assert_eq!(round_trip(&PhantomData::<String>), 0);
    assert_eq!(<PhantomData<str>>::SCHEMA, <()>::SCHEMA);
}

/// A struct of the collections, derived: `max_len` on each, `#[bits]` on the
/// deque's elements.
#[derive(BitPack, Debug, Clone, PartialEq, Default)]
struct Inventory {
    #[bitpack(max_len = NAME)]
    name: Box<str>,
    #[bitpack(max_len = NAME)]
    title: Cow<'static, str>,
    #[bitpack(max_len = SLOTS)]
    slots: Box<[u16]>,
    #[bits(min = 0, max = 99)]
    #[bitpack(max_len = RECENT)]
    recent: VecDeque<u8>,
    #[bitpack(max_len = COUNTS)]
    counts: HashMap<u16, char>,
    #[bitpack(max_len = COUNTS)]
    sorted: BTreeMap<char, Option<u8>>,
    #[bitpack(max_len = TAGS)]
    tags: HashSet<u8>,
    #[bitpack(max_len = TAGS)]
    seen: BTreeSet<i16>,
}

/// [`Inventory`] by hand, through the runtime the derive calls.
#[derive(Debug, Clone, PartialEq, Default)]
struct HandInventory {
    name: Box<str>,
    title: Cow<'static, str>,
    slots: Box<[u16]>,
    recent: VecDeque<u8>,
    counts: HashMap<u16, char>,
    sorted: BTreeMap<char, Option<u8>>,
    tags: HashSet<u8>,
    seen: BTreeSet<i16>,
}

const NAME: usize = 8;
const SLOTS: usize = 4;
const RECENT: usize = 5;
const COUNTS: usize = 3;
const TAGS: usize = 4;

impl BitPack for HandInventory {
    const MAX_BITS: usize = sum(&[
        __private::str_max_bits(NAME),
        __private::str_max_bits(NAME),
        vec_max_bits(SLOTS, u16::MAX_BITS),
        vec_max_bits(RECENT, ranged_u8::bits(0, 99)),
        vec_max_bits(COUNTS, sum(&[u16::MAX_BITS, char::MAX_BITS])),
        vec_max_bits(COUNTS, sum(&[char::MAX_BITS, <Option<u8>>::MAX_BITS])),
        vec_max_bits(TAGS, u8::MAX_BITS),
        vec_max_bits(TAGS, i16::MAX_BITS),
    ]);
    const MIN_BITS: usize = sum(&[
        len_bits(NAME),
        len_bits(NAME),
        len_bits(SLOTS),
        len_bits(RECENT),
        len_bits(COUNTS),
        len_bits(COUNTS),
        len_bits(TAGS),
        len_bits(TAGS),
    ]);
    const SCHEMA: u64 = schema::sequence(&[
        schema::string(NAME),
        schema::string(NAME),
        schema::vec(SLOTS, u16::SCHEMA),
        schema::vec(RECENT, ranged_u8::schema(0, 99)),
        schema::map(COUNTS, u16::SCHEMA, char::SCHEMA),
        schema::map(COUNTS, char::SCHEMA, <Option<u8>>::SCHEMA),
        schema::set(TAGS, u8::SCHEMA),
        schema::set(TAGS, i16::SCHEMA),
    ]);

    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        write_text(writer, &self.name, NAME)?;
        write_text(writer, &self.title, NAME)?;
        write_sequence(writer, &*self.slots, SLOTS, |writer, slot| slot.write_to(writer))?;
        write_sequence(writer, &self.recent, RECENT, |writer, item| ranged_u8::write(writer, *item, 0, 99))?;
        write_map(writer, &self.counts, COUNTS, |w, key| key.write_to(w), |w, value| value.write_to(w))?;
        write_map(writer, &self.sorted, COUNTS, |w, key| key.write_to(w), |w, value| value.write_to(w))?;
        write_set(writer, &self.tags, TAGS, |w, tag| tag.write_to(w))?;
        write_set(writer, &self.seen, TAGS, |w, seen| seen.write_to(w))
    }

    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        Ok(HandInventory {
            name: read_text(reader, NAME)?,
            title: read_text(reader, NAME)?,
            slots: read_sequence(reader, SLOTS, u16::MIN_BITS, u16::read_from)?,
            recent: read_sequence(reader, RECENT, ranged_u8::bits(0, 99), |r| ranged_u8::read(r, 0, 99))?,
            counts: read_map(
                reader,
                COUNTS,
                sum(&[u16::MIN_BITS, char::MIN_BITS]),
                u16::read_from,
                char::read_from,
            )?,
            sorted: read_map(reader, COUNTS, sum(&[21, 1]), char::read_from, <Option<u8>>::read_from)?,
            tags: read_set(reader, TAGS, u8::MIN_BITS, u8::read_from)?,
            seen: read_set(reader, TAGS, i16::MIN_BITS, i16::read_from)?,
        })
    }
}

fn random_inventory(rng: &mut Rng) -> Inventory {
    let text = |rng: &mut Rng| -> String {
        (0..rng.next() % 3).map(|_| ['a', 'é', '€', 'z'][(rng.next() % 4) as usize]).collect::<String>()
    };
    Inventory {
        name: text(rng).into_boxed_str(),
        title: Cow::Owned(text(rng)),
        slots: (0..rng.next() % 5).map(|_| rng.next() as u16).collect(),
        recent: (0..rng.next() % 6).map(|_| (rng.next() % 100) as u8).collect(),
        counts: (0..rng.next() % 4).map(|_| (rng.next() as u16, 'k')).collect(),
        sorted: (0..rng.next() % 4).map(|_| (char::from(b'a' + (rng.next() % 26) as u8), Some(3))).collect(),
        tags: (0..rng.next() % 5).map(|_| rng.next() as u8).collect(),
        seen: (0..rng.next() % 5).map(|_| rng.next() as i16).collect(),
    }
}

impl Inventory {
    fn by_hand(&self) -> HandInventory {
        let Inventory { name, title, slots, recent, counts, sorted, tags, seen } = self.clone();
        HandInventory { name, title, slots, recent, counts, sorted, tags, seen }
    }
}

#[test]
fn collections_round_trip_within_their_bounds() {
    let mut rng = Rng(27);
    assert_eq!(
        (Inventory::MAX_BITS, Inventory::MIN_BITS, Inventory::SCHEMA),
        (HandInventory::MAX_BITS, HandInventory::MIN_BITS, HandInventory::SCHEMA)
    );
    for _ in 0..5_000 {
        let inventory = random_inventory(&mut rng);
        round_trip(&inventory);
        let hand = inventory.by_hand();
        assert_eq!(encode(&inventory), encode(&hand));
        round_trip(&hand);
    }
    // The same bits as String and Vec with the same max_len.
    let mut counter = BitCounter::new();
    write_text(&mut counter, &Box::<str>::from("héllo"), NAME).unwrap();
    assert_eq!(counter.bits_written(), bitpack::measure(&PlainString("héllo".into())).unwrap());
    // Too long is TooLong, as for String and Vec.
    let long = Inventory { recent: VecDeque::from(vec![1; 6]), ..Inventory::default() };
    let mut counter = BitCounter::new();
    assert_eq!(long.write_to(&mut counter).unwrap_err().kind(), ErrorKind::TooLong);
    let mut counter = BitCounter::new();
    let text = Cow::Borrowed("nine char");
    assert_eq!(write_text(&mut counter, &text, NAME).unwrap_err().kind(), ErrorKind::TooLong);
}

/// A `String` of at most 8 bytes, as the derive writes one today.
#[derive(Debug, PartialEq)]
struct PlainString(String);

impl BitPack for PlainString {
    const MAX_BITS: usize = __private::str_max_bits(NAME);
    const SCHEMA: u64 = schema::string(NAME);

    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.write_str(&self.0, NAME)
    }

    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        Ok(PlainString(__private::read_string(reader, NAME)?))
    }
}

#[test]
fn maps_and_sets_are_the_same_bytes_whatever_their_order() {
    let mut rng = Rng(28);
    for _ in 0..2_000 {
        let entries: Vec<(u16, char)> = (0..rng.next() % 4).map(|_| (rng.next() as u16, 'v')).collect();
        let hash: HashMap<u16, char> = entries.iter().copied().collect();
        let tree: BTreeMap<u16, char> = entries.iter().copied().collect();
        let write = |map: &dyn Fn(&mut BitWriter<'_>) -> Result<(), Error>| {
            let mut buf = [0u8; 32];
            let mut writer = BitWriter::new(&mut buf);
            map(&mut writer).unwrap();
            let used = writer.finish().unwrap();
            buf[..used].to_vec()
        };
        let from_hash =
            write(&|w| write_map(w, &hash, COUNTS, |w, k| k.write_to(w), |w, v: &char| v.write_to(w)));
        let from_tree =
            write(&|w| write_map(w, &tree, COUNTS, |w, k| k.write_to(w), |w, v: &char| v.write_to(w)));
        assert_eq!(from_hash, from_tree);
        let back: HashMap<u16, char> =
            read_map(&mut BitReader::new(&from_hash), COUNTS, 37, u16::read_from, char::read_from).unwrap();
        assert_eq!(back, hash);
        let set: HashSet<u16> = hash.keys().copied().collect();
        let tree: BTreeSet<u16> = set.iter().copied().collect();
        let from_hash = write(&|w| write_set(w, &set, COUNTS, |w, k| k.write_to(w)));
        let from_tree = write(&|w| write_set(w, &tree, COUNTS, |w, k| k.write_to(w)));
        assert_eq!(from_hash, from_tree);
    }
}

#[test]
fn keys_out_of_order_or_repeated_are_refused() {
    // Length 2 of max 3, then keys 5 and 5 (a duplicate), then 7 and 5.
    for keys in [[5u8, 5], [7, 5]] {
        let mut buf = [0u8; 4];
        let mut writer = BitWriter::new(&mut buf);
        writer.write_int(2, 0, 3).unwrap();
        for key in keys {
            writer.write_u8(key).unwrap();
        }
        writer.finish().unwrap();
        let mut reader = BitReader::new(&buf);
        let error = read_set::<_, BTreeSet<u8>, _>(&mut reader, 3, 8, u8::read_from).unwrap_err();
        assert_eq!((error.kind(), error.bit()), (ErrorKind::NotIncreasing, 10));
        let mut reader = BitReader::new(&buf);
        let map: Result<HashMap<u8, ()>, _> = read_map(&mut reader, 3, 8, u8::read_from, |_| Ok(()));
        assert_eq!(map.unwrap_err().kind(), ErrorKind::NotIncreasing);
    }
    // An `Ord` that calls distinct keys equal: the writer refuses rather
    // than write bits every reader refuses.
    #[derive(Debug, PartialEq, Eq, Hash)]
    struct Loose(u8, u8);
    impl PartialOrd for Loose {
        fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Loose {
        fn cmp(&self, other: &Self) -> std::cmp::Ordering {
            self.0.cmp(&other.0)
        }
    }
    let set: HashSet<Loose> = [Loose(1, 1), Loose(1, 2)].into_iter().collect();
    let mut counter = BitCounter::new();
    let error = write_set(&mut counter, &set, 3, |w, k| w.write_u8(k.0)).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NotIncreasing);
    assert_eq!(counter.bits_written(), 0, "refused before the length is written");
}

#[test]
fn lengths_the_input_cannot_hold_are_refused_before_allocating() {
    // max_len 1000 (10 bits), length 1000, 16-bit elements, 6 bits left.
    let bytes = [0xE8, 0x03];
    let error = read_sequence::<_, VecDeque<u16>, _>(&mut BitReader::new(&bytes), 1000, 16, u16::read_from);
    assert_eq!(error.unwrap_err().kind(), ErrorKind::UnexpectedEnd);
    let error = read_map::<_, HashMap<u16, u16>, _, _>(
        &mut BitReader::new(&bytes),
        1000,
        32,
        u16::read_from,
        u16::read_from,
    );
    assert_eq!(error.unwrap_err().kind(), ErrorKind::UnexpectedEnd);
}

#[test]
fn hostile_collections_never_panic_and_read_canonically() {
    let mut rng = Rng(29);
    hostile::<Inventory>(&mut rng, 30_000, 24, false);
    // Valid messages with a bit flipped: some still read, and write back the same.
    let mut accepted = 0;
    for _ in 0..5_000 {
        let (mut bytes, _) = encode(&random_inventory(&mut rng));
        if bytes.is_empty() {
            continue;
        }
        let at = (rng.next() as usize) % bytes.len();
        bytes[at] ^= 1 << (rng.next() % 8);
        let mut reader = BitReader::new(&bytes);
        if let Ok(value) = Inventory::read_from(&mut reader) {
            accepted += 1;
            let (again, bits) = encode(&value);
            assert_eq!(bits, reader.bits_read());
            assert_eq!(types_support::bit_string(&again, bits), types_support::bit_string(&bytes, bits));
        }
    }
    assert!(accepted > 100, "{accepted}");
}
