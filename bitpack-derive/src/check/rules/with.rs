//! `#[bitpack(with = module)]`: the whole field through a module's `write`,
//! `read`, `MAX_BITS`, `MIN_BITS` and `SCHEMA` (any type, a foreign one
//! included), checked by the compiler where the attribute is. It takes the
//! field as it is, so attributes beside it are mistakes.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::{Mode, Used};
use crate::ir::consts::Check;
use crate::ir::encoding::{Encoding, With};
use proc_macro2::Span;
use quote::ToTokens;

pub fn plan<'a>(planner: &mut Planner<'a>, slot: &Slot<'a>, used: &mut Used) -> Option<Encoding<'a>> {
    let (reach, with) = (slot.reach, slot.reach.with?);
    let beside: [(Option<Span>, &mut bool, &str); 6] = [
        (reach.bits.map(|bits| bits.name.span()), &mut used.bits, "#[bits]"),
        (reach.quantize.map(|quantize| quantize.name.span()), &mut used.quantize, "#[quantize]"),
        (reach.rotation.map(|rotation| rotation.name.span()), &mut used.rotation, "#[quantize]"),
        (reach.fixed.map(|fixed| fixed.name.span()), &mut used.fixed, "#[quantize]"),
        (reach.max_len.map(|max_len| max_len.name.span()), &mut used.max_len, "`max_len`"),
        (
            match reach.adaptive {
                Some(Mode::Explicit(adaptive)) => Some(adaptive.span()),
                _ => None,
            },
            &mut used.adaptive,
            "`adaptive`",
        ),
    ];
    let module = with.value.to_token_stream().to_string().replace(' ', "");
    for (span, used, attribute) in beside {
        if let Some(span) = span {
            *used = true;
            planner.errors.at(
                span,
                format!("`with = {module}` sends the field through `{module}` alone; remove {attribute}"),
            );
        }
    }
    planner.checks.push(Check::With { path: with.value.clone() });
    Some(Encoding::With(With { ty: slot.ty, path: &with.value }))
}
