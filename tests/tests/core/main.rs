//! The core packer and the wire of plain and derived values: round trips,
//! bulk paths, refusals, rollback, allocation bounds, the reference vectors
//! and the fuzz targets' replays. One test binary (one link) for what used
//! to be one binary per file; each file is a module named as before, so
//! `cargo test -p bitpack-tests --test core bulk_prefix` runs one file's tests.

// The fuzz targets' shared checks: `fuzz/logic/` reaches them as `crate::bits`.
#[path = "../../../fuzz/logic/bits.rs"]
mod bits;
mod bulk_support;
// A counting global allocator, shared with the other test binaries; it counts
// per thread, so the tests around the allocation bounds run alongside the rest.
#[path = "../counting_allocator/mod.rs"]
mod counting_allocator;

mod bit_read;
mod bulk_prefix;
mod bulk_sequences;
mod bulk_vecs;
mod canonical;
mod columns;
mod core_no_alloc;
mod core_roundtrip;
mod decode_budget;
mod fuzz_replay;
mod general_vecs;
mod held_items;
mod inline_text;
mod optional_enums;
mod quantize_top;
mod relative_rate;
mod rollback;
mod string_nul;
mod vectors;
