//! A derived `Vec` of structs that are not fixed-width (strings, sequences,
//! optional enums: issue 15's general data) is written through the writer
//! moved into a local for the whole loop. Into buffers of every size and
//! after any offset, it writes the bits, refuses at the bit, and leaves the
//! writer where writing each element through the writer itself does; inside
//! a parent that reserved its room, too. Read back, whole, cut or corrupted,
//! it gives what pushing each element gave, and leaves the reader there too.

use bitpack::{BitPack, BitRead, BitReader, BitWrite, BitWriter, Error, ErrorKind};
use proptest::prelude::*;

#[derive(BitPack, Clone, Debug, PartialEq)]
enum Doing {
    Idle,
    Walking { speed: u16 },
    Talking(u32),
}

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Element {
    id: u32,
    #[bitpack(max_len = 16)]
    flags: Vec<bool>,
    #[bitpack(max_len = 8)]
    items: Vec<u16>,
    #[bitpack(max_len = 24)]
    name: String,
    doing: Option<Doing>,
}

/// Too long for one reservation of the whole `Vec` in a small buffer.
#[derive(BitPack, Clone, Debug, PartialEq)]
struct Batch {
    #[bitpack(max_len = 64)]
    elements: Vec<Element>,
}

/// Small enough that a roomy buffer reserves it whole.
#[derive(BitPack, Clone, Debug, PartialEq)]
struct Small {
    #[bitpack(max_len = 3)]
    elements: Vec<Element>,
}

fn doing() -> impl Strategy<Value = Option<Doing>> {
    prop_oneof![
        Just(None),
        Just(Some(Doing::Idle)),
        any::<u16>().prop_map(|speed| Some(Doing::Walking { speed })),
        any::<u32>().prop_map(|to| Some(Doing::Talking(to))),
    ]
}

fn element() -> impl Strategy<Value = Element> {
    (
        any::<u32>(),
        prop::collection::vec(any::<bool>(), 0..=16),
        prop::collection::vec(any::<u16>(), 0..=8),
        "[a-z/é]{0,12}",
        doing(),
    )
        .prop_map(|(id, flags, items, name, doing)| Element { id, flags, items, name, doing })
}

/// A write's result (its error's kind and bit), the writer's position
/// after it, and the bytes `finish` gives (or its refusal).
type Written = (Result<(), (ErrorKind, usize)>, usize, Result<Vec<u8>, ErrorKind>);

/// The writer's result, position and bytes after `lead_bits` bits then `write`.
fn written(
    size: usize,
    lead_bits: u32,
    write: impl FnOnce(&mut BitWriter<'_>) -> Result<(), Error>,
) -> Written {
    let mut buf = vec![0u8; size];
    let mut writer = BitWriter::new(&mut buf);
    let lead = match lead_bits {
        0 => Ok(()),
        bits => writer.write_bits(0x5A & ((1 << bits) - 1), bits),
    };
    let result = lead.and_then(|()| write(&mut writer)).map_err(|error| (error.kind(), error.bit()));
    let position = writer.bits_written();
    let used = writer.finish().map_err(|error| error.kind());
    (result, position, used.map(|used| buf[..used].to_vec()))
}

/// The `Vec` as it was written before: its length, then each element's own
/// `write_to` on the writer itself, as one write (a failed element leaves
/// the writer at the `Vec`'s start, as the parent's derived write does).
fn element_by_element(writer: &mut BitWriter<'_>, elements: &[Element], max_len: i32) -> Result<(), Error> {
    bitpack::__private::write_atomic(writer, |writer| {
        writer.write_int(elements.len() as i32, 0, max_len)?;
        elements.iter().try_for_each(|element| element.write_to(writer))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(96)))]

    #[test]
    fn a_vec_of_general_structs_writes_as_each_element_did(
        elements in prop::collection::vec(element(), 0..=10),
        lead_bits in 0u32..8,
        cut in 0.0f64..1.1,
    ) {
        let batch = Batch { elements: elements.clone() };
        let full = Batch::MAX_BITS.div_ceil(8) + 8;
        let size = ((full as f64) * cut) as usize;
        let through = written(size, lead_bits, |writer| batch.write_to(writer));
        let by_hand = written(size, lead_bits, |writer| element_by_element(writer, &elements, 64));
        prop_assert_eq!(through, by_hand);

        let small = Small { elements: elements.into_iter().take(3).collect() };
        let full = Small::MAX_BITS.div_ceil(8) + 8;
        for size in [full, ((full as f64) * cut.min(1.0)) as usize] {
            let through = written(size, lead_bits, |writer| small.write_to(writer));
            let by_hand = written(size, lead_bits, |writer| element_by_element(writer, &small.elements, 3));
            prop_assert_eq!(through, by_hand);
        }
    }
}

/// A read's result (the value, or its error's kind and bit) and the
/// reader's position after it.
type Read = (Result<Batch, (ErrorKind, usize)>, usize);

/// `bytes` read after `lead_bits` bits by `read`.
fn read(bytes: &[u8], lead_bits: u32, read: impl FnOnce(&mut BitReader<'_>) -> Result<Batch, Error>) -> Read {
    let mut reader = BitReader::new(bytes);
    let result = match lead_bits {
        0 => Ok(()),
        bits => reader.read_bits(bits).map(drop),
    }
    .and_then(|()| read(&mut reader))
    .map_err(|error| (error.kind(), error.bit()));
    (result, reader.bits_read())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(96)))]

    /// A derived `Vec` of structs is read into its reserved room without a
    /// capacity check per element: on whole, cut and corrupted inputs it
    /// gives the value or the refusal (kind, bit) and leaves the reader
    /// where pushing each element did.
    #[test]
    fn a_vec_of_general_structs_reads_as_each_element_pushed(
        elements in prop::collection::vec(element(), 0..=10),
        lead_bits in 0u32..8,
        cut in 0.0f64..1.1,
        flips in prop::collection::vec((any::<usize>(), 0u8..8), 0..3),
    ) {
        let (_, _, bytes) = written(Batch::MAX_BITS.div_ceil(8) + 8, lead_bits, |writer| {
            Batch { elements: elements.clone() }.write_to(writer)
        });
        let mut bytes = bytes.expect("a roomy buffer takes the batch");
        let whole = read(&bytes, lead_bits, |reader| Batch::read_from(reader));
        prop_assert_eq!(&whole.0, &Ok(Batch { elements }));
        for (at, bit) in flips {
            let len = bytes.len();
            bytes[at % len] ^= 1 << bit;
        }
        let cut_len = ((bytes.len() as f64) * cut.min(1.0)) as usize;
        let input = &bytes[..cut_len];
        let derived = read(input, lead_bits, |reader| Batch::read_from(reader));
        let pushed = read(input, lead_bits, |reader| {
            bitpack::__private::read_vec(reader, 64, Element::MIN_BITS, Element::read_from)
                .map(|elements| Batch { elements })
        });
        prop_assert_eq!(derived, pushed);
    }
}
