//! Change groups and the `bitpack::sync` layer built on them: tracked and
//! derived groups, their codes, loss and refusals, then senders and receivers
//! over lossy links, budgets, keyed collections and hostile bytes. One test
//! binary (one link) for what used to be one binary per file; each file is a
//! module named as before, so `cargo test -p bitpack-tests --test sync
//! sync_keyed` runs one file's tests.

// Hand-written change groups, their random source and loss model; the sync
// helpers build on them.
mod change_groups_common;
// A counting global allocator, shared with the other test binaries; it counts
// per thread, so the tests around the allocation bounds run alongside the rest.
#[path = "../counting_allocator/mod.rs"]
mod counting_allocator;
mod sync_common;

mod change_groups_codes;
mod change_groups_derive;
mod change_groups_errors;
mod change_groups_loss;
mod change_groups_no_alloc;
mod change_groups_seed;
mod change_groups_world;
mod sync_alloc;
mod sync_budget;
mod sync_flat;
mod sync_hostile;
mod sync_keyed;
mod sync_link;
mod sync_types;
