//! Throwaway: N rounds of the core read workloads, for callgrind.
use bitpack_benches::object::{self, BATCH, OBJECT_MAX_BYTES};
use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap();
    let rounds: usize = args.next().unwrap().parse().unwrap();
    let small = object::sample_small(BATCH, 3);
    let mut small_buf = [0u8; 64];
    let small_used = object::write_small(&small, &mut small_buf).unwrap();
    let floats = object::sample_positions(BATCH, 4);
    let mut float_buf = [0u8; 160];
    let float_used = object::write_positions(&floats, &mut float_buf).unwrap();
    let items = object::sample_objects(BATCH, 1);
    let mut encoded = vec![[0u8; OBJECT_MAX_BYTES]; BATCH];
    let mut lengths = [0usize; BATCH];
    for ((item, slot), len) in items.iter().zip(&mut encoded).zip(&mut lengths) {
        *len = object::write_object(item, slot).unwrap();
    }
    let messages: Vec<&[u8]> = encoded.iter().zip(&lengths).map(|(s, &l)| &s[..l]).collect();
    for _ in 0..rounds {
        match which.as_str() {
            "bits5" => { black_box(object::read_small(black_box(&small_buf[..small_used]), BATCH).ok()); }
            "float" => { black_box(object::read_positions(black_box(&float_buf[..float_used]), BATCH).ok()); }
            "object" => { for m in black_box(&messages) { black_box(object::read_object(m).ok()); } }
            _ => panic!(),
        }
    }
}
