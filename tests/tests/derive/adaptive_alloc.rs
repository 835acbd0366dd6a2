//! Hostile bytes never make an adaptive decoder allocate past the declared
//! maximum lengths. A counting global allocator records the largest single
//! allocation and the bytes live at once while a decode runs, per thread.

use crate::adaptive_support;
use crate::counting_allocator;

use adaptive_support::{Outer, SAMPLES_MAX_LEN, Samples};
use bitpack::adaptive::{self, Signs};
use bitpack::{BitPack, BitReader, BitWrite, BitWriter};

/// Runs `decode` and returns (peak live bytes, largest single allocation).
fn measure(decode: impl FnOnce()) -> (usize, usize) {
    let ((), usage) = counting_allocator::measure(decode);
    (usage.peak_live, usage.largest)
}

/// A small deterministic generator, so the test needs no allocation of its own.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

const BIG_MAX_LEN: usize = 100_000;

/// One test, so no other test thread allocates while recording.
#[test]
fn hostile_bytes_never_allocate_past_declared_maxima() {
    random_bytes_stay_within_maxima();
    a_count_the_input_cannot_hold_allocates_nothing();
}

fn random_bytes_stay_within_maxima() {
    let samples_limit = SAMPLES_MAX_LEN * size_of::<u16>();
    let big_limit = BIG_MAX_LEN * size_of::<u64>();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut bytes = [0u8; 64];
    for round in 0..20_000 {
        let len = (next(&mut state) % 65) as usize;
        for byte in bytes.iter_mut() {
            *byte = next(&mut state) as u8;
        }
        let input = &bytes[..len];
        let (peak, largest) = measure(|| {
            let _ = Samples::read_from(&mut BitReader::new(input));
            let _ = Outer::read_from(&mut BitReader::new(input));
        });
        assert!(
            peak <= samples_limit && largest <= samples_limit,
            "round {round}: {peak} live, {largest} largest"
        );
        // A large declared maximum: the count is bounded by what the input can hold.
        let (peak, _) = measure(|| {
            let _ =
                adaptive::read_adaptive_vec::<u64>(&mut BitReader::new(input), BIG_MAX_LEN, Signs::ZigZag);
        });
        assert!(peak <= big_limit, "round {round}: {peak} live");
    }
}

fn a_count_the_input_cannot_hold_allocates_nothing() {
    // Count 100000 in 17 bits, per-value mode: 100000 values of at least 6 bits
    // each cannot fit in the 14 bits left.
    let mut buf = [0u8; 4];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bits(100_000, 17).unwrap();
    writer.write_bool(false).unwrap();
    writer.finish().unwrap();
    let (peak, _) = measure(|| {
        let result =
            adaptive::read_adaptive_vec::<u64>(&mut BitReader::new(&buf), BIG_MAX_LEN, Signs::ZigZag);
        assert!(result.is_err());
    });
    assert_eq!(peak, 0);

    // Shared width 0 (all zeros) costs no bits per value: the declared maximum
    // is then the only bound, and it holds.
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bits(SAMPLES_MAX_LEN as u32, 5).unwrap();
    writer.write_bool(true).unwrap();
    writer.write_bits(0, 4).unwrap();
    writer.finish().unwrap();
    let mut decoded = None;
    let (peak, largest) = measure(|| decoded = Some(Samples::read_from(&mut BitReader::new(&buf))));
    assert_eq!(decoded, Some(Ok(Samples { values: vec![0; SAMPLES_MAX_LEN] })));
    assert_eq!(largest, SAMPLES_MAX_LEN * size_of::<u16>());
    assert!(peak <= SAMPLES_MAX_LEN * size_of::<u16>());
}
