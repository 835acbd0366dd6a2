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
    let _ = writeln!(out, "datagram: {} bytes; (e)-(g) hold entries back past it", s.datagram);
    let _ = writeln!(out);
    let row = |out: &mut String, cells: [&str; 6]| {
        let [name, bytes, kbit, encode, decode, held] = cells;
        let _ = writeln!(out, "{name:<29}{bytes:>11}{kbit:>11}{encode:>10}{decode:>10}{held:>9}");
    };
    row(&mut out, ["", "bytes/tick", "kbit/s", "encode", "decode", "entries"]);
    row(&mut out, ["encoding", "per client", "per client", "us/packet", "us/packet", "held"]);
    for (name, m) in NAMES.iter().zip(&report.encodings) {
        let held = m.held_per_packet().map_or("-".to_string(), |held| format!("{held:.1}"));
        let cells = [
            grouped(m.mean_bytes()),
            format!("{:.1}", m.kbit_per_s()),
            format!("{:.1}", m.encode_us()),
            format!("{:.1}", m.decode_us()),
            held,
        ];
        let [bytes, kbit, encode, decode, held] = cells.each_ref().map(String::as_str);
        row(&mut out, [name, bytes, kbit, encode, decode, held]);
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "(a)-(d) send the whole world each tick, one encode for every client; (e)-(g)");
    let _ = writeln!(out, "are each client's bitpack::sync packet, a delta against what it acknowledged,");
    let _ = writeln!(out, "holding back the entries (players, mobs) that do not fit: entries held is");
    let _ = writeln!(out, "their mean per packet, each sent in a later one. (g) compresses (f)'s packets");
    let g_largest = report.encodings.last().map_or(0, |m| m.largest);
    let _ =
        writeln!(out, "(the largest {g_largest} bytes). Times exclude copying the world into the serde and");
    let _ = writeln!(out, "bitcode structs.");
    let _ = writeln!(out);
    let degrees = bitpack::smallest_three::max_angle_error(ROTATION_BITS).to_degrees();
    let _ = writeln!(
        out,
        "clients agree: all {} states the clients decoded match what the server sent",
        grouped(a.checked as f64)
    );
    let _ = writeln!(out, "for their tick (its state, less the entries held back) within the declared");
    let _ = writeln!(
        out,
        "resolutions: position {POSITION_RES}, yaw {YAW_RES} rad, rotation {degrees:.2} degrees (smallest"
    );
    let _ = writeln!(out, "three, {ROTATION_BITS} bits).");
    let _ = writeln!(out, "Packets each client decoded: {} to {} of {}.", a.decoded.0, a.decoded.1, s.ticks);
    out
}
