//! Prints markdown tables of message sizes per encoding (raw, zstd level 3
//! per message, zstd level 3 over the 60-message stream) for the issue-6
//! dataset; with `--quick`, also times every encoding interleaved in one
//! process and prints ratios to bitcode on the integer twin; with `--svg`,
//! writes a bar chart of bytes per snapshot.
//!
//! Then the issue-13 churning world sent to one client with `bitpack::sync`
//! (`--replication` prints it alone), and issue 12's 901 cubes: snapshots
//! uncompressed and quantized, and deltas on the falling-and-settling scene
//! (`--cubes` prints it alone).
//!
//! ```text
//! cargo run --release -p bitpack-benches --bin sizes [-- --quick [--rounds N]] [--replication] [--cubes] [--svg PATH]
//! ```

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitpack_benches::churn::{self, Link};
use bitpack_benches::peers::{self, Contender, PeerError, REFERENCE};
use bitpack_benches::{dataset, stream};

const ZSTD_LEVEL: i32 = 3;

struct Options {
    quick: bool,
    rounds: usize,
    /// Where to write the bytes-per-snapshot chart, if anywhere.
    svg: Option<String>,
    /// Only loop one snapshot contender's encode (or decode), for perf or
    /// valgrind: `--profile NAME [--decode]`.
    profile: Option<String>,
    decode: bool,
    /// Only the issue-13 replication section: `--replication`.
    replication_only: bool,
    /// Only the issue-12 cubes section: `--cubes`.
    cubes_only: bool,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        quick: false,
        rounds: 100,
        svg: None,
        profile: None,
        decode: false,
        replication_only: false,
        cubes_only: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => options.quick = true,
            "--rounds" => {
                let value = args.next().ok_or("--rounds needs a number")?;
                options.rounds = value.parse().map_err(|_| format!("--rounds: not a number: {value}"))?;
            }
            "--svg" => options.svg = Some(args.next().ok_or("--svg needs a path")?),
            "--profile" => options.profile = Some(args.next().ok_or("--profile needs an encoding name")?),
            "--decode" => options.decode = true,
            "--replication" => options.replication_only = true,
            "--cubes" => options.cubes_only = true,
            "-h" | "--help" => {
                return Err("usage: sizes [--quick [--rounds N]] [--replication] [--cubes] [--svg PATH] [--profile NAME [--decode] [--rounds N]]".to_string());
            }
            other => return Err(format!("unknown argument {other}; try --help")),
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    match parse_options().and_then(|options| run(&options).map_err(|e| e.to_string())) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn run(options: &Options) -> Result<(), PeerError> {
    if options.cubes_only {
        return print_cubes();
    }
    if options.replication_only {
        return print_replication(options);
    }
    if let Some(name) = options.profile.as_deref().and_then(|name| name.strip_prefix("replication-")) {
        return profile_replication(name, options.rounds).map_err(|e| PeerError(format!("replication: {e}")));
    }
    let data = dataset::generate();
    if let Some(name) = &options.profile {
        return profile(&data, name, options.decode, options.rounds);
    }
    println!(
        "Dataset fingerprint {:#018x}: {} snapshots of {} entities, {} inputs.\n",
        dataset::fingerprint(&data),
        data.snapshots.len(),
        dataset::ENTITIES,
        data.inputs.len()
    );
    let mut kinds =
        [("snapshot", peers::snapshot_contenders(&data)), ("input", peers::input_contenders(&data))];
    for (kind, contenders) in &mut kinds {
        for contender in contenders.iter_mut() {
            contender.prepare()?;
        }
        let rows = print_sizes(kind, contenders, &data)?;
        if *kind == "snapshot"
            && let Some(path) = &options.svg
        {
            // Rows that write another row's bytes (the fused hand packer, the
            // twins under bitpack and bitcode-converting): one bar is enough.
            let duplicate = ["hand packer, fused", "bitpack (ints)", peers::BITCODE_QUANTIZING];
            let charted: Vec<&SizeRow> =
                rows.iter().filter(|row| !duplicate.contains(&row.name.as_str())).collect();
            std::fs::write(path, chart(&charted)).map_err(|e| PeerError(format!("{path}: {e}")))?;
        }
    }
    if options.quick {
        for (kind, contenders) in &mut kinds {
            print_times(kind, contenders, options.rounds)?;
        }
    }
    print_replication(options)?;
    print_cubes()
}

/// Issue 12: Glenn Fiedler's 901 cubes at 60 Hz, whole and as deltas.
fn print_cubes() -> Result<(), PeerError> {
    use bitpack::BitPack;
    use bitpack_benches::cubes::{self, CUBES, Cube, CubeState, FRAMES, HZ};
    let fail = |e: bitpack::Error| PeerError(format!("cubes: {e}"));
    let frames = cubes::simulate(12);
    let stream = cubes::delta_stream(&frames).map_err(fail)?;
    println!(
        "### Glenn Fiedler's cubes ({CUBES} cubes, {} s at {HZ} Hz; Mbps with the 28-byte IPv4 and UDP headers)\n",
        FRAMES / HZ
    );
    println!("| stream | bits per cube | bytes per packet | Mbps |");
    println!("|---|---:|---:|---:|");
    for (name, bits) in
        [("uncompressed (`CubeState`)", CubeState::MAX_BITS), ("quantized snapshot (`Cube`)", Cube::MAX_BITS)]
    {
        let bytes = cubes::packet_bytes(CUBES * bits);
        println!("| {name} | {bits} | {bytes} | {:.2} |", cubes::mbps(bytes as f64));
    }
    let second = HZ;
    let parts: [(&str, &[cubes::DeltaFrame]); 4] = [
        ("delta against the frame before, all 10 s", &stream),
        ("the drop: first 3 s (cubes falling and settling)", &stream[..3 * second]),
        ("3 s to 5 s", &stream[3 * second..5 * second]),
        ("settled: after 5 s (the player's cube, kicked cubes)", &stream[5 * second..]),
    ];
    for (name, part) in parts {
        let bytes = cubes::bytes_per_packet(part);
        println!("| {name} | {:.2} | {bytes:.0} | {:.2} |", cubes::bits_per_cube(part), cubes::mbps(bytes));
    }
    let changed = |part: &[cubes::DeltaFrame]| {
        part.iter().map(|frame| frame.changed).sum::<usize>() as f64 / part.len() as f64
    };
    println!(
        "\nCubes changed per frame: {:.1} on average, {:.1} after 5 s; a cube at rest and unchanged costs 1 bit.\n",
        changed(&stream),
        changed(&stream[5 * second..])
    );
    Ok(())
}

/// Issue 13: the churning dataset sent to one client by `bitpack::sync`.
fn print_replication(options: &Options) -> Result<(), PeerError> {
    let fail = |e: bitpack::Error| PeerError(format!("replication: {e}"));
    let worlds = churn::generate(churn::TICKS);
    let vecs = churn::as_vecs(&worlds);
    let mean_whole = worlds
        .iter()
        .map(|world| bitpack::measure(world).map(|bits| bits.div_ceil(8)))
        .sum::<Result<usize, _>>()
        .map_err(fail)? as f64
        / worlds.len() as f64;
    let mean_entities =
        worlds.iter().map(|world| world.entities.len()).sum::<usize>() as f64 / worlds.len() as f64;
    println!(
        "### Replicating the churning world ({} ticks, {mean_entities:.0} entities on average, {}% spawning and {}% despawning per tick)\n",
        churn::TICKS,
        churn::CHURN_PERCENT,
        churn::CHURN_PERCENT
    );
    println!("| link (one client) | bytes per tick | largest packet | packets decoded |");
    println!("|---|---:|---:|---:|");
    println!("| whole world every tick | {mean_whole:.1} | | |");
    let unbounded = 1 << 16;
    for (name, link) in [
        ("no loss, acks the next tick", Link { loss: 0, ack_delay: 1, datagram: unbounded }),
        ("5% loss, acks the next tick", Link { loss: 5, ack_delay: 1, datagram: unbounded }),
        ("5% loss, acks 3 ticks late (100 ms)", Link { loss: 5, ack_delay: 3, datagram: unbounded }),
        ("5% loss, acks the next tick, 1200-byte datagrams", Link { loss: 5, ack_delay: 1, datagram: 1200 }),
    ] {
        let run = churn::replicate(&worlds, link, 13).map_err(fail)?;
        println!("| {name} | {:.1} | {} | {} of {} |", run.mean(), run.largest, run.decoded, run.packets);
    }
    let unchanged = churn::unchanged_bytes(&worlds[0]).map_err(fail)?;
    println!("| the world unchanged since the acknowledged state | {unchanged} | | |\n");
    let parts = churn::breakdown(&worlds).map_err(fail)?;
    println!("Where a delta's bytes go, per tick, against the tick before:\n");
    println!("| part | bytes per tick |");
    println!("|---|---:|");
    println!("| {:.1} changed entities' own `write_delta` | {:.1} |", parts.changed, parts.changed_bytes);
    println!(
        "| {:.1} new entities' `write_delta` against the spawn value | {:.1} |",
        parts.spawned, parts.spawned_bytes
    );
    println!(
        "| places: the touched entries of the baseline ({:.1} despawned included) as marks or rank gaps, the new keys as gaps | {:.1} |",
        parts.despawned, parts.place_bytes
    );
    println!("| changed/removed bits | {:.1} |", parts.kind_bytes);
    println!("| (every key as a gap in one list, the wire before) | ({:.1}) |", parts.key_bytes);
    println!(
        "| (the baseline's entries always as rank gaps, the new keys as gaps in that list) | ({:.1}) |",
        parts.rank_gap_bytes
    );
    println!(
        "| (the baseline's entries always as marks, the new keys apart) | ({:.1}) |",
        parts.bitmap_bytes
    );
    println!(
        "| (saved if the motion floats' middle tier covered a declared span: 0.7, 0.5, 0.1 per tick) | (-{:.1}) |\n",
        parts.span_saving_bytes
    );
    if options.quick {
        print_replication_times(&worlds, &vecs, options.rounds).map_err(fail)?;
    }
    Ok(())
}

/// Per tick, medians of interleaved rounds: the whole world (each form), a
/// keyed delta against the tick before, and one client's `Sender::write` (acks the next
/// tick) and `Receiver::read`, for the map and the sorted `Vec` forms.
fn print_replication_times(
    worlds: &[churn::MapWorld],
    vecs: &[churn::VecWorld],
    rounds: usize,
) -> Result<(), bitpack::Error> {
    use bitpack::ChangeGroups;
    use bitpack::sync::{Receiver, Sender};

    fn session<W: churn::World>(
        worlds: &[W],
        buf: &mut [u8],
    ) -> Result<(Duration, Duration), bitpack::Error> {
        let mut sender: Sender<W> = Sender::new();
        let mut receiver: Receiver<W> = Receiver::new();
        let (mut write, mut read) = (Duration::ZERO, Duration::ZERO);
        for world in worlds {
            let start = Instant::now();
            let used = black_box(sender.write(black_box(world), buf)?);
            write += start.elapsed();
            let start = Instant::now();
            black_box(receiver.read(black_box(&buf[..used]))?.is_some());
            read += start.elapsed();
            sender.ack(&receiver.acks());
        }
        Ok((write, read))
    }

    let mut buf = vec![0u8; 1 << 16];
    // Each row, and the row of the whole encode it is divided by: the
    // whole encode of the same world form (the entities' own rows, which
    // have no form, against the `BTreeMap` world's).
    let rows: [(&str, usize); 13] = [
        ("whole world (encode), BTreeMap", 0),
        ("whole world (encode), sorted Vec", 1),
        ("keyed delta against the tick before (encode), BTreeMap", 0),
        ("Sender::write, BTreeMap", 0),
        ("Sender::write, sorted Vec", 1),
        ("Receiver::read, BTreeMap", 0),
        ("Receiver::read, sorted Vec", 1),
        ("world clone, BTreeMap", 0),
        ("world clone, sorted Vec", 1),
        ("of which: the changed entities' own write_delta", 0),
        ("of which: == on every entity in both", 0),
        ("Sender::write, BTreeMap, 1200-byte datagrams", 0),
        ("Receiver::read, BTreeMap, 1200-byte datagrams", 0),
    ];
    // The entities in both of two consecutive worlds, as pairs (now, then),
    // and the changed ones alone.
    let common: Vec<Vec<(dataset::Entity, dataset::Entity)>> = worlds
        .windows(2)
        .map(|pair| {
            let then = &pair[0].entities;
            pair[1].entities.iter().filter_map(|(id, now)| then.get(id).map(|then| (*now, *then))).collect()
        })
        .collect();
    let changed: Vec<Vec<_>> = common
        .iter()
        .map(|pairs| pairs.iter().filter(|(now, then)| now != then).copied().collect())
        .collect();
    let mut samples = vec![Vec::with_capacity(rounds); rows.len()];
    for _ in 0..rounds {
        let start = Instant::now();
        for world in worlds {
            black_box(bitpack::encode_into(black_box(world), &mut buf)?);
        }
        samples[0].push(start.elapsed());
        let start = Instant::now();
        for world in vecs {
            black_box(bitpack::encode_into(black_box(world), &mut buf)?);
        }
        samples[1].push(start.elapsed());
        let start = Instant::now();
        for pair in worlds.windows(2) {
            let mut writer = bitpack::BitWriter::new(&mut buf);
            black_box(&pair[1]).write_delta(black_box(&pair[0]), &mut writer)?;
            black_box(writer.finish()?);
        }
        samples[2].push(start.elapsed());
        let (write, read) = session(worlds, &mut buf)?;
        samples[3].push(write);
        samples[5].push(read);
        let (write, read) = session(vecs, &mut buf)?;
        samples[4].push(write);
        samples[6].push(read);
        let start = Instant::now();
        for world in worlds {
            black_box(black_box(world).clone());
        }
        samples[7].push(start.elapsed());
        let start = Instant::now();
        for world in vecs {
            black_box(black_box(world).clone());
        }
        samples[8].push(start.elapsed());
        let start = Instant::now();
        for pairs in &changed {
            let mut writer = bitpack::BitWriter::new(&mut buf);
            for (now, then) in pairs {
                black_box(now).write_delta(black_box(then), &mut writer)?;
            }
            black_box(writer.finish()?);
        }
        samples[9].push(start.elapsed());
        let start = Instant::now();
        for pairs in &common {
            black_box(pairs.iter().filter(|(now, then)| black_box(now) != black_box(then)).count());
        }
        samples[10].push(start.elapsed());
        let (write, read) = session(worlds, &mut buf[..1200])?;
        samples[11].push(write);
        samples[12].push(read);
    }
    let per_tick: Vec<f64> =
        samples.iter_mut().map(|s| median(s).as_secs_f64() * 1e9 / worlds.len() as f64).collect();
    println!("#### Time per tick ({rounds} interleaved rounds, medians)\n");
    println!("| work | ns per tick | / whole encode of the same world form |");
    println!("|---|---:|---:|");
    for ((name, base), ns) in rows.iter().zip(&per_tick) {
        println!("| {name} | {ns:.0} | {:.2} |", ns / per_tick[*base]);
    }
    println!(
        "\nThe entities' own rows (no world form) are divided by the `BTreeMap` world's whole encode.\n"
    );
    Ok(())
}

fn zstd_len(compressor: &mut zstd::bulk::Compressor<'_>, bytes: &[u8]) -> Result<usize, PeerError> {
    compressor.compress(bytes).map(|c| c.len()).map_err(|e| PeerError(format!("zstd: {e}")))
}

/// One row of a sizes table: mean bytes per message, raw and compressed.
struct SizeRow {
    name: String,
    raw: f64,
    zstd_each: f64,
    zstd_stream: f64,
}

fn size_row(
    compressor: &mut zstd::bulk::Compressor<'_>,
    name: &str,
    messages: &[&[u8]],
) -> Result<SizeRow, PeerError> {
    let mut raw = 0;
    let mut compressed = 0;
    let mut stream = Vec::new();
    for bytes in messages {
        raw += bytes.len();
        compressed += zstd_len(compressor, bytes)?;
        stream.extend_from_slice(bytes);
    }
    let stream_compressed = zstd_len(compressor, &stream)?;
    let per = |total: usize| total as f64 / messages.len().max(1) as f64;
    Ok(SizeRow {
        name: name.to_string(),
        raw: per(raw),
        zstd_each: per(compressed),
        zstd_stream: per(stream_compressed),
    })
}

/// The delta stream's 59 deltas alone, without the first whole snapshot.
fn deltas_only_row(
    compressor: &mut zstd::bulk::Compressor<'_>,
    data: &dataset::Dataset,
) -> Result<SizeRow, PeerError> {
    let delta = stream::delta_messages(&data.snapshots).map_err(|e| PeerError(format!("stream: {e}")))?;
    let messages: Vec<&[u8]> = delta.iter().skip(1).map(Vec::as_slice).collect();
    size_row(compressor, "bitpack baseline delta, deltas only", &messages)
}

fn print_sizes(
    kind: &str,
    contenders: &[Box<dyn Contender>],
    data: &dataset::Dataset,
) -> Result<Vec<SizeRow>, PeerError> {
    let mut compressor =
        zstd::bulk::Compressor::new(ZSTD_LEVEL).map_err(|e| PeerError(format!("zstd: {e}")))?;
    let mut rows = Vec::new();
    for contender in contenders {
        let messages: Vec<&[u8]> = (0..contender.len()).map(|index| contender.encoded(index)).collect();
        rows.push(size_row(&mut compressor, contender.name(), &messages)?);
    }
    if kind == "snapshot" {
        rows.push(deltas_only_row(&mut compressor, data)?);
    }
    let hand = rows.iter().find(|row| row.name == "hand packer").map_or(1.0, |row| row.raw);
    println!("### Bytes per {kind}\n");
    println!(
        "| encoding | bytes | zstd-{ZSTD_LEVEL} per message | zstd-{ZSTD_LEVEL} stream, per message | bytes / hand |"
    );
    println!("|---|---:|---:|---:|---:|");
    for row in &rows {
        println!(
            "| {} | {:.1} | {:.1} | {:.1} | {:.2} |",
            row.name,
            row.raw,
            row.zstd_each,
            row.zstd_stream,
            row.raw / hand
        );
    }
    println!();
    Ok(rows)
}

/// Loops one snapshot contender over the 60 snapshots `rounds` times and
/// nothing else, so a profiler sees only it.
fn profile(data: &dataset::Dataset, name: &str, decode: bool, rounds: usize) -> Result<(), PeerError> {
    let mut contenders = peers::snapshot_contenders(data);
    let Some(contender) = contenders.iter_mut().find(|c| c.name() == name) else {
        let names: Vec<&str> = contenders.iter().map(|c| c.name()).collect();
        return Err(PeerError(format!("no encoding named {name:?}; one of {names:?}")));
    };
    contender.prepare()?;
    let elapsed = if decode {
        (0..rounds).map(|_| time_decode(&mut **contender)).sum::<Result<Duration, PeerError>>()?
    } else {
        (0..rounds).map(|_| time_encode(&mut **contender)).sum::<Result<Duration, PeerError>>()?
    };
    let per = elapsed.as_secs_f64() * 1e9 / (rounds * contender.len()).max(1) as f64;
    println!(
        "{name}: {} {per:.0} ns per snapshot over {rounds} rounds",
        if decode { "decode" } else { "encode" }
    );
    Ok(())
}

/// `--profile replication-NAME`: loops one replication workload over the
/// churning worlds `rounds` times, for a profiler (callgrind's instruction
/// counts do not move with the machine's load): `whole` and `whole-vec`
/// (encode, the entities in a `BTreeMap` or a sorted `Vec`), `sender-map`,
/// `sender-vec` (`Sender::write`, acks the next tick), `sender-vec-sparse`
/// (the same with 4 entities changing a tick), `read-whole` and
/// `read-whole-vec` (decode).
fn profile_replication(name: &str, rounds: usize) -> Result<(), bitpack::Error> {
    use bitpack::sync::{Receiver, Sender};

    fn senders<W: churn::World>(worlds: &[W], rounds: usize, buf: &mut [u8]) -> Result<(), bitpack::Error> {
        for _ in 0..rounds {
            let mut sender: Sender<W> = Sender::new();
            let mut receiver: Receiver<W> = Receiver::new();
            for world in worlds {
                let used = black_box(sender.write(black_box(world), buf)?);
                receiver.read(&buf[..used])?;
                sender.ack(&receiver.acks());
            }
        }
        Ok(())
    }

    fn reads<W: churn::World>(worlds: &[W], rounds: usize) -> Result<(), bitpack::Error> {
        let encoded = worlds.iter().map(bitpack::encode).collect::<Result<Vec<_>, _>>()?;
        for _ in 0..rounds {
            for bytes in &encoded {
                black_box(bitpack::decode::<W>(black_box(bytes))?);
            }
        }
        Ok(())
    }

    let worlds = churn::generate(churn::TICKS);
    let mut buf = vec![0u8; 1 << 16];
    match name {
        "whole" => {
            for _ in 0..rounds {
                for world in &worlds {
                    black_box(bitpack::encode_into(black_box(world), &mut buf)?);
                }
            }
            Ok(())
        }
        // The same worlds with the entities in a sorted `Vec`: the whole
        // encode a `sender-vec` delta compares with.
        "whole-vec" => {
            let worlds = churn::as_vecs(&worlds);
            for _ in 0..rounds {
                for world in &worlds {
                    black_box(bitpack::encode_into(black_box(world), &mut buf)?);
                }
            }
            Ok(())
        }
        // Decoding the whole worlds (the receiver's first packet, the
        // arena's whole-state row): `read-whole` builds `BTreeMap`s.
        "read-whole" => reads(&worlds, rounds),
        "read-whole-vec" => reads(&churn::as_vecs(&worlds), rounds),
        "sender-map" => senders(&worlds, rounds, &mut buf),
        "sender-vec" => senders(&churn::as_vecs(&worlds), rounds, &mut buf),
        // A world where few entities change: the first world, each tick
        // with 4 entities hurt (the touched entries go as a list).
        "sender-vec-sparse" => {
            let mut world = churn::as_vecs(&worlds[..1]).remove(0);
            let sparse: Vec<_> = (0..worlds.len())
                .map(|tick| {
                    world.tick += 1;
                    let len = world.entities.len();
                    for hurt in 0..4 {
                        let entity = &mut world.entities[(tick * 7 + hurt * 61) % len];
                        entity.health = (entity.health + 1) % 1000;
                    }
                    world.clone()
                })
                .collect();
            senders(&sparse, rounds, &mut buf)
        }
        _ => Err(bitpack::Error::new(bitpack::ErrorKind::InvalidDeclaration, 0)),
    }
}

/// A horizontal bar chart of bytes per snapshot: each message alone, and
/// the zstd-compressed stream per message.
fn chart(rows: &[&SizeRow]) -> String {
    const LEFT: f64 = 330.0;
    const WIDTH: f64 = 460.0;
    const ROW: f64 = 30.0;
    let top = 50.0;
    let scale = rows.iter().map(|row| row.raw.max(row.zstd_stream)).fold(1.0, f64::max);
    let height = top + ROW * rows.len() as f64 + 40.0;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">Bytes per snapshot \
         (256 entities, 60 snapshots; lower is better)</text>\n\
         <rect x=\"{LEFT}\" y=\"30\" width=\"10\" height=\"10\" fill=\"#4a78b5\"/>\
         <text x=\"{lx1}\" y=\"39\">one message</text>\n\
         <rect x=\"{lx2}\" y=\"30\" width=\"10\" height=\"10\" fill=\"#e08a3c\"/>\
         <text x=\"{lx3}\" y=\"39\">zstd-3 over the stream, per message</text>\n",
        w = LEFT + WIDTH + 70.0,
        lx1 = LEFT + 14.0,
        lx2 = LEFT + 110.0,
        lx3 = LEFT + 124.0,
    );
    for (index, row) in rows.iter().enumerate() {
        let y = top + ROW * index as f64;
        let raw = row.raw / scale * WIDTH;
        let packed = row.zstd_stream / scale * WIDTH;
        svg += &format!(
            "<text x=\"{tx}\" y=\"{ty}\" text-anchor=\"end\">{name}</text>\n\
             <rect x=\"{LEFT}\" y=\"{y}\" width=\"{raw:.1}\" height=\"12\" fill=\"#4a78b5\"/>\
             <text x=\"{rx:.1}\" y=\"{ry}\">{raw_bytes:.0}</text>\n\
             <rect x=\"{LEFT}\" y=\"{y2}\" width=\"{packed:.1}\" height=\"12\" fill=\"#e08a3c\"/>\
             <text x=\"{px:.1}\" y=\"{py}\">{packed_bytes:.0}</text>\n",
            tx = LEFT - 8.0,
            ty = y + 16.0,
            name = row.name.replace('&', "&amp;").replace('<', "&lt;"),
            rx = LEFT + raw + 4.0,
            ry = y + 10.0,
            raw_bytes = row.raw,
            y2 = y + 13.0,
            px = LEFT + packed + 4.0,
            py = y + 23.0,
            packed_bytes = row.zstd_stream,
        );
    }
    svg += "</svg>\n";
    svg
}

fn time_encode(contender: &mut dyn Contender) -> Result<Duration, PeerError> {
    let start = Instant::now();
    for index in 0..contender.len() {
        black_box(contender.encode(black_box(index))?.len());
    }
    Ok(start.elapsed())
}

fn time_decode(contender: &mut dyn Contender) -> Result<Duration, PeerError> {
    let start = Instant::now();
    for index in 0..contender.len() {
        contender.decode_only(black_box(index))?;
    }
    Ok(start.elapsed())
}

fn median(samples: &mut [Duration]) -> Duration {
    samples.sort_unstable();
    samples.get(samples.len() / 2).copied().unwrap_or_default()
}

/// Every contender once per round, starting one further along each round,
/// so load spikes on this shared machine hit them all alike; medians of
/// the rounds.
fn print_times(kind: &str, contenders: &mut [Box<dyn Contender>], rounds: usize) -> Result<(), PeerError> {
    let n = contenders.len();
    let mut encode = vec![Vec::with_capacity(rounds); n];
    let mut decode = vec![Vec::with_capacity(rounds); n];
    for round in 0..rounds {
        for offset in 0..n {
            let index = (round + offset) % n;
            let contender = &mut *contenders[index];
            encode[index].push(time_encode(contender)?);
            decode[index].push(time_decode(contender)?);
        }
    }
    let per_message = |d: Duration, count: usize| d.as_secs_f64() * 1e9 / count as f64;
    let medians: Vec<(f64, f64)> = contenders
        .iter()
        .zip(encode.iter_mut().zip(decode.iter_mut()))
        .map(|(c, (e, d))| (per_message(median(e), c.len()), per_message(median(d), c.len())))
        .collect();
    let reference = contenders.iter().position(|c| c.name() == REFERENCE).map_or((1.0, 1.0), |i| medians[i]);
    let hand = contenders.iter().position(|c| c.name() == "hand packer").map_or((1.0, 1.0), |i| medians[i]);
    println!("### Time per {kind} ({rounds} interleaved rounds, medians)\n");
    println!(
        "| encoding | encode ns | decode ns | encode / {REFERENCE} | decode / {REFERENCE} | encode / hand | decode / hand |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (contender, (enc, dec)) in contenders.iter().zip(&medians) {
        println!(
            "| {} | {enc:.0} | {dec:.0} | {:.2} | {:.2} | {:.2} | {:.2} |",
            contender.name(),
            enc / reference.0,
            dec / reference.1,
            enc / hand.0,
            dec / hand.1
        );
    }
    println!();
    Ok(())
}
