//! Adaptive integers, groups of them and fixed-point floats, written under
//! the message's sign mode (`names.signs`, declared by the type's
//! `SignScope` impl) through the runtime's `adaptive` module; and their
//! sign-scope views.

use crate::expand::codec::Codec;
use crate::expand::names::{Access, Names};
use crate::expand::problem::{Problem, problem_check};
use crate::expand::runtime::{self, FloatItem, primitive_int};
use crate::ir::adaptive::{Adaptive, GroupLen};
use crate::ir::consts::ConstName;
use crate::parse::ty::IntTy;
use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;

/// A group's length: the array's as written, or the field group's count.
impl ToTokens for GroupLen<'_> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            GroupLen::Array(len) => len.to_tokens(tokens),
            GroupLen::Fields(count) => Literal::usize_unsuffixed(*count).to_tokens(tokens),
        }
    }
}

impl Codec for Adaptive<'_> {
    fn write(&self, names: &Names, access: &Access, _: usize) -> TokenStream {
        let (p, a) = (&names.runtime, runtime::adaptive(&names.runtime));
        let (writer, writer_ty, signs) = (&names.writer, &names.writer_ty, &names.signs);
        match self {
            Adaptive::Int(int) => {
                let (ty, value) = (primitive_int(*int), access.value());
                quote!(#a::write_adaptive::<#ty, #writer_ty>(#writer, #value, #signs)?;)
            }
            Adaptive::Group { ty, .. } => {
                let (ty, reference) = (primitive_int(*ty), access.reference());
                quote!(#a::write_adaptive_group::<#ty, #writer_ty>(#writer, #reference, #signs)?;)
            }
            Adaptive::Vec { ty, max_len } => {
                let (ty, reference) = (primitive_int(*ty), access.reference());
                quote!(#a::write_adaptive_vec::<#ty, #writer_ty>(#writer, #reference, #max_len, #signs)?;)
            }
            Adaptive::Fixed { float, res } => {
                let (write, value) = (runtime::float(p, *float, FloatItem::WriteFixed), access.value());
                quote!(#write(#writer, #value, #res, #signs)?;)
            }
            Adaptive::Scoped(ty) => {
                let reference = access.reference();
                quote_spanned!(ty.span()=> <#ty as #a::SignScope>::write_scoped(#reference, #writer, #signs)?;)
            }
        }
    }

    fn read(&self, names: &Names, _: usize) -> TokenStream {
        let (p, a) = (&names.runtime, runtime::adaptive(&names.runtime));
        let (reader, signs) = (&names.reader, &names.signs);
        match self {
            Adaptive::Int(int) => {
                let ty = primitive_int(*int);
                quote!(#a::read_adaptive::<#ty>(#reader, #signs)?)
            }
            Adaptive::Group { ty, len } => {
                let (ty, group) = (primitive_int(*ty), &names.group);
                quote! {{
                    let mut #group = [<#ty as #a::AdaptiveInt>::ZERO; #len];
                    #a::read_adaptive_group::<#ty>(#reader, &mut #group, #signs)?;
                    #group
                }}
            }
            Adaptive::Vec { ty, max_len } => {
                let ty = primitive_int(*ty);
                quote!(#a::read_adaptive_vec::<#ty>(#reader, #max_len, #signs)?)
            }
            Adaptive::Fixed { float, res } => {
                let read = runtime::float(p, *float, FloatItem::ReadFixed);
                quote!(#read(#reader, #res, #signs)?)
            }
            Adaptive::Scoped(ty) => {
                quote_spanned!(ty.span()=> <#ty as #a::SignScope>::read_scoped(#reader, #signs)?)
            }
        }
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        let (p, a) = (&names.runtime, runtime::adaptive(&names.runtime));
        match self {
            Adaptive::Int(int) => {
                let ty = primitive_int(*int);
                quote!(#a::int_max_bits::<#ty>())
            }
            Adaptive::Group { ty, len } => {
                let ty = primitive_int(*ty);
                quote!(#a::adaptive_group_max_bits::<#ty>(#len))
            }
            Adaptive::Vec { ty, max_len } => {
                let ty = primitive_int(*ty);
                quote!(#a::adaptive_vec_max_bits::<#ty>(#max_len))
            }
            Adaptive::Fixed { .. } => quote!(#a::FIXED_MAX_BITS),
            Adaptive::Scoped(ty) => quote_spanned! {ty.span()=>
                #a::scoped_bits(<#ty as #p::BitPack>::MAX_BITS, <#ty as #a::SignScope>::HAS_SIGNED)
            },
        }
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        let (p, a) = (&names.runtime, runtime::adaptive(&names.runtime));
        match self {
            Adaptive::Int(int) => {
                let ty = primitive_int(*int);
                quote!(#a::int_min_bits::<#ty>())
            }
            Adaptive::Group { ty, len } => {
                let ty = primitive_int(*ty);
                quote!(#a::group_min_bits::<#ty>(#len))
            }
            Adaptive::Vec { max_len, .. } => quote!(#a::vec_min_bits(#max_len)),
            Adaptive::Fixed { .. } => quote!(#a::FIXED_MIN_BITS),
            Adaptive::Scoped(ty) => quote_spanned! {ty.span()=>
                #a::scoped_bits(<#ty as #p::BitPack>::MIN_BITS, <#ty as #a::SignScope>::HAS_SIGNED)
            },
        }
    }

    fn schema(&self, names: &Names) -> TokenStream {
        let (p, a) = (&names.runtime, runtime::adaptive(&names.runtime));
        match self {
            Adaptive::Int(int) => {
                let ty = primitive_int(*int);
                quote!(#a::int_schema::<#ty>())
            }
            // A field group has the fingerprint of an array of its values.
            Adaptive::Group { ty, len } => {
                let ty = primitive_int(*ty);
                quote!(#a::group_schema::<#ty>(#len))
            }
            Adaptive::Vec { ty, max_len } => {
                let ty = primitive_int(*ty);
                quote!(#a::vec_schema::<#ty>(#max_len))
            }
            Adaptive::Fixed { float, res } => {
                let float_bits = float.bits();
                quote!(#a::fixed_schema(#res, #float_bits))
            }
            Adaptive::Scoped(ty) => {
                quote_spanned!(ty.span()=> #a::scoped_schema(<#ty as #p::BitPack>::SCHEMA))
            }
        }
    }

    fn negative(&self, names: &Names, access: &Access, _: usize) -> Option<TokenStream> {
        let (p, a) = (&names.runtime, runtime::adaptive(&names.runtime));
        match self {
            Adaptive::Int(int) if int.signed() => {
                let value = access.value();
                Some(quote!(#a::AdaptiveInt::is_negative(#value)))
            }
            Adaptive::Group { ty, .. } | Adaptive::Vec { ty, .. } if ty.signed() => {
                let (ty, reference) = (primitive_int(*ty), access.reference());
                Some(quote!(#a::any_negative::<#ty>(#reference)))
            }
            Adaptive::Fixed { float, res } => {
                let (is_negative, value) =
                    (runtime::float(p, *float, FloatItem::FixedIsNegative), access.value());
                Some(quote!(#is_negative(#value, #res)))
            }
            Adaptive::Scoped(ty) => {
                let reference = access.reference();
                Some(quote_spanned!(ty.span()=> <#ty as #a::SignScope>::any_negative(#reference)))
            }
            Adaptive::Int(_) | Adaptive::Group { .. } | Adaptive::Vec { .. } => None,
        }
    }

    fn signed(&self, names: &Names) -> Option<TokenStream> {
        let a = runtime::adaptive(&names.runtime);
        match self {
            Adaptive::Int(ty) | Adaptive::Group { ty, .. } | Adaptive::Vec { ty, .. } => {
                IntTy::signed(*ty).then(|| quote!(true))
            }
            Adaptive::Fixed { .. } => Some(quote!(true)),
            Adaptive::Scoped(ty) => Some(quote_spanned!(ty.span()=> <#ty as #a::SignScope>::HAS_SIGNED)),
        }
    }
}

/// The compile-time check of a fixed-point `res` given as a path.
pub fn fixed_check(names: &Names, res: &ConstName, span: Span) -> TokenStream {
    let a = runtime::adaptive(&names.runtime);
    problem_check(names, span, quote!(#a::fixed_problem(#res)), Problem::Str)
}
