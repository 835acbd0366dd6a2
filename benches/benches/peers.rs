//! Issue-6 benchmarks: encode and decode per snapshot and per input for
//! bitpack, the hand packer and every peer (floats and integer twins).
//! Each iteration handles all 60 messages of the dataset; criterion reports
//! time per message.

use std::hint::black_box;

use bitpack_benches::dataset;
use bitpack_benches::peers::{self, Contender};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn bench_kind(c: &mut Criterion, kind: &str, mut contenders: Vec<Box<dyn Contender>>) {
    for contender in &mut contenders {
        if let Err(error) = contender.prepare() {
            panic!("setup: {error}");
        }
    }
    let mut group = c.benchmark_group(format!("{kind}/encode"));
    for contender in &mut contenders {
        let count = contender.len();
        group.throughput(Throughput::Elements(count as u64));
        group.bench_function(contender.name(), |b| {
            b.iter(|| {
                for index in 0..count {
                    black_box(contender.encode(black_box(index)).map(<[u8]>::len).ok());
                }
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group(format!("{kind}/decode"));
    for contender in &mut contenders {
        let count = contender.len();
        group.throughput(Throughput::Elements(count as u64));
        group.bench_function(contender.name(), |b| {
            b.iter(|| {
                for index in 0..count {
                    black_box(contender.decode_only(black_box(index)).is_ok());
                }
            })
        });
    }
    group.finish();
}

fn snapshots(c: &mut Criterion) {
    let data = dataset::generate();
    bench_kind(c, "snapshot", peers::snapshot_contenders(&data));
}

fn inputs(c: &mut Criterion) {
    let data = dataset::generate();
    bench_kind(c, "input", peers::input_contenders(&data));
}

criterion_group!(benches, snapshots, inputs);
criterion_main!(benches);
