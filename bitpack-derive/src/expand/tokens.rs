//! Small operations on generated tokens.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::quote;

/// `a || b || ...`, or `false` for none.
pub fn or(terms: Vec<TokenStream>) -> TokenStream {
    if terms.is_empty() { quote!(false) } else { quote!(#((#terms))||*) }
}

/// `tokens` with every span set to `span`, so errors about a path to the
/// runtime point at the user's field instead.
pub fn respan(tokens: &TokenStream, span: Span) -> TokenStream {
    tokens
        .clone()
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                let mut inner = Group::new(group.delimiter(), respan(&group.stream(), span));
                inner.set_span(span);
                return TokenTree::Group(inner);
            }
            token.set_span(span);
            token
        })
        .collect()
}
