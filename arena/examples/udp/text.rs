//! What the example prints, at most 80 columns wide.

use std::fmt::Write;
use std::time::Duration;

use bitpack_arena::scope::NEAR_PRIORITY;
use bitpack_arena::sim::{Config, TICK_RATE};

use crate::run::Report;

/// The `fraction` quantile of `values` (sorted here), 0 when there are none.
fn quantile<T: Copy + Ord + Default>(values: &[T], fraction: f64) -> T {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let rank = (fraction * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.saturating_sub(1)).copied().unwrap_or_default()
}

fn micros(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}

fn mean_micros(times: &[Duration]) -> f64 {
    times.iter().map(|&t| micros(t)).sum::<f64>() / times.len().max(1) as f64
}

/// The run's settings, then its figures, then the check's result.
pub fn render(report: &Report) -> String {
    let s = &report.settings;
    let mut out = String::new();
    let arena = Config::default();
    let seconds = f64::from(s.ticks) / f64::from(TICK_RATE);
    let _ = writeln!(
        out,
        "udp: {} players, {} projectiles and NPCs, {TICK_RATE} Hz, {} ticks ({seconds:.1} s)",
        arena.players, arena.mobs, s.ticks
    );
    let _ = writeln!(out, "a server and {} client threads, each a UdpSocket on 127.0.0.1", s.clients);
    let (sent, dropped) = report.sent.iter().fold((0, 0), |(n, d), c| (n + c.datagrams, d + c.dropped));
    let (acks, acks_dropped) =
        report.received.iter().fold((0, 0), |(n, d), c| (n + c.acks_sent, d + c.acks_dropped));
    let _ = writeln!(
        out,
        "datagram: {} bytes; senders drop {:.1}%: packets {dropped} of {sent}, acks {acks_dropped} of {acks}",
        s.datagram,
        s.loss * 100.0
    );
    let _ = writeln!(
        out,
        "scope: within {:.0} m of the client's player, {NEAR_PRIORITY}x priority within {:.0} m; seed {}",
        s.radius,
        s.radius / 4.0,
        s.seed
    );
    let _ = writeln!(out);

    let mut kbit = report.kbit_per_s();
    kbit.sort_by(f64::total_cmp);
    let median = if kbit.is_empty() { 0.0 } else { kbit[(kbit.len() - 1) / 2] };
    let (low, high) = (kbit.first().copied().unwrap_or(0.0), kbit.last().copied().unwrap_or(0.0));
    let _ = writeln!(out, "kbit/s per client (payload): min {low:.1}, median {median:.1}, max {high:.1}");
    let ages = report.ages();
    let _ = writeln!(
        out,
        "entity age in packets: mean {:.3}, p99 {}, max {} (over {} entities decoded)",
        ages.mean(),
        ages.quantile(0.99),
        ages.max(),
        ages.count()
    );
    let _ = writeln!(out, "entries held back per packet: {:.2}", report.held_per_packet());
    let _ = writeln!(
        out,
        "server per tick: writing {} packets {:.0} us mean, {:.0} us p99; simulation {:.0} us",
        s.clients,
        mean_micros(&report.write_times),
        micros(quantile(&report.write_times, 0.99)),
        mean_micros(&report.step_times)
    );
    let decoded: Vec<u32> = report.received.iter().map(|c| c.decoded).collect();
    let _ = writeln!(
        out,
        "packets each client decoded: {} to {} of {}",
        decoded.iter().min().unwrap_or(&0),
        decoded.iter().max().unwrap_or(&0),
        s.ticks
    );
    let _ = writeln!(out);
    let checked: u64 = report.received.iter().map(|c| c.checked).sum();
    let mismatches = report.mismatches();
    if mismatches == 0 {
        let _ = writeln!(out, "check: all {checked} entities the clients decoded match the server's world");
        let _ = writeln!(out, "at their updated_at, within the declared resolutions");
    } else {
        let _ =
            writeln!(out, "check FAILED: {mismatches} of {checked} entities differ from the server's world");
        for what in report.received.iter().flat_map(|c| &c.first_mismatches) {
            let _ = writeln!(out, "  {what}");
        }
    }
    out
}
