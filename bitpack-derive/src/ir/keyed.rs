//! Keyed collections: a `#[change_group]` `BTreeMap<K, V>` or a `Vec<V>`
//! kept sorted by `V`'s `#[bitpack(key)]` field, with `max_len`. Whole, the
//! length and the entries in key order; as a delta, only the entries that
//! changed, spawned or despawned (the runtime's `keyed` module).

use crate::ir::consts::ConstName;
use syn::{Expr, Member, Type};

/// A keyed collection field.
pub struct Keyed<'a> {
    pub form: Form<'a>,
    /// The entries' type `V`.
    pub value: &'a Type,
    pub max_len: ConstName,
    /// `#[bitpack(spawn = path)]`: what new entries are sent against
    /// (`None`: `V::default()`).
    pub spawn: Option<&'a Expr>,
}

/// Where the keys are.
pub enum Form<'a> {
    /// `BTreeMap<K, V>`: the map's keys, of type `key`.
    Map { key: &'a Type },
    /// `Vec<V>`: each value's `#[bitpack(key)]` field (`V: KeyField`).
    SortedVec,
}

/// `#[bitpack(key)]` on a struct's field: the type implements `KeyField`.
pub struct KeyField<'a> {
    pub member: Member,
    pub ty: &'a Type,
}
