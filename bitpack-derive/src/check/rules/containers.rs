//! `Vec` (with `#[bitpack(max_len = N)]`), `Option`, `Box`, arrays and
//! tuples: each value inside is planned through the rules, under the same
//! attributes.

use crate::check::planner::{Planner, Slot};
use crate::check::reach::Used;
use crate::ir::encoding::{Array, Boxed, Collection, Encoding, Nested, Optional, Sequence, Tuple};
use crate::parse::ty::{SequenceTy, Shape};
use syn::Type;

pub fn plan<'a>(planner: &mut Planner<'a>, slot: &Slot<'a>, used: &mut Used) -> Option<Encoding<'a>> {
    let (ty, reach) = (slot.ty, slot.reach);
    let mut inner = |ty: &'a Type| Box::new(planner.encode(ty, reach, used));
    Some(match &slot.shape {
        Shape::Vec(element) => {
            let element = inner(element);
            match reach.max_len {
                Some(max_len) => {
                    used.max_len = true;
                    let max_len = planner.length(max_len, "max_len");
                    match reach.adaptive_len {
                        Some(_) => {
                            used.adaptive_len = true;
                            Encoding::Collection(Collection::Sequence {
                                ty,
                                kind: SequenceTy::Vec,
                                max_len,
                                element,
                                adaptive_len: true,
                            })
                        }
                        None => Encoding::Vec(Sequence { max_len, element }),
                    }
                }
                None => {
                    planner.errors.spanned(ty, "`Vec` needs a maximum length: add #[bitpack(max_len = N)]");
                    Encoding::Nested(Nested { ty })
                }
            }
        }
        Shape::Option(value) => Encoding::Option(Optional { inner: inner(value) }),
        Shape::Box(value) => Encoding::Boxed(Boxed { inner: inner(value) }),
        Shape::Array(element, len) => Encoding::Array(Array { len, element: inner(element) }),
        Shape::Tuple(elements) => Encoding::Tuple(Tuple {
            elements: elements.iter().map(|element| planner.encode(element, reach, used)).collect(),
        }),
        _ => return None,
    })
}
