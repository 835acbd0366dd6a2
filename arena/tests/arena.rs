//! The arena example, shortened to one second of game time: every client agrees with the
//! server, the encodings rank as the README says, the `bitpack::sync` packets fit the
//! datagram (holding entries back past it, none when it is large; the entities held back are
//! older than their packet by `updated_at`, the others as new), the output fits 80 columns,
//! the chart is written where the target directory is, and bad flags are refused with clap's
//! usage error. Also: the derived `World`'s maps are keyed collections (a delta carries only
//! the entries that changed, spawned or despawned).

#[path = "../examples/arena/chart.rs"]
mod chart;
#[path = "../examples/arena/cli.rs"]
mod cli;
#[path = "../examples/arena/measure.rs"]
mod measure;
#[path = "../examples/arena/peers.rs"]
mod peers;
#[path = "../examples/arena/table.rs"]
mod table;

use bitpack::{BitCounter, BitRead, BitReader, BitWrite, BitWriter, ChangeGroups};
use bitpack_arena::age::Ages;
use bitpack_arena::sim::{Arena, Config};
use bitpack_arena::world::{MAX_HEALTH, Mob, World, absolute};
use clap::Parser;
use clap::error::ErrorKind;
use measure::{Report, Settings};
use std::path::Path;

/// One second at 30 Hz, three clients, the example's link and datagram.
fn one_second() -> Report {
    one_second_in(1200)
}

/// [`one_second`] with `datagram`-byte packets.
fn one_second_in(datagram: usize) -> Report {
    let settings = Settings { ticks: 30, clients: 3, loss: 0.05, seed: 7, delay_ticks: 3, datagram };
    measure::run(settings, &mut |_| {}).expect("every client agrees with the server")
}

/// The whole-state encodings, then (e), (f) and (g).
fn sync_packets(report: &Report) -> &[measure::Measured] {
    &report.encodings[5..]
}

#[test]
fn sync_packets_fit_the_datagram_and_hold_entries_back_past_it() {
    let report = one_second();
    assert!(report.encodings[..5].iter().all(|m| m.held_back.is_none()));
    let [groups, deltas, zstd] = sync_packets(&report) else { panic!("(e), (f), (g)") };
    // The world whole is over 2,000 bytes, and (e)'s deltas mostly over 1,200: held back.
    assert!(report.encodings[4].largest > 2000, "{:?}", report.encodings[4]);
    for m in [groups, deltas] {
        assert!(m.largest <= 1200, "{m:?}");
        assert!(m.held_back.is_some_and(|held| held > 0), "{m:?}");
    }
    assert!(groups.held_per_packet() > deltas.held_per_packet(), "{groups:?} {deltas:?}");
    assert_eq!(zstd.held_back, deltas.held_back);
    // Entities held back are older than their packet; (e), holding back more, has older ones.
    assert!(report.encodings[..5].iter().all(|m| m.ages.is_none()));
    let age = |m: &measure::Measured| m.ages.clone().expect("the sync rows have ages");
    let (group_ages, delta_ages) = (age(groups), age(deltas));
    assert!(delta_ages.count() > 3 * 20 * 200, "{delta_ages:?}");
    assert!(delta_ages.mean() > 0.0 && delta_ages.quantile(0.99) >= 1, "{delta_ages:?}");
    assert!(group_ages.mean() > delta_ages.mean(), "{group_ages:?} {delta_ages:?}");
    assert!(delta_ages.max() < 30, "{delta_ages:?}");
    assert_eq!(age(zstd).count(), delta_ages.count());

    // A datagram no packet reaches: nothing held back, and (e) above 1,200 bytes a tick.
    let report = one_second_in(65_536);
    for m in sync_packets(&report) {
        assert_eq!(m.held_back, Some(0), "{m:?}");
        // Every entity of every state is the server's of its packet.
        let ages = m.ages.clone().expect("the sync rows have ages");
        assert!(ages.count() > 0 && ages.max() == 0, "{ages:?}");
    }
    assert!(sync_packets(&report)[0].mean_bytes() > 1200.0);
}

#[test]
fn one_second_every_client_agrees_and_sizes_rank() {
    let report = one_second();
    let a = &report.agreement;
    // Each client decoded most packets, and every decoded state was checked.
    assert!(a.decoded.0 >= 20, "{a:?}");
    assert!(a.checked >= 2 * 3 * 20, "{a:?}");
    assert!(a.lost > 0 && a.lost < a.sent / 5, "{a:?}");

    let bytes: Vec<f64> = report.encodings.iter().map(|m| m.mean_bytes()).collect();
    let [raw, bincode, postcard, bitcode, whole, groups, deltas, _zstd] = bytes[..] else {
        panic!("one figure per encoding: {bytes:?}")
    };
    assert!(whole < bitcode, "(d) {whole} < (c) {bitcode}");
    assert!(groups < whole, "(e) {groups} < (d) {whole}");
    assert!(deltas <= groups, "(f) {deltas} <= (e) {groups}");
    assert!(bitcode < raw && bincode < raw && postcard < raw, "{bytes:?}");
    for m in &report.encodings {
        assert_eq!(m.bytes_per_tick.len(), 30);
        assert!(m.encodes >= 30 && m.decodes >= 20, "{m:?}");
    }
}

/// Bits of `now`'s delta against `baseline`, after checking that it reads back as `now`.
fn checked_delta_bits<W: ChangeGroups + PartialEq + core::fmt::Debug>(now: &W, baseline: &W) -> usize {
    let mut counter = BitCounter::new();
    now.write_delta(baseline, &mut counter).expect("measures");
    let mut buf = vec![0u8; counter.bytes() + 8];
    let mut writer = BitWriter::new(&mut buf);
    now.write_delta(baseline, &mut writer).expect("writes");
    let used = writer.finish().expect("fits");
    let mut reader = BitReader::new(&buf[..used]);
    assert_eq!(&W::read_delta(baseline, &mut reader).expect("reads"), now);
    assert_eq!(reader.bits_read(), counter.bits_written());
    counter.bits_written()
}

#[test]
fn a_world_delta_carries_only_the_entries_that_changed() {
    let mut arena = Arena::new(Config { seed: 3, ..Config::default() });
    for _ in 0..30 {
        arena.step();
    }
    let baseline: World = arena.world().clone();
    assert!(baseline.players.len() > 32 && baseline.mobs.len() > 100, "a busy world");
    // One player hurt, one mob gone, one spawned as `Mob::default()`, the clock on.
    let mut now = baseline.clone();
    now.tick += 1;
    let hurt = now.players.values_mut().next().expect("a player");
    hurt.health = if hurt.health == MAX_HEALTH { 1 } else { MAX_HEALTH };
    let gone = *now.mobs.keys().nth(10).expect("a mob");
    now.mobs.remove(&gone);
    let fresh = now.mobs.keys().last().expect("a mob") + 1;
    now.mobs.insert(fresh, Mob::default());

    let whole = bitpack::measure(&now).expect("measures");
    for (unchanged, delta) in [
        (checked_delta_bits(&baseline, &baseline), checked_delta_bits(&now, &baseline)),
        (
            checked_delta_bits(&absolute::World::from(&baseline), &absolute::World::from(&baseline)),
            checked_delta_bits(&absolute::World::from(&now), &absolute::World::from(&baseline)),
        ),
    ] {
        // One bit each for the clock group and the two maps, whatever they hold.
        assert_eq!(unchanged, 3);
        // Whole maps would be thousands of bits; three entries' places and one health are few.
        assert!(delta < 128, "{delta} bits of {whole}");
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes_and_ages() {
    let sizes = |report: &Report| -> Vec<Vec<f64>> {
        report.encodings.iter().map(|m| m.bytes_per_tick.clone()).collect()
    };
    let ages =
        |report: &Report| -> Vec<Option<Ages>> { report.encodings.iter().map(|m| m.ages.clone()).collect() };
    let (first, second) = (one_second(), one_second());
    assert_eq!(sizes(&first), sizes(&second));
    assert_eq!(ages(&first), ages(&second));
}

#[test]
fn the_table_fits_80_columns_and_the_chart_is_written() {
    let report = one_second();
    let table = table::render(&report);
    for name in measure::NAMES {
        assert!(table.contains(name), "{table}");
    }
    assert!(table.contains("clients agree") && table.contains("p99 age"), "{table}");
    for line in table.lines() {
        assert!(line.chars().count() <= 80, "{} columns: {line}", line.chars().count());
    }
    let path = std::env::temp_dir().join(format!("bitpack-arena-test-{}.svg", std::process::id()));
    chart::draw(&report, &path).expect("chart written");
    let svg = std::fs::read_to_string(&path).expect("chart readable");
    let _ = std::fs::remove_file(&path);
    assert!(svg.starts_with("<svg"));
    for name in measure::NAMES {
        let escaped = name.replace('&', "&amp;");
        assert!(svg.contains(&escaped), "legend has {name}");
    }
    assert!(svg.matches("<polyline").count() >= measure::NAMES.len());
}

#[test]
fn bad_flags_get_the_usage_error() {
    let parse = |args: &[&str]| cli::Args::try_parse_from([&["arena"], args].concat());
    for bad in [
        &["--loss", "2"][..],
        &["--loss=-0.1"],
        &["--loss", "1"],
        &["--loss", "lots"],
        &["--clients", "0"],
        &["--clients", "65"],
        &["--ticks", "0"],
        &["--seed=-1"],
        &["--datagram", "63"],
        &["--datagram", "65537"],
    ] {
        let error = parse(bad).expect_err("refused");
        assert!(
            matches!(error.kind(), ErrorKind::ValueValidation | ErrorKind::InvalidValue),
            "{bad:?}: {:?}",
            error.kind()
        );
        // clap's usage error: its message, the flag named, exit status 2 (no panic).
        assert_eq!(error.exit_code(), 2);
        let text = error.render().to_string();
        assert!(
            text.contains(bad[0].split('=').next().unwrap_or_default()) && text.contains("try '--help'"),
            "{bad:?}: {text}"
        );
    }
    let error = parse(&["--speed", "3"]).expect_err("unknown flag");
    assert_eq!(error.kind(), ErrorKind::UnknownArgument);

    let args = parse(&[]).expect("defaults");
    assert_eq!((args.ticks, args.clients, args.loss, args.seed, args.datagram), (600, 8, 0.05, 1, 1200));
    assert_eq!(args.svg, None);
    let args = parse(&["--ticks", "30", "--clients", "1", "--loss", "0", "--svg", "x.svg"]).expect("valid");
    assert_eq!((args.ticks, args.clients, args.loss), (30, 1, 0.0));
    assert_eq!(args.svg.as_deref(), Some(Path::new("x.svg")));
}

#[test]
fn the_chart_goes_to_the_target_directory() {
    let exe = Path::new("/work/elsewhere/release/examples/arena");
    // `CARGO_TARGET_DIR` first, then the target directory the example was built in.
    let path = cli::default_chart_path(Some("/tmp/t".into()), Some(exe));
    assert_eq!(path, Path::new("/tmp/t/bitpack-arena.svg"));
    let path = cli::default_chart_path(Some("".into()), Some(exe));
    assert_eq!(path, Path::new("/work/elsewhere/bitpack-arena.svg"));
    let path =
        cli::default_chart_path(None, Some(Path::new("/b/x86_64-unknown-linux-gnu/debug/examples/arena")));
    assert_eq!(path, Path::new("/b/x86_64-unknown-linux-gnu/bitpack-arena.svg"));
    // Not an example's executable (this test's): `target/`.
    let path = cli::default_chart_path(None, Some(Path::new("/b/debug/deps/arena-0123")));
    assert_eq!(path, Path::new("target/bitpack-arena.svg"));
    assert_eq!(cli::default_chart_path(None, None), Path::new("target/bitpack-arena.svg"));
}
