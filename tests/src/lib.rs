//! Integration tests live in `tests/`; this library holds what their test
//! binaries share.

/// The environment variable that runs every property test and replay loop at
/// its full count (`.ci/deep` sets it); unset, they run in seconds.
const DEEP: &str = "BITPACK_DEEP_TESTS";

/// How many cases a property test or replay loop runs: `full` when
/// `BITPACK_DEEP_TESTS=1`, else an eighth of it (at least 16, never more than
/// `full`), so `cargo test --workspace` stays quick and a nightly-style run
/// still covers the full count.
pub fn cases(full: u32) -> u32 {
    if std::env::var_os(DEEP).is_some_and(|value| value == "1") { full } else { (full / 8).max(16).min(full) }
}
