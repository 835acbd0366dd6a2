//! Workloads for the bitpack benchmarks, shared by the criterion benches,
//! the `sizes` binary and the tests that keep the comparisons fair.
//!
//! Issue 2 (the core API):
//! - [`object`]: a 5-bit field, a compressed float and a 14-field object
//!   written with the core API.
//! - [`hand`]: the same workloads packed by hand, the speed reference.
//!
//! Issue 6 (against other serializers):
//! - [`dataset`]: 60 snapshots of 256 entities and 60 inputs, from a fixed seed.
//! - [`quantized`]: the pre-quantized integer twin of the dataset.
//! - [`proto`]: protobuf messages for both, derived by hand with prost.
//!   The dataset types derive `BitPack`: that is bitpack's side of the comparison.
//! - [`hand_game`]: the hand packer for snapshots and inputs.
//! - [`peers`]: every encoding behind one interface, buffers reused.
//! - [`stream`]: bitpack's tracked change-group and baseline-delta streams.
//! - [`delta_estimate`]: the delta stream's size counted by hand, to check it.
//!
//! Issue 12 (the types games hold):
//! - [`cubes`]: Glenn Fiedler's 901 cubes, uncompressed, quantized and as
//!   deltas, on a deterministic falling-and-settling scene.
//!
//! Issue 13 (replicating a world):
//! - [`churn`]: the dataset with entities spawning and despawning, keyed by
//!   id, sent to a client by `bitpack::sync` over a lossy link.
//!
//! Issue 16 (column widths, no ranges declared), each declared in the row,
//! adaptive and columns layouts:
//! - [`mk48`]: an mk48.io-like world update.
//! - [`weblog`]: a web server's access log.
//! - [`unranged`]: the issue-6 snapshots as integers, without ranges.

pub mod churn;
pub mod cubes;
pub mod dataset;
pub mod delta_estimate;
pub mod general;
pub mod hand;
pub mod hand_game;
pub mod mk48;
pub mod object;
pub mod peers;
pub mod proto;
pub mod quantized;
pub mod rng;
pub mod stream;
pub mod unranged;
pub mod weblog;
