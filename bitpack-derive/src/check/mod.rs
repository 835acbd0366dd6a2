//! The check layer: checks the parsed input and plans its wire layout
//! (`ir::Plan`). Every mistake is recorded, at the narrowest span that
//! names it, and all are returned together: a user fixing one never meets a
//! surprise second round.
//!
//! The driver plans each field through the [`RULES`](rules::RULES), in
//! order (`planner`, with `reach` for the attributes that reach a value),
//! then runs the [`PASSES`] over the whole body, as serde's `check.rs` runs
//! its checks.

mod keyed;
mod passes;
mod planner;
mod reach;
mod rules;

use crate::check::planner::{Draft, Pass, Planner};
use crate::check::reach::TypeAdaptive;
use crate::errors::Errors;
use crate::ir::runtime::Runtime;
use crate::ir::{self, Plan};
use crate::parse::{Body, Input};

/// The passes, in order.
const PASSES: &[Pass] = &[
    passes::recursion::run,
    passes::adaptive_groups::run,
    max_bytes,
    passes::change_groups::run,
    passes::keyed::run,
    passes::columns::run,
    passes::runs::run,
];

/// Plans `input`, or returns every mistake in it (with those `errors`
/// already found while parsing).
pub fn plan<'a>(input: &'a Input<'a>, mut errors: Errors) -> Result<Plan<'a>, syn::Error> {
    let adaptive = TypeAdaptive::new(&input.attrs, &input.body, &mut errors);
    let mut planner = Planner::new(errors, adaptive, &[keyed::plan], rules::RULES);
    planner.columns = input.attrs.columns.as_ref();
    let body = match &input.body {
        Body::Struct(fields) => Some(ir::Body::Struct(planner.fields(fields))),
        Body::Enum(variants) => Some(ir::Body::Enum(
            variants
                .iter()
                .map(|variant| ir::Variant {
                    ident: &variant.original.ident,
                    fields: planner.fields(&variant.fields),
                })
                .collect(),
        )),
        Body::Union(token) => {
            planner.errors.spanned(
                token,
                "unions are not supported: a reader cannot know which field was written; use an enum",
            );
            None
        }
    };
    let mut draft = Draft { body, max_bytes: None, changes: None, key_field: None };
    for pass in PASSES {
        pass(&mut planner, input, &mut draft);
    }
    let (errors, consts, checks) = planner.finish();
    errors.finish()?;
    let Some(body) = draft.body else {
        // Unreachable: a union always records an error above.
        return Err(syn::Error::new_spanned(&input.original.ident, "cannot derive BitPack here"));
    };
    Ok(Plan {
        input: input.original,
        runtime: Runtime::new(input.attrs.krate()),
        max_bytes: draft.max_bytes,
        body,
        consts,
        checks,
        changes: draft.changes,
        key_field: draft.key_field,
        columns: input.attrs.columns.is_some(),
    })
}

/// `#[bitpack(max_bytes = N)]`: a length, checked against `MAX_BITS` at compile time.
fn max_bytes<'a>(planner: &mut Planner<'a>, input: &'a Input<'a>, draft: &mut Draft<'a>) {
    draft.max_bytes = input.attrs.max_bytes.as_ref().map(|setting| {
        let name = planner.length(setting, "max_bytes");
        (name, setting.name.span())
    });
}
