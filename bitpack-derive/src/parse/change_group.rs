//! `#[change_group]` and `#[change_group(name)]` on a field, and the
//! mistake of writing it anywhere else.

use crate::errors::Errors;
use syn::parse::ParseStream;
use syn::spanned::Spanned;
use syn::{Attribute, Ident, Meta};

/// `#[change_group]` or `#[change_group(name)]` on a field.
pub struct GroupAttr {
    /// The `change_group` as written, where mistakes about it point.
    pub keyword: Ident,
    /// `None` for a bare `#[change_group]`: a group of its own (nested for a named type).
    pub name: Option<Ident>,
}

/// Parses a field's `#[change_group]` into `slot`.
pub fn parse(attr: &Attribute, slot: &mut Option<GroupAttr>, errors: &mut Errors) {
    let keyword = attr.path().get_ident().cloned().unwrap_or_else(|| Ident::new("change_group", attr.span()));
    let name = match &attr.meta {
        Meta::Path(_) => None,
        Meta::List(list) => {
            let parsed = list.parse_args_with(|input: ParseStream<'_>| {
                let name: Ident = input.parse()?;
                if input.is_empty() { Ok(name) } else { Err(input.error("one name only")) }
            });
            match parsed {
                Ok(name) => Some(name),
                Err(_) => {
                    let message = "a group name is one identifier, as in #[change_group(motion)]";
                    if list.tokens.is_empty() {
                        errors.spanned(attr, message);
                    } else {
                        errors.spanned(&list.tokens, message);
                    }
                    return;
                }
            }
        }
        Meta::NameValue(pair) => {
            errors.spanned(&pair.value, "write the group name in parentheses, as in #[change_group(motion)]");
            return;
        }
    };
    if slot.is_some() {
        errors.spanned(attr, "duplicate #[change_group] on one field; keep one");
        return;
    }
    *slot = Some(GroupAttr { keyword, name });
}

/// `#[change_group]` on the type or on an enum variant (`place`).
pub fn misplaced(attr: &Attribute, place: &str, errors: &mut Errors) {
    let fix = if place == "an enum variant" {
        "put the enum in a struct field with #[change_group(name)]"
    } else {
        "put it on the fields that change together"
    };
    errors.spanned(attr.path(), format!("#[change_group] goes on a struct's fields, not on {place}; {fix}"));
}
