//! Change groups: `#[change_group]` / `#[change_group(name)]` on struct
//! fields and `#[bitpack(relative)]` on ranged integers, from the attribute
//! to the generated `ChangeGroups` impl. The other phases call in here:
//! [`field_attr`] and [`misplaced`] while parsing, [`plan`] while
//! validating, [`expand`] while expanding.
//!
//! The wire, in field order: a field outside any group is written as in
//! `write_to`; a group is one flag bit at its first field, then (if set) all
//! its fields in order; a bare `#[change_group]` on a field of a named type
//! nests that type's own groups after the flag (the type must implement
//! `ChangeGroups`); a named group sends any field whole.

use crate::ast::{Body, Input};
use crate::attr::{FieldAttrs, Int, Literal};
use crate::errors::Errors;
use crate::expand::{Access, Emitter};
use crate::plan::{self, Encoding, Plan};
use crate::ty::{IntTy, Shape, shape};
use proc_macro2::{Literal as LiteralToken, Span, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::parse::ParseStream;
use syn::spanned::Spanned;
use syn::{Attribute, Ident, Index, Meta, Type};

/// `#[change_group]` or `#[change_group(name)]` on a field.
pub struct GroupAttr {
    /// The `change_group` as written, where mistakes about it point.
    pub keyword: Ident,
    /// `None` for a bare `#[change_group]`: a group of its own (nested for a named type).
    pub name: Option<Ident>,
}

/// Parses a field's `#[change_group]` into `slot`.
pub fn field_attr(attr: &Attribute, slot: &mut Option<GroupAttr>, errors: &mut Errors) {
    let keyword = attr.path().get_ident().cloned().unwrap_or_else(|| Ident::new("change_group", attr.span()));
    let name = match &attr.meta {
        Meta::Path(_) => None,
        Meta::List(list) => {
            let parsed = list.parse_args_with(|input: ParseStream<'_>| {
                let name: Ident = input.parse()?;
                if input.is_empty() { Ok(name) } else { Err(input.error("one name only")) }
            });
            match parsed {
                Ok(name) => Some(name),
                Err(_) => {
                    let message = "a group name is one identifier, as in #[change_group(motion)]";
                    if list.tokens.is_empty() {
                        errors.spanned(attr, message);
                    } else {
                        errors.spanned(&list.tokens, message);
                    }
                    return;
                }
            }
        }
        Meta::NameValue(pair) => {
            errors.spanned(&pair.value, "write the group name in parentheses, as in #[change_group(motion)]");
            return;
        }
    };
    if slot.is_some() {
        errors.spanned(attr, "duplicate #[change_group] on one field; keep one");
        return;
    }
    *slot = Some(GroupAttr { keyword, name });
}

/// `#[change_group]` on the type or on an enum variant (`place`).
pub fn misplaced(attr: &Attribute, place: &str, errors: &mut Errors) {
    let fix = if place == "an enum variant" {
        "put the enum in a struct field with #[change_group(name)]"
    } else {
        "put it on the fields that change together"
    };
    errors.spanned(attr.path(), format!("#[change_group] goes on a struct's fields, not on {place}; {fix}"));
}

/// The change-group layout of a struct, in wire order.
pub struct ChangePlan {
    items: Vec<Item>,
    /// Per field: where `relative` was written, if it was.
    relative: Vec<Option<Span>>,
    /// Flag records: one per group, nested ones included.
    records: usize,
}

enum Item {
    /// A field outside any group: always written.
    Always(usize),
    /// A group's record and its fields.
    Group { record: usize, fields: Vec<usize> },
    /// A nested change-group field: its outer record and its tracker's slot.
    Nested { record: usize, slot: usize, field: usize },
}

const ENUM_FIELD: &str = "#[change_group] is not supported on an enum variant's fields: a variant \
                          change resends the enum; put the enum in a struct field with #[change_group(name)]";
const RELATIVE_NEEDS_GROUPS: &str = "`relative` codes against the baseline in `write_delta`, which only \
                                     structs with #[change_group] fields have; add one or remove `relative`";

/// Checks the change-group attributes and plans the groups; `None` when
/// the type has no groups (no `ChangeGroups` impl) or has mistakes.
pub fn plan(input: &Input<'_>, body: Option<&plan::Body<'_>>, errors: &mut Errors) -> Option<ChangePlan> {
    match (&input.body, body) {
        (Body::Enum(variants), _) => {
            for field in variants.iter().flat_map(|variant| &variant.fields.fields) {
                if let Some(group) = &field.attrs.change_group {
                    errors.at(group.keyword.span(), ENUM_FIELD);
                }
                if let Some(relative) = &field.attrs.relative {
                    errors.at(relative.span(), RELATIVE_NEEDS_GROUPS);
                }
            }
            None
        }
        (Body::Struct(fields), Some(plan::Body::Struct(planned))) => {
            let attrs: Vec<_> = fields.fields.iter().map(|field| &field.attrs).collect();
            plan_struct(&attrs, &planned.fields, errors)
        }
        _ => None,
    }
}

fn plan_struct(attrs: &[&FieldAttrs], fields: &[plan::Field<'_>], errors: &mut Errors) -> Option<ChangePlan> {
    let grouped = attrs.iter().any(|attrs| attrs.change_group.is_some());
    if grouped {
        refuse_adaptive(attrs, fields, errors);
    }
    let mut plan = ChangePlan { items: Vec::new(), relative: vec![None; fields.len()], records: 0 };
    let mut named: Vec<(&Ident, usize)> = Vec::new();
    let mut slots = 0;
    for (position, (attrs, field)) in attrs.iter().zip(fields).enumerate() {
        if attrs.skip.is_some() {
            let written = "a skipped field is not written; remove `skip` or";
            if let Some(group) = &attrs.change_group {
                errors.at(group.keyword.span(), format!("{written} #[change_group]"));
            }
            if let Some(relative) = &attrs.relative {
                errors.at(relative.span(), format!("{written} `relative`"));
            }
            continue;
        }
        if let Some(relative) = &attrs.relative {
            if !grouped {
                errors.at(relative.span(), RELATIVE_NEEDS_GROUPS);
            } else if check_relative(relative, attrs, field, errors) {
                plan.relative[position] = Some(relative.span());
            }
        }
        match attrs.change_group.as_ref().map(|group| &group.name) {
            None => plan.items.push(Item::Always(position)),
            Some(Some(name)) => match named.iter().find(|(seen, _)| *seen == name) {
                Some(&(_, item)) => {
                    if let Some(Item::Group { fields, .. }) = plan.items.get_mut(item) {
                        fields.push(position);
                    }
                }
                None => {
                    named.push((name, plan.items.len()));
                    plan.items.push(Item::Group { record: plan.records, fields: vec![position] });
                    plan.records += 1;
                }
            },
            Some(None) if matches!(shape(field.ty), Shape::Nested) => {
                plan.items.push(Item::Nested { record: plan.records, slot: slots, field: position });
                plan.records += 1;
                slots += 1;
            }
            Some(None) => {
                plan.items.push(Item::Group { record: plan.records, fields: vec![position] });
                plan.records += 1;
            }
        }
    }
    grouped.then_some(plan)
}

/// Adaptive integers share the message's sign bit, which change-group
/// packets do not carry yet: refused, at each field's `adaptive`, or at the
/// first group when the type-level `adaptive` reaches them.
fn refuse_adaptive(attrs: &[&FieldAttrs], fields: &[plan::Field<'_>], errors: &mut Errors) {
    const MESSAGE: &str = "adaptive integers and #[change_group] in one type are not supported yet; \
                           use #[bits(min, max)], or a nested adaptive type sent as a named group";
    let mut reported = false;
    let mut reached = false;
    for (attrs, field) in attrs.iter().zip(fields) {
        if !field.encoding.as_ref().is_some_and(crate::adaptive::contains_adaptive) {
            continue;
        }
        reached = true;
        // Field groups report their own refusal at the group name.
        if attrs.adaptive_group.is_some() {
            reported = true;
        } else if let Some(adaptive) = &attrs.adaptive {
            errors.at(adaptive.span(), MESSAGE);
            reported = true;
        }
    }
    if reached
        && !reported
        && let Some(group) = attrs.iter().find_map(|attrs| attrs.change_group.as_ref())
    {
        errors.at(group.keyword.span(), MESSAGE);
    }
}

/// Whether a `relative` field is a ranged integer whose range the core can
/// code relatively; records the mistake if not.
fn check_relative(
    relative: &Ident,
    attrs: &FieldAttrs,
    field: &plan::Field<'_>,
    errors: &mut Errors,
) -> bool {
    if field.encoding.as_ref().and_then(relative_of).is_none() {
        let message = match shape(field.ty) {
            Shape::Int(_) => "`relative` needs a range: add #[bits(min = .., max = ..)]".to_owned(),
            Shape::F32 | Shape::F64 => {
                "`relative` needs steps: add #[quantize(min = .., max = .., res = ..)]".to_owned()
            }
            _ => format!(
                "`relative` needs an integer with #[bits(min, max)], a float with #[quantize(min, max, res)] \
                 or an array of up to 16 of them (literal length), not `{}`; remove it",
                field.ty.to_token_stream()
            ),
        };
        errors.at(relative.span(), message);
        return false;
    }
    let fits = |literal: &Literal| match literal {
        Literal::Int(Int { negative, magnitude }) => {
            *magnitude <= if *negative { 1u128 << 63 } else { (1u128 << 63) - 1 }
        }
        _ => true,
    };
    match &attrs.bits {
        Some(bits) if !fits(&bits.min.literal) || !fits(&bits.max.literal) => {
            errors.at(
                relative.span(),
                "`relative` codes ranges within i64 and this one reaches past it; narrow it or remove `relative`",
            );
            false
        }
        _ => true,
    }
}

/// How a `relative` field is coded against its baseline: the runtime
/// module (`relative_<int>`, or `relative_f32` / `relative_f64` on a
/// float's steps) and the declaration's bounds, passed after the value and
/// the baseline. Integer ranges also get a compile-time check.
struct Relative<'e> {
    module: Ident,
    bounds: Vec<&'e Ident>,
    int: bool,
}

/// The relative coding of an encoding, and the length when it is an array
/// (a literal length up to 16, coded element by element); `None` when it
/// cannot be coded relatively.
fn relative_of<'e>(encoding: &'e Encoding<'_>) -> Option<(Relative<'e>, Option<usize>)> {
    let scalar = |encoding: &'e Encoding<'_>| match encoding {
        Encoding::Ranged { ty, min, max } => {
            Some(Relative { module: relative_module(*ty), bounds: vec![min, max], int: true })
        }
        Encoding::Quantized { min, max, res, double } => {
            let module = format_ident!("{}", if *double { "relative_f64" } else { "relative_f32" });
            Some(Relative { module, bounds: vec![min, max, res], int: false })
        }
        _ => None,
    };
    match encoding {
        Encoding::Array { len, element } => {
            let len = crate::expand::small_literal(len).filter(|len| *len > 0)?;
            Some((scalar(element)?, Some(len)))
        }
        _ => Some((scalar(encoding)?, None)),
    }
}

/// The `ChangeGroups` impl (and the compile-time checks of relative ranges),
/// to sit inside the derive's `const _: () = { ... };`.
pub fn expand(changes: &ChangePlan, plan: &Plan<'_>, emitter: &Emitter) -> TokenStream {
    let plan::Body::Struct(body) = &plan.body else { return TokenStream::new() };
    let code = Code { changes, fields: &body.fields, emitter };
    let p = &emitter.runtime;
    let name = &plan.input.ident;

    let mut nested_types = Vec::new();
    let mut tracker_writes = Vec::new();
    let mut change_types = Vec::new();
    let mut decodes = Vec::new();
    let mut applies = Vec::new();
    let mut delta_writes = Vec::new();
    let mut delta_reads = Vec::new();
    for (index, item) in changes.items.iter().enumerate() {
        let local = format_ident!("__item{}", index);
        tracker_writes.push(code.tracked(item));
        change_types.push(code.change_type(item));
        let decode = code.decode(item);
        decodes.push(quote!(let #local = #decode;));
        applies.push(code.apply(item, &local));
        delta_writes.push(code.delta_write(item));
        delta_reads.push(code.delta_read(item));
        if let Item::Nested { field, .. } = item {
            nested_types.push(body.fields[*field].ty);
        }
    }
    let defaults = body.fields.iter().enumerate().filter(|(_, field)| field.encoding.is_none()).map(
        |(position, field)| {
            let local = binding(position);
            let ty = field.ty;
            quote_spanned!(ty.span()=> let #local = <#ty as #p::Default>::default();)
        },
    );
    let locals: Vec<_> = (0..body.fields.len()).map(binding).collect();
    let construct = match body.style {
        crate::ast::Style::Named => {
            let members = body.fields.iter().map(|field| &field.member);
            quote!(Self { #(#members: #locals),* })
        }
        crate::ast::Style::Tuple => quote!(Self(#(#locals),*)),
        crate::ast::Style::Unit => quote!(Self),
    };
    let items: Vec<_> = (0..changes.items.len()).map(|index| format_ident!("__item{}", index)).collect();
    let records = LiteralToken::usize_unsuffixed(changes.records);
    let nested_trackers = nested_types.iter().rev().fold(quote!(()), |rest, ty| {
        let p = respan(p, ty.span());
        quote_spanned!(ty.span()=> (<#ty as #p::ChangeGroups>::Tracker, #rest))
    });
    // A nested type without groups fails the tracker's `Default + Clone`
    // bound: the compiler says so at the first nested field's type.
    let tracker_span = nested_types.first().map_or_else(Span::call_site, |ty| ty.span());
    let tracker = respan(&quote!(type Tracker = #p::GroupTracker<#records, #nested_trackers>;), tracker_span);
    let checks = code.relative_checks();
    let (impl_generics, ty_generics, where_clause) = &code.generics(plan);
    quote! {
        #(#checks)*
        #[automatically_derived]
        impl #impl_generics #p::ChangeGroups for #name #ty_generics #where_clause {
            #tracker
            type Changes = (#(#change_types,)*);

            #[inline]
            fn write_changes<__W: #p::BitWrite>(
                &self,
                __writer: &mut __W,
                __confirmed: &<Self as #p::ChangeGroups>::Tracker,
                __latest: &mut <Self as #p::ChangeGroups>::Tracker,
            ) -> #p::Result<(), #p::Error> {
                #(#tracker_writes)*
                #p::Ok(())
            }

            #[inline]
            fn decode_changes(
                __reader: &mut #p::BitReader<'_>,
            ) -> #p::Result<<Self as #p::ChangeGroups>::Changes, #p::Error> {
                #(#decodes)*
                #p::Ok((#(#items,)*))
            }

            #[inline]
            fn apply_changes(&mut self, __changes: <Self as #p::ChangeGroups>::Changes) {
                let (#(#items,)*) = __changes;
                #(#applies)*
            }

            #[inline]
            fn write_delta<__W: #p::BitWrite>(
                &self,
                __baseline: &Self,
                __writer: &mut __W,
            ) -> #p::Result<(), #p::Error> {
                #(#delta_writes)*
                #p::Ok(())
            }

            #[inline]
            fn read_delta(
                __baseline: &Self,
                __reader: &mut #p::BitReader<'_>,
            ) -> #p::Result<Self, #p::Error> {
                #(#delta_reads)*
                #(#defaults)*
                #p::Ok(#construct)
            }
        }
    }
}

/// The local holding field number `position` in `read_delta`.
fn binding(position: usize) -> Ident {
    format_ident!("__field{}", position)
}

/// The generated pieces for one struct.
struct Code<'c, 'a> {
    changes: &'c ChangePlan,
    fields: &'c [plan::Field<'a>],
    emitter: &'c Emitter,
}

impl Code<'_, '_> {
    fn member(&self, position: usize) -> &syn::Member {
        &self.fields[position].member
    }

    fn ty(&self, position: usize) -> &Type {
        self.fields[position].ty
    }

    /// Writes field `position` of `owner` (`self` or `__baseline`) as `write_to` does.
    fn write(&self, position: usize, owner: &TokenStream) -> TokenStream {
        let member = self.member(position);
        match &self.fields[position].encoding {
            Some(encoding) => self.emitter.write(encoding, &Access::Place(quote!(#owner.#member)), 0),
            None => TokenStream::new(),
        }
    }

    /// Writes the fields at `positions` of `owner` as `write_to` does, with
    /// consecutive fixed-width fields as one fused run (fewer, larger pushes
    /// into the fingerprint sink as well as the writer).
    fn write_all(&self, positions: &[usize], owner: &TokenStream) -> TokenStream {
        let written: Vec<_> = positions
            .iter()
            .filter_map(|&position| {
                let member = self.member(position);
                let encoding = self.fields[position].encoding.as_ref()?;
                Some((Access::Place(quote!(#owner.#member)), encoding))
            })
            .collect();
        let writes = self.emitter.writes(&written);
        quote!(#(#writes)*)
    }

    /// Statements binding each of `positions`' locals (`__field{n}`) as
    /// `read_from` reads them, consecutive fixed-width fields as one fused
    /// run; `relative` fields (in a delta) read against the baseline.
    fn read_all(&self, positions: &[usize], relative: bool) -> TokenStream {
        let mut reads = Vec::new();
        let mut index = 0;
        while let Some(&position) = positions.get(index) {
            let is_relative = relative && self.relative(position).is_some();
            if !is_relative {
                let plain: Vec<_> = positions[index..]
                    .iter()
                    .take_while(|&&next| !(relative && self.relative(next).is_some()))
                    .map(|&next| (&self.fields[next], binding(next)))
                    .collect();
                let (taken, read) = self.emitter.read_run(&plain);
                if taken > 0 {
                    reads.push(read);
                    index += taken;
                    continue;
                }
            }
            let local = binding(position);
            let read = if relative { self.delta_field_read(position) } else { self.read(position) };
            reads.push(quote!(let #local = #read;));
            index += 1;
        }
        quote!(#(#reads)*)
    }

    /// Reads field `position` as `read_from` does.
    fn read(&self, position: usize) -> TokenStream {
        match &self.fields[position].encoding {
            Some(encoding) => self.emitter.read(encoding, 0),
            None => TokenStream::new(),
        }
    }

    /// How field `position` is coded against the baseline, if it is relative.
    fn relative(&self, position: usize) -> Option<(Relative<'_>, Option<usize>)> {
        self.changes.relative[position]?;
        relative_of(self.fields[position].encoding.as_ref()?)
    }

    /// Writes field `position` in a delta: relative to the baseline if marked.
    fn delta_field_write(&self, position: usize) -> TokenStream {
        let p = &self.emitter.runtime;
        let Some((relative, len)) = self.relative(position) else {
            return self.write(position, &quote!(self));
        };
        let member = self.member(position);
        let Relative { module, bounds, .. } = &relative;
        let write = |now: TokenStream, then: TokenStream| quote!(#p::#module::write(__writer, #now, #then, #(#bounds),*)?;);
        match len {
            None => write(quote!(self.#member), quote!(__baseline.#member)),
            Some(len) => {
                let writes = (0..len).map(|index| {
                    let index = LiteralToken::usize_unsuffixed(index);
                    write(quote!(self.#member[#index]), quote!(__baseline.#member[#index]))
                });
                quote!(#(#writes)*)
            }
        }
    }

    fn delta_field_read(&self, position: usize) -> TokenStream {
        let p = &self.emitter.runtime;
        let Some((relative, len)) = self.relative(position) else {
            return self.read(position);
        };
        let member = self.member(position);
        let Relative { module, bounds, .. } = &relative;
        let read = |then: TokenStream| quote!(#p::#module::read(__reader, #then, #(#bounds),*)?);
        match len {
            None => read(quote!(__baseline.#member)),
            Some(len) => {
                let reads = (0..len).map(|index| {
                    let index = LiteralToken::usize_unsuffixed(index);
                    read(quote!(__baseline.#member[#index]))
                });
                quote!([#(#reads),*])
            }
        }
    }

    /// The baseline's value of field `position`, for a group not sent.
    fn baseline_clone(&self, position: usize) -> TokenStream {
        let p = &self.emitter.runtime;
        let (member, ty) = (self.member(position), self.ty(position));
        quote_spanned!(ty.span()=> <#ty as #p::Clone>::clone(&__baseline.#member))
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

    fn tracked(&self, item: &Item) -> TokenStream {
        let p = &self.emitter.runtime;
        let this = quote!(self);
        match item {
            Item::Always(position) => self.write(*position, &this),
            Item::Group { record, fields } => {
                let record = Index::from(*record);
                let writes = self.write_all(fields, &this);
                quote! {
                    if #p::tracked_group(
                        __writer,
                        &__confirmed.records[#record],
                        &mut __latest.records[#record],
                        |__writer: &mut #p::BitFingerprint| {
                            #writes
                            #p::Ok(())
                        },
                    )? {
                        #writes
                    }
                }
            }
            Item::Nested { record, slot, field } => {
                let record = Index::from(*record);
                let (member, ty) = (self.member(*field), self.ty(*field));
                let confirmed = Self::nested_path(&format_ident!("__confirmed"), *slot);
                let latest = Self::nested_path(&format_ident!("__latest"), *slot);
                let nested = quote_spanned! {ty.span()=>
                    <#ty as #p::ChangeGroups>::write_changes(&self.#member, __writer, &#confirmed, &mut #latest)?;
                };
                quote! {
                    if #p::tracked_group(
                        __writer,
                        &__confirmed.records[#record],
                        &mut __latest.records[#record],
                        |__writer: &mut #p::BitFingerprint| <#ty as #p::BitPack>::write_to(&self.#member, __writer),
                    )? {
                        #nested
                    }
                }
            }
        }
    }

    fn change_type(&self, item: &Item) -> TokenStream {
        let p = &self.emitter.runtime;
        match item {
            Item::Always(position) => self.ty(*position).to_token_stream(),
            Item::Group { fields, .. } => {
                let types = fields.iter().map(|position| self.ty(*position));
                quote!(#p::Option<(#(#types,)*)>)
            }
            Item::Nested { field, .. } => {
                let ty = self.ty(*field);
                let p = respan(p, ty.span());
                quote_spanned!(ty.span()=> #p::Option<<#ty as #p::ChangeGroups>::Changes>)
            }
        }
    }

    fn decode(&self, item: &Item) -> TokenStream {
        let p = &self.emitter.runtime;
        let sent = |value: TokenStream| {
            quote! {
                if #p::BitReader::read_bool(__reader)? { #p::Some(#value) } else { #p::None }
            }
        };
        match item {
            Item::Always(position) => self.read(*position),
            Item::Group { fields, .. } => {
                let reads = self.read_all(fields, false);
                let locals = fields.iter().map(|position| binding(*position));
                sent(quote!({
                    #reads
                    (#(#locals,)*)
                }))
            }
            Item::Nested { field, .. } => {
                let ty = self.ty(*field);
                sent(quote_spanned!(ty.span()=> <#ty as #p::ChangeGroups>::decode_changes(__reader)?))
            }
        }
    }

    fn apply(&self, item: &Item, local: &Ident) -> TokenStream {
        let p = &self.emitter.runtime;
        match item {
            Item::Always(position) => {
                let member = self.member(*position);
                quote!(self.#member = #local;)
            }
            Item::Group { fields, .. } => {
                let values: Vec<_> =
                    (0..fields.len()).map(|index| format_ident!("__value{}", index)).collect();
                let members = fields.iter().map(|position| self.member(*position));
                quote! {
                    if let #p::Some((#(#values,)*)) = #local {
                        #(self.#members = #values;)*
                    }
                }
            }
            Item::Nested { field, .. } => {
                let (member, ty) = (self.member(*field), self.ty(*field));
                quote! {
                    if let #p::Some(__nested) = #local {
                        <#ty as #p::ChangeGroups>::apply_changes(&mut self.#member, __nested);
                    }
                }
            }
        }
    }

    fn delta_write(&self, item: &Item) -> TokenStream {
        let p = &self.emitter.runtime;
        match item {
            Item::Always(position) => self.delta_field_write(*position),
            Item::Group { fields, .. } => {
                let now = self.write_all(fields, &quote!(self));
                let then = self.write_all(fields, &quote!(__baseline));
                let writes = if fields.iter().any(|position| self.relative(*position).is_some()) {
                    let writes = fields.iter().map(|position| self.delta_field_write(*position));
                    quote!(#(#writes)*)
                } else {
                    now.clone()
                };
                quote! {
                    if #p::delta_group(
                        __writer,
                        |__writer: &mut #p::BitFingerprint| {
                            #now
                            #p::Ok(())
                        },
                        |__writer: &mut #p::BitFingerprint| {
                            #then
                            #p::Ok(())
                        },
                    )? {
                        #writes
                    }
                }
            }
            Item::Nested { field, .. } => {
                let (member, ty) = (self.member(*field), self.ty(*field));
                quote! {
                    if #p::delta_group(
                        __writer,
                        |__writer: &mut #p::BitFingerprint| <#ty as #p::BitPack>::write_to(&self.#member, __writer),
                        |__writer: &mut #p::BitFingerprint| {
                            <#ty as #p::BitPack>::write_to(&__baseline.#member, __writer)
                        },
                    )? {
                        <#ty as #p::ChangeGroups>::write_delta(&self.#member, &__baseline.#member, __writer)?;
                    }
                }
            }
        }
    }

    fn delta_read(&self, item: &Item) -> TokenStream {
        let p = &self.emitter.runtime;
        match item {
            Item::Always(position) => {
                let local = binding(*position);
                let read = self.delta_field_read(*position);
                quote!(let #local = #read;)
            }
            Item::Group { fields, .. } => {
                let locals: Vec<_> = fields.iter().map(|position| binding(*position)).collect();
                let reads = self.read_all(fields, true);
                let kept = fields.iter().map(|position| self.baseline_clone(*position));
                quote! {
                    let (#(#locals,)*) = if #p::BitReader::read_bool(__reader)? {
                        #reads
                        (#(#locals,)*)
                    } else {
                        (#(#kept,)*)
                    };
                }
            }
            Item::Nested { field, .. } => {
                let local = binding(*field);
                let (member, ty) = (self.member(*field), self.ty(*field));
                let kept = self.baseline_clone(*field);
                quote! {
                    let #local = if #p::BitReader::read_bool(__reader)? {
                        <#ty as #p::ChangeGroups>::read_delta(&__baseline.#member, __reader)?
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
        let p = &self.emitter.runtime;
        (0..self.fields.len())
            .filter_map(|position| {
                let span = self.changes.relative[position]?;
                let (Relative { module, bounds, int: true }, _) = self.relative(position)? else {
                    return None;
                };
                Some(quote_spanned! {span=>
                    const _: () = if let #p::Some(__problem) = #p::#module::problem(#(#bounds),*) {
                        ::core::panic!("{}", __problem)
                    };
                })
            })
            .collect()
    }

    /// The impl's generics: every type parameter is `BitPack` (as for the
    /// `BitPack` impl); a grouped field whose type uses one must be `Clone`
    /// (`read_delta` keeps the baseline's), and a nested one `ChangeGroups`.
    fn generics(&self, plan: &Plan<'_>) -> (TokenStream, TokenStream, TokenStream) {
        let p = &self.emitter.runtime;
        let (mut generics, params) = crate::expand::bitpack_bounded(p, &plan.input.generics);
        let where_clause = generics.make_where_clause();
        for item in &self.changes.items {
            let (fields, nested) = match item {
                Item::Always(_) => continue,
                Item::Group { fields, .. } => (fields.as_slice(), false),
                Item::Nested { field, .. } => (std::slice::from_ref(field), true),
            };
            for ty in fields.iter().map(|position| self.ty(*position)) {
                if mentions(ty.to_token_stream(), &params) {
                    where_clause.predicates.push(syn::parse_quote!(#ty: #p::Clone));
                    if nested {
                        where_clause.predicates.push(syn::parse_quote!(#ty: #p::ChangeGroups));
                    }
                }
            }
        }
        let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
        (impl_generics.to_token_stream(), ty_generics.to_token_stream(), where_clause.to_token_stream())
    }
}

/// `tokens` with every span set to `span`, so errors about a path to the
/// runtime point at the user's field instead.
fn respan(tokens: &TokenStream, span: Span) -> TokenStream {
    tokens
        .clone()
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                let mut inner = proc_macro2::Group::new(group.delimiter(), respan(&group.stream(), span));
                inner.set_span(span);
                return TokenTree::Group(inner);
            }
            token.set_span(span);
            token
        })
        .collect()
}

fn relative_module(ty: IntTy) -> Ident {
    format_ident!("relative_{}", ty.name())
}

/// Whether `tokens` name any of `params`.
fn mentions(tokens: TokenStream, params: &[Ident]) -> bool {
    tokens.into_iter().any(|token| match token {
        TokenTree::Ident(ident) => params.contains(&ident),
        TokenTree::Group(group) => mentions(group.stream(), params),
        _ => false,
    })
}
