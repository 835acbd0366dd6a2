//! Every core read op on hostile bytes: never a panic, a refused read leaves
//! the position alone, and whatever decodes writes back to the same bits.
#![no_main]

use bitpack::{BitCounter, BitReader, BitWrite};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    // The first bytes pick the ops and their parameters; the rest is the stream.
    let split = usize::from(input.first().copied().unwrap_or(0) % 16).min(input.len());
    let (script, stream) = input.split_at(split);
    let mut reader = BitReader::new(stream);
    for (index, &op) in script.iter().enumerate().skip(1) {
        let start = reader.bits_read();
        let param = u32::from(script.get(index + 1).copied().unwrap_or(7));
        let mut counter = BitCounter::new();
        // Pads the counter to `start` so alignment-dependent ops count alike.
        let pad = |counter: &mut BitCounter| {
            let mut left = start;
            while left > 0 {
                let step = left.min(32) as u32;
                counter.write_bits(0, step).expect("zero bits always fit");
                left -= step as usize;
            }
        };
        pad(&mut counter);
        let result = match op % 14 {
            0 => reader.read_bits(param % 33).map(|v| counter.write_bits(v, param % 33)),
            1 => reader.read_bool().map(|v| counter.write_bool(v)),
            2 => {
                let (min, max) = (-(param as i32) * 3, param as i32 * 5);
                reader.read_int(min, max).map(|v| counter.write_int(v, min, max))
            }
            3 => reader
                .read_int64(i64::MIN, i64::from(param))
                .map(|v| counter.write_int64(v, i64::MIN, i64::from(param))),
            4 => reader
                .read_int128(-1 << 100, i128::from(param))
                .map(|v| counter.write_int128(v, -1 << 100, i128::from(param))),
            5 => reader
                .read_compressed_float(-100.0, 100.0, 0.01)
                .map(|v| counter.write_compressed_float(v, -100.0, 100.0, 0.01)),
            6 => reader.read_align().map(|()| counter.write_align()),
            7 => reader.read_bytes(param as usize % 9).map(|b| counter.write_bytes(b)),
            8 => reader.read_str(param as usize).map(|s| counter.write_str(s, param as usize)),
            9 => reader.read_wstr(param as usize % 20).map(|s| counter.write_wstr(&s, param as usize % 20)),
            10 => reader.read_int_relative(param).map(|v| counter.write_int_relative(param, v)),
            11 => reader
                .read_int_relative(param as i32 - 100)
                .map(|v| counter.write_int_relative(param as i32 - 100, v)),
            12 => reader.read_ack_relative(param as u16).map(|v| counter.write_ack_relative(param as u16, v)),
            _ => reader
                .read_sequence_relative(param as u16)
                .map(|v| counter.write_sequence_relative(param as u16, v)),
        };
        match result {
            Ok(rewrite) => {
                rewrite.expect("a decoded value writes back");
                assert_eq!(
                    counter.bits_written(),
                    reader.bits_read(),
                    "op {} re-encodes to the bits it read",
                    op % 14
                );
            }
            Err(error) => {
                assert_eq!(reader.bits_read(), start, "a refused read leaves the position");
                assert_eq!(error.bit(), start);
            }
        }
    }
});
