//! `#[bitpack(columns)]` on the type: the type also implements `Columns`,
//! one column per leaf of its fields, so every field must be something a
//! column holds; generic types and enums without variants are refused.

use crate::check::passes::field_lists;
use crate::check::planner::{Draft, Planner};
use crate::ir::columns::unsupported;
use crate::ir::encoding::Encoding;
use crate::parse::{Body, Input};

pub fn run<'a>(planner: &mut Planner<'a>, input: &'a Input<'a>, draft: &mut Draft<'a>) {
    let Some(columns) = &input.attrs.columns else { return };
    let errors = &mut planner.errors;
    if !input.original.generics.params.is_empty() {
        errors.at(
            columns.span(),
            "`columns` on the type does not take generic types yet; put `columns` on the collection fields",
        );
    }
    if let Body::Enum(variants) = &input.body
        && variants.is_empty()
    {
        errors.at(
            columns.span(),
            "`columns` on an enum without variants: there is nothing to write; remove it",
        );
    }
    for (list, planned) in field_lists(input, draft) {
        for (field, planned) in list.fields.iter().zip(&planned.fields) {
            // A collection field's own element was checked when it was planned.
            let Some(encoding) = &planned.encoding else { continue };
            if matches!(encoding, Encoding::Columns(_)) {
                continue;
            }
            if let Some(why) = unsupported(encoding) {
                errors.spanned(
                    field.ty,
                    format!(
                        "a column cannot hold {why} yet: the type's `columns` writes every field as a column; \
                         remove it"
                    ),
                );
            }
        }
    }
}
