//! The `sync_fragments` fuzz target: the checks live in `logic/sync_fragments.rs`,
//! which the normal test suite also replays on stable (`tests/tests/fuzz_replay.rs`).
#![no_main]

#[path = "../logic/sync_fragments.rs"]
mod logic;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| logic::check(bytes));
