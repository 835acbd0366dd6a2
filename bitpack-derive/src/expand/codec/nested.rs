//! A value through its type's own `BitPack` impl: any named type, and the
//! plain leaves (`bool`, integers and floats without attributes). Spans
//! point at the field's type, so "BitPack is not implemented" names it.

use crate::expand::codec::{Codec, RunParts};
use crate::expand::names::{Access, Names};
use crate::ir::encoding::Nested;
use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::spanned::Spanned;
use syn::{Ident, Type};

pub fn write(names: &Names, ty: &Type, access: &Access) -> TokenStream {
    let (p, writer, reference) = (&names.runtime, &names.writer, access.reference());
    quote_spanned!(ty.span()=> <#ty as #p::BitPack>::write_to(#reference, #writer)?;)
}

pub fn read(names: &Names, ty: &Type) -> TokenStream {
    let (p, reader) = (&names.runtime, &names.reader);
    quote_spanned!(ty.span()=> <#ty as #p::BitPack>::read_from(#reader)?)
}

pub fn max_bits(names: &Names, ty: &Type) -> TokenStream {
    let p = &names.runtime;
    quote_spanned!(ty.span()=> <#ty as #p::BitPack>::MAX_BITS)
}

pub fn min_bits(names: &Names, ty: &Type) -> TokenStream {
    let p = &names.runtime;
    quote_spanned!(ty.span()=> <#ty as #p::BitPack>::MIN_BITS)
}

pub fn schema(names: &Names, ty: &Type) -> TokenStream {
    let p = &names.runtime;
    quote_spanned!(ty.span()=> <#ty as #p::BitPack>::SCHEMA)
}

impl Codec for Nested<'_> {
    fn write(&self, names: &Names, access: &Access, _: usize) -> TokenStream {
        write(names, self.ty, access)
    }

    fn read(&self, names: &Names, _: usize) -> TokenStream {
        read(names, self.ty)
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        max_bits(names, self.ty)
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        min_bits(names, self.ty)
    }

    fn schema(&self, names: &Names) -> TokenStream {
        schema(names, self.ty)
    }

    fn own_impl(&self) -> Option<&Type> {
        Some(self.ty)
    }

    fn run_parts(&self) -> Option<&dyn RunParts> {
        Some(self)
    }
}

/// A nested type as one leaf of its parent's run, when its
/// `__LEAF_BITS` says it is one. Only a block's runs hold nested fields
/// (`expand::batch`), behind a compile-time test of `__LEAF_BITS`; the
/// planner's runs never do.
impl RunParts for Nested<'_> {
    fn widths(&self, names: &Names) -> Vec<TokenStream> {
        let (p, ty) = (&names.runtime, self.ty);
        vec![quote_spanned!(ty.span()=> #p::leaf_width(<#ty as #p::BitPack>::__LEAF_BITS))]
    }

    fn bits(&self, names: &Names, reference: TokenStream) -> TokenStream {
        let (p, ty, valid) = (&names.runtime, self.ty, &names.valid);
        quote_spanned!(ty.span()=> [#p::nested_leaf(<#ty as #p::BitPack>::__leaf(#reference), &mut #valid)])
    }

    fn value(&self, names: &Names, raws: &[Ident]) -> TokenStream {
        let (p, ty) = (&names.runtime, self.ty);
        quote_spanned!(ty.span()=> <#ty as #p::BitPack>::__from_leaf(#(#raws)*))
    }

    fn fallible(&self) -> bool {
        true
    }
}
