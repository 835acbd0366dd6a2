//! The `read_ops` fuzz target: the checks live in `logic/read_ops.rs`, which the
//! normal test suite also replays on stable (`tests/tests/core/fuzz_replay.rs`).
#![no_main]

#[path = "../logic/bits.rs"]
mod bits;
#[path = "../logic/read_ops.rs"]
mod logic;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| logic::check(bytes));
