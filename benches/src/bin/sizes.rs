//! Prints markdown tables of message sizes per encoding (raw, zstd level 3
//! per message, zstd level 3 over the 60-message stream) for the issue-6
//! dataset; with `--quick`, also times every encoding interleaved in one
//! process and prints ratios to bitcode on the integer twin.
//!
//! ```text
//! cargo run --release -p bitpack-benches --bin sizes [-- --quick [--rounds N]]
//! ```

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitpack_benches::dataset;
use bitpack_benches::peers::{self, Contender, PeerError, REFERENCE};

const ZSTD_LEVEL: i32 = 3;

struct Options {
    quick: bool,
    rounds: usize,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options { quick: false, rounds: 100 };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => options.quick = true,
            "--rounds" => {
                let value = args.next().ok_or("--rounds needs a number")?;
                options.rounds = value.parse().map_err(|_| format!("--rounds: not a number: {value}"))?;
            }
            "-h" | "--help" => {
                return Err("usage: sizes [--quick [--rounds N]]".to_string());
            }
            other => return Err(format!("unknown argument {other}; try --help")),
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    match parse_options().and_then(|options| run(&options).map_err(|e| e.to_string())) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn run(options: &Options) -> Result<(), PeerError> {
    let data = dataset::generate();
    println!(
        "Dataset fingerprint {:#018x}: {} snapshots of {} entities, {} inputs.\n",
        dataset::fingerprint(&data),
        data.snapshots.len(),
        dataset::ENTITIES,
        data.inputs.len()
    );
    let mut kinds =
        [("snapshot", peers::snapshot_contenders(&data)), ("input", peers::input_contenders(&data))];
    for (kind, contenders) in &mut kinds {
        for contender in contenders.iter_mut() {
            contender.prepare()?;
        }
        print_sizes(kind, contenders)?;
    }
    if options.quick {
        for (kind, contenders) in &mut kinds {
            print_times(kind, contenders, options.rounds)?;
        }
    }
    Ok(())
}

fn zstd_len(compressor: &mut zstd::bulk::Compressor<'_>, bytes: &[u8]) -> Result<usize, PeerError> {
    compressor.compress(bytes).map(|c| c.len()).map_err(|e| PeerError(format!("zstd: {e}")))
}

fn print_sizes(kind: &str, contenders: &[Box<dyn Contender>]) -> Result<(), PeerError> {
    let mut compressor =
        zstd::bulk::Compressor::new(ZSTD_LEVEL).map_err(|e| PeerError(format!("zstd: {e}")))?;
    println!("### Bytes per {kind}\n");
    println!(
        "| encoding | bytes | zstd-{ZSTD_LEVEL} per message | zstd-{ZSTD_LEVEL} stream, per message | bytes vs hand |"
    );
    println!("|---|---:|---:|---:|---:|");
    let mut hand_bytes = None;
    for contender in contenders {
        let count = contender.len();
        let mut raw = 0;
        let mut compressed = 0;
        let mut stream = Vec::new();
        for index in 0..count {
            let bytes = contender.encoded(index);
            raw += bytes.len();
            compressed += zstd_len(&mut compressor, bytes)?;
            stream.extend_from_slice(bytes);
        }
        let stream_compressed = zstd_len(&mut compressor, &stream)?;
        let per = |total: usize| total as f64 / count as f64;
        if contender.name() == "hand packer" {
            hand_bytes = Some(per(raw));
        }
        let versus = hand_bytes.map_or("".to_string(), |hand| format!("{:.2}", per(raw) / hand));
        println!(
            "| {} | {:.1} | {:.1} | {:.1} | {versus} |",
            contender.name(),
            per(raw),
            per(compressed),
            per(stream_compressed)
        );
    }
    if kind == "snapshot" {
        // SLOT(issue 4): change-group and baseline-delta streams, once they land on main.
        println!("| bitpack change groups (issue 4) | pending | | | |");
        println!("| bitpack baseline delta (issue 4) | pending | | | |");
    }
    println!();
    Ok(())
}

fn time_encode(contender: &mut dyn Contender) -> Result<Duration, PeerError> {
    let start = Instant::now();
    for index in 0..contender.len() {
        black_box(contender.encode(black_box(index))?.len());
    }
    Ok(start.elapsed())
}

fn time_decode(contender: &mut dyn Contender) -> Result<Duration, PeerError> {
    let start = Instant::now();
    for index in 0..contender.len() {
        contender.decode_only(black_box(index))?;
    }
    Ok(start.elapsed())
}

fn median(samples: &mut [Duration]) -> Duration {
    samples.sort_unstable();
    samples.get(samples.len() / 2).copied().unwrap_or_default()
}

/// Every contender once per round, starting one further along each round,
/// so load spikes on this shared machine hit them all alike; medians of
/// the rounds.
fn print_times(kind: &str, contenders: &mut [Box<dyn Contender>], rounds: usize) -> Result<(), PeerError> {
    let n = contenders.len();
    let mut encode = vec![Vec::with_capacity(rounds); n];
    let mut decode = vec![Vec::with_capacity(rounds); n];
    for round in 0..rounds {
        for offset in 0..n {
            let index = (round + offset) % n;
            let contender = &mut *contenders[index];
            encode[index].push(time_encode(contender)?);
            decode[index].push(time_decode(contender)?);
        }
    }
    let per_message = |d: Duration, count: usize| d.as_secs_f64() * 1e9 / count as f64;
    let medians: Vec<(f64, f64)> = contenders
        .iter()
        .zip(encode.iter_mut().zip(decode.iter_mut()))
        .map(|(c, (e, d))| (per_message(median(e), c.len()), per_message(median(d), c.len())))
        .collect();
    let reference = contenders.iter().position(|c| c.name() == REFERENCE).map_or((1.0, 1.0), |i| medians[i]);
    let hand = contenders.iter().position(|c| c.name() == "hand packer").map_or((1.0, 1.0), |i| medians[i]);
    println!("### Time per {kind} ({rounds} interleaved rounds, medians)\n");
    println!(
        "| encoding | encode ns | decode ns | encode / {REFERENCE} | decode / {REFERENCE} | encode / hand | decode / hand |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (contender, (enc, dec)) in contenders.iter().zip(&medians) {
        println!(
            "| {} | {enc:.0} | {dec:.0} | {:.2} | {:.2} | {:.2} | {:.2} |",
            contender.name(),
            enc / reference.0,
            dec / reference.1,
            enc / hand.0,
            dec / hand.1
        );
    }
    println!();
    Ok(())
}
