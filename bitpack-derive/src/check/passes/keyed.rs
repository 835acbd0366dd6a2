//! `#[bitpack(key)]` and `#[bitpack(spawn = path)]`: the key on one
//! unsigned integer field of a struct (the type then implements
//! `KeyField`, so a `Vec` of it can be a keyed collection), and `spawn` on
//! keyed collections only.

use crate::check::keyed::UNSIGNED;
use crate::check::passes::field_lists;
use crate::check::planner::{Draft, Planner};
use crate::ir::encoding::Encoding;
use crate::ir::keyed::KeyField;
use crate::parse::ty::{Shape, shape, written};
use crate::parse::{Body, Input};

pub fn run<'a>(planner: &mut Planner<'a>, input: &'a Input<'a>, draft: &mut Draft<'a>) {
    let errors = &mut planner.errors;
    let is_struct = matches!(input.body, Body::Struct(_));
    let mut key_field: Option<KeyField<'a>> = None;
    for (list, planned) in field_lists(input, draft) {
        for (field, planned) in list.fields.iter().zip(&planned.fields) {
            let keyed = &field.attrs.keyed;
            if let Some(spawn) = &keyed.spawn
                && !matches!(planned.encoding, Some(Encoding::Keyed(_)))
            {
                errors.at(
                    spawn.name.span(),
                    "`spawn` applies to keyed collections only: a bare #[change_group] on a `BTreeMap` or \
                     a `Vec` of entries, with max_len; remove it",
                );
            }
            let Some(key) = &keyed.key else { continue };
            if !is_struct {
                errors.at(key.span(), "`key` goes on a struct's field, not on an enum variant's; remove it");
            } else if field.attrs.skip.is_some() {
                errors
                    .at(key.span(), "a skipped field is not written, so it cannot be the key; remove `key`");
            } else if key_field.is_some() {
                errors.at(key.span(), "one field is the key; remove `key` from all but one");
            } else if !matches!(shape(field.ty), Shape::Int(int) if !int.signed())
                && !matches!(shape(field.ty), Shape::Nested)
            {
                errors.at(
                    key.span(),
                    format!(
                        "`key` needs an unsigned integer field ({UNSIGNED}), not `{}`",
                        written(field.ty)
                    ),
                );
            } else {
                key_field = Some(KeyField { member: field.member.clone(), ty: field.ty });
            }
        }
    }
    draft.key_field = key_field;
}
