//! The passes over the planned body, in the order of
//! [`PASSES`](crate::check::PASSES): checks and layout that span several
//! fields, run once every field has its encoding.

pub mod adaptive_groups;
pub mod change_groups;
pub mod columns;
pub mod keyed;
pub mod recursion;
pub mod runs;

use crate::check::planner::Draft;
use crate::ir::{self, Body};
use crate::parse::{self, FieldList};

/// Each field list of the input beside its plan (none for a union).
pub fn field_lists<'d, 'a>(
    input: &'a parse::Input<'a>,
    draft: &'d mut Draft<'a>,
) -> Vec<(&'a FieldList<'a>, &'d mut ir::Fields<'a>)> {
    match (&input.body, draft.body.as_mut()) {
        (parse::Body::Struct(list), Some(Body::Struct(fields))) => vec![(list, fields)],
        (parse::Body::Enum(variants), Some(Body::Enum(planned))) => variants
            .iter()
            .zip(planned.iter_mut())
            .map(|(variant, planned)| (&variant.fields, &mut planned.fields))
            .collect(),
        _ => Vec::new(),
    }
}
