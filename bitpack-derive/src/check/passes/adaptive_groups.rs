//! Adaptive field groups: `adaptive(group = name)` on fields, and
//! `adaptive(group)` on a struct (every plain integer field that takes the
//! type's `adaptive`). Each group must be two or more plain integers of one
//! type in one struct or variant, in a type without change groups; it
//! becomes one item, where its first field stands, written exactly as an
//! array of its values would be. Then the type's `adaptive` is reported if
//! it reached nothing.

use crate::check::passes::field_lists;
use crate::check::planner::{Draft, Planner};
use crate::ir;
use crate::ir::adaptive::Adaptive;
use crate::ir::encoding::Encoding;
use crate::ir::items::{FieldGroup, Item};
use crate::parse::ty::{IntTy, member_name, written};
use crate::parse::{FieldList, Input};
use syn::{Ident, Member};

pub fn run<'a>(planner: &mut Planner<'a>, input: &'a Input<'a>, draft: &mut Draft<'a>) {
    for (list, fields) in field_lists(input, draft) {
        group_fields(planner, list, fields);
    }
    planner.adaptive.report_unreached(&mut planner.errors);
}

/// One group of fields, as written: where its name (or the type's `group`)
/// was written, and the positions of its fields.
struct Marked<'a> {
    name: &'a Ident,
    /// Named on the fields (`adaptive(group = name)`), not by the type.
    named: bool,
    positions: Vec<usize>,
}

fn group_fields<'a>(planner: &mut Planner<'a>, list: &'a FieldList<'a>, fields: &mut ir::Fields<'a>) {
    let mut groups: Vec<Marked<'a>> = Vec::new();
    for (position, field) in list.fields.iter().enumerate() {
        let Some(name) = &field.attrs.adaptive_group else { continue };
        match groups.iter_mut().find(|group| group.name == name) {
            Some(group) => group.positions.push(position),
            None => groups.push(Marked { name, named: true, positions: vec![position] }),
        }
    }
    if let Some(group) = planner.adaptive.group {
        // The integers the type's `adaptive` reached (no attribute of their own).
        let positions = list
            .fields
            .iter()
            .zip(&fields.fields)
            .enumerate()
            .filter(|(_, (field, planned))| {
                field.attrs.adaptive.is_none()
                    && matches!(planned.encoding, Some(Encoding::Adaptive(Adaptive::Int(_))))
            })
            .map(|(position, _)| position)
            .collect::<Vec<_>>();
        if positions.len() == 1 || (positions.is_empty() && planner.adaptive.reached) {
            planner.errors.at(
                group.span(),
                format!(
                    "`adaptive(group)` found {} plain integer field{} to group; a group needs two or more \
                     (or remove `group`)",
                    positions.len(),
                    if positions.len() == 1 { "" } else { "s" }
                ),
            );
        } else if !positions.is_empty() {
            groups.push(Marked { name: group, named: false, positions });
        }
    }
    let change_groups = list.fields.iter().any(|field| field.attrs.change_group.is_some());
    for group in groups {
        if group.positions.len() < 2 {
            planner.errors.at(
                group.name.span(),
                format!(
                    "group `{}` has one field; a group shares one length among two or more fields \
                     (for one field write `adaptive`)",
                    group.name
                ),
            );
        } else if change_groups {
            planner.errors.at(
                group.name.span(),
                "adaptive field groups and #[change_group] fields in one type are not supported yet; \
                 use an array field instead",
            );
        } else if let Some(ty) = group_type(planner, list, fields, &group) {
            gather(&mut fields.items, FieldGroup { ty, positions: group.positions });
        }
    }
}

/// Puts the group's fields in one item, where the first of them stands.
fn gather(items: &mut Vec<Item>, group: FieldGroup) {
    let is_member = |item: &Item| matches!(item, Item::Field(position) if group.positions.contains(position));
    let Some(first) = items.iter().position(is_member) else { return };
    items.retain(|item| !is_member(item));
    items.insert(first, Item::AdaptiveGroup(group));
}

/// The one integer type of a group's fields, or `None` after reporting
/// the fields that break it (fields already reported stay silent).
fn group_type(
    planner: &mut Planner<'_>,
    list: &FieldList<'_>,
    fields: &ir::Fields<'_>,
    group: &Marked<'_>,
) -> Option<IntTy> {
    let mut first: Option<(IntTy, &Member)> = None;
    let mut valid = true;
    for &position in &group.positions {
        let field = &list.fields[position];
        match &fields.fields[position].encoding {
            Some(Encoding::Adaptive(Adaptive::Int(ty))) => match first {
                None => first = Some((*ty, &field.member)),
                Some((first_ty, _)) if first_ty == *ty => {}
                Some((first_ty, first_member)) => {
                    valid = false;
                    let (member, first_member) = (member_name(&field.member), member_name(first_member));
                    let message = if group.named {
                        format!(
                            "`{member}` is `{}` but group `{}` is `{}` (from `{first_member}`); \
                             the fields of one group share one integer type",
                            ty.name(),
                            group.name,
                            first_ty.name()
                        )
                    } else {
                        format!(
                            "`adaptive(group)` puts every integer field in one group, and `{member}` is `{}` \
                             but `{first_member}` is `{}`; give them one type or name groups on the \
                             fields with adaptive(group = name)",
                            ty.name(),
                            first_ty.name()
                        )
                    };
                    planner.errors.spanned(field.ty, message);
                }
            },
            Some(encoding) if encoding.holds_adaptive() => {
                valid = false;
                planner.errors.spanned(
                    field.ty,
                    format!(
                        "a field of group `{}` must be a plain integer (u8..u128, i8..i128), not `{}`; \
                         an array or `Vec` is a group of its own",
                        group.name,
                        written(field.ty)
                    ),
                );
            }
            // Already reported (a float, a `String`, `#[bits]` with `adaptive`...).
            _ => valid = false,
        }
    }
    first.filter(|_| valid).map(|(ty, _)| ty)
}
