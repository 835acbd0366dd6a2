//! Issue 15's bulk paths: a `Vec` of 256 records, each with a `Vec<bool>` of
//! about 10 flags and a `Vec<u8>` of about 16 bytes, encoded or decoded
//! `ROUNDS` times by bitpack (or by bitcode, the reference), for an
//! instruction count under callgrind (per round: the count at `ROUNDS` less
//! the count at 0, over `ROUNDS`):
//!
//! ```text
//! cargo build --release -p bitpack-benches --bin bulk
//! valgrind --tool=callgrind target/release/bulk encode|decode ROUNDS [bitcode]
//! ```

use std::hint::black_box;
use std::process::ExitCode;

use bitpack::{BitPack, BitReader, BitWriter};
use bitpack_benches::rng::SplitMix64;

const RECORDS: usize = 256;
const USAGE: &str = "usage: bulk encode|decode ROUNDS [bitcode]";

/// One record of general data: flags and a short byte payload.
#[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
pub struct Record {
    pub id: u16,
    #[bitpack(max_len = 16)]
    pub flags: Vec<bool>,
    #[bitpack(max_len = 32)]
    pub payload: Vec<u8>,
}

/// The records sent together.
#[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
pub struct Batch {
    #[bitpack(max_len = 256)]
    pub records: Vec<Record>,
}

fn batch() -> Batch {
    let mut rng = SplitMix64::new(15);
    let records = (0..RECORDS)
        .map(|index| Record {
            id: index as u16,
            flags: (0..8 + rng.below(5)).map(|_| rng.percent(50)).collect(),
            payload: (0..12 + rng.below(9)).map(|_| rng.below(256) as u8).collect(),
        })
        .collect();
    Batch { records }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, rounds, with_bitcode) = match args.as_slice() {
        [mode, rounds] => (mode.as_str(), rounds.parse::<usize>(), false),
        [mode, rounds, peer] if peer == "bitcode" => (mode.as_str(), rounds.parse::<usize>(), true),
        _ => (USAGE, Ok(0), false),
    };
    let Ok(rounds) = rounds else {
        eprintln!("{USAGE}");
        return ExitCode::FAILURE;
    };
    let batch = batch();
    let mut buf = vec![0u8; 16 * 1024];
    let used = {
        let mut writer = BitWriter::new(&mut buf);
        batch.write_to(&mut writer).expect("fits");
        writer.finish().expect("fits")
    };
    let mut check = BitReader::new(&buf[..used]);
    assert_eq!(Batch::read_from(&mut check).expect("reads back"), batch);
    let mut coder = bitcode::Buffer::new();
    let encoded = coder.encode(&batch).to_vec();
    match (mode, with_bitcode) {
        ("encode", false) => {
            for _ in 0..rounds {
                let mut writer = BitWriter::new(&mut buf);
                black_box(&batch).write_to(&mut writer).expect("fits");
                black_box(writer.finish().expect("fits"));
            }
        }
        ("decode", false) => {
            for _ in 0..rounds {
                let mut reader = BitReader::new(black_box(&buf[..used]));
                black_box(Batch::read_from(&mut reader).expect("reads back"));
            }
        }
        ("encode", true) => {
            for _ in 0..rounds {
                black_box(coder.encode(black_box(&batch)));
            }
        }
        ("decode", true) => {
            for _ in 0..rounds {
                let decoded: Batch = coder.decode(black_box(&encoded)).expect("decodes");
                black_box(decoded);
            }
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::FAILURE;
        }
    }
    println!("{mode}: {used} bytes (bitcode {} bytes), {rounds} rounds", encoded.len());
    ExitCode::SUCCESS
}
