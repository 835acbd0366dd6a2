//! Issue-13 benchmarks: one client's `Sender::write` (acks arrive before
//! the next tick) against a whole encode of the same world form (`BTreeMap`
//! or sorted `Vec`), in the same run, each timed per tick the same way, over the churning dataset; and the receiver's `read`. Each
//! iteration is one tick; only the call named is timed.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bitpack::sync::{Receiver, Sender};
use bitpack_benches::churn::{self, World};
use criterion::{Criterion, criterion_group, criterion_main};

/// One client's sender and receiver, stepping through the worlds.
struct Client<W> {
    sender: Sender<W>,
    receiver: Receiver<W>,
    next: usize,
    buf: Vec<u8>,
}

impl<W: World> Client<W> {
    fn new() -> Self {
        Client { sender: Sender::new(), receiver: Receiver::new(), next: 0, buf: vec![0u8; 1 << 16] }
    }

    /// Sends the next world; returns the time of the write and of the read.
    fn tick(&mut self, worlds: &[W]) -> (Duration, Duration) {
        let world = &worlds[self.next % worlds.len()];
        self.next += 1;
        let start = Instant::now();
        let used = black_box(self.sender.write(black_box(world), &mut self.buf).expect("writes"));
        let write = start.elapsed();
        let start = Instant::now();
        black_box(self.receiver.read(black_box(&self.buf[..used])).expect("reads").is_some());
        let read = start.elapsed();
        self.sender.ack(&self.receiver.acks());
        (write, read)
    }
}

fn timed<W: World>(worlds: &[W], iters: u64, pick: fn((Duration, Duration)) -> Duration) -> Duration {
    let mut client = Client::new();
    // Warm the rings and buffers up first.
    for _ in 0..64 {
        client.tick(worlds);
    }
    (0..iters).map(|_| pick(client.tick(worlds))).sum()
}

/// Whole encodes of the worlds in turn, timed one tick at a time as
/// [`timed`] times a write.
fn whole<W: World>(worlds: &[W], iters: u64, buf: &mut [u8]) -> Duration {
    (0..iters as usize)
        .map(|tick| {
            let world = &worlds[tick % worlds.len()];
            let start = Instant::now();
            black_box(bitpack::encode_into(black_box(world), buf).expect("encodes"));
            start.elapsed()
        })
        .sum()
}

fn replication(c: &mut Criterion) {
    let worlds = churn::generate(churn::TICKS);
    let vecs = churn::as_vecs(&worlds);
    let mut buf = vec![0u8; 1 << 16];
    let mut group = c.benchmark_group("replicate");
    // Each sender against the whole encode of its own world form.
    group.bench_function("whole/map", |b| b.iter_custom(|iters| whole(&worlds, iters, &mut buf)));
    group.bench_function("whole/sorted_vec", |b| b.iter_custom(|iters| whole(&vecs, iters, &mut buf)));
    group.bench_function("sender/map", |b| b.iter_custom(|iters| timed(&worlds, iters, |(write, _)| write)));
    group.bench_function("sender/sorted_vec", |b| {
        b.iter_custom(|iters| timed(&vecs, iters, |(write, _)| write))
    });
    group.bench_function("receiver/map", |b| b.iter_custom(|iters| timed(&worlds, iters, |(_, read)| read)));
    group.bench_function("receiver/sorted_vec", |b| {
        b.iter_custom(|iters| timed(&vecs, iters, |(_, read)| read))
    });
    group.finish();
}

criterion_group!(benches, replication);
criterion_main!(benches);
