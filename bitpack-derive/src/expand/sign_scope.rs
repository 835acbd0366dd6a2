//! A type holding adaptive values is a `SignScope`: its `BitPack` writes
//! the message's sign bit (only if it holds signed adaptive values, nested
//! ones included), then its fields under that one mode, in
//! `SignScope::write_scoped`; a parent scope calls that directly.

use crate::expand::body::Parts;
use crate::expand::codec::codec;
use crate::expand::names::{Access, Names};
use crate::expand::pattern;
use crate::expand::runtime;
use crate::expand::tokens::or;
use crate::ir::Body;
use crate::ir::encoding::Encoding;
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Ident, ImplGenerics, TypeGenerics, WhereClause};

/// What makes a type with adaptive values a `SignScope`.
pub struct Scope {
    /// `const` bool: whether the type holds signed adaptive values.
    has_signed: TokenStream,
    /// The body of `any_negative(&self) -> bool`.
    any_negative: TokenStream,
    write_body: TokenStream,
    read_body: TokenStream,
}

impl Scope {
    /// The scope of a type, if any of its values is adaptive.
    pub fn of(names: &Names, body: &Body<'_>) -> Option<Self> {
        if !body.holds_adaptive() {
            return None;
        }
        let a = runtime::adaptive(&names.runtime);
        let mut has_signed = Vec::new();
        let mut signed_terms = |encoding: &Encoding<'_>| {
            has_signed.extend(encoding.walk().filter_map(|encoding| codec(encoding).signed(names)));
        };
        let any_negative = match body {
            Body::Struct(fields) => {
                let terms = fields.fields.iter().filter_map(|field| {
                    let encoding = field.encoding.as_ref()?;
                    let member = &field.member;
                    signed_terms(encoding);
                    codec(encoding).negative(names, &Access::Place(quote!(self.#member)), 0)
                });
                or(terms.collect())
            }
            Body::Enum(variants) => {
                let arms = variants.iter().map(|variant| {
                    let (ident, mut terms) = (variant.ident, Vec::new());
                    let pattern = pattern::bind(names, &variant.fields, |position, field| {
                        let Some(encoding) = &field.encoding else { return false };
                        signed_terms(encoding);
                        let local = Access::Ref(names.field(position).to_token_stream());
                        let term = codec(encoding).negative(names, &local, 0);
                        terms.extend(term.clone());
                        term.is_some()
                    });
                    let term = or(terms);
                    quote!(Self::#ident #pattern => #term,)
                });
                let arms: Vec<_> = arms.collect();
                quote!(match self { #(#arms)* })
            }
        };
        Some(Scope {
            has_signed: quote!(#a::any(&[#(#has_signed),*])),
            any_negative,
            write_body: TokenStream::new(),
            read_body: TokenStream::new(),
        })
    }

    /// Turns the type's parts into those of a message: the sign bit counts
    /// in its sizes and fingerprint, and `write_to`/`read_from` go through
    /// `write_scope`/`read_scope` (the field code moves to `SignScope`).
    pub fn wrap(mut self, names: &Names, parts: &mut Parts) -> Self {
        let (p, a) = (&names.runtime, runtime::adaptive(&names.runtime));
        let (writer, reader, has_signed) = (&names.writer, &names.reader, &self.has_signed);
        // The field code moves whole: no reserved copy of its own.
        let Parts { max_bits, min_bits, schema, write_body, reserved_write_body, read_body } = parts;
        *reserved_write_body = None;
        *max_bits = quote!(#p::sum(&[#a::sign_bits(#has_signed), #max_bits]));
        *min_bits = quote!(#p::sum(&[#a::sign_bits(#has_signed), #min_bits]));
        *schema = quote!(#a::scope_schema(#has_signed, #schema));
        self.write_body = std::mem::replace(write_body, quote!(#a::write_scope(self, #writer)));
        self.read_body = std::mem::replace(read_body, quote!(#a::read_scope(#reader)));
        self
    }

    /// `impl SignScope for Type`.
    pub fn expand(
        &self,
        names: &Names,
        name: &Ident,
        generics: (&ImplGenerics<'_>, &TypeGenerics<'_>, Option<&WhereClause>),
    ) -> TokenStream {
        let (p, a) = (&names.runtime, runtime::adaptive(&names.runtime));
        let (writer, writer_ty, reader, reader_ty, signs) =
            (&names.writer, &names.writer_ty, &names.reader, &names.reader_ty, &names.signs);
        let (impl_generics, ty_generics, where_clause) = generics;
        let Scope { has_signed, any_negative, write_body, read_body } = self;
        quote! {
            #[automatically_derived]
            impl #impl_generics #a::SignScope for #name #ty_generics #where_clause {
                const HAS_SIGNED: bool = #has_signed;

                #[inline]
                fn any_negative(&self) -> bool {
                    #any_negative
                }

                #[inline]
                fn write_scoped<#writer_ty: #p::BitWrite>(
                    &self,
                    #writer: &mut #writer_ty,
                    #signs: #a::Signs,
                ) -> #p::Result<(), #p::Error> {
                    #write_body
                }

                #[inline]
                fn read_scoped<#reader_ty: #p::BitRead>(
                    #reader: &mut #reader_ty,
                    #signs: #a::Signs,
                ) -> #p::Result<Self, #p::Error> {
                    #read_body
                }
            }
        }
    }
}
