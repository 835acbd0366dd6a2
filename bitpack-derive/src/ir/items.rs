//! What goes on the wire, in order: the items of a field list (for
//! `write_to`/`read_from`) and those of its change groups (for the
//! `ChangeGroups` impl). Fields are named by their position.

use crate::ir::adaptive::{Adaptive, GroupLen};
use crate::ir::consts::ConstName;
use crate::ir::encoding::Encoding;
use crate::parse::ty::IntTy;
use proc_macro2::Span;

/// One step of a field list's wire.
#[derive(Clone)]
pub enum Item {
    /// One field, as its encoding says.
    Field(usize),
    /// Consecutive fixed-width fields (two or more scalars between them),
    /// written and read as one, falling back to their own writes and reads.
    Run(Vec<usize>),
    /// `adaptive(group = name)`: its fields' values as one group, where the
    /// first of them stands.
    AdaptiveGroup(FieldGroup),
}

/// The fields of an adaptive field group: plain integers of one type, each
/// planned as `Adaptive::Int`, on the wire as an array of their values.
#[derive(Clone)]
pub struct FieldGroup {
    pub ty: IntTy,
    pub positions: Vec<usize>,
}

impl FieldGroup {
    /// The group's encoding: that of an array of its values.
    pub fn encoding(&self) -> Encoding<'static> {
        Encoding::Adaptive(Adaptive::Group { ty: self.ty, len: GroupLen::Fields(self.positions.len()) })
    }
}

impl Item {
    /// The first field it writes.
    pub fn first(&self) -> Option<usize> {
        match self {
            Item::Field(position) => Some(*position),
            Item::Run(positions) | Item::AdaptiveGroup(FieldGroup { positions, .. }) => {
                positions.first().copied()
            }
        }
    }
}

/// The change-group layout of a struct.
///
/// The wire, in field order: a field outside any group is written as in
/// `write_to`; a group is one flag bit at its first field, then (if set)
/// all its fields in order; a bare `#[change_group]` on a field of a named
/// type nests that type's own groups after the flag (the type must
/// implement `ChangeGroups`); a bare `#[change_group]` on a `BTreeMap`,
/// or on a `Vec` of a named type, is a keyed collection; a named group
/// sends any field whole.
pub struct Changes {
    pub items: Vec<ChangeItem>,
    /// Per field: where `relative` was written (the field then codes against
    /// its baseline in deltas).
    pub relative: Vec<Option<Span>>,
    /// Per field: `relative(rate = field, dt = D)`, a relative float (or
    /// float vector, axis by axis) coded against the baseline moved by the
    /// baseline's `rate` times `dt`.
    pub predictions: Vec<Option<Predict>>,
    /// Flag records: one per group, nested ones included.
    pub records: usize,
}

/// A checked `relative(rate = field, dt = D)`: the rate field (quantized,
/// of the same float type, axes and length) and the constant holding `D`.
pub struct Predict {
    pub rate: usize,
    pub dt: ConstName,
}

pub enum ChangeItem {
    /// A field outside any group: always written.
    Always(usize),
    /// A group's record and its fields.
    Group(Group),
    /// A nested change-group field: its outer record and its tracker's slot.
    Nested { record: usize, slot: usize, field: usize },
    /// A keyed collection (its field's encoding is `Encoding::Keyed`):
    /// tracked, one group sent whole; in a delta, its own flag and entries.
    Keyed { record: usize, field: usize },
}

pub struct Group {
    pub record: usize,
    pub fields: Vec<usize>,
    /// The fields' wire (fused into runs where they can be).
    pub items: Vec<Item>,
    /// The same in a delta: `relative` fields stand alone, coded against
    /// the baseline.
    pub delta: Vec<Item>,
}
