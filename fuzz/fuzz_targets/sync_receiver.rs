//! The `sync_receiver` fuzz target: the checks live in `logic/sync_receiver.rs`,
//! which the normal test suite also replays on stable (`tests/tests/fuzz_replay.rs`).
#![no_main]

#[path = "../logic/bits.rs"]
mod bits;
#[path = "../logic/sync_receiver.rs"]
mod logic;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| logic::check(bytes));
