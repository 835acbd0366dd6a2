//! Issue 15's general data at full width ([`bitpack_benches::general`]): a
//! world update of 256 entities (`Vec<bool>`, `Vec<u16>`, optional enums),
//! 256 web-log records (short strings) and 256 records (`Vec<bool>`,
//! `Vec<u8>`), encoded and decoded by bitpack
//! and by bitcode in the same run, buffers reused.

use std::hint::black_box;

use bitpack::{BitPack, BitReader, BitWriter};
use bitpack_benches::general;
use criterion::{Criterion, criterion_group, criterion_main};

fn compare<T>(c: &mut Criterion, name: &str, value: &T)
where
    T: BitPack + bitcode::Encode + for<'a> bitcode::Decode<'a>,
{
    let mut buf = vec![0u8; 64 * 1024];
    let used = {
        let mut writer = BitWriter::new(&mut buf);
        value.write_to(&mut writer).expect("fits");
        writer.finish().expect("fits")
    };
    let bytes = buf[..used].to_vec();
    let mut coder = bitcode::Buffer::new();
    let encoded = coder.encode(value).to_vec();
    let mut group = c.benchmark_group(name);
    group.bench_function("bitpack encode", |b| {
        b.iter(|| {
            let mut writer = BitWriter::new(&mut buf);
            black_box(value).write_to(&mut writer).expect("fits");
            black_box(writer.finish().expect("fits"))
        })
    });
    group.bench_function("bitcode encode", |b| b.iter(|| black_box(coder.encode(black_box(value)).len())));
    group.bench_function("bitpack decode", |b| {
        b.iter(|| T::read_from(&mut BitReader::new(black_box(&bytes))).expect("reads back"))
    });
    group.bench_function("bitcode decode", |b| {
        b.iter(|| coder.decode::<T>(black_box(&encoded)).expect("decodes"))
    });
    group.finish();
}

fn general_data(c: &mut Criterion) {
    compare(c, "world", &general::world());
    compare(c, "logs", &general::logs());
    compare(c, "records", &general::records());
}

criterion_group!(benches, general_data);
criterion_main!(benches);
