//! The udp example, shortened to two seconds of game time and four clients on 127.0.0.1:
//! every entity each client decoded is the server's at its `updated_at`, the ages are
//! bounded, the packets fit the datagram, both directions lose datagrams, and the output fits
//! 80 columns. With a wider scope and a datagram too short for its deltas, entries are held back and
//! grow old, and still match the server's world at their `updated_at`.

#[path = "../examples/udp/run.rs"]
mod run;
#[path = "../examples/udp/text.rs"]
mod text;

use run::{Report, Settings};

/// Two seconds at 30 Hz, four clients, the example's loss; `datagram`-byte packets of the
/// entities within `radius` metres.
fn two_seconds(datagram: usize, radius: f32) -> Report {
    let settings = Settings { ticks: 60, clients: 4, loss: 0.05, seed: 5, datagram, radius };
    run::run(settings).expect("the server and the clients run")
}

fn assert_every_entity_matches(report: &Report) {
    let said: Vec<&String> = report.received.iter().flat_map(|c| &c.first_mismatches).collect();
    assert_eq!(report.mismatches(), 0, "{said:?}");
    for (client, received) in report.received.iter().enumerate() {
        // Most packets arrive and decode; each holds the entities near the client's player.
        assert!(received.decoded >= 40, "client {client}: {received:?}");
        assert!(received.checked >= u64::from(received.decoded), "client {client}: {received:?}");
        assert_eq!(received.ages.count(), received.checked);
    }
}

#[test]
fn over_udp_every_entity_is_the_servers_at_its_updated_at() {
    let report = two_seconds(1200, 250.0);
    assert_every_entity_matches(&report);
    // In a 1200-byte datagram a client's scope nearly always fits: the entities are fresh
    // (a margin for a loaded machine, whose late acks make deltas longer).
    let ages = report.ages();
    assert!(ages.mean() < 0.25 && ages.quantile(0.99) <= 2, "{ages:?}");
    assert!(report.held_per_packet() < 1.0, "{}", report.held_per_packet());
    // Loss both ways, and acks arrived (the clients' deltas are small after the first packet).
    let dropped: u32 = report.sent.iter().map(|s| s.dropped).sum();
    let acks_dropped: u32 = report.received.iter().map(|r| r.acks_dropped).sum();
    assert!(dropped > 0 && acks_dropped > 0, "{report:?}");
    for sent in &report.sent {
        assert_eq!(sent.datagrams, 60);
        assert!(sent.acks >= 40, "{sent:?}");
        assert!(sent.bytes <= 60 * 1200, "{sent:?}");
    }
    assert_eq!(report.write_times.len(), 60);

    let text = text::render(&report);
    assert!(text.contains("check: all"), "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{} columns: {line}", line.chars().count());
    }
}

#[test]
fn held_back_entries_are_the_servers_at_their_older_updated_at() {
    let report = two_seconds(200, 400.0);
    assert_every_entity_matches(&report);
    // Deltas over 200 bytes hold entries back: some entities are packets old, none for long.
    let ages = report.ages();
    assert!(report.held_per_packet() > 1.0, "{}", report.held_per_packet());
    assert!(ages.mean() > 0.05 && ages.quantile(0.99) >= 1, "{ages:?}");
    assert!(ages.max() < 200, "{ages:?}");
    for sent in &report.sent {
        assert!(sent.bytes <= 60 * 200, "{sent:?}");
    }
}
