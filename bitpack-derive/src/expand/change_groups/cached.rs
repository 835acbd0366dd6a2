//! What a `Sender` keeps from the states it recorded: `PRINTS` (a word per
//! group record, two for a group of relative floats: see `steps_group`),
//! `write_delta_cached` (the same bits as `write_delta`,
//! each group's flag judged on its print against the baseline's, which the
//! sender kept, instead of fingerprinting the baseline again) and
//! `group_prints`. Keyed collections inside the type write as in
//! `write_delta` (their print slots stay unused). With `alloc` only.

use super::{Code, Delta};
use crate::expand::codec::codec;
use crate::expand::runtime::{self, FloatItem};
use crate::expand::{atomic, batch};
use crate::ir::consts::Steps;
use crate::ir::encoding::{Encoding, Float};
use crate::ir::items::{ChangeItem, Group, Predict};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

impl Code<'_, '_> {
    pub(super) fn cached(&self) -> TokenStream {
        let names = self.names;
        let (p, writer, writer_ty, baseline) =
            (&names.runtime, &names.writer, &names.writer_ty, &names.baseline);
        let (baseline_prints, prints) = (&names.baseline_prints, &names.prints);
        let records = Literal::usize_unsuffixed(self.slots().iter().map(|&(_, slots)| slots).sum());
        let writes = self.changes.items.iter().map(|item| self.delta_write(item, Delta::Cached));
        let group_prints = self.changes.items.iter().filter_map(|item| self.group_print(item));
        let write_delta = atomic::write_detached(names, quote!(#(#writes)* #p::Ok(())));
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
        let (slot, slots) = self.slot(record);
        Some(match slots {
            2 => quote!(#p::wide_group_print(#slot, #prints, #group)?;),
            _ => quote!(#p::group_print(#slot, #prints, #group)?;),
        })
    }

    /// Where each group record's print lies in `prints`: its first word, and
    /// how many (two for a group `steps_group` writes).
    fn slots(&self) -> Vec<(usize, usize)> {
        let mut widths = vec![1; self.changes.records];
        for item in &self.changes.items {
            if let ChangeItem::Group(group) = item
                && self.steps_leaves(group).is_some()
            {
                widths[group.record] = 2;
            }
        }
        let mut next = 0;
        widths
            .into_iter()
            .map(|width| {
                next += width;
                (next - width, width)
            })
            .collect()
    }

    /// [`Code::slots`] of record `record`, its first word as a literal.
    pub(super) fn slot(&self, record: usize) -> (Literal, usize) {
        let (slot, slots) = self.slots()[record];
        (Literal::usize_unsuffixed(slot), slots)
    }

    /// The floats of a group `steps_group` writes (every field a relative
    /// quantized float, a scalar or an array) in wire order: each one's
    /// field, array index and leaf. `None` for other groups.
    fn steps_leaves(&self, group: &Group) -> Option<Vec<(usize, Option<usize>, &Encoding<'_>)>> {
        let mut leaves = Vec::new();
        for &position in &group.fields {
            self.changes.relative[position]?;
            let (leaf, len) = self.fields[position].encoding.as_ref()?.relative()?;
            let Encoding::Float(Float { steps: Some(_), .. }) = leaf else { return None };
            match len {
                None => leaves.push((position, None, leaf)),
                Some(len) => leaves.extend((0..len).map(|index| (position, Some(index), leaf))),
            }
        }
        (!leaves.is_empty()).then_some(leaves)
    }

    /// `write_delta_cached` of a group whose fields are all relative
    /// quantized floats (scalars or arrays): each float quantized once, its
    /// steps giving both the group's print (the bits `write_to` writes) and
    /// its relative write, and the baseline's agreed steps found once (for
    /// its own write and as a prediction's rate): read from the baseline's
    /// print, which holds the group's bits when they fit in 128 (two words,
    /// `wide_print`), else quantized from its values. Should a value be refused,
    /// the group's usual code (`fallback`) runs instead, so errors are
    /// theirs. `None` for other groups.
    pub(super) fn steps_group(&self, group: &Group, fallback: &TokenStream) -> Option<TokenStream> {
        let names = self.names;
        let (p, writer, baseline, valid) = (&names.runtime, &names.writer, &names.baseline, &names.valid);
        let (baseline_prints, prints) = (&names.baseline_prints, &names.prints);
        let leaves = self.steps_leaves(group)?;
        let at = |owner: &TokenStream, position: usize, index: Option<usize>| {
            let (member, index) = (self.member(position), index.map(Literal::usize_unsuffixed));
            match index {
                Some(index) => quote!(#owner.#member[#index]),
                None => quote!(#owner.#member),
            }
        };
        let this = quote!(self);
        let base_of = quote!(#baseline);
        let (mut lets, mut widths, mut bases, mut writes) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut codes, codes_name) = (Vec::new(), format_ident!("__codes"));
        let mut codes_module = None;
        let mut widths_only: Vec<TokenStream> = Vec::new();
        let (held, held_bits) = (format_ident!("__held"), format_ident!("__held_bits"));
        for (leaf_index, &(position, index, leaf)) in leaves.iter().enumerate() {
            let Encoding::Float(float @ Float { steps: Some(Steps { min, max, res }), .. }) = leaf else {
                return None;
            };
            let run_leaf = codec(leaf).run_leaf()?;
            let (steps, base) = (names.now_steps(leaf_index), names.base_steps(leaf_index));
            let bits = run_leaf.bits(names, at(&this, position, index));
            let width = run_leaf.width(names);
            lets.push(quote!(let #steps = #bits;));
            // Where the leaf lies in the group's bits: after the ones before it.
            let offset = quote!(0 #(+ #widths_only)*);
            widths.push(quote!((#steps, #width)));
            widths_only.push(width.clone());
            let module = runtime::float(&names.runtime, float.float, FloatItem::Relative);
            let held = at(&base_of, position, index);
            bases.push(quote! {
                let #base = #module::agreed(#p::steps_at(#held_bits, #offset, #width), #held, #min, #max, #res);
            });
            // As `delta_field_write`: predicted when `predicted` says so.
            let rate = self.predicted(position).and(self.changes.predictions[position].as_ref());
            let write = match rate {
                Some(Predict { rate, dt }) => {
                    let Some(Encoding::Float(Float { steps: Some(rate_steps), .. })) = self.fields[*rate]
                        .encoding
                        .as_ref()
                        .and_then(|encoding| encoding.relative())
                        .map(|(leaf, _)| leaf)
                    else {
                        return None;
                    };
                    let Steps { min: rate_min, max: rate_max, res: rate_res } = rate_steps;
                    // The rate's agreed steps: found already when it is in the group.
                    let rate_base = match leaves.iter().position(|&(p, i, _)| p == *rate && i == index) {
                        Some(rate_leaf) => {
                            let rate_base = names.base_steps(rate_leaf);
                            quote!(#rate_base)
                        }
                        None => {
                            let held = at(&base_of, *rate, index);
                            quote!(#module::agreed(#p::None, #held, #rate_min, #rate_max, #rate_res))
                        }
                    };
                    let predict = quote!((#rate_base, #rate_min, #rate_max, #rate_res, #dt));
                    codes.push(quote! {
                        #module::code_predicted_steps(&mut #codes_name, #steps, #base, #predict, #min, #max, #res);
                    });
                    quote!(#module::write_predicted_steps(#writer, #steps, #base, #predict, #min, #max, #res)?;)
                }
                None => {
                    codes.push(
                        quote!(#module::code_steps(&mut #codes_name, #steps, #base, #min, #max, #res);),
                    );
                    quote!(#module::write_steps(#writer, #steps, #base, #min, #max, #res)?;)
                }
            };
            codes_module.get_or_insert(module);
            writes.push(write);
        }
        let codes_module = codes_module?;
        let lets = self.steps_rows(&leaves, &at).unwrap_or(lets);
        let codes_last_first = codes.iter().rev();
        let slot = self.slot(group.record).0;
        let then = self.write_items(&group.items, &base_of);
        let print = format_ident!("__print");
        Some(quote! {{
            let mut #valid = true;
            #(#lets)*
            if #valid {
                let #print = #p::wide_print([#(#widths),*]);
                let #held = #p::held_wide(#baseline_prints, #slot);
                if #p::cached_wide(
                    #writer,
                    #slot,
                    #held,
                    #prints,
                    #print,
                    |#writer: &mut #p::BitFingerprint| {
                        #then
                        #p::Ok(())
                    },
                )? {
                    let #held_bits = #p::held_bits(#held, 0 #(+ #widths_only)*);
                    #(#bases)*
                    // The codes in one reservation (gathered last first);
                    // when they do not all fit, one by one, failing where
                    // they should.
                    let mut #codes_name = #codes_module::StepCodes::new();
                    #(#codes_last_first)*
                    if !#codes_name.write(#writer) {
                        #(#writes)*
                    }
                }
            } else {
                #fallback
            }
        }})
    }

    /// The `let`s of a steps group's `__now_steps{i}` quantized four at a
    /// time (`__private::quantized_row`, in the leaves' order), each row's
    /// values checked finite on their own (a row's `RowSums` holds only
    /// its values: a sum across rows could overflow where no value is
    /// refused, and the group's fallback judges its flag on another print).
    /// The same steps as `quantized_bits` gives each. `None` unless every
    /// leaf is an `f32` a row takes.
    fn steps_rows(
        &self,
        leaves: &[(usize, Option<usize>, &Encoding<'_>)],
        at: &dyn Fn(&TokenStream, usize, Option<usize>) -> TokenStream,
    ) -> Option<Vec<TokenStream>> {
        let names = self.names;
        let (p, valid) = (&names.runtime, &names.valid);
        let declared: Vec<(TokenStream, TokenStream)> = leaves
            .iter()
            .map(|&(position, index, leaf)| {
                Some((at(&quote!(self), position, index), codec(leaf).run_leaf()?.lane()?.row()?))
            })
            .collect::<Option<_>>()?;
        let sums = format_ident!("__row_sums");
        let mut lets: Vec<TokenStream> = batch::quantized_rows(names, &declared, &sums, valid)
            .into_iter()
            .map(|row| {
                quote! {
                    let mut #sums = #p::RowSums::new();
                    #row
                    #valid &= #sums.finite();
                }
            })
            .collect();
        lets.extend((0..leaves.len()).map(|leaf_index| {
            let steps = names.now_steps(leaf_index);
            let steps_in_row = batch::row_lane(leaf_index);
            quote!(let #steps = <::core::primitive::u64 as ::core::convert::From<::core::primitive::u32>>::from(#steps_in_row);)
        }));
        Some(lets)
    }

    /// `write_delta_cached` of a group whose fields are all plain
    /// (booleans, integers, floats, and arrays and `Option`s of them) or
    /// nested types: first compared with the baseline's bit for bit
    /// (`SameBits`; a nested type by its leaf, `same_leaf`, never the same
    /// when it is no leaf), an unchanged group taking the baseline's print
    /// without fingerprinting (`kept_group`), then `write`. Other groups:
    /// `write` alone.
    pub(super) fn kept_group(&self, group: &Group, write: TokenStream) -> TokenStream {
        fn plain(encoding: &Encoding<'_>) -> bool {
            match encoding {
                Encoding::Bool(_) | Encoding::Int(_) | Encoding::Float(_) => true,
                Encoding::Array(array) => plain(&array.element),
                Encoding::Option(optional) => plain(&optional.inner),
                _ => false,
            }
        }
        let names = self.names;
        let (p, writer, baseline) = (&names.runtime, &names.writer, &names.baseline);
        let (baseline_prints, prints) = (&names.baseline_prints, &names.prints);
        let same: Option<Vec<TokenStream>> = group
            .fields
            .iter()
            .map(|&position| {
                let member = self.member(position);
                match self.fields[position].encoding.as_ref()? {
                    encoding if plain(encoding) => {
                        Some(quote!(#p::SameBits::same_bits(&self.#member, &#baseline.#member)))
                    }
                    Encoding::Nested(nested) => {
                        let ty = nested.ty;
                        Some(quote_spanned!(ty.span()=> #p::same_leaf::<#ty>(&self.#member, &#baseline.#member)))
                    }
                    _ => None,
                }
            })
            .collect();
        let Some(same) = same.filter(|same| !same.is_empty()) else { return write };
        let (slot, slots) = self.slot(group.record);
        quote! {
            if !#p::kept_group(#writer, (#slot, #slots), #baseline_prints, #prints, #(#same)&&*)? {
                #write
            }
        }
    }
}
