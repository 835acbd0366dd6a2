//! One run: a server thread and a thread per client, each with its own `UdpSocket` on
//! 127.0.0.1, the arena's world sent through `bitpack::sync` at 30 Hz, each client scoped to
//! the entities near its player. Every sender (the server's packets, the clients' acks) drops
//! a seeded fraction of its datagrams. Each client checks every entity it decodes against the
//! server's world at the entity's `updated_at`; the server shares its worlds (and which tick
//! each client's sequence was) in process for that check only: the sockets carry the packets
//! and the acks.

use std::collections::{BTreeMap, HashMap};
use std::io::ErrorKind;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use bitpack::sync::{Acks, Receiver, Sender};
use bitpack_arena::age::{self, Ages};
use bitpack_arena::agree;
use bitpack_arena::rng::Rng;
use bitpack_arena::scope::Near;
use bitpack_arena::sim::{Arena, Config, TICK_RATE};
use bitpack_arena::world::World;

/// How a run is set up.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Ticks the server sends, one packet per client each, paced at 30 a second.
    pub ticks: u32,
    pub clients: u32,
    /// Fraction of the datagrams each sender drops, both ways.
    pub loss: f32,
    pub seed: u64,
    /// The longest packet the server writes, in bytes.
    pub datagram: usize,
    /// How far each client sees, in metres.
    pub radius: f32,
}

/// What the server saw and did for one client.
#[derive(Clone, Debug, Default)]
pub struct Sent {
    /// Bytes of the packets written for the client (those dropped included; no UDP/IP headers).
    pub bytes: u64,
    pub datagrams: u32,
    pub dropped: u32,
    /// Entries the packets held back, summed over them.
    pub held_back: u64,
    /// Ack datagrams that reached the server.
    pub acks: u32,
}

/// What one client received, decoded and checked.
#[derive(Clone, Debug, Default)]
pub struct Received {
    pub datagrams: u32,
    /// Packets decoded to a newer state (the others were late or duplicates).
    pub decoded: u32,
    /// Entity ages in packets: each decoded packet's sequence less each entity's `updated_at`.
    pub ages: Ages,
    /// Entities compared with the server's world at their `updated_at`.
    pub checked: u64,
    /// Entities (or states' ticks) that differ from the server's, or could not be checked.
    pub mismatches: u64,
    /// The first few mismatches, said.
    pub first_mismatches: Vec<String>,
    pub acks_sent: u32,
    pub acks_dropped: u32,
}

impl Received {
    /// Counts a mismatch in `client`'s packet `sequence`, and says the first few.
    fn mismatch(&mut self, client: usize, sequence: u16, what: String) {
        self.mismatches += 1;
        if self.first_mismatches.len() < MISMATCHES_SAID {
            self.first_mismatches.push(format!("client {client}, packet {sequence}: {what}"));
        }
    }
}

/// A run's figures.
#[derive(Clone, Debug)]
pub struct Report {
    pub settings: Settings,
    /// Per client, by index.
    pub sent: Vec<Sent>,
    pub received: Vec<Received>,
    /// Time the server took each tick to write every client's packet (`write_view`).
    pub write_times: Vec<Duration>,
    /// Time the server took each tick to step the simulation.
    pub step_times: Vec<Duration>,
}

impl Report {
    /// Every client's ages together.
    pub fn ages(&self) -> Ages {
        let mut ages = Ages::default();
        for received in &self.received {
            ages.merge(&received.ages);
        }
        ages
    }

    /// Kilobits per second the server wrote for each client, by index.
    pub fn kbit_per_s(&self) -> Vec<f64> {
        let seconds = f64::from(self.settings.ticks) / f64::from(TICK_RATE);
        self.sent.iter().map(|sent| sent.bytes as f64 * 8.0 / seconds / 1000.0).collect()
    }

    /// Mean entries held back per packet, over every client's packets.
    pub fn held_per_packet(&self) -> f64 {
        let held: u64 = self.sent.iter().map(|sent| sent.held_back).sum();
        let packets: u32 = self.sent.iter().map(|sent| sent.datagrams).sum();
        held as f64 / f64::from(packets.max(1))
    }

    pub fn mismatches(&self) -> u64 {
        self.received.iter().map(|received| received.mismatches).sum()
    }
}

/// The server's worlds by tick, and the tick each client's packets were written at, by
/// sequence: what the clients check against.
#[derive(Default)]
struct History {
    worlds: BTreeMap<i32, Arc<World>>,
    ticks: Vec<HashMap<u16, i32>>,
}

/// Ticks of worlds the history keeps (34 s at 30 Hz); an entity older than that cannot be
/// checked, and counts as a mismatch.
const HISTORY_TICKS: usize = 1024;

impl History {
    /// The server's world when it wrote `client`'s packet `sequence`.
    fn world(&self, client: usize, sequence: u16) -> Result<&World, String> {
        let tick = self.ticks[client]
            .get(&sequence)
            .ok_or_else(|| format!("the server wrote no packet {sequence} for client {client}"))?;
        let world = self.worlds.get(tick).ok_or_else(|| format!("tick {tick} is out of the history"))?;
        Ok(world)
    }
}

type Shared = Arc<Mutex<History>>;

fn lock(history: &Shared) -> std::sync::MutexGuard<'_, History> {
    // A thread that panicked holding the lock left whole entries: keep checking.
    history.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A socket whose sends drop a seeded fraction of the datagrams.
struct Lossy {
    socket: UdpSocket,
    rng: Rng,
    loss: f32,
    sent: u32,
    dropped: u32,
}

impl Lossy {
    fn new(socket: UdpSocket, seed: u64, loss: f32) -> Self {
        Lossy { socket, rng: Rng::new(seed), loss, sent: 0, dropped: 0 }
    }

    fn send_to(&mut self, datagram: &[u8], to: SocketAddr) -> Result<(), String> {
        self.sent += 1;
        if self.rng.chance(self.loss) {
            self.dropped += 1;
            return Ok(());
        }
        match self.socket.send_to(datagram, to) {
            Ok(_) => Ok(()),
            // The kernel's buffer is full: lost, as on any network.
            Err(e) if e.kind() == ErrorKind::WouldBlock => Ok(()),
            Err(e) => Err(format!("send to {to}: {e}")),
        }
    }
}

/// A socket on the loopback address, on a port the system picks.
fn loopback_socket() -> Result<UdpSocket, String> {
    UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|e| format!("bind 127.0.0.1: {e}"))
}

/// Room for any datagram.
const RECEIVE_BUFFER: usize = 65_536;

/// How long a client waits on its socket before looking whether the run is over.
const POLL: Duration = Duration::from_millis(20);

/// Runs the server and the clients for `settings.ticks` ticks of game time (in real time) and
/// joins every thread.
pub fn run(settings: Settings) -> Result<Report, String> {
    if settings.clients == 0 || settings.clients > Config::default().players {
        return Err(format!(
            "{} clients: 1 to {} (one per player)",
            settings.clients,
            Config::default().players
        ));
    }
    let server_socket = loopback_socket()?;
    server_socket.set_nonblocking(true).map_err(|e| e.to_string())?;
    let server_address = server_socket.local_addr().map_err(|e| e.to_string())?;
    let client_sockets = (0..settings.clients).map(|_| loopback_socket()).collect::<Result<Vec<_>, _>>()?;
    let mut addresses = Vec::new();
    for socket in &client_sockets {
        socket.set_read_timeout(Some(POLL)).map_err(|e| e.to_string())?;
        addresses.push(socket.local_addr().map_err(|e| e.to_string())?);
    }
    let history: Shared = Arc::new(Mutex::new(History {
        worlds: BTreeMap::new(),
        ticks: vec![HashMap::new(); addresses.len()],
    }));
    let done = Arc::new(AtomicBool::new(false));

    let clients: Vec<_> = client_sockets
        .into_iter()
        .enumerate()
        .map(|(index, socket)| {
            let (history, done) = (Arc::clone(&history), Arc::clone(&done));
            let seed = settings.seed.wrapping_mul(0x9E37_79B9).wrapping_add(index as u64) ^ 0xac75;
            let socket = Lossy::new(socket, seed, settings.loss);
            thread::spawn(move || client(index, socket, server_address, &history, &done))
        })
        .collect();
    let server = {
        let history = Arc::clone(&history);
        let socket = Lossy::new(server_socket, settings.seed ^ 0x5e4e4, settings.loss);
        thread::spawn(move || serve(settings, socket, &addresses, &history))
    };
    // The clients stop once the server has, whether it finished or failed.
    let served = server.join();
    done.store(true, Ordering::Release);
    let received: Vec<_> = clients.into_iter().map(|client| client.join()).collect();
    let (sent, write_times, step_times) = served.map_err(|_| "the server thread panicked")??;
    let mut clients = Vec::new();
    for (index, received) in received.into_iter().enumerate() {
        clients.push(received.map_err(|_| format!("client {index}'s thread panicked"))??);
    }
    Ok(Report { settings, sent, received: clients, write_times, step_times })
}

type Served = (Vec<Sent>, Vec<Duration>, Vec<Duration>);

/// The server: each tick, takes the acks that arrived, steps the arena, and sends each client
/// its packet of the entities near its player; then waits for the next tick.
fn serve(
    settings: Settings,
    mut socket: Lossy,
    clients: &[SocketAddr],
    history: &Shared,
) -> Result<Served, String> {
    let mut arena = Arena::new(Config { seed: settings.seed, ..Config::default() });
    let mut senders: Vec<Sender<World>> = clients.iter().map(|_| Sender::new()).collect();
    let mut views: Vec<Near> = clients.iter().map(|_| Near::new(settings.radius)).collect();
    let mut sent = vec![Sent::default(); clients.len()];
    let by_address: HashMap<SocketAddr, usize> = clients.iter().enumerate().map(|(i, &a)| (a, i)).collect();
    let (mut write_times, mut step_times) = (Vec::new(), Vec::new());
    let mut packets = vec![vec![0u8; settings.datagram]; clients.len()];
    let mut incoming = vec![0u8; RECEIVE_BUFFER];
    let period = Duration::from_secs(1) / TICK_RATE;
    let start = Instant::now();
    for tick in 1..=settings.ticks {
        // Acks: whatever arrived since the last tick.
        loop {
            match socket.socket.recv_from(&mut incoming) {
                Ok((len, from)) => {
                    // Only the clients' sockets: anything else on the port is ignored.
                    let Some(&client) = by_address.get(&from) else { continue };
                    let acks = bitpack::decode::<Acks>(&incoming[..len]).map_err(|e| format!("acks: {e}"))?;
                    senders[client].ack(&acks);
                    sent[client].acks += 1;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                // An ICMP "port unreachable" from a client that is gone, on some systems.
                Err(e) if e.kind() == ErrorKind::ConnectionRefused => continue,
                Err(e) => return Err(format!("server receive: {e}")),
            }
        }
        let stepped = Instant::now();
        arena.step();
        step_times.push(stepped.elapsed());
        let world = arena.world();
        {
            let mut history = lock(history);
            history.worlds.insert(world.tick, Arc::new(world.clone()));
            while history.worlds.len() > HISTORY_TICKS {
                history.worlds.pop_first();
            }
            for (client, sender) in senders.iter().enumerate() {
                history.ticks[client].insert(sender.next_sequence(), world.tick);
            }
        }
        let writing = Instant::now();
        let mut lengths = Vec::with_capacity(clients.len());
        for (client, ((sender, view), packet)) in
            senders.iter_mut().zip(&mut views).zip(&mut packets).enumerate()
        {
            // Client `i` follows player `i`.
            view.follow(world, client as u32);
            let len = sender.write_view(world, packet, view).map_err(|e| format!("write: {e}"))?;
            sent[client].held_back += sender.held_back() as u64;
            lengths.push(len);
        }
        write_times.push(writing.elapsed());
        for (client, (&len, packet)) in lengths.iter().zip(&packets).enumerate() {
            let dropped = socket.dropped;
            socket.send_to(&packet[..len], clients[client])?;
            sent[client].bytes += len as u64;
            sent[client].datagrams += 1;
            sent[client].dropped += socket.dropped - dropped;
        }
        if let Some(wait) = (start + period * tick).checked_duration_since(Instant::now()) {
            thread::sleep(wait);
        }
    }
    Ok((sent, write_times, step_times))
}

/// Mismatches said in full, per client.
const MISMATCHES_SAID: usize = 5;

/// A client: decodes each packet that arrives, checks every entity of the state against the
/// server's world at the entity's `updated_at`, and acks. Returns once `done` is set and the
/// socket has been quiet for [`POLL`].
fn client(
    index: usize,
    mut socket: Lossy,
    server: SocketAddr,
    history: &Shared,
    done: &AtomicBool,
) -> Result<Received, String> {
    let mut receiver: Receiver<World> = Receiver::new();
    let mut received = Received::default();
    let mut buf = vec![0u8; RECEIVE_BUFFER];
    let mut entries = Vec::new();
    loop {
        let len = match socket.socket.recv_from(&mut buf) {
            Ok((len, from)) if from == server => len,
            Ok(_) => continue,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                if done.load(Ordering::Acquire) {
                    break;
                }
                continue;
            }
            Err(e) => return Err(format!("client {index} receive: {e}")),
        };
        received.datagrams += 1;
        let fresh = receiver.read(&buf[..len]).map_err(|e| format!("client {index} read: {e}"))?.is_some();
        if fresh {
            received.decoded += 1;
            let world = receiver.latest().ok_or("a decoded state is kept")?;
            let sequence = receiver.latest_sequence().ok_or("a decoded state has a sequence")?;
            entries.clear();
            entries.extend(age::entries(&world.players, &world.mobs));
            received.ages.record(&receiver, entries.iter().copied())?;
            let history = lock(history);
            match history.world(index, sequence) {
                Ok(server) if server.tick == world.tick => {}
                Ok(server) => {
                    received.mismatch(index, sequence, format!("tick {} for {}", world.tick, server.tick))
                }
                Err(what) => received.mismatch(index, sequence, what),
            }
            for &entry in &entries {
                let at = receiver.updated_at(entry).ok_or("an entry held has an updated_at")?;
                received.checked += 1;
                let checked =
                    history.world(index, at).and_then(|server| agree::check_entity(world, server, entry));
                if let Err(what) = checked {
                    received.mismatch(index, sequence, what);
                }
            }
        }
        let acks = bitpack::encode(&receiver.acks()).map_err(|e| e.to_string())?;
        socket.send_to(&acks, server)?;
    }
    received.acks_sent = socket.sent;
    received.acks_dropped = socket.dropped;
    Ok(received)
}
