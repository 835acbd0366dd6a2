//! The example's flags.

use std::path::PathBuf;

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
    /// Where to write the chart of bytes per tick.
    #[arg(long, value_name = "PATH", default_value = "target/bitpack-arena.svg")]
    pub svg: PathBuf,
}

fn loss(text: &str) -> Result<f32, String> {
    let loss: f32 = text.parse().map_err(|_| format!("`{text}` is not a number"))?;
    if (0.0..1.0).contains(&loss) {
        Ok(loss)
    } else {
        Err(format!("{loss} is not a fraction in [0, 1) (0.05 loses 5%)"))
    }
}
