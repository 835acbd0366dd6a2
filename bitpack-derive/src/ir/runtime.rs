//! The path generated code reaches the runtime by: `<crate>::__private`,
//! where `<crate>` is `::bitpack` unless `#[bitpack(crate = ...)]` says
//! otherwise. The expansion and the fallback both start from it.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::Path;

#[derive(Clone)]
pub struct Runtime(TokenStream);

impl Runtime {
    pub fn new(krate: Option<&Path>) -> Self {
        let krate = match krate {
            Some(path) => path.to_token_stream(),
            None => quote!(::bitpack),
        };
        Runtime(quote!(#krate::__private))
    }
}

impl ToTokens for Runtime {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.0.to_tokens(tokens);
    }
}
