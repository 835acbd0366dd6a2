//! The table the example prints, at most 80 columns wide.

use std::fmt::Write;

use bitpack_arena::sim::{Config, TICK_RATE};
use bitpack_arena::world::{POSITION_RES, ROTATION_BITS, YAW_RES};

use crate::measure::{NAMES, Report};

/// `12345.6` as `12,346`.
fn grouped(value: f64) -> String {
    let digits = format!("{:.0}", value);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The header, the table and what the clients checked.
pub fn render(report: &Report) -> String {
    let s = &report.settings;
    let mut out = String::new();
    let seconds = f64::from(s.ticks) / f64::from(TICK_RATE);
    let a = &report.agreement;
    let lost = 100.0 * f64::from(a.lost) / f64::from(a.sent.max(1));
    let arena = Config::default();
    let _ = writeln!(
        out,
        "arena: {} players, {} projectiles and NPCs, {TICK_RATE} Hz, {} ticks ({seconds:.1} s)",
        arena.players, arena.mobs, s.ticks
    );
    let delay_ms = s.delay_ticks * 1000 / TICK_RATE;
    let _ = writeln!(
        out,
        "link: {} clients, {:.1}% loss each way ({lost:.1}% dropped), {delay_ms} ms delay, seed {}",
        s.clients,
        s.loss * 100.0,
        s.seed
    );
    let _ = writeln!(out);
    let _ = writeln!(out, "{:<30}{:>11}{:>11}{:>11}{:>11}", "", "bytes/tick", "kbit/s", "encode", "decode");
    let _ = writeln!(
        out,
        "{:<30}{:>11}{:>11}{:>11}{:>11}",
        "encoding", "per client", "per client", "us/packet", "us/packet"
    );
    for (name, m) in NAMES.iter().zip(&report.encodings) {
        let _ = writeln!(
            out,
            "{name:<30}{:>11}{:>11.1}{:>11.1}{:>11.1}",
            grouped(m.mean_bytes()),
            m.kbit_per_s(),
            m.encode_us(),
            m.decode_us()
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "(a)-(d) send the whole world each tick, one encode for every client; (e)-(g)");
    let _ = writeln!(out, "are each client's bitpack::sync packet, a delta against what it acknowledged.");
    let _ = writeln!(out, "Times exclude copying the world into the serde and bitcode structs.");
    let _ = writeln!(out);
    let degrees = bitpack::smallest_three::max_angle_error(ROTATION_BITS).to_degrees();
    let _ = writeln!(
        out,
        "clients agree: all {} states the clients decoded match the server's state",
        grouped(a.checked as f64)
    );
    let _ = writeln!(out, "of their tick within the declared resolutions: position {POSITION_RES},");
    let _ = writeln!(
        out,
        "yaw {YAW_RES} rad, rotation {degrees:.2} degrees (smallest three, {ROTATION_BITS} bits)."
    );
    let _ = writeln!(out, "Packets each client decoded: {} to {} of {}.", a.decoded.0, a.decoded.1, s.ticks);
    out
}
