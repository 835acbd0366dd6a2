//! Fused runs (`Item::Run`): fixed-width fields written and read as one
//! through `__private::{RunWriter, RunReader}`, in straight-line code with
//! constant widths. The fields' own writes and reads stay as the fallback
//! for a refused value or a short buffer, so errors and positions are
//! exactly those of separate writes and reads.

use crate::expand::codec::{RunLeaf, codec};
use crate::expand::names::{Access, Names};
use crate::ir::encoding::Encoding;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::Ident;

/// How a field of a run maps to leaves: one scalar, or `len` of them (an array).
struct FieldLeaves<'e> {
    leaf: &'e dyn RunLeaf,
    array_len: Option<usize>,
}

impl FieldLeaves<'_> {
    fn count(&self) -> usize {
        self.array_len.unwrap_or(1)
    }
}

/// The leaves of each of `encodings`, or `None` if one is not a run leaf
/// after all (the fields are then written one by one).
fn leaves<'e>(encodings: impl Iterator<Item = &'e Encoding<'e>>) -> Option<Vec<FieldLeaves<'e>>> {
    encodings
        .map(|encoding| match encoding {
            Encoding::Array(array) => Some(FieldLeaves {
                leaf: codec(&array.element).run_leaf()?,
                array_len: Some(array.literal_len().filter(|len| *len > 0)?),
            }),
            _ => Some(FieldLeaves { leaf: codec(encoding).run_leaf()?, array_len: None }),
        })
        .collect()
}

fn widths(names: &Names, fields: &[FieldLeaves<'_>]) -> Vec<TokenStream> {
    fields.iter().flat_map(|field| std::iter::repeat_n(field.leaf.width(names), field.count())).collect()
}

/// The fields at `written` (where each is and how it is encoded) as one write,
/// falling back to their own writes.
pub fn write(names: &Names, written: &[(Access, &Encoding<'_>)]) -> TokenStream {
    let fallback = written.iter().map(|(access, encoding)| codec(encoding).write(names, access, 0));
    let Some(fields) = leaves(written.iter().map(|(_, encoding)| *encoding)) else {
        return quote!(#(#fallback)*);
    };
    let (p, writer, widths_name, bits_name, valid, run) =
        (&names.runtime, &names.writer, &names.widths, &names.run_bits, &names.valid, &names.run);
    let mut values = Vec::new();
    for ((access, _), field) in written.iter().zip(&fields) {
        match field.array_len {
            None => values.push(field.leaf.bits(names, access.value())),
            Some(len) => {
                let array = access.reference();
                for index in 0..len {
                    let index = Literal::usize_unsuffixed(index);
                    values.push(field.leaf.bits(names, quote!((#array)[#index])));
                }
            }
        }
    }
    let widths = widths(names, &fields);
    let count = Literal::usize_unsuffixed(widths.len());
    let locals: Vec<Ident> = (0..values.len()).map(|index| names.value(index)).collect();
    let puts = (0..values.len()).map(|index| {
        let local = &locals[index];
        let index = Literal::usize_unsuffixed(index);
        quote!(#run.put(#writer, #local, #widths_name[#index]);)
    });
    // Widths and their total are constants, so the packing folds into
    // constant shifts (see `__private::RunWriter`).
    quote! {{
        const #widths_name: [::core::primitive::u32; #count] = [#(#widths),*];
        const #bits_name: ::core::primitive::usize = #p::run_bits(&#widths_name);
        let mut #valid = true;
        #(let #locals = #values;)*
        if #valid && #p::run_fits(#writer, #bits_name) {
            let mut #run = #p::RunWriter::new();
            #(#puts)*
            #run.finish(#writer);
        } else {
            #(#fallback)*
        }
    }}
}

/// The fields `read` (how each is encoded, and the local it binds) as one
/// read binding those locals, falling back to their own reads.
pub fn read(names: &Names, read: &[(&Encoding<'_>, Ident)]) -> TokenStream {
    let bindings = read.iter().map(|(_, local)| local);
    let fallback = read.iter().map(|(encoding, _)| codec(encoding).read(names, 0));
    let Some(fields) = leaves(read.iter().map(|(encoding, _)| *encoding)) else {
        return quote!(let (#(#bindings,)*) = (#(#fallback,)*););
    };
    let (p, reader, widths_name, bits_name, valid, run, block) = (
        &names.runtime,
        &names.reader,
        &names.widths,
        &names.run_bits,
        &names.valid,
        &names.run,
        &names.run_block,
    );
    let widths = widths(names, &fields);
    let count = Literal::usize_unsuffixed(widths.len());
    let mut leaves = Vec::new();
    let mut values = Vec::new();
    let mut raw_index = 0usize;
    for field in &fields {
        let mut take = || {
            let local = names.leaf(raw_index);
            let index = Literal::usize_unsuffixed(raw_index);
            let raw = quote!(#run.get(#reader, #widths_name[#index]));
            let value = field.leaf.value(names, raw);
            leaves.push(quote!(let #local = #value;));
            raw_index += 1;
            local
        };
        values.push(match field.array_len {
            None => {
                let local = take();
                quote!(#local)
            }
            Some(len) => {
                let locals: Vec<Ident> = (0..len).map(|_| take()).collect();
                quote!([#(#locals),*])
            }
        });
    }
    quote! {
        let (#(#bindings,)*) = #block: {
            const #widths_name: [::core::primitive::u32; #count] = [#(#widths),*];
            const #bits_name: ::core::primitive::usize = #p::run_bits(&#widths_name);
            if #p::run_remains(#reader, #bits_name) {
                let mut #run = #p::RunReader::new(#bits_name);
                let mut #valid = true;
                #(#leaves)*
                if #valid {
                    break #block (#(#values,)*);
                }
                #p::unread_run(#reader, #bits_name);
            }
            (#(#fallback,)*)
        };
    }
}
