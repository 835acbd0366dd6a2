//! Issue 15's bulk paths and general data, encoded, decoded or measured
//! (`bitpack::measure`, bitpack only) `ROUNDS` times by bitpack (or by
//! bitcode, the reference), for an instruction
//! count under callgrind (per round: the count at `ROUNDS` less the count
//! at 0, over `ROUNDS`):
//!
//! - `records` (the default), `world` and `logs`:
//!   [`bitpack_benches::general`]'s records, world update and web-log batch.
//!
//! ```text
//! cargo build --release -p bitpack-benches --bin bulk
//! valgrind --tool=callgrind target/release/bulk encode|decode|measure ROUNDS [bitcode] [records|world|logs]
//! ```

use std::hint::black_box;
use std::process::ExitCode;

use bitpack::{BitPack, BitReader, BitWriter};
use bitpack_benches::general;

const USAGE: &str =
    "usage: bulk encode|decode|measure ROUNDS [bitcode] [records|world|logs] (measure: bitpack only)";

/// What a round does.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Encode,
    Decode,
    /// `bitpack::measure`: the bits the writer would write, counted by the
    /// same generated code through a `BitCounter`.
    Measure,
}

/// Encodes, decodes or measures `value` `rounds` times; the bytes of both
/// encodings.
fn run<T>(value: &T, mode: Mode, rounds: usize, with_bitcode: bool) -> (usize, usize)
where
    T: BitPack + PartialEq + std::fmt::Debug + bitcode::Encode + for<'a> bitcode::Decode<'a>,
{
    let mut buf = vec![0u8; 64 * 1024];
    let used = {
        let mut writer = BitWriter::new(&mut buf);
        value.write_to(&mut writer).expect("fits");
        writer.finish().expect("fits")
    };
    let mut check = BitReader::new(&buf[..used]);
    assert_eq!(&T::read_from(&mut check).expect("reads back"), value);
    let mut coder = bitcode::Buffer::new();
    let encoded = coder.encode(value).to_vec();
    assert_eq!(&coder.decode::<T>(&encoded).expect("decodes"), value);
    assert_eq!(bitpack::measure(value).expect("measures").div_ceil(8), used);
    match (mode, with_bitcode) {
        (Mode::Measure, _) => {
            for _ in 0..rounds {
                black_box(bitpack::measure(black_box(value)).expect("measures"));
            }
        }
        (Mode::Encode, false) => {
            for _ in 0..rounds {
                let mut writer = BitWriter::new(&mut buf);
                black_box(value).write_to(&mut writer).expect("fits");
                black_box(writer.finish().expect("fits"));
            }
        }
        (Mode::Decode, false) => {
            for _ in 0..rounds {
                let mut reader = BitReader::new(black_box(&buf[..used]));
                black_box(T::read_from(&mut reader).expect("reads back"));
            }
        }
        (Mode::Encode, true) => {
            for _ in 0..rounds {
                black_box(coder.encode(black_box(value)));
            }
        }
        (Mode::Decode, true) => {
            for _ in 0..rounds {
                let decoded: T = coder.decode(black_box(&encoded)).expect("decodes");
                black_box(decoded);
            }
        }
    }
    (used, encoded.len())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(mode), Some(Ok(rounds))) = (args.first(), args.get(1).map(|rounds| rounds.parse::<usize>()))
    else {
        eprintln!("{USAGE}");
        return ExitCode::FAILURE;
    };
    let run_mode = match mode.as_str() {
        "encode" => Mode::Encode,
        "decode" => Mode::Decode,
        "measure" => Mode::Measure,
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    let (mut with_bitcode, mut data) = (false, "records");
    for arg in &args[2..] {
        match arg.as_str() {
            "bitcode" => with_bitcode = true,
            "records" | "world" | "logs" => data = arg,
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::FAILURE;
            }
        }
    }
    if run_mode == Mode::Measure && with_bitcode {
        eprintln!("bulk: bitcode has no measure; {USAGE}");
        return ExitCode::FAILURE;
    }
    let (used, bitcode_bytes) = match data {
        "records" => run(&general::records(), run_mode, rounds, with_bitcode),
        "world" => run(&general::world(), run_mode, rounds, with_bitcode),
        _ => run(&general::logs(), run_mode, rounds, with_bitcode),
    };
    println!("{data} {mode}: {used} bytes (bitcode {bitcode_bytes} bytes), {rounds} rounds");
    ExitCode::SUCCESS
}
