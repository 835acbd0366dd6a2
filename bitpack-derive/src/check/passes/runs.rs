//! Fused runs: consecutive fields on the wire that are all fixed-width
//! scalars (bools, integers up to 64 bits, floats plain or quantized, and
//! short arrays of them: see `Encoding::run_leaves`), two or more scalars
//! between them, become one `Item::Run`, written and read as one. In a
//! change group the same holds for the group's fields; in its delta a
//! `relative` field stands alone.

use crate::check::planner::{Draft, Planner};
use crate::ir;
use crate::ir::items::{ChangeItem, Item};
use crate::parse::Input;

pub fn run<'a>(_: &mut Planner<'a>, _: &'a Input<'a>, draft: &mut Draft<'a>) {
    let Some(body) = &mut draft.body else { return };
    for fields in body.field_lists_mut() {
        let leaves = |position: usize| fields.fields[position].encoding.as_ref()?.run_leaves();
        let items = fuse(std::mem::take(&mut fields.items), leaves);
        fields.items = items;
    }
    let (Some(changes), Some(ir::Body::Struct(fields))) = (&mut draft.changes, &draft.body) else { return };
    let leaves = |position: usize| fields.fields[position].encoding.as_ref()?.run_leaves();
    for item in &mut changes.items {
        let ChangeItem::Group(group) = item else { continue };
        let each = || group.fields.iter().copied().map(Item::Field).collect::<Vec<_>>();
        let (items, delta) = (each(), each());
        let relative = |position: usize| changes.relative[position].is_some();
        group.items = fuse(items, leaves);
        group.delta = fuse(delta, |position| if relative(position) { None } else { leaves(position) });
    }
}

/// `items` with each stretch of consecutive fields of fixed width (as
/// `leaves` counts them) holding two or more scalars fused into a run.
fn fuse(items: Vec<Item>, leaves: impl Fn(usize) -> Option<usize>) -> Vec<Item> {
    let mut fused = Vec::new();
    let mut stretch: Vec<(usize, usize)> = Vec::new();
    for item in items {
        if let Item::Field(position) = item
            && let Some(count) = leaves(position)
        {
            stretch.push((position, count));
            continue;
        }
        end_stretch(&mut stretch, &mut fused);
        fused.push(item);
    }
    end_stretch(&mut stretch, &mut fused);
    fused
}

fn end_stretch(stretch: &mut Vec<(usize, usize)>, fused: &mut Vec<Item>) {
    let stretch = std::mem::take(stretch);
    if stretch.iter().map(|(_, leaves)| leaves).sum::<usize>() >= 2 {
        fused.push(Item::Run(stretch.into_iter().map(|(position, _)| position).collect()));
    } else {
        fused.extend(stretch.into_iter().map(|(position, _)| Item::Field(position)));
    }
}
