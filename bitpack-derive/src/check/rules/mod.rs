//! The rules that decide a value's encoding, one file each, tried in the
//! order of [`RULES`]: the first that takes a value decides; a rule that
//! finds its attribute on the wrong type reports it and lets the later
//! rules encode the value as if the attribute were not there.
//!
//! A new encoding is a new rule here (and its place in [`RULES`]), a new
//! variant in `ir::encoding` and a new codec in `expand::codec`.

mod adaptive;
mod collections;
mod columns;
mod containers;
mod fixed;
mod plain;
mod quantized;
mod ranged;
mod rotation;
mod text;
mod vector;
mod with;

use crate::check::planner::Rule;

/// `with` first (it takes the whole field), then `columns` (it takes the
/// outermost collection, and plans its element through the rest), then fixed point and adaptive
/// (they take integers and floats that would otherwise be plain), then the
/// attributes (vectors and quaternions before the scalars), then the
/// collections and containers (which plan their values through these same
/// rules), then plain types.
pub const RULES: &[Rule] = &[
    with::plan,
    columns::plan,
    fixed::plan,
    adaptive::plan,
    rotation::plan,
    vector::plan,
    ranged::plan,
    quantized::plan,
    text::plan,
    collections::plan,
    containers::plan,
    plain::plan,
];
