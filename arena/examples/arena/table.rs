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

/// (g)'s longest packet.
fn g_largest(report: &Report) -> usize {
    report.encodings.last().map_or(0, |m| m.largest)
}

/// The header, the tables and what the clients checked.
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
    let row = |out: &mut String, cells: [&str; 5]| {
        let [name, bytes, kbit, encode, decode] = cells;
        let _ = writeln!(out, "{name:<29}{bytes:>11}{kbit:>11}{encode:>10}{decode:>10}");
    };
    row(&mut out, ["", "bytes/tick", "kbit/s", "encode", "decode"]);
    row(&mut out, ["encoding", "per client", "per client", "us/packet", "us/packet"]);
    for (name, m) in NAMES.iter().zip(&report.encodings) {
        let cells = [
            grouped(m.mean_bytes()),
            format!("{:.1}", m.kbit_per_s()),
            format!("{:.1}", m.encode_us()),
            format!("{:.1}", m.decode_us()),
        ];
        let [bytes, kbit, encode, decode] = cells.each_ref().map(String::as_str);
        row(&mut out, [name, bytes, kbit, encode, decode]);
    }
    let _ = writeln!(out);
    let row = |out: &mut String, cells: [&str; 4]| {
        let [name, held, mean, p99] = cells;
        let _ = writeln!(out, "{name:<29}{held:>13}{mean:>12}{p99:>12}");
    };
    row(&mut out, ["", "entries held", "mean age", "p99 age"]);
    row(&mut out, ["bitpack::sync packets", "per packet", "in packets", "in packets"]);
    for (name, m) in NAMES.iter().zip(&report.encodings) {
        let (Some(held), Some(ages)) = (m.held_per_packet(), &m.ages) else { continue };
        let cells = [format!("{held:.1}"), format!("{:.2}", ages.mean()), ages.quantile(0.99).to_string()];
        let [held, mean, p99] = cells.each_ref().map(String::as_str);
        row(&mut out, [name, held, mean, p99]);
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "(a)-(d) send the whole world each tick, one encode for every client; (e)-(g)");
    let _ = writeln!(out, "are each client's bitpack::sync packet, a delta against what it acknowledged,");
    let _ = writeln!(out, "holding back the entries (players, mobs) that do not fit the datagram: entries");
    let _ = writeln!(out, "held is their mean per packet, each sent in a later one; an entity's age is the");
    let _ = writeln!(out, "packet's sequence less its updated_at, over every entity of every state the");
    let _ = writeln!(
        out,
        "clients decoded. (g) compresses (f)'s packets (the largest {} bytes).",
        g_largest(report)
    );
    let _ = writeln!(out, "Times exclude copying the world into the serde and bitcode structs.");
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
