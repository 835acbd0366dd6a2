//! The `adaptive_and_changes` fuzz target: the checks live in `logic/adaptive_and_changes.rs`, which the
//! normal test suite also replays on stable (`tests/tests/core/fuzz_replay.rs`).
#![no_main]

#[path = "../logic/bits.rs"]
mod bits;
#[path = "../logic/adaptive_and_changes.rs"]
mod logic;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    logic::check(bytes);
    logic::check_delta_exactly(bytes);
});
