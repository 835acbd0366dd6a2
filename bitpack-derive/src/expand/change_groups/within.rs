//! The `ChangeGroups` methods a `Sender` calls (`write_to_within`,
//! `write_delta_within`, `sent_state`), for a struct that holds keyed
//! collections or nested change-group fields (which may hold some): the
//! same bits as `write_to` and `write_delta`, with the sender's budget
//! passed on to every keyed collection in traversal order, and the state
//! the receiver holds after a packet the budget cut short. Other types
//! keep the trait's defaults. The methods exist with `alloc` only, so they
//! sit in `if_alloc!`.

use super::{Code, Delta};
use crate::expand::atomic;
use crate::expand::items;
use crate::expand::names::Access;
use crate::expand::tokens::respan;
use crate::ir::Fields;
use crate::ir::items::{ChangeItem, Item};
use crate::ir::keyed::Form;
use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::WhereClause;
use syn::spanned::Spanned;

impl Code<'_, '_> {
    /// What a keyed collection's writes take: `Some(&mut *__budget)` within
    /// a `*_within` method, else `None`.
    pub(super) fn budget(&self, within: bool) -> TokenStream {
        let (p, budget) = (&self.names.runtime, &self.names.budget);
        if within { quote!(#p::Some(&mut *#budget)) } else { quote!(#p::None) }
    }

    /// Whether the type holds keyed collections, or nested types that may.
    fn holds_keyed(&self) -> bool {
        self.changes
            .items
            .iter()
            .any(|item| matches!(item, ChangeItem::Keyed { .. } | ChangeItem::Nested { .. }))
    }

    /// Whether the type's one keyed collection is a map and it nests no
    /// change groups: with no type parameters, a sender holds it flat
    /// (see `Code::flat`).
    pub(super) fn holds_one_map(&self) -> bool {
        let mut keyed = self.changes.items.iter().filter_map(|item| match item {
            ChangeItem::Keyed { field, .. } => Some(self.keyed(*field).map(|keyed| &keyed.form)),
            _ => None,
        });
        let nests = self.changes.items.iter().any(|item| matches!(item, ChangeItem::Nested { .. }));
        matches!((keyed.next(), keyed.next()), (Some(Some(Form::Map { .. })), None)) && !nests
    }

    fn is_nested(&self, position: usize) -> bool {
        self.changes
            .items
            .iter()
            .any(|item| matches!(item, ChangeItem::Nested { field, .. } if *field == position))
    }

    /// The three methods (four with `record_state`: see [`Code::record`]),
    /// or nothing for a type that holds no keyed collection.
    pub(super) fn within(&self, fields: &Fields<'_>, concrete: bool) -> TokenStream {
        if !self.holds_keyed() {
            return TokenStream::new();
        }
        let names = self.names;
        let (p, writer, writer_ty, baseline, budget) =
            (&names.runtime, &names.writer, &names.writer_ty, &names.baseline, &names.budget);
        let whole = fields.items.iter().map(|item| self.whole_write(item));
        let deltas = self.changes.items.iter().map(|item| self.delta_write(item, Delta::Within));
        let states = self.changes.items.iter().filter_map(|item| match item {
            ChangeItem::Keyed { field, .. } | ChangeItem::Nested { field, .. } => {
                Some(self.sent_field(*field))
            }
            _ => None,
        });
        let state = &names.state;
        let write_whole = atomic::write(names, quote!(#(#whole)* #p::Ok(())));
        let write_delta = atomic::write(names, quote!(#(#deltas)* #p::Ok(())));
        let record = if concrete { self.record() } else { TokenStream::new() };
        let hold = if self.flat { self.hold() } else { TokenStream::new() };
        let retain = self.retain();
        quote! {
            #p::if_alloc! {
                #[inline]
                fn write_to_within<#writer_ty: #p::BitWrite>(
                    &self,
                    #writer: &mut #writer_ty,
                    #budget: &mut #p::keyed::Budget,
                ) -> #p::Result<(), #p::Error> {
                    #write_whole
                }

                #[inline]
                fn write_delta_within<#writer_ty: #p::BitWrite>(
                    &self,
                    #baseline: &Self,
                    #writer: &mut #writer_ty,
                    #budget: &mut #p::keyed::Budget,
                ) -> #p::Result<(), #p::Error> {
                    #write_delta
                }

                #[inline]
                fn sent_state(
                    &self,
                    #state: &mut Self,
                    #baseline: #p::Option<&Self>,
                    #budget: &mut #p::keyed::Budget,
                ) -> #p::Result<(), #p::Error> {
                    #(#states)*
                    #p::Ok(())
                }

                #record
                #hold
                #retain
            }
        }
    }

    /// `each_entry`: each keyed collection and nested type in the order
    /// deltas meet them, numbered on from `first`.
    fn each(&self) -> TokenStream {
        let p = &self.names.runtime;
        let (visit, f) = (quote!(__visit), quote!(__f));
        let steps = self.changes.items.iter().filter_map(|item| match item {
            ChangeItem::Keyed { field, .. } => {
                let keyed = self.keyed(*field)?;
                let member = self.member(*field);
                let each = keyed.each(self.names, quote!(self.#member), &visit, &f);
                Some(quote!(#each #visit += 1;))
            }
            ChangeItem::Nested { field, .. } => {
                let (member, nested) = (self.member(*field), self.nested(self.ty(*field)));
                Some(quote!(#visit = #nested::each_entry(&self.#member, #visit, #f);))
            }
            _ => None,
        });
        quote! {
            #[inline]
            fn each_entry(&self, #visit: usize, #f: &mut dyn #p::FnMut(#p::keyed::Entry)) -> usize {
                #[allow(unused_mut)]
                let mut #visit = #visit;
                #(#steps)*
                #visit
            }
        }
    }

    /// `holds_entry`: the collection `entry` names, if it is the type's
    /// (numbered as `retain_entries` numbers them).
    fn holds(&self) -> TokenStream {
        let (p, baseline) = (&self.names.runtime, &self.names.baseline);
        let (visit, entry) = (quote!(__visit), quote!(__entry));
        let steps = self.changes.items.iter().filter_map(|item| match item {
            ChangeItem::Keyed { field, .. } => {
                let keyed = self.keyed(*field)?;
                let member = self.member(*field);
                let base = quote!(#p::Option::map(#baseline, |#baseline| &#baseline.#member));
                let holds = keyed.holds(self.names, quote!(self.#member), base, quote!(#entry.key));
                Some(quote! {
                    if #entry.collection == #visit {
                        return #p::Ok(#holds);
                    }
                    #visit += 1;
                })
            }
            ChangeItem::Nested { field, .. } => {
                let (member, nested) = (self.member(*field), self.nested(self.ty(*field)));
                let base = quote!(#p::Option::map(#baseline, |#baseline| &#baseline.#member));
                Some(quote! {
                    match #nested::holds_entry(&self.#member, #base, #visit, #entry) {
                        #p::Err(__next) => #visit = __next,
                        __found => return __found,
                    }
                })
            }
            _ => None,
        });
        quote! {
            #[inline]
            fn holds_entry(
                &self,
                #baseline: #p::Option<&Self>,
                #visit: usize,
                #entry: #p::keyed::Entry,
            ) -> #p::Result<#p::Option<bool>, usize> {
                #[allow(unused_mut)]
                let mut #visit = #visit;
                #(#steps)*
                #p::Err(#visit)
            }
        }
    }

    /// `retain_entries`: each keyed collection and nested type in the
    /// order deltas meet them, numbered on from `first`.
    fn retain(&self) -> TokenStream {
        let p = &self.names.runtime;
        let (visit, keep) = (quote!(__visit), quote!(__keep));
        let steps = self.changes.items.iter().filter_map(|item| match item {
            ChangeItem::Keyed { field, .. } => {
                let keyed = self.keyed(*field)?;
                let member = self.member(*field);
                let retain = keyed.retain(self.names, quote!(self.#member), &visit, &keep);
                Some(quote!(#retain #visit += 1;))
            }
            ChangeItem::Nested { field, .. } => {
                let (member, nested) = (self.member(*field), self.nested(self.ty(*field)));
                Some(quote!(#visit = #nested::retain_entries(&mut self.#member, #visit, #keep);))
            }
            _ => None,
        });
        let holds = self.holds();
        let each = self.each();
        let nests = self.changes.items.iter().any(|item| matches!(item, ChangeItem::Nested { .. }));
        let lists = if nests {
            quote!(
                const LISTS_STALE: bool = false;
            )
        } else {
            TokenStream::new()
        };
        quote! {
            #holds
            #each
            #lists

            #[inline]
            fn retain_entries(
                &mut self,
                #visit: usize,
                #keep: &mut dyn #p::FnMut(#p::keyed::Entry) -> bool,
            ) -> usize {
                #[allow(unused_mut)]
                let mut #visit = #visit;
                #(#steps)*
                #visit
            }
        }
    }

    /// `FLAT_MAP` and `hold_state` for a type a sender holds flat: every
    /// field recorded as `record_state` does, but the map, left empty.
    /// The map is held flat when its entries are `Send + Sync`
    /// (`keyed::FlatProbe`), else whole, as `record_state` records it.
    fn hold(&self) -> TokenStream {
        let (p, state) = (&self.names.runtime, &self.names.state);
        let mut flat = quote!(false);
        let fields = (0..self.fields.len()).map(|position| {
            let member = self.member(position);
            match self.keyed(position).map(|keyed| (&keyed.form, keyed.value)) {
                Some((Form::Map { key }, value)) => {
                    let probe = quote!(#p::keyed::FlatProbe::<#key, #value>);
                    flat = quote! {{
                        #[allow(unused_imports)]
                        use #p::keyed::HeldWhole as _;
                        #probe::FLAT
                    }};
                    quote! {{
                        #[allow(unused_imports)]
                        use #p::keyed::{ViaFlat as _, ViaTree as _};
                        (&&#probe::new()).release(&mut #state.#member);
                    }}
                }
                _ => self.clone_from_field(position),
            }
        });
        let fields: TokenStream = fields.collect();
        let hold_state = self.recording(
            quote!(hold_state),
            quote! {
                if !<Self as #p::ChangeGroups>::FLAT_MAP {
                    return self.record_state(#state);
                }
                #fields
            },
        );
        quote! {
            const FLAT_MAP: bool = #flat;

            #hold_state
        }
    }

    /// `record_state` or `hold_state` (`name`), recording each field as
    /// `fields` says (`return false` when one cannot).
    fn recording(&self, name: TokenStream, fields: TokenStream) -> TokenStream {
        let (p, state) = (&self.names.runtime, &self.names.state);
        quote! {
            #[inline]
            #[allow(clippy::needless_borrow)]
            fn #name(&self, #state: &mut Self) -> bool {
                // The answer for each field's type (see `CloneProbe`): one of
                // the two goes unused.
                #[allow(unused_imports)]
                use #p::keyed::{NotClone as _, ViaClone as _};
                #fields
                true
            }
        }
    }

    /// `clone_from` of field `position` into the state's, when its type is
    /// `Clone` (asked by autoref, see `keyed::CloneProbe`), else `return
    /// false`.
    fn clone_from_field(&self, position: usize) -> TokenStream {
        let (p, state) = (&self.names.runtime, &self.names.state);
        let (member, ty) = (self.member(position), self.ty(position));
        quote! {
            match (&&#p::keyed::CloneProbe::<#ty>::new()).clone_from_fn() {
                #p::Some(__clone_from) => __clone_from(&mut #state.#member, &self.#member),
                #p::None => return false,
            }
        }
    }

    /// `record_state` for a type that holds keyed maps or nested types
    /// (which may): each map brought up to date in place (its nodes
    /// reused), each nested type by its own `record_state`, every other
    /// field `clone_from` when its type is `Clone` (asked by autoref, see
    /// `keyed::CloneProbe`; else `false`, and the sender clones). Only for
    /// a type without type parameters, for which the question has one
    /// answer; nothing for one that holds only sorted `Vec`s, which the
    /// sender's `clone_from` serves as well.
    fn record(&self) -> TokenStream {
        let holds_map = (0..self.fields.len()).any(|position| {
            self.is_nested(position)
                || self.keyed(position).is_some_and(|keyed| matches!(keyed.form, Form::Map { .. }))
        });
        if !holds_map {
            return TokenStream::new();
        }
        let (p, state) = (&self.names.runtime, &self.names.state);
        let clone_from = |position: usize| self.clone_from_field(position);
        let fields = (0..self.fields.len()).map(|position| {
            let member = self.member(position);
            match self.keyed(position).map(|keyed| &keyed.form) {
                Some(Form::Map { .. }) => quote!(#p::keyed::map::record(&self.#member, &mut #state.#member);),
                None if self.is_nested(position) => {
                    let nested = self.nested(self.ty(position));
                    let fallback = clone_from(position);
                    quote! {
                        if !#nested::record_state(&self.#member, &mut #state.#member) {
                            #fallback
                        }
                    }
                }
                _ => clone_from(position),
            }
        });
        self.recording(quote!(record_state), quote!(#(#fields)*))
    }

    /// `write_to`'s `item`, with keyed collections and nested types
    /// written through the budget.
    fn whole_write(&self, item: &Item) -> TokenStream {
        let (writer, budget) = (&self.names.writer, &self.names.budget);
        let place = |position: usize| {
            let member = self.member(position);
            Access::Place(quote!(self.#member))
        };
        match item {
            Item::Field(position) if self.keyed(*position).is_some() => match self.keyed(*position) {
                Some(keyed) => {
                    keyed.write_whole(self.names, &place(*position), &self.budget(true), self.flat)
                }
                None => TokenStream::new(),
            },
            Item::Field(position) if self.is_nested(*position) => {
                let (member, ty) = (self.member(*position), self.ty(*position));
                let nested = self.nested(ty);
                quote_spanned!(ty.span()=> #nested::write_to_within(&self.#member, #writer, #budget)?;)
            }
            item => items::write(self.names, self.fields, item, &place),
        }
    }

    /// Makes field `position` of the state (a copy of `self`) what the
    /// receiver holds after the packet: a keyed collection's entries held
    /// back as in the baseline, a nested type's own state when the packet
    /// sent it (else the baseline's, the same bits).
    fn sent_field(&self, position: usize) -> TokenStream {
        let names = self.names;
        let (p, baseline, budget, state) = (&names.runtime, &names.baseline, &names.budget, &names.state);
        let (member, ty) = (self.member(position), self.ty(position));
        let base = quote!(#p::Option::map(#baseline, |#baseline| &#baseline.#member));
        let (now, into) = (Access::Place(quote!(self.#member)), Access::Place(quote!(#state.#member)));
        if let Some(keyed) = self.keyed(position) {
            let sent = keyed.sent_state(names, &now, &into, base, self.flat);
            return quote!(#sent;);
        }
        let nested = self.nested(ty);
        let fingerprint = |owner: &TokenStream| {
            let writer = &names.writer;
            quote_spanned! {ty.span()=>
                |#writer: &mut #p::BitFingerprint| <#ty as #p::BitPack>::write_to(&#owner.#member, #writer)
            }
        };
        let (now, then) = (fingerprint(&quote!(self)), fingerprint(&baseline.to_token_stream()));
        quote! {
            if match #baseline {
                #p::Some(#baseline) => #p::keyed::nested_sent(#now, #then)?,
                #p::None => true,
            } {
                #nested::sent_state(&self.#member, &mut #state.#member, #base, #budget)?;
            }
        }
    }

    /// The bounds of the keyed collections' entries and keys, each spanned
    /// at its type (concrete ones too, so a type without groups, or a key
    /// type that cannot key, fails there, once; the `BitPack` impl bounds
    /// the keys too).
    pub(super) fn bound_within(&self, where_clause: &mut WhereClause) {
        let p = &self.names.runtime;
        for item in &self.changes.items {
            let ChangeItem::Keyed { field, .. } = item else { continue };
            let Some(keyed) = self.keyed(*field) else { continue };
            let (value, vp) = (keyed.value, respan(&p.to_token_stream(), keyed.value.span()));
            where_clause.predicates.push(syn::parse_quote_spanned! {value.span()=>
                #value: #vp::ChangeGroups + #vp::Clone + ::core::cmp::PartialEq
            });
            match &keyed.form {
                Form::Map { key } => {
                    let kp = respan(&p.to_token_stream(), key.span());
                    where_clause
                        .predicates
                        .push(syn::parse_quote_spanned!(key.span()=> #key: #kp::keyed::Key));
                }
                Form::SortedVec => {
                    where_clause
                        .predicates
                        .push(syn::parse_quote_spanned!(value.span()=> #value: #vp::keyed::KeyField));
                }
            }
        }
    }
}
