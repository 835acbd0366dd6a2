//! The parts of a `BitPack` impl for a struct or an enum: `MAX_BITS`,
//! `MIN_BITS`, `SCHEMA` and the bodies of `write_to` and `read_from`.

use crate::expand::items;
use crate::expand::names::{Access, Names};
use crate::expand::pattern;
use crate::expand::prefix;
use crate::ir::items::Item;
use crate::ir::{Fields, Variant};
use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote};

/// MAX_BITS, MIN_BITS, SCHEMA, the body of `write_to`, the body of `read_from`.
pub struct Parts {
    pub max_bits: TokenStream,
    pub min_bits: TokenStream,
    pub schema: TokenStream,
    pub write_body: TokenStream,
    /// The body inside `MAX_BITS` reserved, when it differs
    /// (`expand::prefix`).
    pub reserved_write_body: Option<TokenStream>,
    pub read_body: TokenStream,
}

/// A struct: its items in order, from `self`.
pub fn structure(names: &Names, fields: &Fields<'_>) -> Parts {
    let p = &names.runtime;
    let (max_bits, min_bits, schema) = sizes(names, fields);
    let member = |position: usize| {
        let member = &fields.fields[position].member;
        Access::Place(quote!(self.#member))
    };
    let writes = fields.items.iter().map(|item| items::write(names, &fields.fields, item, &member));
    let reserved_write_body = prefix::writes(names, &fields.fields, &fields.items, &member)
        .map(|writes| quote!(#writes #p::Ok(())));
    let reads = reads(names, fields);
    let construct = pattern::construct(names, quote!(Self), fields);
    Parts {
        max_bits,
        min_bits,
        schema,
        write_body: quote! {
            #(#writes)*
            #p::Ok(())
        },
        reserved_write_body,
        read_body: quote! {
            #(#reads)*
            #p::Ok(#construct)
        },
    }
}

/// An enum: the variant's index, then its fields, from the locals its
/// pattern binds.
pub fn enumeration(names: &Names, variants: &[Variant<'_>]) -> Parts {
    let (p, writer, reader, tag) = (&names.runtime, &names.writer, &names.reader, &names.tag);
    let count = Literal::u32_unsuffixed(variants.len() as u32);
    let (mut variant_max, mut variant_min, mut variant_schema) = (Vec::new(), Vec::new(), Vec::new());
    let (mut tag_arms, mut write_arms, mut read_arms) = (Vec::new(), Vec::new(), Vec::new());
    for (index, variant) in variants.iter().enumerate() {
        let (ident, fields) = (variant.ident, &variant.fields);
        let index = Literal::u32_unsuffixed(index as u32);
        let (max_bits, min_bits, schema) = sizes(names, fields);
        variant_max.push(max_bits);
        variant_min.push(min_bits);
        variant_schema.push(schema);

        let pattern = pattern::bind(names, fields, |_, field| field.encoding.is_some());
        let local = |position: usize| Access::Ref(names.field(position).to_token_stream());
        let writes = fields.items.iter().map(|item| items::write(names, &fields.fields, item, &local));
        tag_arms.push(quote!(Self::#ident { .. } => #index,));
        write_arms.push(quote! {
            Self::#ident #pattern => {
                #(#writes)*
            }
        });
        let reads = reads(names, fields);
        let construct = pattern::construct(names, quote!(Self::#ident), fields);
        read_arms.push(quote! {
            #index => {
                #(#reads)*
                #construct
            }
        });
    }
    let max_bits = quote!(#p::sum(&[#p::tag_bits(#count), #p::max(&[#(#variant_max),*])]));
    let min_bits = quote!(#p::sum(&[#p::tag_bits(#count), #p::min(&[#(#variant_min),*])]));
    let schema = quote!(#p::schema::enumeration(&[#(#variant_schema),*]));
    if variants.is_empty() {
        let write_body = quote!(match *self {});
        let read_body = quote!(#p::Err(#p::invalid_tag(#reader)));
        return Parts { max_bits, min_bits, schema, write_body, reserved_write_body: None, read_body };
    }
    // The tag first, from a match that only yields numbers (a table or
    // plain arithmetic, no jump per variant), then the fields.
    let write_body = quote! {
        let #tag: u32 = match self {
            #(#tag_arms)*
        };
        #p::write_tag(#writer, #tag, #count)?;
        match self {
            #(#write_arms)*
        }
        #p::Ok(())
    };
    let read_body = quote! {
        #p::Ok(match #p::read_tag(#reader, #count)? {
            #(#read_arms)*
            _ => return #p::Err(#p::invalid_tag(#reader)),
        })
    };
    Parts { max_bits, min_bits, schema, write_body, reserved_write_body: None, read_body }
}

/// MAX_BITS, MIN_BITS and SCHEMA of a field list: sums, and a sequence.
fn sizes(names: &Names, fields: &Fields<'_>) -> (TokenStream, TokenStream, TokenStream) {
    let p = &names.runtime;
    let (max_bits, min_bits, schemas) = items::sizes(names, &fields.fields, &fields.items);
    (
        quote!(#p::sum(&[#(#max_bits),*])),
        quote!(#p::sum(&[#(#min_bits),*])),
        quote!(#p::schema::sequence(&[#(#schemas),*])),
    )
}

/// Statements binding every field's local: the items in order, a skipped
/// field's `Default` where it stands.
fn reads(names: &Names, fields: &Fields<'_>) -> Vec<TokenStream> {
    reads_with(names, fields, &fields.items, &|item| items::read(names, &fields.fields, item))
}

/// [`reads`] of `items` (the fields' own or another fusing of them), each
/// item's statements from `read_item`.
pub fn reads_with(
    names: &Names,
    fields: &Fields<'_>,
    items: &[Item],
    read_item: &dyn Fn(&Item) -> TokenStream,
) -> Vec<TokenStream> {
    let mut skipped =
        fields.fields.iter().enumerate().filter(|(_, field)| field.encoding.is_none()).peekable();
    let mut reads = Vec::new();
    let default = |(position, field)| {
        let (local, read) = (names.field(position), items::read_field(names, field));
        quote!(let #local = #read;)
    };
    for item in items {
        while let Some(field) = skipped.next_if(|(position, _)| Some(*position) < item.first()) {
            reads.push(default(field));
        }
        reads.push(read_item(item));
    }
    reads.extend(skipped.map(default));
    reads
}
