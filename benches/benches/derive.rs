//! A derived 14-field object (3 bools, 5 ranged ints, 4 quantized floats, a
//! u64 and a 9-byte string) written, read and measured, beside the same
//! fields written by hand with core calls in the same run.

use std::hint::black_box;

use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, Error};
use criterion::{Criterion, criterion_group, criterion_main};

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Object {
    alive: bool,
    visible: bool,
    firing: bool,
    #[bits(min = 0, max = 1000)]
    health: i32,
    #[bits(min = 0, max = 255)]
    ammo: u16,
    #[bits(min = -100, max = 100)]
    pitch: i8,
    #[bits(min = 0, max = 3)]
    team: u8,
    #[bits(min = 0, max = 100_000)]
    score: u32,
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    x: f32,
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    y: f32,
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    z: f32,
    #[quantize(min = 0.0, max = 360.0, res = 0.1)]
    heading: f32,
    id: u64,
    #[bitpack(max_len = 16)]
    name: String,
}

fn object() -> Object {
    Object {
        alive: true,
        visible: false,
        firing: true,
        health: 750,
        ammo: 31,
        pitch: -12,
        team: 2,
        score: 12_345,
        x: 12.5,
        y: -300.25,
        z: 3.75,
        heading: 271.3,
        id: 0xDEAD_BEEF_0BAD_CAFE,
        name: "player_42".to_owned(),
    }
}

/// The same wire, one core call at a time.
#[inline]
fn write_by_hand<W: BitWrite>(o: &Object, w: &mut W) -> Result<(), Error> {
    w.write_bool(o.alive)?;
    w.write_bool(o.visible)?;
    w.write_bool(o.firing)?;
    w.write_int(o.health, 0, 1000)?;
    w.write_int(i32::from(o.ammo), 0, 255)?;
    w.write_int(i32::from(o.pitch), -100, 100)?;
    w.write_int(i32::from(o.team), 0, 3)?;
    w.write_int64(i64::from(o.score), 0, 100_000)?;
    w.write_compressed_float(o.x, -1024.0, 1024.0, 0.01)?;
    w.write_compressed_float(o.y, -1024.0, 1024.0, 0.01)?;
    w.write_compressed_float(o.z, -64.0, 64.0, 0.01)?;
    w.write_compressed_float(o.heading, 0.0, 360.0, 0.1)?;
    w.write_u64(o.id)?;
    w.write_str(&o.name, 16)
}

#[inline]
fn read_by_hand(r: &mut BitReader<'_>) -> Result<Object, Error> {
    let out_of_range = |r: &BitReader<'_>| Error::new(bitpack::ErrorKind::OutOfRange, r.bits_read());
    Ok(Object {
        alive: r.read_bool()?,
        visible: r.read_bool()?,
        firing: r.read_bool()?,
        health: r.read_int(0, 1000)?,
        ammo: u16::try_from(r.read_int(0, 255)?).map_err(|_| out_of_range(r))?,
        pitch: i8::try_from(r.read_int(-100, 100)?).map_err(|_| out_of_range(r))?,
        team: u8::try_from(r.read_int(0, 3)?).map_err(|_| out_of_range(r))?,
        score: u32::try_from(r.read_int64(0, 100_000)?).map_err(|_| out_of_range(r))?,
        x: r.read_compressed_float(-1024.0, 1024.0, 0.01)?,
        y: r.read_compressed_float(-1024.0, 1024.0, 0.01)?,
        z: r.read_compressed_float(-64.0, 64.0, 0.01)?,
        heading: r.read_compressed_float(0.0, 360.0, 0.1)?,
        id: r.read_u64()?,
        name: r.read_str(16)?.to_owned(),
    })
}

fn bench(c: &mut Criterion) {
    let value = object();
    let mut derived = [0u8; 64];
    let used = bitpack::encode_into(&value, &mut derived).expect("fits");
    let mut by_hand = [0u8; 64];
    let mut writer = BitWriter::new(&mut by_hand);
    write_by_hand(&value, &mut writer).expect("fits");
    assert_eq!(writer.finish().expect("fits"), used);
    assert_eq!(derived[..used], by_hand[..used], "the derive writes what the hand-written calls write");

    let mut group = c.benchmark_group("derive_object14");
    let mut buf = [0u8; 64];
    group.bench_function("write/derived", |b| {
        b.iter(|| {
            let mut writer = BitWriter::new(black_box(&mut buf));
            black_box(&value).write_to(&mut writer).expect("fits");
            writer.finish().expect("fits")
        })
    });
    group.bench_function("write/by_hand", |b| {
        b.iter(|| {
            let mut writer = BitWriter::new(black_box(&mut buf));
            write_by_hand(black_box(&value), &mut writer).expect("fits");
            writer.finish().expect("fits")
        })
    });
    group.bench_function("read/derived", |b| {
        b.iter(|| Object::read_from(&mut BitReader::new(black_box(&derived[..used]))).expect("valid"))
    });
    group.bench_function("read/by_hand", |b| {
        b.iter(|| read_by_hand(&mut BitReader::new(black_box(&derived[..used]))).expect("valid"))
    });
    group.bench_function("measure/derived", |b| {
        b.iter(|| {
            let mut counter = BitCounter::new();
            black_box(&value).write_to(&mut counter).expect("counts");
            counter.bits_written()
        })
    });
    group.bench_function("measure/by_hand", |b| {
        b.iter(|| {
            let mut counter = BitCounter::new();
            write_by_hand(black_box(&value), &mut counter).expect("counts");
            counter.bits_written()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
