//! What a `Sender` keeps from the states it recorded: `PRINTS` (one per
//! group record), `write_delta_cached` (the same bits as `write_delta`,
//! each group's flag judged on its print against the baseline's, which the
//! sender kept, instead of fingerprinting the baseline again) and
//! `group_prints`. Keyed collections inside the type write as in
//! `write_delta` (their print slots stay unused). With `alloc` only.

use super::{Code, Delta};
use crate::expand::atomic;
use crate::ir::items::ChangeItem;
use proc_macro2::{Literal, TokenStream};
use quote::{quote, quote_spanned};
use syn::Index;
use syn::spanned::Spanned;

impl Code<'_, '_> {
    pub(super) fn cached(&self) -> TokenStream {
        let names = self.names;
        let (p, writer, writer_ty, baseline) =
            (&names.runtime, &names.writer, &names.writer_ty, &names.baseline);
        let (baseline_prints, prints) = (&names.baseline_prints, &names.prints);
        let records = Literal::usize_unsuffixed(self.changes.records);
        let writes = self.changes.items.iter().map(|item| self.delta_write(item, Delta::Cached));
        let group_prints = self.changes.items.iter().filter_map(|item| self.group_print(item));
        let write_delta = atomic::write(names, quote!(#(#writes)* #p::Ok(())));
        quote! {
            #p::if_alloc! {
                const PRINTS: usize = #records;

                #[inline]
                fn write_delta_cached<#writer_ty: #p::BitWrite>(
                    &self,
                    #baseline: &Self,
                    #baseline_prints: &[u64],
                    #prints: &mut [u64],
                    #writer: &mut #writer_ty,
                ) -> #p::Result<(), #p::Error> {
                    #write_delta
                }

                #[inline]
                fn group_prints(&self, #prints: &mut [u64]) -> #p::Result<(), #p::Error> {
                    #(#group_prints)*
                    #p::Ok(())
                }
            }
        }
    }

    /// The print of `item`'s group, as `cached_group` records it.
    fn group_print(&self, item: &ChangeItem) -> Option<TokenStream> {
        let (p, writer, prints) = (&self.names.runtime, &self.names.writer, &self.names.prints);
        let (record, group) = match item {
            ChangeItem::Group(group) => {
                let writes = self.write_items(&group.items, &quote!(self));
                (
                    group.record,
                    quote!(|#writer: &mut #p::BitFingerprint| {
                        #writes
                        #p::Ok(())
                    }),
                )
            }
            ChangeItem::Nested { record, field, .. } => {
                let (member, ty) = (self.member(*field), self.ty(*field));
                let write =
                    quote_spanned!(ty.span()=> <#ty as #p::BitPack>::write_to(&self.#member, #writer));
                (*record, quote!(|#writer: &mut #p::BitFingerprint| #write))
            }
            ChangeItem::Always(_) | ChangeItem::Keyed { .. } => return None,
        };
        let record = Index::from(record);
        Some(quote!(#p::group_print(#record, #prints, #group)?;))
    }
}
