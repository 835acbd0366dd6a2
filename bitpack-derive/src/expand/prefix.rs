//! A struct's reserved body with plain integers and short bulk sequences
//! gathered into one push: the fields before a bulk `Vec` (plain integers
//! of up to 32 bits) and a `Vec` followed by another go into a
//! `__private::Prefix` that rides with the next sequence's length
//! (`write_bools_after` / `write_ints_after`), where each field pushed on
//! its own (records encode: an `id: u16`, its flags and its payload's
//! length in one push). Only inside the reservation: every push fits, and
//! a sequence out of its short range pushes the prefix first and goes as
//! ever, failing at the same bit. The checked copy is unchanged.

use crate::expand::codec::containers::bulk;
use crate::expand::items;
use crate::expand::names::{Access, Names};
use crate::ir::Field;
use crate::ir::encoding::{Encoding, Int, Sequence};
use crate::ir::items::Item;
use proc_macro2::TokenStream;
use quote::quote;

/// What an item is to a prefix.
enum Kind<'f, 'a> {
    /// A plain integer of at most 32 bits (the field's position): it can
    /// lead a prefix.
    Int(usize),
    /// A `Vec` with a bulk path (the field's position): it takes a prefix,
    /// and can hand one on.
    Bulk(usize, &'f Sequence<'a>),
    /// Anything else: the prefix is pushed before it.
    Other,
}

fn kind<'f, 'a>(fields: &'f [Field<'a>], item: &Item) -> Kind<'f, 'a> {
    let Item::Field(position) = item else { return Kind::Other };
    match &fields[*position].encoding {
        Some(Encoding::Int(Int { range: None, int, .. })) if int.bits() <= 32 => Kind::Int(*position),
        Some(Encoding::Vec(sequence)) if bulk(&sequence.element).is_some() => Kind::Bulk(*position, sequence),
        _ => Kind::Other,
    }
}

/// The writes of `items` with prefixes where they pay, or `None` when
/// there is no such place (the reserved body is then the checked one's).
pub fn writes(
    names: &Names,
    fields: &[Field<'_>],
    items: &[Item],
    access: &dyn Fn(usize) -> Access,
) -> Option<TokenStream> {
    let (p, writer, prefix) = (&names.runtime, &names.writer, &names.prefix);
    let kinds: Vec<Kind<'_, '_>> = items.iter().map(|item| kind(fields, item)).collect();
    // Whether item `index` goes into a prefix: an integer when integers,
    // then a bulk `Vec`, follow it; a bulk `Vec` after one that did, or
    // followed by another.
    let mut gathered = vec![false; items.len()];
    for index in (0..items.len()).rev() {
        let next = kinds.get(index + 1);
        gathered[index] = match kinds[index] {
            Kind::Int(_) => match next {
                Some(Kind::Int(_)) => gathered[index + 1],
                Some(Kind::Bulk(..)) => true,
                _ => false,
            },
            Kind::Bulk(..) => matches!(next, Some(Kind::Bulk(..))),
            Kind::Other => false,
        };
    }
    for index in 1..items.len() {
        gathered[index] |= matches!(kinds[index], Kind::Bulk(..)) && gathered[index - 1];
    }
    if !gathered.contains(&true) {
        return None;
    }
    let mut writes = Vec::new();
    let mut open = false;
    for (index, item) in items.iter().enumerate() {
        let start = if open { quote!(#prefix) } else { quote!(#p::Prefix::EMPTY) };
        // Only integers and bulk sequences are ever gathered; anything else
        // (or one not gathered) pushes what is open, then writes as ever.
        let gathered_write = match (gathered[index], &kinds[index]) {
            (true, Kind::Int(position)) => {
                let value = access(*position).value();
                Some(quote!(let #prefix = #p::Prefix::then(#start, #writer, #value);))
            }
            (true, Kind::Bulk(position, Sequence { element, max_len })) => {
                let write = match **element {
                    Encoding::Bool(_) => quote!(write_bools_after),
                    _ => quote!(write_ints_after),
                };
                let reference = access(*position).reference();
                Some(quote!(let #prefix = #p::#write(#writer, #start, #reference, #max_len)?;))
            }
            _ => None,
        };
        match gathered_write {
            Some(write) => {
                writes.push(write);
                open = true;
            }
            None => {
                if open {
                    writes.push(quote!(#p::Prefix::push(#prefix, #writer);));
                    open = false;
                }
                writes.push(items::write(names, fields, item, access));
            }
        }
    }
    if open {
        writes.push(quote!(#p::Prefix::push(#prefix, #writer);));
    }
    Some(quote!(#(#writes)*))
}
