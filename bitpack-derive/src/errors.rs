//! Collects every mistake, so the user sees all of them in one build.

use proc_macro2::Span;
use quote::ToTokens;
use std::collections::HashSet;
use std::fmt::Display;

/// Mistakes found so far, combined into one `syn::Error`.
#[derive(Default)]
pub struct Errors {
    combined: Option<syn::Error>,
    /// Span and message of each mistake, so a mistake met twice (one
    /// attribute checked against several values) is reported once.
    seen: HashSet<String>,
}

impl Errors {
    /// Records `error` unless the same message was already recorded at the same place.
    pub fn push(&mut self, error: syn::Error) {
        let key = format!("{:?} {}", error.span(), error);
        if !self.seen.insert(key) {
            return;
        }
        match &mut self.combined {
            Some(combined) => combined.combine(error),
            None => self.combined = Some(error),
        }
    }

    /// A mistake at `span`.
    pub fn at(&mut self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    /// A mistake covering all of `tokens`.
    pub fn spanned(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// `Err` with every mistake, if there was any.
    pub fn finish(self) -> Result<(), syn::Error> {
        match self.combined {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}
