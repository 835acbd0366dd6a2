//! An arena server sends its world to clients through `bitpack::sync` over a lossy link; the
//! clients check what they decode, and every encoding of the same ticks is measured.
//!
//! ```sh
//! cargo run --release --example arena [-- --ticks N --clients N --loss F --seed N --datagram BYTES --svg PATH]
//! ```

mod chart;
mod cli;
mod measure;
mod peers;
mod table;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    let settings = measure::Settings {
        ticks: args.ticks,
        clients: args.clients,
        loss: args.loss,
        seed: args.seed,
        delay_ticks: 3,
        datagram: args.datagram as usize,
    };
    // A progress line only once the run has taken a few seconds.
    let start = Instant::now();
    let mut shown: Option<Instant> = None;
    let mut progress = |tick: u32| {
        let due = shown.is_none_or(|at| at.elapsed() > Duration::from_millis(250));
        if start.elapsed() > Duration::from_secs(3) && due {
            eprint!("\rtick {tick} of {}", settings.ticks);
            let _ = std::io::stderr().flush();
            shown = Some(Instant::now());
        }
    };
    let report = measure::run(settings, &mut progress);
    if shown.is_some() {
        eprint!("\r{:30}\r", "");
    }
    let report = match report {
        Ok(report) => report,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    print!("{}", table::render(&report));
    let svg = args.svg.unwrap_or_else(|| {
        let exe = std::env::current_exe().ok();
        cli::default_chart_path(std::env::var_os("CARGO_TARGET_DIR"), exe.as_deref())
    });
    match chart::draw(&report, &svg) {
        Ok(()) => println!("chart: {}", from_here(&svg).display()),
        Err(error) => {
            eprintln!("error: cannot write the chart: {error}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// `path` relative to the working directory when it lies under it, for a shorter line.
fn from_here(path: &Path) -> PathBuf {
    let here = std::env::current_dir().ok();
    here.and_then(|here| path.strip_prefix(here).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
}
