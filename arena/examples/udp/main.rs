//! The arena over real sockets: a server thread and a thread per client, each with a
//! `UdpSocket` on 127.0.0.1, the world sent through `bitpack::sync` in 1200-byte datagrams,
//! 5% of the datagrams dropped by their sender each way, each client scoped to the entities
//! near its player and checking every entity it decodes against the server's world at the
//! entity's `updated_at`. Runs in real time; exits non-zero if any entity differs.
//!
//! ```sh
//! cargo run --release --example udp [-- --ticks N --clients N --loss F --seed N --datagram BYTES --radius M]
//! ```

mod run;
mod text;

use std::process::ExitCode;

use clap::Parser;

/// An arena server replicating its world to client threads over UDP on 127.0.0.1.
#[derive(Debug, Parser)]
#[command(name = "udp")]
struct Args {
    /// Ticks to run, at 30 per second, in real time (300 = 10 s).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    ticks: u32,
    /// Client threads (1 to 64), client i following player i.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=64))]
    clients: u32,
    /// Fraction of the datagrams each sender drops, at least 0 and below 1 (0.05 = 5%).
    #[arg(long, default_value_t = 0.05, value_parser = loss)]
    loss: f32,
    /// Seed of the simulation and of the drops.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The longest packet the server writes, in bytes (64 to 65507, UDP's limit).
    #[arg(long, value_name = "BYTES", default_value_t = 1200, value_parser = clap::value_parser!(u32).range(64..=65_507))]
    datagram: u32,
    /// How far each client sees, in metres (the arena is 1000 m across).
    #[arg(long, value_name = "METRES", default_value_t = 250.0, value_parser = radius)]
    radius: f32,
}

fn loss(text: &str) -> Result<f32, String> {
    let loss: f32 = text.parse().map_err(|_| format!("`{text}` is not a number"))?;
    if (0.0..1.0).contains(&loss) { Ok(loss) } else { Err(format!("{loss} is not a fraction in [0, 1)")) }
}

fn radius(text: &str) -> Result<f32, String> {
    let radius: f32 = text.parse().map_err(|_| format!("`{text}` is not a number"))?;
    if radius.is_finite() && radius > 0.0 { Ok(radius) } else { Err(format!("{radius} is not a distance")) }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let settings = run::Settings {
        ticks: args.ticks,
        clients: args.clients,
        loss: args.loss,
        seed: args.seed,
        datagram: args.datagram as usize,
        radius: args.radius,
    };
    match run::run(settings) {
        Ok(report) => {
            print!("{}", text::render(&report));
            if report.mismatches() == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
