//! On mistakes: the errors, plus a stub impl so that uses of the type
//! elsewhere do not add "BitPack is not implemented" to the real mistakes.
//! The stub goes through the same runtime path as a real impl would
//! (`#[bitpack(crate = ...)]` included), so it compiles wherever that does.

use crate::ir::runtime::Runtime;
use crate::parse::Input;
use proc_macro2::TokenStream;
use quote::quote;

pub fn expand(input: &Input<'_>, errors: syn::Error) -> TokenStream {
    let errors = errors.to_compile_error();
    let p = Runtime::new(input.attrs.krate());
    let name = &input.original.ident;
    let (impl_generics, ty_generics, where_clause) = input.original.generics.split_for_impl();
    quote! {
        #errors
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #p::BitPack for #name #ty_generics #where_clause {
                const MAX_BITS: usize = 0;
                const SCHEMA: u64 = 0;

                fn write_to<__W: #p::BitWrite>(&self, _: &mut __W) -> #p::Result<(), #p::Error> {
                    ::core::unreachable!()
                }

                fn read_from<__R: #p::BitRead>(_: &mut __R) -> #p::Result<Self, #p::Error> {
                    ::core::unreachable!()
                }
            }
        };
    }
}
