//! A compile-time check: the build fails at the attribute with the
//! problem a runtime `problem` function names (a range the derive could
//! not read, a relative range past i64...).

use crate::expand::names::Names;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

/// What a runtime `problem` function returns.
pub enum Problem {
    /// `Option<&'static str>`.
    Str,
    /// `Option<Message>`, a message built at compile time.
    Message,
}

/// `const _: () = if let Some(problem) = #problem { panic!(...) };`: the
/// build fails at `span` with the problem the runtime names.
pub fn problem_check(names: &Names, span: Span, problem: TokenStream, kind: Problem) -> TokenStream {
    let (p, local) = (&names.runtime, &names.problem);
    let text = match kind {
        Problem::Str => quote!(#local),
        Problem::Message => quote!(#local.as_str()),
    };
    quote_spanned! {span=>
        const _: () = if let #p::Some(#local) = #problem {
            ::core::panic!("{}", #text)
        };
    }
}
