//! One run: the arena simulated on the server, every encoding measured on its ticks, and the
//! replicated ones (through `bitpack::sync` over lossy links) checked on every client.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use bitpack::sync::{Acks, Receiver, Sender};
use bitpack_arena::age::{self, Ages};
use bitpack_arena::agree;
use bitpack_arena::link::Link;
use bitpack_arena::sim::{Arena, Config, TICK_RATE};
use bitpack_arena::world::{World, absolute};

use crate::peers::{self, PeerWorld};

/// How a run is set up.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub ticks: u32,
    pub clients: u32,
    /// Fraction of the datagrams lost each way.
    pub loss: f32,
    pub seed: u64,
    /// One-way delay of the link, in ticks (3 = 100 ms at 30 Hz).
    pub delay_ticks: u32,
    /// The longest packet a `bitpack::sync` sender may write, in bytes.
    pub datagram: usize,
}

/// The encodings measured, in the table's order.
pub const NAMES: [&str; 8] = [
    "(a) repr(C) raw bytes",
    "(b) bincode 2 (serde)",
    "(b) postcard",
    "(c) bitcode",
    "(d) bitpack whole states",
    "(e) bitpack change groups",
    "(f) bitpack deltas, relative",
    "(g) (f) + zstd",
];

/// What one encoding cost over the run.
#[derive(Clone, Debug, Default)]
pub struct Measured {
    /// Bytes per tick per client (the mean over the clients for per-client packets).
    pub bytes_per_tick: Vec<f64>,
    pub encode: Duration,
    /// How many encodes `encode` is the total of (one per tick, or per tick and client).
    pub encodes: u32,
    pub decode: Duration,
    pub decodes: u32,
    /// The longest packet (or whole encoding) of the run, in bytes.
    pub largest: usize,
    /// For the `bitpack::sync` packets, the keyed entries (players and mobs) they held back
    /// over the run, summed over the packets: entries whose state in the packet is not the
    /// server's world of that tick. `None` for the whole-state encodings.
    pub held_back: Option<u64>,
    /// For the `bitpack::sync` packets, how old the entities (players and mobs) of every state
    /// the clients decoded were: the packet's sequence less each one's `updated_at`.
    pub ages: Option<Ages>,
}

impl Measured {
    /// Mean bytes per tick per client.
    pub fn mean_bytes(&self) -> f64 {
        self.bytes_per_tick.iter().sum::<f64>() / self.bytes_per_tick.len().max(1) as f64
    }

    /// Kilobits per second per client, at 30 ticks a second.
    pub fn kbit_per_s(&self) -> f64 {
        self.mean_bytes() * 8.0 * f64::from(TICK_RATE) / 1000.0
    }

    /// Mean entries held back per packet, for the `bitpack::sync` packets.
    pub fn held_per_packet(&self) -> Option<f64> {
        self.held_back.map(|held| held as f64 / f64::from(self.encodes.max(1)))
    }

    /// Mean time to produce one client's packet for one tick.
    pub fn encode_us(&self) -> f64 {
        self.encode.as_secs_f64() * 1e6 / f64::from(self.encodes.max(1))
    }

    /// Mean time for a client to decode one packet.
    pub fn decode_us(&self) -> f64 {
        self.decode.as_secs_f64() * 1e6 / f64::from(self.decodes.max(1))
    }
}

/// What the clients decoded and how it compared with the server.
#[derive(Clone, Debug, Default)]
pub struct Agreement {
    /// Client states compared with what the server sent for the packet's tick (its world, less
    /// the entries held back), over (e) and (f).
    pub checked: u64,
    /// Packets each client decoded, the fewest and the most (over (e) and (f)).
    pub decoded: (u32, u32),
    /// Datagrams the links dropped, server to clients and back.
    pub lost: u32,
    pub sent: u32,
}

/// A run's figures.
#[derive(Clone, Debug)]
pub struct Report {
    pub settings: Settings,
    pub encodings: Vec<Measured>,
    pub agreement: Agreement,
}

fn timed<T>(total: &mut Duration, count: &mut u32, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let value = f();
    *total += start.elapsed();
    *count += 1;
    value
}

/// One client of one replicated encoding, and the links between it and the server.
struct Client<W: bitpack::ChangeGroups + Clone> {
    sender: Sender<W>,
    receiver: Receiver<W>,
    down: Link,
    up: Link,
    decoded: u32,
    /// What this client holds after each recent packet that held entries back, by tick: the
    /// server's world of that tick with those entries as the client had them before.
    held_states: BTreeMap<i32, World>,
}

impl<W: bitpack::ChangeGroups + Clone> Client<W> {
    fn new(settings: &Settings, seed: u64) -> Self {
        Client {
            sender: Sender::new(),
            receiver: Receiver::new(),
            down: Link::new(seed, settings.loss, settings.delay_ticks),
            up: Link::new(seed ^ 0x5eed_ac75, settings.loss, settings.delay_ticks),
            decoded: 0,
            held_states: BTreeMap::new(),
        }
    }
}

/// Room for any packet read back (zstd's output is at most its input's bound).
const RECEIVE_BUFFER: usize = 128 * 1024;

/// Runs the arena for `settings.ticks`, calling `progress` with each tick done.
pub fn run(settings: Settings, progress: &mut dyn FnMut(u32)) -> Result<Report, String> {
    let config = Config { seed: settings.seed, ..Config::default() };
    let mut arena = Arena::new(config);
    let mut measured = vec![Measured::default(); NAMES.len()];
    let mut agreement = Agreement::default();
    let client_seed = |client: u32| settings.seed.wrapping_mul(0x9E37_79B9).wrapping_add(u64::from(client));
    let mut groups: Vec<Client<absolute::World>> =
        (0..settings.clients).map(|c| Client::new(&settings, client_seed(c))).collect();
    let mut deltas: Vec<Client<World>> =
        (0..settings.clients).map(|c| Client::new(&settings, client_seed(c))).collect();
    // The server's recent states, by tick, to check what clients decode against.
    let mut history: BTreeMap<i32, World> = BTreeMap::new();
    let mut buf = vec![0u8; settings.datagram];
    let mut raw = Vec::new();
    let mut zstd_out = Vec::new();
    let mut zstd_in = vec![0u8; RECEIVE_BUFFER];
    let mut compressor = zstd::bulk::Compressor::new(3).map_err(|e| e.to_string())?;
    let mut decompressor = zstd::bulk::Decompressor::new().map_err(|e| e.to_string())?;
    // The entities of a state a client decoded, for their ages.
    let mut entries = Vec::new();

    for now in 1..=settings.ticks {
        arena.step();
        let world = arena.world();
        history.insert(world.tick, world.clone());
        while history.len() > 128 {
            history.pop_first();
        }

        // Whole states: one encoding a tick serves every client.
        let peer = PeerWorld::from(world);
        let [raw_bytes, bincode, postcard, bitcode, whole, group, delta, zstd] = &mut measured[..] else {
            unreachable!("one entry per name")
        };
        let m = raw_bytes;
        timed(&mut m.encode, &mut m.encodes, || peers::write_raw(&peer, &mut raw));
        let back = timed(&mut m.decode, &mut m.decodes, || peers::read_raw(&raw));
        expect(back.as_ref() == Some(&peer), "repr(C) bytes")?;
        m.bytes_per_tick.push(raw.len() as f64);
        m.largest = m.largest.max(raw.len());

        let m = bincode;
        let config = bincode::config::standard();
        let bytes = timed(&mut m.encode, &mut m.encodes, || bincode::serde::encode_to_vec(&peer, config));
        let bytes = bytes.map_err(|e| e.to_string())?;
        let back = timed(&mut m.decode, &mut m.decodes, || {
            bincode::serde::decode_from_slice::<PeerWorld, _>(&bytes, config)
        });
        expect(back.ok().map(|(w, _)| w).as_ref() == Some(&peer), "bincode")?;
        m.bytes_per_tick.push(bytes.len() as f64);
        m.largest = m.largest.max(bytes.len());

        let m = postcard;
        let bytes = timed(&mut m.encode, &mut m.encodes, || postcard::to_allocvec(&peer));
        let bytes = bytes.map_err(|e| e.to_string())?;
        let back = timed(&mut m.decode, &mut m.decodes, || postcard::from_bytes::<PeerWorld>(&bytes));
        expect(back.ok().as_ref() == Some(&peer), "postcard")?;
        m.bytes_per_tick.push(bytes.len() as f64);
        m.largest = m.largest.max(bytes.len());

        let m = bitcode;
        let bytes = timed(&mut m.encode, &mut m.encodes, || bitcode::encode(&peer));
        let back = timed(&mut m.decode, &mut m.decodes, || bitcode::decode::<PeerWorld>(&bytes));
        expect(back.ok().as_ref() == Some(&peer), "bitcode")?;
        m.bytes_per_tick.push(bytes.len() as f64);
        m.largest = m.largest.max(bytes.len());

        let m = whole;
        let bytes = timed(&mut m.encode, &mut m.encodes, || bitpack::encode(world));
        let bytes = bytes.map_err(|e| e.to_string())?;
        let back = timed(&mut m.decode, &mut m.decodes, || bitpack::decode::<World>(&bytes));
        agree::check(&back.map_err(|e| e.to_string())?, world)?;
        m.bytes_per_tick.push(bytes.len() as f64);
        m.largest = m.largest.max(bytes.len());

        // Per-client packets through `bitpack::sync`, with change groups sent whole...
        let absolute = absolute::World::from(world);
        let mut sent = 0.0;
        for client in &mut groups {
            let sequence = client.sender.next_sequence();
            let len =
                timed(&mut group.encode, &mut group.encodes, || client.sender.write(&absolute, &mut buf));
            let len = len.map_err(|e| e.to_string())?;
            sent += len as f64;
            group.largest = group.largest.max(len);
            let state = client.sender.sent(sequence).map(|state| World::from(&state));
            *group.held_back.get_or_insert(0) += hold(client, state, world, &settings)?;
            client.down.send(now, &buf[..len]);
        }
        group.bytes_per_tick.push(sent / f64::from(settings.clients));

        // ...and coded relative to the baseline, then also compressed.
        let (mut sent, mut compressed) = (0.0, 0.0);
        for client in &mut deltas {
            let sequence = client.sender.next_sequence();
            let start = Instant::now();
            let len = client.sender.write(world, &mut buf).map_err(|e| e.to_string())?;
            let encoded = start.elapsed();
            delta.encode += encoded;
            delta.encodes += 1;
            let start = Instant::now();
            zstd_out.clear();
            zstd_out.resize(zstd::zstd_safe::compress_bound(len), 0);
            let packed = compressor
                .compress_to_buffer(&buf[..len], zstd_out.as_mut_slice())
                .map_err(|e| e.to_string())?;
            zstd.encode += encoded + start.elapsed();
            zstd.encodes += 1;
            sent += len as f64;
            compressed += packed as f64;
            delta.largest = delta.largest.max(len);
            zstd.largest = zstd.largest.max(packed);
            let state = client.sender.sent(sequence);
            let held = hold(client, state, world, &settings)?;
            *delta.held_back.get_or_insert(0) += held;
            *zstd.held_back.get_or_insert(0) += held;
            client.down.send(now, &zstd_out[..packed]);
        }
        delta.bytes_per_tick.push(sent / f64::from(settings.clients));
        zstd.bytes_per_tick.push(compressed / f64::from(settings.clients));

        // Clients: decode what arrived, check it, acknowledge.
        for client in &mut groups {
            while let Some(datagram) = client.down.receive(now) {
                let seen = timed(&mut group.decode, &mut group.decodes, || client.receiver.read(&datagram));
                if let Some(seen) = seen.map_err(|e| format!("(e) client: {e}"))? {
                    check_against(&World::from(seen), &client.held_states, &history, &mut agreement)?;
                    client.decoded += 1;
                    entries.clear();
                    entries.extend(age::entries(&seen.players, &seen.mobs));
                    group.ages.get_or_insert_default().record(&client.receiver, entries.iter().copied())?;
                }
            }
            acknowledge(client, now)?;
        }
        for client in &mut deltas {
            while let Some(datagram) = client.down.receive(now) {
                let start = Instant::now();
                let len = decompressor.decompress_to_buffer(&datagram, zstd_in.as_mut_slice());
                let unpacked = start.elapsed();
                let len = len.map_err(|e| e.to_string())?;
                let start = Instant::now();
                let seen = client.receiver.read(&zstd_in[..len]);
                let decoded = start.elapsed();
                delta.decode += decoded;
                delta.decodes += 1;
                zstd.decode += unpacked + decoded;
                zstd.decodes += 1;
                if let Some(seen) = seen.map_err(|e| format!("(f) client: {e}"))? {
                    check_against(seen, &client.held_states, &history, &mut agreement)?;
                    client.decoded += 1;
                    entries.clear();
                    entries.extend(age::entries(&seen.players, &seen.mobs));
                    delta.ages.get_or_insert_default().record(&client.receiver, entries.iter().copied())?;
                }
            }
            acknowledge(client, now)?;
        }
        progress(now);
    }

    // (g)'s clients decode (f)'s packets.
    measured[7].ages = measured[6].ages.clone();
    let decoded = groups.iter().map(|c| c.decoded).chain(deltas.iter().map(|c| c.decoded));
    agreement.decoded = decoded.fold((u32::MAX, 0), |(low, high), d| (low.min(d), high.max(d)));
    let links =
        groups.iter().flat_map(|c| [&c.down, &c.up]).chain(deltas.iter().flat_map(|c| [&c.down, &c.up]));
    for link in links {
        agreement.sent += link.sent();
        agreement.lost += link.lost();
    }
    Ok(Report { settings, encodings: measured, agreement })
}

fn expect(ok: bool, what: &str) -> Result<(), String> {
    if ok { Ok(()) } else { Err(format!("{what} did not read back what it wrote")) }
}

/// Counts the keyed entries in which `state`, what the client holds after the packet just
/// written, differs from the server's `world`: those the packet held back (an entry a packet
/// sends is recorded as the world has it). Keeps `state` for checking the client when there
/// are any.
fn hold<W: bitpack::ChangeGroups + Clone>(
    client: &mut Client<W>,
    state: Option<World>,
    world: &World,
    settings: &Settings,
) -> Result<u64, String> {
    let state = state.ok_or("the sender does not keep the state it just sent")?;
    let held = differing(&state.players, &world.players) + differing(&state.mobs, &world.mobs);
    if held > 0 {
        client.held_states.insert(world.tick, state);
        // Packets arrive `delay_ticks` after they are sent, in order, or never.
        while client.held_states.len() > 2 * settings.delay_ticks as usize + 4 {
            client.held_states.pop_first();
        }
    }
    Ok(held)
}

/// Keys whose entry is not the same in both maps (in one only, or unequal).
fn differing<V: PartialEq>(a: &BTreeMap<u32, V>, b: &BTreeMap<u32, V>) -> u64 {
    let changed_or_gone = a.iter().filter(|(key, value)| b.get(key) != Some(value)).count();
    let new = b.keys().filter(|key| !a.contains_key(key)).count();
    (changed_or_gone + new) as u64
}

/// Compares a client's state with what the server sent for the same tick: its world of that
/// tick, or the state kept for a packet that held entries back.
fn check_against(
    seen: &World,
    held_states: &BTreeMap<i32, World>,
    history: &BTreeMap<i32, World>,
    agreement: &mut Agreement,
) -> Result<(), String> {
    let server = held_states
        .get(&seen.tick)
        .or_else(|| history.get(&seen.tick))
        .ok_or_else(|| format!("tick {} is not in the history", seen.tick))?;
    agree::check(seen, server).map_err(|what| format!("a client disagrees with the server: {what}"))?;
    agreement.checked += 1;
    Ok(())
}

/// The client's acks go up the link; the server takes those that arrive.
fn acknowledge<W: bitpack::ChangeGroups + Clone>(client: &mut Client<W>, now: u32) -> Result<(), String> {
    let acks = bitpack::encode(&client.receiver.acks()).map_err(|e| e.to_string())?;
    client.up.send(now, &acks);
    while let Some(datagram) = client.up.receive(now) {
        let acks = bitpack::decode::<Acks>(&datagram).map_err(|e| e.to_string())?;
        client.sender.ack(&acks);
    }
    Ok(())
}
