//! The benchmarks' datasets and the figures `benches/README.md` quotes: each
//! dataset is deterministic and shaped as its issue asks, every peer and the
//! hand packer agree with bitpack, and the quoted sizes hold. One test binary
//! (one link) for what used to be one binary per file; each file is a module
//! named as before, so `cargo test -p bitpack-benches --test figures churn`
//! runs one file's tests.

mod churn;
mod columns;
mod cubes;
mod dataset;
mod delta_estimate;
mod fast_paths;
mod hand_matches_bitpack;
mod peers_agree;
mod stream;
