//! `#[bitpack(columns)]`: a collection field written as columns (its
//! length, then one column per leaf of its element), and the emitters of
//! one column (write, read, most bits, fingerprint) that the type's own
//! `Columns` impl (`expand::columns`) shares.
//!
//! A column is written from a local holding a `Clone` iterator of
//! references to its values (`items`), and read as an expression of a
//! `Vec` of `count` values.

use crate::expand::codec::{Codec, codec};
use crate::expand::names::{Access, Names};
use crate::expand::runtime::primitive_int;
use crate::ir::columns::{Column, ColumnElement, ColumnsField, Container, column_of};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

/// The local holding the iterator of a column `depth` levels down.
fn items_local(depth: usize) -> syn::Ident {
    format_ident!("__column_items{}", depth)
}

/// The column of an element: an encoding's, or an integer column.
fn element_column<'e, 'a>(element: ColumnElement<'e, 'a>) -> Column<'e, 'a> {
    match element {
        ColumnElement::Encoding(encoding) => column_of(encoding),
        ColumnElement::Int(int) => Column::Int(int),
    }
}

/// Statements writing the column of the values `items` (a local) yields.
pub fn write(names: &Names, column: &Column<'_, '_>, items: &syn::Ident, depth: usize) -> TokenStream {
    let (p, writer) = (&names.runtime, &names.writer);
    let next = items_local(depth + 1);
    match column {
        Column::Int(_) => quote!(#p::write_int_column(#writer, #p::Iterator::copied(#items))?;),
        Column::Bool => quote!(#p::write_bool_column(#writer, #p::Iterator::copied(#items))?;),
        Column::Option(inner) => {
            let inner = write(names, &column_of(inner), &next, depth + 1);
            quote! {
                #p::write_bool_column(#writer, #p::Iterator::map(#p::Clone::clone(&#items), #p::Option::is_some))?;
                let #next = #p::Iterator::filter_map(#items, #p::Option::as_ref);
                #inner
            }
        }
        Column::Vec { max_len, element } => {
            let inner = elements(names, &element_column(*element), items, depth);
            quote! {
                #p::write_length_column(#writer, #p::Iterator::map(#p::Clone::clone(&#items), #p::Vec::len), #max_len)?;
                #inner
            }
        }
        Column::Array { element, .. } => elements(names, &element_column(*element), items, depth),
        Column::Text(max_len) => {
            quote!(#p::write_text_column(#writer, #p::Iterator::map(#items, #p::String::as_str), #max_len)?;)
        }
        Column::Nested(ty) => {
            quote_spanned!(ty.span()=> <#ty as #p::Columns>::write_columns(#items, #writer)?;)
        }
        Column::Rows(encoding) => {
            let row = format_ident!("__row{}", depth);
            let write_row = codec(encoding).write(names, &Access::Ref(quote!(#row)), depth);
            quote! {
                for #row in #items {
                    #write_row
                }
            }
        }
        // Refused by `check`; nothing is written for it.
        Column::Unsupported(_) => TokenStream::new(),
    }
}

/// Statements writing the column of the elements of the `Vec`s or arrays
/// `items` yields: integers a slice at a time, the rest flattened.
fn elements(names: &Names, column: &Column<'_, '_>, items: &syn::Ident, depth: usize) -> TokenStream {
    let (p, writer) = (&names.runtime, &names.writer);
    if let Column::Int(_) = column {
        return quote!(#p::write_int_slices(#writer, #items)?;);
    }
    let next = items_local(depth + 1);
    let inner = write(names, column, &next, depth + 1);
    quote! {
        let #next = #p::Iterator::flat_map(#items, #p::IntoIterator::into_iter);
        #inner
    }
}

/// An expression reading the column of `count` values, a `Vec` of them.
pub fn read(names: &Names, column: &Column<'_, '_>, count: &TokenStream, depth: usize) -> TokenStream {
    let (p, reader) = (&names.runtime, &names.reader);
    let (presence, present, values, lengths, total) = (
        format_ident!("__presence{}", depth),
        format_ident!("__present{}", depth),
        format_ident!("__values{}", depth),
        format_ident!("__lengths{}", depth),
        format_ident!("__total{}", depth),
    );
    match column {
        Column::Int(int) => {
            let int = primitive_int(*int);
            quote!(#p::read_int_column::<#int>(#reader, #count)?)
        }
        Column::Bool => quote!(#p::read_bool_column(#reader, #count)?),
        Column::Option(inner) => {
            let inner = read(names, &column_of(inner), &quote!(#present), depth + 1);
            quote! {{
                let #presence = #p::read_bool_column(#reader, #count)?;
                let #present = #p::count_present(&#presence);
                let #values = #inner;
                #p::zip_options(#reader, #presence, #values)?
            }}
        }
        Column::Vec { max_len, element } => {
            let column = element_column(*element);
            // Integers and bools copy: each `Vec` is copied from its slice.
            let split = split(&column, quote!(split_copy_vecs), quote!(split_vecs));
            let inner = read(names, &column, &quote!(#total), depth + 1);
            quote! {{
                let (#lengths, #total) = #p::read_length_column(#reader, #count, #max_len)?;
                let #values = #inner;
                #p::#split(#reader, #lengths, #values)?
            }}
        }
        Column::Array { len, element } => {
            let column = element_column(*element);
            // Integers and bools copy: their arrays are cut without a `Vec` each.
            let split = split(&column, quote!(split_copy_arrays), quote!(split_arrays));
            let inner = read(names, &column, &quote!(#total), depth + 1);
            quote! {{
                let #total = #p::flat_count(#reader, #count, #len)?;
                let #values = #inner;
                #p::#split(#reader, #count, #values)?
            }}
        }
        Column::Text(max_len) => quote!(#p::read_text_column(#reader, #count, #max_len)?),
        Column::Nested(ty) => {
            quote_spanned!(ty.span()=> <#ty as #p::Columns>::read_columns(#count, #reader)?)
        }
        Column::Rows(encoding) => {
            let row = format_ident!("__row{}", depth);
            let value = codec(encoding);
            let (min_bits, read_row) = (value.min_bits(names), value.read(names, depth));
            quote! {
                #p::read_rows(#reader, #count, #min_bits, |#reader| {
                    let #row = #read_row;
                    #p::Ok(#row)
                })?
            }
        }
        Column::Unsupported(_) => quote!(#p::Vec::new()),
    }
}

/// The splitter of a flat column into collections: `copy` for integers and
/// bools, else `other`.
fn split(column: &Column<'_, '_>, copy: TokenStream, other: TokenStream) -> TokenStream {
    match column {
        Column::Int(_) | Column::Bool => copy,
        _ => other,
    }
}

/// The most bits a column's header takes, whatever its count (`const`).
pub fn header_max_bits(names: &Names, column: &Column<'_, '_>) -> TokenStream {
    let p = &names.runtime;
    match column {
        Column::Int(int) => {
            let int = primitive_int(*int);
            quote!(<#int as #p::ColumnInt>::HEADER_MAX_BITS)
        }
        Column::Option(inner) => header_max_bits(names, &column_of(inner)),
        Column::Vec { max_len, element } => {
            let inner = header_max_bits(names, &element_column(*element));
            quote!(#p::sum(&[#p::length_column_max_bits(0, #max_len), #inner]))
        }
        Column::Array { element, .. } => header_max_bits(names, &element_column(*element)),
        Column::Text(max_len) => quote!(#p::text_column_max_bits(0, #max_len)),
        Column::Nested(ty) => quote_spanned!(ty.span()=> <#ty as #p::Columns>::HEADER_MAX_BITS),
        Column::Bool | Column::Rows(_) | Column::Unsupported(_) => quote!(0),
    }
}

/// The most bits one value adds to its column (`const`).
pub fn item_max_bits(names: &Names, column: &Column<'_, '_>) -> TokenStream {
    let p = &names.runtime;
    match column {
        Column::Int(int) => {
            let int = primitive_int(*int);
            quote!((<#int as #p::ColumnInt>::WIDTH as usize))
        }
        Column::Bool => quote!(1),
        Column::Option(inner) => {
            let inner = item_max_bits(names, &column_of(inner));
            quote!(#p::sum(&[1, #inner]))
        }
        Column::Vec { max_len, element } => {
            let inner = item_max_bits(names, &element_column(*element));
            quote!(#p::sum(&[#p::len_bits(#max_len), #p::times(#max_len, #inner)]))
        }
        Column::Array { len, element } => {
            let inner = item_max_bits(names, &element_column(*element));
            quote!(#p::times(#len, #inner))
        }
        Column::Text(max_len) => quote!(#p::sum(&[#p::len_bits(#max_len), #p::times(#max_len, 8)])),
        Column::Nested(ty) => quote_spanned!(ty.span()=> <#ty as #p::Columns>::ITEM_MAX_BITS),
        Column::Rows(encoding) => codec(encoding).max_bits(names),
        Column::Unsupported(_) => quote!(0),
    }
}

/// A column's fingerprint (`const`).
pub fn schema(names: &Names, column: &Column<'_, '_>) -> TokenStream {
    let p = &names.runtime;
    match column {
        Column::Int(int) => {
            let int = primitive_int(*int);
            quote!(#p::column_int_schema(<#int as #p::ColumnInt>::WIDTH, <#int as #p::ColumnInt>::SIGNED))
        }
        Column::Bool => quote!(#p::COLUMN_BOOL_SCHEMA),
        Column::Option(inner) => {
            let inner = schema(names, &column_of(inner));
            quote!(#p::column_option_schema(#inner))
        }
        Column::Vec { max_len, element } => {
            let inner = schema(names, &element_column(*element));
            quote!(#p::column_vec_schema(#max_len, #inner))
        }
        Column::Array { len, element } => {
            let inner = schema(names, &element_column(*element));
            quote!(#p::column_array_schema(#len, #inner))
        }
        Column::Text(max_len) => quote!(#p::column_text_schema(#max_len)),
        Column::Nested(ty) => quote_spanned!(ty.span()=> <#ty as #p::Columns>::COLUMNS_SCHEMA),
        Column::Rows(encoding) => {
            let inner = codec(encoding).schema(names);
            quote!(#p::column_rows_schema(#inner))
        }
        Column::Unsupported(_) => quote!(0),
    }
}

impl Codec for ColumnsField<'_> {
    fn write(&self, names: &Names, access: &Access, _: usize) -> TokenStream {
        let (p, writer, reference) = (&names.runtime, &names.writer, access.reference());
        let items = items_local(0);
        let columns = write(names, &column_of(&self.element), &items, 0);
        let len = match &self.container {
            Container::Vec(max_len) => {
                quote!(#p::write_column_len(#writer, #p::Vec::len(#reference), #max_len)?;)
            }
            Container::Array(_) => TokenStream::new(),
        };
        quote! {
            #len
            {
                let #items = #p::IntoIterator::into_iter(#reference);
                #columns
            }
        }
    }

    fn read(&self, names: &Names, _: usize) -> TokenStream {
        let (p, reader) = (&names.runtime, &names.reader);
        let column = column_of(&self.element);
        match &self.container {
            Container::Vec(max_len) => {
                let count = quote!(__column_count);
                let columns = read(names, &column, &count, 0);
                quote! {{
                    let #count = #p::read_column_len(#reader, #max_len)?;
                    #columns
                }}
            }
            Container::Array(len) => {
                let columns = read(names, &column, &quote!(#len), 0);
                quote! {{
                    let __column_values = #columns;
                    #p::into_array(#reader, __column_values)?
                }}
            }
        }
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        let p = &names.runtime;
        let column = column_of(&self.element);
        let (header, item) = (header_max_bits(names, &column), item_max_bits(names, &column));
        match &self.container {
            Container::Vec(max_len) => {
                quote!(#p::sum(&[#p::column_len_max_bits(#max_len), #p::columns_max_bits(#header, #item, #max_len)]))
            }
            Container::Array(len) => quote!(#p::columns_max_bits(#header, #item, #len)),
        }
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        let p = &names.runtime;
        match &self.container {
            Container::Vec(max_len) => quote!(#p::column_len_min_bits(#max_len)),
            Container::Array(_) => quote!(0),
        }
    }

    fn schema(&self, names: &Names) -> TokenStream {
        let p = &names.runtime;
        let element = schema(names, &column_of(&self.element));
        match &self.container {
            Container::Vec(max_len) => quote!(#p::columns_field_schema(#max_len, false, #element)),
            Container::Array(len) => quote!(#p::columns_field_schema(#len, true, #element)),
        }
    }
}
