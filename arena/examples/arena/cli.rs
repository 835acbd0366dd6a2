//! The example's flags, and where its chart goes.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::Parser;

/// An arena server replicating its world to clients over a lossy link, and what each
/// encoding of that world costs.
#[derive(Debug, Parser)]
#[command(name = "arena")]
pub struct Args {
    /// Ticks to simulate, at 30 per second (600 = 20 s).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub ticks: u32,
    /// Clients the server sends to (1 to 64).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub clients: u32,
    /// Fraction of the datagrams lost each way, at least 0 and below 1 (0.05 = 5%).
    #[arg(long, default_value_t = 0.05, value_parser = loss)]
    pub loss: f32,
    /// Seed of the simulation and of the link.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The largest datagram the link carries, in bytes (64 to 65536): each client's
    /// bitpack::sync packet is written into a buffer this long, holding entries back past it.
    #[arg(long, value_name = "BYTES", default_value_t = 1200, value_parser = clap::value_parser!(u32).range(64..=65_536))]
    pub datagram: u32,
    /// Where to write the chart of bytes per tick [default: bitpack-arena.svg in the target
    /// directory: `CARGO_TARGET_DIR`, else the one this example was built in].
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
}

fn loss(text: &str) -> Result<f32, String> {
    let loss: f32 = text.parse().map_err(|_| format!("`{text}` is not a number"))?;
    if (0.0..1.0).contains(&loss) {
        Ok(loss)
    } else {
        Err(format!("{loss} is not a fraction in [0, 1) (0.05 loses 5%)"))
    }
}

/// The chart's file name in the target directory.
pub const CHART: &str = "bitpack-arena.svg";

/// Where the chart goes without `--svg`: `CARGO_TARGET_DIR` (`target_dir_env`, as cargo reads
/// it: relative to the directory cargo runs in) if set, else the target directory that holds
/// the executable `exe` (`<target>/<profile>/examples/arena`), else `target/`.
pub fn default_chart_path(target_dir_env: Option<OsString>, exe: Option<&Path>) -> PathBuf {
    if let Some(dir) = target_dir_env.filter(|dir| !dir.is_empty()) {
        return PathBuf::from(dir).join(CHART);
    }
    let built_in = exe
        .and_then(Path::parent)
        .filter(|examples| examples.file_name().is_some_and(|name| name == "examples"))
        .and_then(Path::parent)
        .and_then(Path::parent);
    built_in.unwrap_or(Path::new("target")).join(CHART)
}
