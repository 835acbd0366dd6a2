//! The derive: derived types against hand-written core calls, fused runs and
//! blocks, the types games hold (glam, mint, quaternions, std), adaptive
//! integers and the generated code's hygiene. One test binary (one link) for
//! what used to be one binary per file; each file is a module named as
//! before, so `cargo test -p bitpack-tests --test derive adaptive_props` runs
//! one file's tests.

mod adaptive_support;
// A counting global allocator, shared with the other test binaries; it counts
// per thread, so the tests around the allocation bounds run alongside the rest.
#[path = "../counting_allocator/mod.rs"]
mod counting_allocator;
mod derive_types;
mod outcomes;
mod types_support;

mod adaptive;
mod adaptive_alloc;
mod adaptive_derive;
mod adaptive_groups;
mod adaptive_len;
mod adaptive_props;
mod adaptive_sizes;
mod derive;
mod derive_alloc;
mod derive_blocks;
mod derive_player;
mod derive_reserve;
mod derive_runs;
mod hygiene;
mod types_cube;
mod types_derive;
mod types_glam;
mod types_mint;
mod types_quaternion;
mod types_std;
