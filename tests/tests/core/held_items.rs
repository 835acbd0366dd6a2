//! A derived `Vec` of structs whose items' most fits in the buffer is
//! written through the writer held by value for the whole loop (its state
//! in registers, `sink::held`), kept only when every item is written. Into
//! buffers of every size, after 0 to 63 bits, with an item refused
//! anywhere in the `Vec` (a string or a sequence too long), it writes the
//! bits, refuses at the bit, and leaves the writer where writing each item
//! through the writer itself does; measuring counts the bits written and
//! refuses the same.

use bitpack::{BitCounter, BitPack, BitWrite, BitWriter, Error, ErrorKind};
use proptest::prelude::*;

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Line {
    #[bitpack(max_len = 8)]
    method: String,
    #[bitpack(max_len = 64)]
    path: String,
    status: u16,
    #[bitpack(max_len = 12)]
    flags: Vec<bool>,
    #[bitpack(max_len = 20)]
    payload: Vec<u8>,
    #[bitpack(max_len = 32)]
    agent: String,
}

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Lines {
    #[bitpack(max_len = 16)]
    lines: Vec<Line>,
}

/// Strings up to a few past their declarations, sequences up to two past
/// them: some items are refused.
fn line() -> impl Strategy<Value = Line> {
    (
        "[A-Z]{0,9}",
        "[a-z/0-9é]{0,66}",
        any::<u16>(),
        prop::collection::vec(any::<bool>(), 0..=14),
        prop::collection::vec(any::<u8>(), 0..=22),
        "[a-z./0-9]{0,33}",
    )
        .prop_map(|(method, path, status, flags, payload, agent)| Line {
            method,
            path,
            status,
            flags,
            payload,
            agent,
        })
}

/// A write's result (its error's kind and bit), the writer's position
/// after it, and the bytes `finish` gives (or its refusal).
type Written = (Result<(), (ErrorKind, usize)>, usize, Result<Vec<u8>, ErrorKind>);

fn written(
    size: usize,
    lead_bits: u32,
    write: impl FnOnce(&mut BitWriter<'_>) -> Result<(), Error>,
) -> Written {
    let mut buf = vec![0u8; size];
    let mut writer = BitWriter::new(&mut buf);
    let lead = match lead_bits {
        0 => Ok(()),
        bits => writer.write_bits64(0x5A5A_5A5A_5A5A_5A5A & (u64::MAX >> (64 - bits)), bits),
    };
    let result = lead.and_then(|()| write(&mut writer)).map_err(|error| (error.kind(), error.bit()));
    let position = writer.bits_written();
    let used = writer.finish().map_err(|error| error.kind());
    (result, position, used.map(|used| buf[..used].to_vec()))
}

/// The `Vec` as each item's own `write_to` on the writer itself, as one
/// write.
fn item_by_item(writer: &mut BitWriter<'_>, lines: &[Line]) -> Result<(), Error> {
    bitpack::__private::write_atomic(writer, |writer| {
        writer.write_int(lines.len() as i32, 0, 16)?;
        lines.iter().try_for_each(|line| line.write_to(writer))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(256)))]

    #[test]
    fn a_held_vec_writes_refuses_and_measures_as_each_item_did(
        lines in prop::collection::vec(line(), 0..=6),
        lead_bits in 0u32..64,
        cut in 0.0f64..1.2,
    ) {
        let batch = Lines { lines: lines.clone() };
        let most = (lines.len() * Line::MAX_BITS + 5 + 64).div_ceil(8);
        for size in [4096, most + 80, ((most as f64) * cut) as usize] {
            let through = written(size, lead_bits, |writer| batch.write_to(writer));
            let by_hand = written(size, lead_bits, |writer| item_by_item(writer, &lines));
            prop_assert_eq!(&through, &by_hand, "size {}", size);
        }
        let mut counter = BitCounter::new();
        if lead_bits > 0 {
            counter.write_bits64(0, lead_bits).unwrap();
        }
        let measured = batch.write_to(&mut counter).map_err(|error| (error.kind(), error.bit()));
        let (result, position, _) = written(4096, lead_bits, |writer| batch.write_to(writer));
        prop_assert_eq!((measured, counter.bits_written()), (result, position));
    }
}
