//! `#[bitpack(key)]`: the `KeyField` impl that lets a `Vec` of the type be
//! a keyed collection, returning the key field. The key type's `Key`
//! bound is checked where the impl names it, at the field's type.

use crate::expand::generics::bitpack_bounded;
use crate::expand::names::Names;
use crate::expand::runtime;
use crate::expand::tokens::respan;
use crate::ir::Plan;
use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

pub fn expand(names: &Names, plan: &Plan<'_>) -> Option<TokenStream> {
    let key = plan.key_field.as_ref()?;
    let p = &names.runtime;
    let (name, member, ty) = (&plan.input.ident, &key.member, key.ty);
    let key_field = runtime::key_field(p);
    let (generics, _) = bitpack_bounded(names, &plan.input.generics);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let key_ty = respan(&quote!(type Key = #ty;), ty.span());
    Some(quote! {
        #p::if_alloc! {
            #[automatically_derived]
            impl #impl_generics #key_field for #name #ty_generics #where_clause {
                #key_ty

                #[inline(always)]
                fn key(&self) -> #ty {
                    self.#member
                }
            }
        }
    })
}
