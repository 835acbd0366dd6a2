//! The collections beyond `String` and `Vec`, with `#[bitpack(max_len = N)]`:
//! `Box<str>`, `Cow<str>`, `Rc<str>` and `Arc<str>` as a `String`;
//! `VecDeque<T>`, `Box<[T]>`, `Rc<[T]>` and `Arc<[T]>` as a `Vec<T>`; maps
//! and sets as their length, then their keys (and values) in ascending
//! order. The values inside are planned through the rules, under the same
//! attributes, as a `Vec`'s elements are.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::Used;
use crate::ir::encoding::{Collection, Encoding, Nested};
use crate::parse::ty::{Shape, written};

pub fn plan<'a>(planner: &mut Planner<'a>, slot: &Slot<'a>, used: &mut Used) -> Option<Encoding<'a>> {
    let (ty, reach) = (slot.ty, slot.reach);
    if !matches!(slot.shape, Shape::Str | Shape::Sequence(..) | Shape::Map(..) | Shape::Set(_)) {
        return None;
    }
    let Some(max_len) = reach.max_len else {
        planner
            .errors
            .spanned(ty, format!("`{}` needs a maximum length: add #[bitpack(max_len = N)]", written(ty)));
        return Some(Encoding::Nested(Nested { ty }));
    };
    used.max_len = true;
    let max_len = planner.length(max_len, "max_len");
    let mut inner = |ty| planner.encode(ty, reach, used);
    Some(Encoding::Collection(match slot.shape {
        Shape::Sequence(kind, element) => {
            let adaptive_len = reach.adaptive_len.is_some();
            used.adaptive_len |= adaptive_len;
            Collection::Sequence {
                ty,
                kind,
                max_len,
                element: Box::new(planner.encode(element, reach, used)),
                adaptive_len,
            }
        }
        Shape::Map(key, value) => Collection::Map { ty, max_len, entry: vec![inner(key), inner(value)] },
        Shape::Set(element) => Collection::Set { ty, max_len, element: Box::new(inner(element)) },
        _ => Collection::Text { ty, max_len },
    }))
}
