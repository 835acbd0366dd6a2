//! Workloads for the bitpack benchmarks, shared by the criterion benches,
//! the `sizes` binary and the tests that keep the comparisons fair.
//!
//! - [`object`]: the issue-2 workloads (a 5-bit field, a compressed float,
//!   a 14-field object) written with the core API.
//! - [`hand`]: the same workloads packed by hand, the speed reference.

pub mod hand;
pub mod object;
