//! The `Columns` impl of a type with `#[bitpack(columns)]`: a struct's
//! fields one column each (nested types flattening into theirs), an enum's
//! tags then each variant's fields over its values. Reads decode every
//! column, then zip them back into values.

use crate::expand::codec::columns;
use crate::expand::names::Names;
use crate::ir::columns::column_of;
use crate::ir::{Body, Fields, Plan};
use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::Ident;

/// The `Columns` impl, if the type asked for one.
pub fn expand(names: &Names, plan: &Plan<'_>) -> Option<TokenStream> {
    if !plan.columns {
        return None;
    }
    let (p, writer, writer_ty, reader, reader_ty) =
        (&names.runtime, &names.writer, &names.writer_ty, &names.reader, &names.reader_ty);
    let name = &plan.input.ident;
    let (header, item, schema, write_body, read_body) = match &plan.body {
        Body::Struct(fields) => structure(names, fields),
        Body::Enum(variants) => {
            let variants: Vec<_> = variants.iter().map(|variant| (variant.ident, &variant.fields)).collect();
            enumeration(names, &variants)
        }
    };
    Some(quote! {
        #[automatically_derived]
        impl #p::Columns for #name {
            const HEADER_MAX_BITS: usize = #header;
            const ITEM_MAX_BITS: usize = #item;
            const COLUMNS_SCHEMA: u64 = #schema;

            #[inline]
            fn write_columns<'__a, #writer_ty: #p::BitWrite>(
                __items: impl #p::Iterator<Item = &'__a Self> + #p::Clone,
                #writer: &mut #writer_ty,
            ) -> #p::Result<(), #p::Error>
            where
                Self: '__a,
            {
                #write_body
            }

            #[inline]
            fn read_columns<#reader_ty: #p::BitRead>(
                __count: usize,
                #reader: &mut #reader_ty,
            ) -> #p::Result<#p::Vec<Self>, #p::Error> {
                #read_body
            }
        }
    })
}

/// One field's column: its locals, and its views.
struct FieldColumn {
    write: TokenStream,
    /// Binds the decoded `Vec` to the column's local.
    read: TokenStream,
    header: TokenStream,
    item: TokenStream,
    schema: TokenStream,
}

/// The columns of a field list; `project` is a closure from `&Self` to the
/// field (an `Option` of it, for an enum's variant), `count` their number.
/// Skipped fields have none.
fn field_columns(
    names: &Names,
    fields: &Fields<'_>,
    prefix: usize,
    project: impl Fn(&syn::Member) -> TokenStream,
    count: &TokenStream,
) -> Vec<(usize, FieldColumn)> {
    let p = &names.runtime;
    let mut out = Vec::new();
    for (position, field) in fields.fields.iter().enumerate() {
        let Some(encoding) = &field.encoding else { continue };
        let column = column_of(encoding);
        let items = format_ident!("__column_items0");
        let write = columns::write(names, &column, &items, 0);
        let projection = project(&field.member);
        let (local, ty) = (column_local(prefix, position), field.ty);
        let read = columns::read(names, &column, count, 0);
        out.push((
            position,
            FieldColumn {
                write: quote! {{
                    let #items = #projection;
                    #write
                }},
                read: quote! {
                    let #local: #p::Vec<#ty> = #read;
                },
                header: columns::header_max_bits(names, &column),
                item: columns::item_max_bits(names, &column),
                schema: columns::schema(names, &column),
            },
        ));
    }
    out
}

/// The local holding field `position`'s decoded column (of variant `prefix`).
fn column_local(prefix: usize, position: usize) -> Ident {
    format_ident!("__column{}_{}", prefix, position)
}

/// `Self { field: value(position), skipped: Default }` for a field list.
fn construct(
    names: &Names,
    path: TokenStream,
    fields: &Fields<'_>,
    value: impl Fn(usize) -> TokenStream,
) -> TokenStream {
    let p = &names.runtime;
    let values = fields.fields.iter().enumerate().map(|(position, field)| {
        let member = &field.member;
        match field.encoding {
            Some(_) => {
                let value = value(position);
                quote!(#member: #value)
            }
            None => quote!(#member: #p::Default::default()),
        }
    });
    quote!(#path { #(#values),* })
}

type Parts = (TokenStream, TokenStream, TokenStream, TokenStream, TokenStream);

fn structure(names: &Names, fields: &Fields<'_>) -> Parts {
    let (p, reader) = (&names.runtime, &names.reader);
    let columns = field_columns(
        names,
        fields,
        0,
        |member| quote!(#p::Iterator::map(#p::Clone::clone(&__items), |__item| &__item.#member)),
        &quote!(__count),
    );
    let writes = columns.iter().map(|(_, column)| &column.write);
    let reads = columns.iter().map(|(_, column)| &column.read);
    let headers = columns.iter().map(|(_, column)| &column.header);
    let items = columns.iter().map(|(_, column)| &column.item);
    let schemas = columns.iter().map(|(_, column)| &column.schema);
    // The columns zipped, each checked to hold `__count` values: a zip of
    // `Vec` iterators collects at its exact length with no check per value.
    let (mut zipped, mut pattern) = (quote!(0..__count), quote!(_));
    for (index, (position, _)) in columns.iter().enumerate() {
        let (local, value) = (column_local(0, *position), field_local(*position));
        let column = quote!(#p::column_values(#reader, #local, __count)?);
        (zipped, pattern) = if index == 0 {
            (column, quote!(#value))
        } else {
            (quote!(#p::Iterator::zip(#zipped, #column)), quote!((#pattern, #value)))
        };
    }
    let construct =
        construct(names, quote!(Self), fields, |position| field_local(position).into_token_stream());
    (
        quote!(#p::sum(&[#(#headers),*])),
        quote!(#p::sum(&[#(#items),*])),
        quote!(#p::column_fields_schema(&[#(#schemas),*])),
        quote! {
            let _ = &__items;
            #(#writes)*
            #p::Ok(())
        },
        quote! {
            #(#reads)*
            #p::claim_column::<Self>(#reader, __count)?;
            let __out: #p::Vec<Self> =
                #p::Iterator::collect(#p::Iterator::map(#zipped, |#pattern| #construct));
            #p::Ok(__out)
        },
    )
}

/// The closure parameter holding field `position`'s value as a struct is built.
fn field_local(position: usize) -> Ident {
    format_ident!("__field{}", position)
}

fn enumeration(names: &Names, variants: &[(&Ident, &Fields<'_>)]) -> Parts {
    let (p, writer, reader) = (&names.runtime, &names.writer, &names.reader);
    let count = Literal::u32_unsuffixed(variants.len() as u32);
    let (mut headers, mut items, mut schemas, mut writes, mut reads) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut tag_arms, mut build_arms) = (Vec::new(), Vec::new());
    for (index, (ident, fields)) in variants.iter().enumerate() {
        let tag = Literal::u32_unsuffixed(index as u32);
        let counted = Literal::usize_unsuffixed(index);
        let project = |member: &syn::Member| {
            quote! {
                #p::Iterator::filter_map(#p::Clone::clone(&__items), |__item| match __item {
                    Self::#ident { #member: __value, .. } => #p::Some(__value),
                    #[allow(unreachable_patterns)]
                    _ => #p::None,
                })
            }
        };
        let columns = field_columns(names, fields, index, project, &quote!(__counts[#counted]));
        headers.extend(columns.iter().map(|(_, column)| column.header.clone()));
        let variant_items = columns.iter().map(|(_, column)| &column.item);
        items.push(quote!(#p::sum(&[#(#variant_items),*])));
        let variant_schemas = columns.iter().map(|(_, column)| &column.schema);
        schemas.push(quote!(#p::column_fields_schema(&[#(#variant_schemas),*])));
        writes.extend(columns.iter().map(|(_, column)| column.write.clone()));
        reads.extend(columns.iter().map(|(position, column)| {
            let (read, local) = (&column.read, column_local(index, *position));
            quote! {
                #read
                let mut #local = #p::IntoIterator::into_iter(#local);
            }
        }));
        tag_arms.push(quote!(Self::#ident { .. } => #tag,));
        let construct = construct(names, quote!(Self::#ident), fields, |position| {
            let local = column_local(index, position);
            quote!(#p::column_next(&mut #local, #reader)?)
        });
        build_arms.push(quote!(#tag => #construct,));
    }
    (
        quote!(#p::sum(&[#(#headers),*])),
        quote!(#p::sum(&[#p::tag_bits(#count), #p::max(&[#(#items),*])])),
        quote!(#p::column_enum_schema(&[#(#schemas),*])),
        quote! {
            #p::write_tag_column(
                #writer,
                #p::Iterator::map(#p::Clone::clone(&__items), |__item| match __item {
                    #(#tag_arms)*
                }),
                #count,
            )?;
            #(#writes)*
            #p::Ok(())
        },
        quote! {
            let (__tags, __counts) = #p::read_tag_column::<#count>(#reader, __count)?;
            let _ = &__counts;
            #(#reads)*
            #p::claim_column::<Self>(#reader, __count)?;
            let mut __out = #p::Vec::with_capacity(__count);
            for __tag in __tags {
                __out.push(match __tag {
                    #(#build_arms)*
                    _ => return #p::Err(#p::invalid_tag(#reader)),
                });
            }
            #p::Ok(__out)
        },
    )
}
