//! The expand layer: turns a checked [`Plan`] into the `BitPack` impl (and
//! the `SignScope`, `ChangeGroups` and `Columns` impls the plan calls for). Nothing
//! here can fail.
//!
//! The generated code names everything by full path through
//! `<crate>::__private` (or `::core`), uses the `__`-prefixed locals of
//! `names`, and sits in `const _: () = { ... };`, so it means the same in
//! any module, prelude or not. Writes go to a generic `W: BitWrite`: one
//! emitter serves the writer and the measuring counter alike.

mod atomic;
mod batch;
mod body;
mod change_groups;
mod checks;
mod codec;
mod columns;
mod generics;
mod items;
mod key_field;
mod leaf;
mod names;
mod pattern;
mod prefix;
mod problem;
mod run;
mod runtime;
mod sign_scope;
mod some;
mod tokens;

use crate::expand::names::Names;
use crate::expand::sign_scope::Scope;
use crate::ir::{Body, Plan};
use proc_macro2::TokenStream;
use quote::quote;

pub fn expand(plan: &Plan<'_>) -> TokenStream {
    let names = Names::new(plan.runtime.clone());
    let (p, writer, writer_ty, reader, reader_ty) =
        (&names.runtime, &names.writer, &names.writer_ty, &names.reader, &names.reader_ty);
    let input = plan.input;
    let name = &input.ident;
    let consts = plan.consts.iter().map(|constant| checks::constant(&names, constant));
    let checks = plan.checks.iter().map(|check| checks::check(&names, check));
    let mut parts = match &plan.body {
        Body::Struct(fields) => body::structure(&names, fields),
        Body::Enum(variants) => body::enumeration(&names, variants),
    };
    let scope = Scope::of(&names, &plan.body).map(|scope| scope.wrap(&names, &mut parts));
    let uninhabited = matches!(&plan.body, Body::Enum(variants) if variants.is_empty());
    // A sign scope's `write_scope` / `read_scope` already fail whole; an
    // enum without variants reads and writes nothing.
    let atomic = scope.is_none() && !uninhabited;
    let write_body = if atomic {
        atomic::write(&names, reserved_write(&names, parts.reserved_write_body, parts.write_body))
    } else {
        // Adaptive writes name the writer's type (`names.writer_ty`): they
        // take the checked writer only.
        parts.write_body
    };
    let (max_bits, force_check) = match &plan.max_bytes {
        Some(max_bytes) => {
            checks::max_bytes(&names, name, !input.generics.params.is_empty(), parts.max_bits, max_bytes)
        }
        None => (parts.max_bits, None),
    };
    let (min_bits, schema) = (parts.min_bits, parts.schema);
    let read_body = if atomic { atomic::read(&names, parts.read_body) } else { parts.read_body };
    let (mut generics, bounded) = generics::bitpack_bounded(&names, &input.generics);
    generics::bound_scoped(&names, &plan.body, &bounded, generics.make_where_clause());
    codec::keyed::bound_keys(&names, &plan.body, generics.make_where_clause());
    let encodings = plan.body.field_lists().flat_map(|fields| fields.encodings());
    generics::bound_geometry(&names, encodings, generics.make_where_clause());
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let scope = scope.map(|scope| scope.expand(&names, name, (&impl_generics, &ty_generics, where_clause)));
    let changes = match (&plan.changes, &plan.body) {
        (Some(changes), Body::Struct(fields)) => Some(change_groups::expand(&names, plan, fields, changes)),
        _ => None,
    };
    let key_field = key_field::expand(&names, plan);
    // A `Vec` of a struct with quantized run leaves (or fields to join to its
    // runs), a block at a time.
    let blocks = match &plan.body {
        Body::Struct(fields) if atomic => batch::items(&names, fields, !input.generics.params.is_empty()),
        _ => TokenStream::new(),
    };
    let leaf = leaf::expand(&names, &plan.body, atomic);
    let some = some::expand(&names, &plan.body, atomic);
    let columns = columns::expand(&names, plan);
    // A struct that is one fused run is a few instructions: inline it
    // always (left to the compiler, a nested one was called out of line).
    let inline = match &plan.body {
        Body::Struct(fields) if fields.is_one_run() => quote!(#[inline(always)]),
        _ => quote!(#[inline]),
    };
    quote! {
        const _: () = {
            #(#consts)*
            #(#checks)*
            #[automatically_derived]
            impl #impl_generics #p::BitPack for #name #ty_generics #where_clause {
                const MAX_BITS: usize = #max_bits;
                const MIN_BITS: usize = #min_bits;
                const SCHEMA: u64 = #schema;

                #inline
                fn write_to<#writer_ty: #p::BitWrite>(
                    &self,
                    #writer: &mut #writer_ty,
                ) -> #p::Result<(), #p::Error> {
                    #write_body
                }

                #inline
                fn read_from<#reader_ty: #p::BitRead>(
                    #reader: &mut #reader_ty,
                ) -> #p::Result<Self, #p::Error> {
                    #read_body
                }

                #leaf
                #some
                #blocks
            }
            #scope
            #force_check
            #changes
            #key_field
            #columns
        };
    }
}

/// The write body run once with room for `MAX_BITS` checked up front (the
/// fields then skip their own room checks), else as is. Both copies write
/// and refuse the same values. Inside a reserved parent the check is always
/// true and the checked copy is dead code. (The checked copy out of line in
/// a `#[inline(never)]` function measured slower on the 14-field object,
/// and no faster on snapshots.)
/// `reserved_body`, when given, is the reserved copy (`expand::prefix`).
fn reserved_write(names: &Names, reserved_body: Option<TokenStream>, write_body: TokenStream) -> TokenStream {
    let (p, writer, reserved) = (&names.runtime, &names.writer, &names.reserved);
    let reserved_body = reserved_body.unwrap_or_else(|| write_body.clone());
    quote! {
        // An early return, not a `match`: the reservation's borrow must end
        // before the checked copy uses the writer again.
        if let #p::Some(mut #reserved) = #p::reserve(#writer, <Self as #p::BitPack>::MAX_BITS) {
            let #writer = &mut #reserved;
            return { #reserved_body };
        }
        #write_body
    }
}
