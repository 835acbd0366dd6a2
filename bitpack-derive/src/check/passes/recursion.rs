//! A type that holds itself (`enum Tree { Leaf, Node(Box<Tree>, Box<Tree>) }`)
//! is refused at the field: its `MAX_BITS` would be the sum of its own,
//! unbounded, and rustc would only say "cycle detected when elaborating
//! drops for MAX_BITS". Caught where the type names itself (or `Self`)
//! through `Box`, `Vec`, `Option`, arrays and tuples (the encodings planned
//! for them), and `Rc` or `Arc`; recursion through another type is left to
//! rustc's cycle error.

use crate::check::planner::{Draft, Planner};
use crate::ir::adaptive::Adaptive;
use crate::ir::encoding::{Encoding, Nested};
use crate::parse::Input;
use syn::{GenericArgument, Ident, PathArguments, Type};

pub fn run<'a>(planner: &mut Planner<'a>, input: &'a Input<'a>, draft: &mut Draft<'a>) {
    let Some(body) = &draft.body else { return };
    let name = &input.original.ident;
    for fields in body.field_lists() {
        for encoding in fields.encodings().flat_map(Encoding::walk) {
            let ty = match encoding {
                Encoding::Nested(Nested { ty }) | Encoding::Adaptive(Adaptive::Scoped(ty)) => *ty,
                _ => continue,
            };
            if let Some(itself) = holds_itself(ty, name) {
                planner.errors.spanned(
                    itself,
                    format!(
                        "`{name}` holds itself here, and recursive types are not supported: \
                         `MAX_BITS`, the most bits a value takes, would be unbounded; \
                         bound the depth (a type per level) or skip the field with #[bitpack(skip)]"
                    ),
                );
            }
        }
    }
}

/// Where `ty` is the type being derived (by its name or `Self`), itself or
/// inside an `Rc` or `Arc`.
fn holds_itself<'t>(ty: &'t Type, name: &Ident) -> Option<&'t Type> {
    match ty {
        Type::Paren(inner) => holds_itself(&inner.elem, name),
        Type::Group(inner) => holds_itself(&inner.elem, name),
        Type::Path(path) if path.qself.is_none() => {
            let segments = &path.path.segments;
            let last = segments.last()?;
            if segments.len() == 1 && (last.ident == *name || last.ident == "Self") {
                return Some(ty);
            }
            let PathArguments::AngleBracketed(args) = &last.arguments else { return None };
            if last.ident != "Rc" && last.ident != "Arc" {
                return None;
            }
            args.args.iter().find_map(|arg| match arg {
                GenericArgument::Type(inner) => holds_itself(inner, name),
                _ => None,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::holds_itself;
    use syn::{Ident, Type, parse_str};

    fn holds(ty: &str) -> bool {
        let ty: Type = parse_str(ty).expect("a type");
        holds_itself(&ty, &Ident::new("Tree", proc_macro2::Span::call_site())).is_some()
    }

    #[test]
    fn the_type_by_name_or_self_and_through_shared_pointers() {
        for ty in ["Tree", "Self", "(Tree)", "Tree<u8>", "Rc<Tree>", "std::sync::Arc<Self>", "Rc<Arc<Tree>>"]
        {
            assert!(holds(ty), "{ty}");
        }
        // Another module's `Tree`, and types that do not read a `Tree`.
        for ty in ["other::Tree", "PhantomData<Tree>", "Forest", "Rc<Forest>", "u8"] {
            assert!(!holds(ty), "{ty}");
        }
    }
}
