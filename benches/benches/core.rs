//! Issue-2 benchmarks: the core API beside a hand-written packer doing the
//! same work, in the same run. Each iteration does 64 operations (64 small
//! fields, 64 floats, or 64 whole object messages) and criterion reports
//! time per element, so loop overhead and timer resolution are amortized.

use std::hint::black_box;

use bitpack_benches::hand;
use bitpack_benches::object::{self, BATCH, OBJECT_MAX_BYTES};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn small_fields(c: &mut Criterion) {
    let values = object::sample_small(BATCH, 3);
    let mut encoded = [0u8; 64];
    let used = match object::write_small(&values, &mut encoded) {
        Ok(used) => used,
        Err(error) => panic!("setup: {error}"),
    };
    let encoded = &encoded[..used];
    let mut buf = [0u8; 64];

    let mut group = c.benchmark_group("bits5");
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("write/bitpack", |b| {
        b.iter(|| black_box(object::write_small(black_box(&values), black_box(&mut buf))))
    });
    group.bench_function("write/hand", |b| {
        b.iter(|| black_box(hand::write_small(black_box(&values), black_box(&mut buf))))
    });
    group.bench_function("read/bitpack", |b| {
        b.iter(|| black_box(object::read_small(black_box(encoded), BATCH)))
    });
    group.bench_function("read/hand", |b| b.iter(|| black_box(hand::read_small(black_box(encoded), BATCH))));
    group.finish();
}

fn compressed_floats(c: &mut Criterion) {
    let values = object::sample_positions(BATCH, 4);
    let mut encoded = [0u8; 160];
    let used = match object::write_positions(&values, &mut encoded) {
        Ok(used) => used,
        Err(error) => panic!("setup: {error}"),
    };
    let encoded = &encoded[..used];
    let mut buf = [0u8; 160];

    let mut group = c.benchmark_group("compressed_float");
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("write/bitpack", |b| {
        b.iter(|| black_box(object::write_positions(black_box(&values), black_box(&mut buf))))
    });
    group.bench_function("write/hand", |b| {
        b.iter(|| black_box(hand::write_positions(black_box(&values), black_box(&mut buf))))
    });
    group.bench_function("read/bitpack", |b| {
        b.iter(|| black_box(object::read_positions(black_box(encoded), BATCH)))
    });
    group.bench_function("read/hand", |b| {
        b.iter(|| black_box(hand::read_positions(black_box(encoded), BATCH)))
    });
    group.finish();
}

fn objects(c: &mut Criterion) {
    let items = object::sample_objects(BATCH, 1);
    // Every object encoded in its own slot, for the read benchmarks.
    let mut encoded = vec![[0u8; OBJECT_MAX_BYTES]; BATCH];
    let mut lengths = [0usize; BATCH];
    for ((item, slot), len) in items.iter().zip(&mut encoded).zip(&mut lengths) {
        *len = match object::write_object(item, slot) {
            Ok(used) => used,
            Err(error) => panic!("setup: {error}"),
        };
    }
    let messages: Vec<&[u8]> = encoded.iter().zip(&lengths).map(|(slot, &len)| &slot[..len]).collect();
    let mut buf = [0u8; OBJECT_MAX_BYTES];

    let mut group = c.benchmark_group("object");
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("write/bitpack", |b| {
        b.iter(|| {
            for item in black_box(&items) {
                black_box(object::write_object(item, black_box(&mut buf)).ok());
            }
        })
    });
    group.bench_function("write/hand", |b| {
        b.iter(|| {
            for item in black_box(&items) {
                black_box(hand::write_object(item, black_box(&mut buf)));
            }
        })
    });
    group.bench_function("read/bitpack", |b| {
        b.iter(|| {
            for message in black_box(&messages) {
                black_box(object::read_object(message).ok());
            }
        })
    });
    group.bench_function("read/hand", |b| {
        b.iter(|| {
            for message in black_box(&messages) {
                black_box(hand::read_object(message));
            }
        })
    });
    group.bench_function("count/bitpack", |b| {
        b.iter(|| {
            for item in black_box(&items) {
                black_box(object::count_object(item).ok());
            }
        })
    });
    group.bench_function("count/hand", |b| {
        b.iter(|| {
            for item in black_box(&items) {
                black_box(hand::count_object(item));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, small_fields, compressed_floats, objects);
criterion_main!(benches);
