//! Every core read op on hostile bytes: never a panic, a refused read leaves
//! the position alone and names it, and whatever decodes writes back to
//! exactly the bits it was read from.

use crate::bits::{assert_rewrites, same_bits, written_at};
use bitpack::adaptive::{self, Signs};
use bitpack::{BitRead, BitReader, BitWrite, BitWriter, Error, change};

/// A decoded value and how to write it again.
type Rewrite<'a> = Box<dyn FnOnce(&mut BitWriter<'_>) -> Result<(), Error> + 'a>;

pub fn check(input: &[u8]) {
    // The first bytes pick the ops and their parameters; the rest is the stream.
    let split = usize::from(input.first().copied().unwrap_or(0) % 16).min(input.len());
    let (script, stream) = input.split_at(split);
    let mut reader = BitReader::new(stream);
    for (index, &op) in script.iter().enumerate().skip(1) {
        let start = reader.bits_read();
        let param = u32::from(script.get(index + 1).copied().unwrap_or(7));
        let op = op % 19;
        let result: Result<Rewrite<'_>, Error> = match op {
            0 => reader
                .read_bits(param % 33)
                .map(|v| -> Rewrite<'_> { Box::new(move |w| w.write_bits(v, param % 33)) }),
            1 => reader.read_bool().map(|v| -> Rewrite<'_> { Box::new(move |w| w.write_bool(v)) }),
            2 => {
                let (min, max) = (-(param as i32) * 3, param as i32 * 5);
                reader
                    .read_int(min, max)
                    .map(|v| -> Rewrite<'_> { Box::new(move |w| w.write_int(v, min, max)) })
            }
            3 => reader
                .read_int64(i64::MIN, i64::from(param))
                .map(|v| -> Rewrite<'_> { Box::new(move |w| w.write_int64(v, i64::MIN, i64::from(param))) }),
            4 => reader.read_int128(-1 << 100, i128::from(param)).map(|v| -> Rewrite<'_> {
                Box::new(move |w| w.write_int128(v, -1 << 100, i128::from(param)))
            }),
            5 => reader.read_compressed_float(-100.0, 100.0, 0.01).map(|v| -> Rewrite<'_> {
                Box::new(move |w| w.write_compressed_float(v, -100.0, 100.0, 0.01))
            }),
            6 => reader.read_align().map(|()| -> Rewrite<'_> { Box::new(|w| w.write_align()) }),
            7 => reader
                .read_bytes(param as usize % 9)
                .map(|b| -> Rewrite<'_> { Box::new(move |w| w.write_bytes(b)) }),
            8 => reader
                .read_str(param as usize)
                .map(|s| -> Rewrite<'_> { Box::new(move |w| w.write_str(s, param as usize)) }),
            9 => reader
                .read_wstr(param as usize % 20)
                .map(|s| -> Rewrite<'_> { Box::new(move |w| w.write_wstr(&s, param as usize % 20)) }),
            10 => reader
                .read_int_relative(param)
                .map(|v| -> Rewrite<'_> { Box::new(move |w| w.write_int_relative(param, v)) }),
            11 => reader
                .read_int_relative(param as i32 - 100)
                .map(|v| -> Rewrite<'_> { Box::new(move |w| w.write_int_relative(param as i32 - 100, v)) }),
            12 => reader
                .read_ack_relative(param as u16)
                .map(|v| -> Rewrite<'_> { Box::new(move |w| w.write_ack_relative(param as u16, v)) }),
            13 => reader
                .read_sequence_relative(param as u16)
                .map(|v| -> Rewrite<'_> { Box::new(move |w| w.write_sequence_relative(param as u16, v)) }),
            14 => {
                let baseline = i64::from(param) * 7 - 900;
                change::read_relative_int(&mut reader, baseline, -1000, 1000).map(|v| -> Rewrite<'_> {
                    Box::new(move |w| change::write_relative_int(w, v, baseline, -1000, 1000))
                })
            }
            15 => {
                let baseline = u64::from(param) * 19;
                change::read_relative_steps(&mut reader, baseline, 5000).map(|steps| -> Rewrite<'_> {
                    // The writer sends tiers against a baseline, and the far
                    // tier without one: either form is its own.
                    let end = start + change::relative_steps_bits(steps, baseline, 5000) as usize;
                    let tiered = written_at(start, 16, |w| {
                        change::write_relative_steps(w, steps, Some(baseline), 5000)
                    })
                    .is_ok_and(|(bytes, written)| written == end && same_bits(stream, &bytes, start, end));
                    let with = tiered.then_some(baseline);
                    Box::new(move |w| change::write_relative_steps(w, steps, with, 5000))
                })
            }
            16 => reader.read_compressed_double(-1000.0, 1000.0, 0.001).map(|v| -> Rewrite<'_> {
                Box::new(move |w| w.write_compressed_double(v, -1000.0, 1000.0, 0.001))
            }),
            17 => adaptive::read_adaptive::<i32>(&mut reader, Signs::ZigZag)
                .map(|v| -> Rewrite<'_> { Box::new(move |w| adaptive::write_adaptive(w, v, Signs::ZigZag)) }),
            _ => adaptive::read_adaptive_vec::<u16>(&mut reader, 12, Signs::NonNegative).map(
                |v| -> Rewrite<'_> {
                    Box::new(move |w| adaptive::write_adaptive_vec(w, &v, 12, Signs::NonNegative))
                },
            ),
        };
        match result {
            Ok(rewrite) => assert_rewrites(stream, start, reader.bits_read(), &format!("op {op}"), rewrite),
            Err(error) => {
                assert_eq!(reader.bits_read(), start, "op {op}: a refused read leaves the position");
                assert_eq!(error.bit(), start, "op {op}: the error names where the read started");
            }
        }
    }
}
