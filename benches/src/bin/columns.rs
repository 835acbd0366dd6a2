//! Issue 16's column widths against bitcode, on the mk48-like world
//! updates, the web-server log and the unranged game snapshots, each in
//! bitpack's row, adaptive and columns layouts and in bitcode 0.6:
//!
//! ```text
//! cargo run --release -p bitpack-benches --bin columns sizes
//! cargo run --release -p bitpack-benches --bin columns time ROUNDS
//! valgrind --tool=callgrind target/release/columns encode|decode DATASET LAYOUT ROUNDS
//! ```
//!
//! `sizes` checks every layout round-trips every message, then prints the
//! bytes of each; `time` encodes and decodes every message `ROUNDS` times
//! per layout, interleaved in one process, and prints the wall time per
//! pass; `encode`/`decode` run one layout (`rows`, `adaptive`, `columns`,
//! `bitcode`) of one dataset (`mk48`, `weblog`, `unranged`) for an
//! instruction count (per pass: the count at `ROUNDS` less the count at 0,
//! over `ROUNDS`). Buffers are reused everywhere.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use bitpack::{BitPack, BitReader, BitWriter};
use bitpack_benches::{mk48, unranged, weblog};

const USAGE: &str = "usage: columns sizes | time ROUNDS | encode|decode mk48|weblog|unranged rows|adaptive|columns|bitcode ROUNDS";
const LAYOUTS: [&str; 4] = ["rows", "adaptive", "columns", "bitcode"];

/// One dataset's messages in one layout, encoded and decoded by a codec.
trait Coder {
    /// Bytes of every message, after checking each decodes to itself.
    fn sizes(&mut self) -> usize;
    /// Encodes every message once.
    fn encode(&mut self);
    /// Decodes every message once.
    fn decode(&mut self);
}

struct Bitpack<T> {
    messages: Vec<T>,
    encoded: Vec<Vec<u8>>,
    buf: Vec<u8>,
}

impl<T: BitPack + PartialEq + std::fmt::Debug> Bitpack<T> {
    fn new(messages: Vec<T>) -> Self {
        let encoded = messages.iter().map(|message| bitpack::encode(message).expect("encodes")).collect();
        Bitpack { messages, encoded, buf: vec![0; 1 << 20] }
    }
}

impl<T: BitPack + PartialEq + std::fmt::Debug> Coder for Bitpack<T> {
    fn sizes(&mut self) -> usize {
        for (message, bytes) in self.messages.iter().zip(&self.encoded) {
            assert_eq!(&bitpack::decode::<T>(bytes).expect("decodes"), message);
        }
        self.encoded.iter().map(Vec::len).sum()
    }

    fn encode(&mut self) {
        for message in &self.messages {
            let mut writer = BitWriter::new(&mut self.buf);
            black_box(message).write_to(&mut writer).expect("fits");
            black_box(writer.finish().expect("fits"));
        }
    }

    fn decode(&mut self) {
        for bytes in &self.encoded {
            let mut reader = BitReader::new(black_box(bytes));
            black_box(T::read_from(&mut reader).expect("decodes"));
        }
    }
}

struct Bitcode<T> {
    messages: Vec<T>,
    encoded: Vec<Vec<u8>>,
    buffer: bitcode::Buffer,
}

impl<T: bitcode::Encode + for<'a> bitcode::Decode<'a> + PartialEq + std::fmt::Debug> Bitcode<T> {
    fn new(messages: Vec<T>) -> Self {
        let encoded = messages.iter().map(bitcode::encode).collect();
        Bitcode { messages, encoded, buffer: bitcode::Buffer::new() }
    }
}

impl<T: bitcode::Encode + for<'a> bitcode::Decode<'a> + PartialEq + std::fmt::Debug> Coder for Bitcode<T> {
    fn sizes(&mut self) -> usize {
        for (message, bytes) in self.messages.iter().zip(&self.encoded) {
            assert_eq!(&bitcode::decode::<T>(bytes).expect("decodes"), message);
        }
        self.encoded.iter().map(Vec::len).sum()
    }

    fn encode(&mut self) {
        for message in &self.messages {
            black_box(self.buffer.encode(black_box(message)));
        }
    }

    fn decode(&mut self) {
        for bytes in &self.encoded {
            let decoded: T = self.buffer.decode(black_box(bytes)).expect("decodes");
            black_box(decoded);
        }
    }
}

/// The coder of `layout` for `dataset`.
fn coder(dataset: &str, layout: &str) -> Option<Box<dyn Coder>> {
    Some(match (dataset, layout) {
        ("mk48", "rows") => Box::new(Bitpack::new(mk48::rows::generate())),
        ("mk48", "adaptive") => Box::new(Bitpack::new(mk48::adaptive::generate())),
        ("mk48", "columns") => Box::new(Bitpack::new(mk48::columns::generate())),
        ("mk48", "bitcode") => Box::new(Bitcode::new(mk48::rows::generate())),
        ("weblog", "rows") => Box::new(Bitpack::new(weblog::rows::generate())),
        ("weblog", "adaptive") => Box::new(Bitpack::new(weblog::adaptive::generate())),
        ("weblog", "columns") => Box::new(Bitpack::new(weblog::columns::generate())),
        ("weblog", "bitcode") => Box::new(Bitcode::new(weblog::rows::generate())),
        ("unranged", "rows") => Box::new(Bitpack::new(unranged::rows::generate())),
        ("unranged", "adaptive") => Box::new(Bitpack::new(unranged::adaptive::generate())),
        ("unranged", "columns") => Box::new(Bitpack::new(unranged::columns::generate())),
        ("unranged", "bitcode") => Box::new(Bitcode::new(unranged::rows::generate())),
        _ => return None,
    })
}

const DATASETS: [&str; 3] = ["mk48", "weblog", "unranged"];

fn sizes() {
    println!("| dataset | rows | adaptive | columns | bitcode | columns / bitcode |");
    println!("|---|---:|---:|---:|---:|---:|");
    for dataset in DATASETS {
        let bytes: Vec<usize> =
            LAYOUTS.iter().map(|layout| coder(dataset, layout).expect("known").sizes()).collect();
        let ratio = bytes[2] as f64 / bytes[3] as f64;
        println!("| {dataset} | {} | {} | {} | {} | {ratio:.3} |", bytes[0], bytes[1], bytes[2], bytes[3]);
    }
}

fn time(rounds: usize) {
    println!("| dataset | pass | rows | adaptive | columns | bitcode | columns / bitcode |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for dataset in DATASETS {
        let mut coders: Vec<Box<dyn Coder>> =
            LAYOUTS.iter().map(|layout| coder(dataset, layout).expect("known")).collect();
        for pass in ["encode", "decode"] {
            let mut best = [f64::MAX; 4];
            // Interleaved: each round runs every layout once, the best round counts.
            for _ in 0..rounds {
                for (index, coder) in coders.iter_mut().enumerate() {
                    let start = Instant::now();
                    if pass == "encode" {
                        coder.encode()
                    } else {
                        coder.decode()
                    }
                    best[index] = best[index].min(start.elapsed().as_secs_f64() * 1e6);
                }
            }
            println!(
                "| {dataset} | {pass} | {:.0} us | {:.0} us | {:.0} us | {:.0} us | {:.2} |",
                best[0],
                best[1],
                best[2],
                best[3],
                best[2] / best[3]
            );
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["sizes"] => sizes(),
        ["time", rounds] => match rounds.parse() {
            Ok(rounds) => time(rounds),
            Err(_) => {
                eprintln!("{USAGE}");
                return ExitCode::FAILURE;
            }
        },
        [pass @ ("encode" | "decode"), dataset, layout, rounds] => {
            let (Some(mut coder), Ok(rounds)) = (coder(dataset, layout), rounds.parse::<usize>()) else {
                eprintln!("{USAGE}");
                return ExitCode::FAILURE;
            };
            for _ in 0..rounds {
                if *pass == "encode" { coder.encode() } else { coder.decode() }
            }
            println!("{pass} {dataset} {layout}: {rounds} rounds");
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
