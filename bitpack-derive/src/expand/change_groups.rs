//! The `ChangeGroups` impl of a struct with `#[change_group]` fields (and
//! the compile-time checks of its relative ranges), laid out by
//! `ir::items::Changes`: fields outside groups always written, a group's
//! flag then its fields, a nested type's own groups after its flag, a
//! keyed collection's own delta. `within`: the methods a `Sender` calls,
//! for types that hold keyed collections.

mod cached;
mod within;

use crate::expand::atomic;
use crate::expand::codec::{RelativeCoding, codec};
use crate::expand::generics::{bitpack_bounded, bound_changes, bound_geometry};
use crate::expand::items;
use crate::expand::names::{Access, Names};
use crate::expand::pattern;
use crate::expand::problem::problem_check;
use crate::expand::runtime::{self, FloatItem};
use crate::expand::tokens::respan;
use crate::ir::consts::{AxisBounds, Steps};
use crate::ir::encoding::{Encoding, Float};
use crate::ir::geometry::Vector;
use crate::ir::items::{ChangeItem, Changes, Group, Item, Predict};
use crate::ir::keyed::Keyed;
use crate::ir::{Field, Fields, Plan};
use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Index, Member, Type};

/// The impl, to sit inside the derive's `const _: () = { ... };`.
pub fn expand(names: &Names, plan: &Plan<'_>, fields: &Fields<'_>, changes: &Changes) -> TokenStream {
    let mut code = Code { names, changes, fields: &fields.fields, flat: false };
    code.flat = plan.input.generics.params.is_empty() && code.holds_one_map();
    let (p, reader, reader_ty, baseline) = (&names.runtime, &names.reader, &names.reader_ty, &names.baseline);
    let (writer, writer_ty, confirmed, latest, decoded) =
        (&names.writer, &names.writer_ty, &names.confirmed, &names.latest, &names.changes);
    let name = &plan.input.ident;

    let mut nested_types = Vec::new();
    let mut tracker_writes = Vec::new();
    let mut change_types = Vec::new();
    let mut decodes = Vec::new();
    let mut applies = Vec::new();
    let mut delta_writes = Vec::new();
    let mut delta_reads = Vec::new();
    for (index, item) in changes.items.iter().enumerate() {
        let local = names.item(index);
        tracker_writes.push(code.tracked(item));
        change_types.push(code.change_type(item));
        let decode = code.decode(item);
        decodes.push(quote!(let #local = #decode;));
        applies.push(code.apply(item, &local));
        delta_writes.push(code.delta_write(item, Delta::Plain));
        delta_reads.push(code.delta_read(item));
        if let ChangeItem::Nested { field, .. } = item {
            nested_types.push(code.ty(*field));
        }
    }
    let defaults = fields.fields.iter().enumerate().filter(|(_, field)| field.encoding.is_none()).map(
        |(position, field)| {
            let (local, read) = (names.field(position), items::read_field(names, field));
            quote!(let #local = #read;)
        },
    );
    let construct = pattern::construct(names, quote!(Self), fields);
    let locals: Vec<_> = (0..changes.items.len()).map(|index| names.item(index)).collect();
    let records = Literal::usize_unsuffixed(changes.records);
    let nested_trackers = nested_types.iter().rev().fold(quote!(()), |rest, ty| {
        let nested = code.nested(ty);
        quote_spanned!(ty.span()=> (#nested::Tracker, #rest))
    });
    // A nested type without groups fails the tracker's `Default + Clone`
    // bound: the compiler says so at the first nested field's type.
    let tracker_span = nested_types.first().map_or_else(Span::call_site, |ty| ty.span());
    let tracker = respan(&quote!(type Tracker = #p::GroupTracker<#records, #nested_trackers>;), tracker_span);
    let checks = code.relative_checks();
    let within = code.within(fields, plan.input.generics.type_params().next().is_none());
    let cached = code.cached();
    let unchanged = code.unchanged_delta_bits();
    let write_changes = atomic::write(names, quote!(#(#tracker_writes)* #p::Ok(())));
    let decode_changes = atomic::read(names, quote!(#(#decodes)* #p::Ok((#(#locals,)*))));
    let write_delta = atomic::write(names, quote!(#(#delta_writes)* #p::Ok(())));
    let read_delta = atomic::read(names, quote!(#(#delta_reads)* #(#defaults)* #p::Ok(#construct)));
    let (mut generics, params) = bitpack_bounded(names, &plan.input.generics);
    bound_changes(names, changes, &fields.fields, &params, generics.make_where_clause());
    code.bound_within(generics.make_where_clause());
    bound_geometry(names, fields.encodings(), generics.make_where_clause());
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        #(#checks)*
        #[automatically_derived]
        impl #impl_generics #p::ChangeGroups for #name #ty_generics #where_clause {
            #tracker
            type Changes = (#(#change_types,)*);

            #unchanged

            #[inline]
            fn write_changes<#writer_ty: #p::BitWrite>(
                &self,
                #writer: &mut #writer_ty,
                #confirmed: &<Self as #p::ChangeGroups>::Tracker,
                #latest: &mut <Self as #p::ChangeGroups>::Tracker,
            ) -> #p::Result<(), #p::Error> {
                #write_changes
            }

            #[inline]
            fn decode_changes<#reader_ty: #p::BitRead>(
                #reader: &mut #reader_ty,
            ) -> #p::Result<<Self as #p::ChangeGroups>::Changes, #p::Error> {
                #decode_changes
            }

            #[inline]
            fn apply_changes(&mut self, #decoded: <Self as #p::ChangeGroups>::Changes) {
                let (#(#locals,)*) = #decoded;
                #(#applies)*
            }

            #[inline]
            fn write_delta<#writer_ty: #p::BitWrite>(
                &self,
                #baseline: &Self,
                #writer: &mut #writer_ty,
            ) -> #p::Result<(), #p::Error> {
                #write_delta
            }

            #[inline]
            fn read_delta<#reader_ty: #p::BitRead>(
                #baseline: &Self,
                #reader: &mut #reader_ty,
            ) -> #p::Result<Self, #p::Error> {
                #read_delta
            }

            #within
            #cached
        }
    }
}

/// Which `write_delta` a delta write is for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Delta {
    Plain,
    /// `write_delta_within`: keyed collections and nested types take the budget.
    Within,
    /// `write_delta_cached`: flags judged on group prints.
    Cached,
}

/// The generated pieces for one struct.
struct Code<'c, 'a> {
    names: &'c Names,
    changes: &'c Changes,
    fields: &'c [Field<'a>],
    /// A sender holds the type's states flat (`ChangeGroups::FLAT_MAP`):
    /// its keyed map goes through the runtime's `keyed::flat_map` within a
    /// sender's methods.
    flat: bool,
}

impl Code<'_, '_> {
    /// `UNCHANGED_DELTA_BITS` when every item is a group, a nested type or
    /// a keyed collection: a value's delta against itself is then one 0
    /// flag for each (a field outside the groups writes its value instead).
    fn unchanged_delta_bits(&self) -> TokenStream {
        let p = &self.names.runtime;
        if self.changes.items.iter().any(|item| matches!(item, ChangeItem::Always(_))) {
            return TokenStream::new();
        }
        let bits = Literal::usize_unsuffixed(self.changes.items.len());
        quote!(const UNCHANGED_DELTA_BITS: #p::Option<usize> = #p::Some(#bits);)
    }

    fn member(&self, position: usize) -> &Member {
        &self.fields[position].member
    }

    fn ty(&self, position: usize) -> &Type {
        self.fields[position].ty
    }

    /// `<Type as ChangeGroups>` for a nested field's type, every token at
    /// the type: a type without groups is reported there, once.
    fn nested(&self, ty: &Type) -> TokenStream {
        let p = respan(&self.names.runtime.to_token_stream(), ty.span());
        quote_spanned!(ty.span()=> <#ty as #p::ChangeGroups>)
    }

    /// Where field `position` of `owner` (`self` or `__baseline`) is.
    fn place(&self, owner: &TokenStream, position: usize) -> Access {
        let member = self.member(position);
        Access::Place(quote!(#owner.#member))
    }

    /// Writes `items` of `owner` as `write_to` does (fused runs as one:
    /// fewer, larger pushes into the fingerprint sink as well as the writer).
    fn write_items(&self, items: &[Item], owner: &TokenStream) -> TokenStream {
        let writes =
            items.iter().map(|item| items::write(self.names, self.fields, item, &|p| self.place(owner, p)));
        quote!(#(#writes)*)
    }

    /// Statements binding the locals of `items` as `read_from` reads them;
    /// in a delta, `relative` fields read against the baseline.
    fn read_items(&self, items: &[Item], delta: bool) -> TokenStream {
        let reads = items.iter().map(|item| match item {
            Item::Field(position) if delta => {
                let (local, read) = (self.names.field(*position), self.delta_field_read(*position));
                quote!(let #local = #read;)
            }
            item => items::read(self.names, self.fields, item),
        });
        quote!(#(#reads)*)
    }

    /// How field `position` is coded against the baseline, if it is relative:
    /// the coding, and the length of an array coded element by element.
    fn relative(&self, position: usize) -> Option<(RelativeCoding, Option<usize>)> {
        self.changes.relative[position]?;
        let (leaf, len) = self.fields[position].encoding.as_ref()?.relative()?;
        Some((codec(leaf).relative(self.names)?, len))
    }

    /// Writes field `position` in a delta: relative to the baseline if marked.
    fn delta_field_write(&self, position: usize) -> TokenStream {
        let names = self.names;
        let Some((RelativeCoding { write, by_reference, bounds, .. }, len)) = self.relative(position) else {
            return items::write(names, self.fields, &Item::Field(position), &|p| {
                self.place(&quote!(self), p)
            });
        };
        let (member, writer, baseline) = (self.member(position), &names.writer, &names.baseline);
        let by = if by_reference { quote!(&) } else { TokenStream::new() };
        let predicted = self.predicted(position);
        let write = |now: TokenStream, then: TokenStream, index: Option<&Literal>| match &predicted {
            Some((module, predict)) => {
                let predict = predict(index);
                quote!(#module::write_predicted(#writer, #by #now, #by #then, #predict, #(#bounds),*)?;)
            }
            None => quote!(#write(#writer, #by #now, #by #then, #(#bounds),*)?;),
        };
        match len {
            None => write(quote!(self.#member), quote!(#baseline.#member), None),
            Some(len) => {
                let writes = (0..len).map(|index| {
                    let index = Literal::usize_unsuffixed(index);
                    write(quote!(self.#member[#index]), quote!(#baseline.#member[#index]), Some(&index))
                });
                quote!(#(#writes)*)
            }
        }
    }

    /// For a `relative(rate = field, dt = D)` float or vector: its runtime
    /// module (`relative_<float>`, or `quantized_axes_<float>` for a vector,
    /// each axis predicted as the float would be by the same axis of the
    /// rate), and the prediction argument (the baseline's rate, its
    /// declaration and `D`) for element `index` (`None`: not an array).
    #[allow(clippy::type_complexity)]
    fn predicted(
        &self,
        position: usize,
    ) -> Option<(TokenStream, Box<dyn Fn(Option<&Literal>) -> TokenStream + '_>)> {
        let Predict { rate, dt } = self.changes.predictions[position].as_ref()?;
        let leaf_of = |position: usize| Some(self.fields[position].encoding.as_ref()?.relative()?.0);
        let p = &self.names.runtime;
        let (module, by, theirs) = match (leaf_of(position)?, leaf_of(*rate)?) {
            (
                Encoding::Float(own @ Float { steps: Some(_), .. }),
                Encoding::Float(Float { steps: Some(theirs), .. }),
            ) => (runtime::float(p, own.float, FloatItem::Relative), TokenStream::new(), theirs),
            (
                Encoding::Vector(own @ Vector { bounds: AxisBounds::Quantized(..), .. }),
                Encoding::Vector(Vector { bounds: AxisBounds::Quantized(_, theirs), .. }),
            ) => (runtime::axes(p, &own.bounds), quote!(&), theirs),
            _ => return None,
        };
        let Steps { min, max, res } = *theirs;
        let (member, baseline, dt) = (self.member(*rate), &self.names.baseline, *dt);
        Some((
            module,
            Box::new(move |index: Option<&Literal>| {
                let element = index.map(|index| quote!([#index]));
                quote!((#by #baseline.#member #element, #min, #max, #res, #dt))
            }),
        ))
    }

    fn delta_field_read(&self, position: usize) -> TokenStream {
        let names = self.names;
        let Some((RelativeCoding { read, by_reference, bounds, .. }, len)) = self.relative(position) else {
            return items::read_field(names, &self.fields[position]);
        };
        let (member, reader, baseline) = (self.member(position), &names.reader, &names.baseline);
        let by = if by_reference { quote!(&) } else { TokenStream::new() };
        let predicted = self.predicted(position);
        let read = |then: TokenStream, index: Option<&Literal>| match &predicted {
            Some((module, predict)) => {
                let predict = predict(index);
                quote!(#module::read_predicted(#reader, #by #then, #predict, #(#bounds),*)?)
            }
            None => quote!(#read(#reader, #by #then, #(#bounds),*)?),
        };
        match len {
            None => read(quote!(#baseline.#member), None),
            Some(len) => {
                let reads = (0..len).map(|index| {
                    let index = Literal::usize_unsuffixed(index);
                    read(quote!(#baseline.#member[#index]), Some(&index))
                });
                quote!([#(#reads),*])
            }
        }
    }

    /// The baseline's value of field `position`, for a group not sent.
    fn baseline_clone(&self, position: usize) -> TokenStream {
        let (p, baseline) = (&self.names.runtime, &self.names.baseline);
        let (member, ty) = (self.member(position), self.ty(position));
        quote_spanned!(ty.span()=> <#ty as #p::Clone>::clone(&#baseline.#member))
    }

    /// `__confirmed.nested.1.0`-style path to nested tracker `slot`.
    fn nested_path(owner: &Ident, slot: usize) -> TokenStream {
        let (rest, first) = (Index::from(1), Index::from(0));
        let mut path = quote!(#owner.nested);
        for _ in 0..slot {
            path = quote!(#path.#rest);
        }
        quote!(#path.#first)
    }

    fn tracked(&self, item: &ChangeItem) -> TokenStream {
        let names = self.names;
        let (p, writer, confirmed, latest) = (&names.runtime, &names.writer, &names.confirmed, &names.latest);
        let this = quote!(self);
        match item {
            ChangeItem::Always(position) => self.write_items(&[Item::Field(*position)], &this),
            ChangeItem::Group(group) => self.tracked_items(group.record, &group.items),
            ChangeItem::Keyed { record, field } => self.tracked_items(*record, &[Item::Field(*field)]),
            ChangeItem::Nested { record, slot, field } => {
                let record = Index::from(*record);
                let (member, ty) = (self.member(*field), self.ty(*field));
                let (confirmed_path, latest_path) =
                    (Self::nested_path(confirmed, *slot), Self::nested_path(latest, *slot));
                let nested_trait = self.nested(ty);
                let nested = quote_spanned! {ty.span()=>
                    #nested_trait::write_changes(&self.#member, #writer, &#confirmed_path, &mut #latest_path)?;
                };
                quote! {
                    if #p::tracked_group(
                        #writer,
                        &#confirmed.records[#record],
                        &mut #latest.records[#record],
                        |#writer: &mut #p::BitFingerprint| <#ty as #p::BitPack>::write_to(&self.#member, #writer),
                    )? {
                        #nested
                    }
                }
            }
        }
    }

    /// A tracked group of `items` (of `self`) with flag record `record`.
    fn tracked_items(&self, record: usize, items: &[Item]) -> TokenStream {
        let names = self.names;
        let (p, writer, confirmed, latest) = (&names.runtime, &names.writer, &names.confirmed, &names.latest);
        let record = Index::from(record);
        let writes = self.write_items(items, &quote!(self));
        quote! {
            if #p::tracked_group(
                #writer,
                &#confirmed.records[#record],
                &mut #latest.records[#record],
                |#writer: &mut #p::BitFingerprint| {
                    #writes
                    #p::Ok(())
                },
            )? {
                #writes
            }
        }
    }

    fn change_type(&self, item: &ChangeItem) -> TokenStream {
        let p = &self.names.runtime;
        match item {
            ChangeItem::Always(position) => self.ty(*position).to_token_stream(),
            ChangeItem::Group(group) => {
                let types = group.fields.iter().map(|position| self.ty(*position));
                quote!(#p::Option<(#(#types,)*)>)
            }
            ChangeItem::Keyed { field, .. } => {
                let ty = self.ty(*field);
                quote!(#p::Option<(#ty,)>)
            }
            ChangeItem::Nested { field, .. } => {
                let ty = self.ty(*field);
                let (p, nested) = (respan(&p.to_token_stream(), ty.span()), self.nested(ty));
                quote_spanned!(ty.span()=> #p::Option<#nested::Changes>)
            }
        }
    }

    fn decode(&self, item: &ChangeItem) -> TokenStream {
        let (p, reader) = (&self.names.runtime, &self.names.reader);
        let sent = |value: TokenStream| {
            quote! {
                if #p::BitRead::read_bool(#reader)? { #p::Some(#value) } else { #p::None }
            }
        };
        match item {
            ChangeItem::Always(position) => items::read_field(self.names, &self.fields[*position]),
            ChangeItem::Group(group) => {
                let reads = self.read_items(&group.items, false);
                let locals = group.fields.iter().map(|position| self.names.field(*position));
                sent(quote!({
                    #reads
                    (#(#locals,)*)
                }))
            }
            ChangeItem::Keyed { field, .. } => {
                let read = items::read_field(self.names, &self.fields[*field]);
                sent(quote!((#read,)))
            }
            ChangeItem::Nested { field, .. } => {
                let ty = self.ty(*field);
                let nested = self.nested(ty);
                sent(quote_spanned!(ty.span()=> #nested::decode_changes(#reader)?))
            }
        }
    }

    fn apply(&self, item: &ChangeItem, local: &Ident) -> TokenStream {
        let (p, changes) = (&self.names.runtime, &self.names.nested);
        match item {
            ChangeItem::Always(position) => {
                let member = self.member(*position);
                quote!(self.#member = #local;)
            }
            ChangeItem::Group(group) => self.apply_fields(&group.fields, local),
            ChangeItem::Keyed { field, .. } => self.apply_fields(&[*field], local),
            ChangeItem::Nested { field, .. } => {
                let (member, ty) = (self.member(*field), self.ty(*field));
                let nested = self.nested(ty);
                let apply = quote_spanned!(ty.span()=> #nested::apply_changes(&mut self.#member, #changes););
                quote! {
                    if let #p::Some(#changes) = #local {
                        #apply
                    }
                }
            }
        }
    }

    /// Sets `fields` from the decoded group in `local`, if it was sent.
    fn apply_fields(&self, fields: &[usize], local: &Ident) -> TokenStream {
        let p = &self.names.runtime;
        let values: Vec<_> = (0..fields.len()).map(|index| self.names.value(index)).collect();
        let members = fields.iter().map(|position| self.member(*position));
        quote! {
            if let #p::Some((#(#values,)*)) = #local {
                #(self.#members = #values;)*
            }
        }
    }

    /// The keyed collection in field `position`, if it is one.
    fn keyed(&self, position: usize) -> Option<&Keyed<'_>> {
        match &self.fields[position].encoding {
            Some(Encoding::Keyed(keyed)) => Some(keyed),
            _ => None,
        }
    }

    /// A delta group's flag over what `now` and `then` write (closures):
    /// judged on their fingerprints, or in `write_delta_cached` on the
    /// group's print against the baseline's.
    fn delta_flag(&self, mode: Delta, record: usize, now: TokenStream, then: TokenStream) -> TokenStream {
        let (p, writer) = (&self.names.runtime, &self.names.writer);
        match mode {
            Delta::Plain | Delta::Within => quote!(#p::delta_group(#writer, #now, #then)),
            Delta::Cached => {
                let (slot, baseline_prints, prints) =
                    (self.slot(record).0, &self.names.baseline_prints, &self.names.prints);
                quote!(#p::cached_group(#writer, #slot, #baseline_prints, #prints, #now, #then))
            }
        }
    }

    /// The `write_delta` of `item`: as `write_delta` writes it, in
    /// `write_delta_within` (passing the budget on to keyed collections and
    /// nested types) or in `write_delta_cached`.
    fn delta_write(&self, item: &ChangeItem, mode: Delta) -> TokenStream {
        let (p, writer, baseline) = (&self.names.runtime, &self.names.writer, &self.names.baseline);
        let within = mode == Delta::Within;
        match item {
            ChangeItem::Always(position) => self.delta_field_write(*position),
            ChangeItem::Group(group) => {
                let write = self.group_delta_write(group, mode);
                match mode {
                    Delta::Cached => {
                        let write = self.steps_group(group, &write).unwrap_or(write);
                        self.kept_group(group, write)
                    }
                    Delta::Plain | Delta::Within => write,
                }
            }
            ChangeItem::Keyed { field, .. } => match self.keyed(*field) {
                Some(keyed) => {
                    let member = self.member(*field);
                    let (now, base) =
                        (Access::Place(quote!(self.#member)), Access::Place(quote!(#baseline.#member)));
                    keyed.write_delta(self.names, &now, &base, &self.budget(within), within && self.flat)
                }
                None => TokenStream::new(),
            },
            ChangeItem::Nested { field, record, .. } => {
                let (member, ty) = (self.member(*field), self.ty(*field));
                let nested = self.nested(ty);
                let budget = &self.names.budget;
                let write = if within {
                    quote_spanned! {ty.span()=>
                        #nested::write_delta_within(&self.#member, &#baseline.#member, #writer, #budget)?;
                    }
                } else {
                    quote_spanned! {ty.span()=>
                        #nested::write_delta(&self.#member, &#baseline.#member, #writer)?;
                    }
                };
                let flag = self.delta_flag(
                    mode,
                    *record,
                    quote!(|#writer: &mut #p::BitFingerprint| <#ty as #p::BitPack>::write_to(&self.#member, #writer)),
                    quote!(|#writer: &mut #p::BitFingerprint| {
                        <#ty as #p::BitPack>::write_to(&#baseline.#member, #writer)
                    }),
                );
                quote! {
                    if #flag? {
                        #write
                    }
                }
            }
        }
    }

    /// A group's delta write: its flag (judged as `mode` says), then its
    /// fields, relative ones against the baseline.
    fn group_delta_write(&self, group: &Group, mode: Delta) -> TokenStream {
        let (p, writer, baseline) = (&self.names.runtime, &self.names.writer, &self.names.baseline);
        let now = self.write_items(&group.items, &quote!(self));
        let then = self.write_items(&group.items, &quote!(#baseline));
        let writes = group.delta.iter().map(|item| match item {
            Item::Field(position) => self.delta_field_write(*position),
            item => items::write(self.names, self.fields, item, &|p| self.place(&quote!(self), p)),
        });
        let flag = self.delta_flag(
            mode,
            group.record,
            quote!(|#writer: &mut #p::BitFingerprint| {
                #now
                #p::Ok(())
            }),
            quote!(|#writer: &mut #p::BitFingerprint| {
                #then
                #p::Ok(())
            }),
        );
        quote! {
            if #flag? {
                #(#writes)*
            }
        }
    }

    /// Reads `item` of a delta. A group flagged as sent is refused when
    /// its bits are the baseline's (`delta_group_sent`), since `write_delta`
    /// sends only groups that differ: what decodes re-encodes exactly.
    fn delta_read(&self, item: &ChangeItem) -> TokenStream {
        let names = self.names;
        let (p, reader, baseline, writer, flag) =
            (&names.runtime, &names.reader, &names.baseline, &names.writer, &names.flag);
        match item {
            ChangeItem::Always(position) => {
                let (local, read) = (names.field(*position), self.delta_field_read(*position));
                quote!(let #local = #read;)
            }
            ChangeItem::Group(group) => {
                let locals: Vec<_> = group.fields.iter().map(|position| names.field(*position)).collect();
                let reads = self.read_items(&group.delta, true);
                let kept = group.fields.iter().map(|position| self.baseline_clone(*position));
                // As `delta_write` judges the group: absolute writes of the
                // values read, and of the baseline's.
                let now = group.items.iter().map(|item| {
                    items::write(names, self.fields, item, &|position| {
                        let local = names.field(position);
                        Access::Place(quote!(#local))
                    })
                });
                let then = self.write_items(&group.items, &quote!(#baseline));
                quote! {
                    let #flag = #p::BitRead::bits_read(#reader);
                    let (#(#locals,)*) = if #p::BitRead::read_bool(#reader)? {
                        #reads
                        #p::delta_group_sent(
                            #flag,
                            |#writer: &mut #p::BitFingerprint| {
                                #(#now)*
                                #p::Ok(())
                            },
                            |#writer: &mut #p::BitFingerprint| {
                                #then
                                #p::Ok(())
                            },
                        )?;
                        (#(#locals,)*)
                    } else {
                        (#(#kept,)*)
                    };
                }
            }
            ChangeItem::Keyed { field, .. } => {
                let (local, member) = (self.names.field(*field), self.member(*field));
                let read = self
                    .keyed(*field)
                    .map(|keyed| keyed.read_delta(self.names, &Access::Place(quote!(#baseline.#member))));
                quote!(let #local = #read;)
            }
            ChangeItem::Nested { field, .. } => {
                let local = names.field(*field);
                let (member, ty) = (self.member(*field), self.ty(*field));
                let (kept, nested) = (self.baseline_clone(*field), self.nested(ty));
                let read = quote_spanned!(ty.span()=> #nested::read_delta(&#baseline.#member, #reader)?);
                quote! {
                    let #flag = #p::BitRead::bits_read(#reader);
                    let #local = if #p::BitRead::read_bool(#reader)? {
                        let #local = #read;
                        #p::delta_group_sent(
                            #flag,
                            |#writer: &mut #p::BitFingerprint| <#ty as #p::BitPack>::write_to(&#local, #writer),
                            |#writer: &mut #p::BitFingerprint| {
                                <#ty as #p::BitPack>::write_to(&#baseline.#member, #writer)
                            },
                        )?;
                        #local
                    } else {
                        #kept
                    };
                }
            }
        }
    }

    /// Compile-time checks that each relative range lies within i64 (for
    /// bounds given as paths to constants), failing at `relative`.
    fn relative_checks(&self) -> Vec<TokenStream> {
        (0..self.fields.len())
            .filter_map(|position| {
                let span = self.changes.relative[position]?;
                let (RelativeCoding { problem: Some((problem, kind)), .. }, _) = self.relative(position)?
                else {
                    return None;
                };
                Some(problem_check(self.names, span, problem, kind))
            })
            .collect()
    }
}
