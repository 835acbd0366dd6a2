//! The `decode_columns` fuzz target: the checks live in `logic/decode_columns.rs`, which the
//! normal test suite also replays on stable (`tests/tests/core/fuzz_replay.rs`).
#![no_main]

#[path = "../logic/bits.rs"]
mod bits;
#[path = "../logic/decode_columns.rs"]
mod logic;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| logic::check(bytes));
