//! A `bool`: one bit through its own `BitPack`, or a one-bit run leaf.

use crate::expand::codec::{Codec, RunLeaf, nested};
use crate::expand::names::{Access, Names};
use crate::ir::encoding::Bool;
use proc_macro2::TokenStream;
use quote::quote;
use syn::Type;

impl Codec for Bool<'_> {
    fn write(&self, names: &Names, access: &Access, _: usize) -> TokenStream {
        nested::write(names, self.ty, access)
    }

    fn read(&self, names: &Names, _: usize) -> TokenStream {
        nested::read(names, self.ty)
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        nested::max_bits(names, self.ty)
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        nested::min_bits(names, self.ty)
    }

    fn schema(&self, names: &Names) -> TokenStream {
        nested::schema(names, self.ty)
    }

    fn own_impl(&self) -> Option<&Type> {
        Some(self.ty)
    }

    fn run_leaf(&self) -> Option<&dyn RunLeaf> {
        Some(self)
    }
}

impl RunLeaf for Bool<'_> {
    fn width(&self, _: &Names) -> TokenStream {
        quote!(1)
    }

    fn bits(&self, names: &Names, value: TokenStream) -> TokenStream {
        let p = &names.runtime;
        quote!(#p::bool_bits(#value))
    }

    fn value(&self, names: &Names, raw: TokenStream) -> TokenStream {
        let p = &names.runtime;
        quote!(#p::bool_value(#raw))
    }

    fn is_bool(&self) -> bool {
        true
    }
}
