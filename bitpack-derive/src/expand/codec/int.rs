//! Integers: plain (the type's own `BitPack`, its whole range) or
//! `#[bits(min, max)]` (`value - min` in `bits_required(min, max)` bits,
//! through the runtime's `ranged_<int>`), as fields, run leaves and
//! relative values.

use crate::expand::codec::{Codec, RelativeCoding, RunLeaf, nested};
use crate::expand::names::{Access, Names};
use crate::expand::problem::{Problem, problem_check};
use crate::expand::runtime::{self, primitive_int};
use crate::ir::consts::Range;
use crate::ir::encoding::Int;
use crate::parse::ty::IntTy;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Type;

impl Codec for Int<'_> {
    fn write(&self, names: &Names, access: &Access, _: usize) -> TokenStream {
        let Some(Range { min, max }) = &self.range else { return nested::write(names, self.ty, access) };
        let (ranged, writer, value) =
            (runtime::ranged(&names.runtime, self.int), &names.writer, access.value());
        quote!(#ranged::write(#writer, #value, #min, #max)?;)
    }

    fn read(&self, names: &Names, _: usize) -> TokenStream {
        let Some(Range { min, max }) = &self.range else { return nested::read(names, self.ty) };
        let (ranged, reader) = (runtime::ranged(&names.runtime, self.int), &names.reader);
        quote!(#ranged::read(#reader, #min, #max)?)
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        match &self.range {
            Some(range) => bits(names, self.int, range),
            None => nested::max_bits(names, self.ty),
        }
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        match &self.range {
            Some(range) => bits(names, self.int, range),
            None => nested::min_bits(names, self.ty),
        }
    }

    fn schema(&self, names: &Names) -> TokenStream {
        let Some(Range { min, max }) = &self.range else { return nested::schema(names, self.ty) };
        let ranged = runtime::ranged(&names.runtime, self.int);
        quote!(#ranged::schema(#min, #max))
    }

    fn own_impl(&self) -> Option<&Type> {
        self.range.is_none().then_some(self.ty)
    }

    fn run_leaf(&self) -> Option<&dyn RunLeaf> {
        self.fits_run().then_some(self)
    }

    fn relative(&self, names: &Names) -> Option<RelativeCoding> {
        let Range { min, max } = self.range.as_ref()?;
        let module = runtime::relative_int(&names.runtime, self.int);
        Some(RelativeCoding {
            write: quote!(#module::write),
            read: quote!(#module::read),
            by_reference: false,
            bounds: vec![quote!(#min), quote!(#max)],
            problem: Some((quote!(#module::problem(#min, #max)), Problem::Str)),
        })
    }
}

/// Bits of a ranged integer: always the same number.
fn bits(names: &Names, int: IntTy, Range { min, max }: &Range) -> TokenStream {
    let ranged = runtime::ranged(&names.runtime, int);
    quote!(#ranged::bits(#min, #max))
}

impl Int<'_> {
    /// The range it is coded in: the declared one, or the type's whole
    /// range (which is how a plain integer writes itself).
    fn bounds(&self) -> (TokenStream, TokenStream) {
        match &self.range {
            Some(Range { min, max }) => (quote!(#min), quote!(#max)),
            None => {
                let primitive = primitive_int(self.int);
                (quote!(::core::primitive::#primitive::MIN), quote!(::core::primitive::#primitive::MAX))
            }
        }
    }
}

impl RunLeaf for Int<'_> {
    fn width(&self, names: &Names) -> TokenStream {
        let (ranged, (min, max)) = (runtime::ranged(&names.runtime, self.int), self.bounds());
        quote!((#ranged::bits(#min, #max) as ::core::primitive::u32))
    }

    fn bits(&self, names: &Names, value: TokenStream) -> TokenStream {
        let (ranged, (min, max), valid) =
            (runtime::ranged(&names.runtime, self.int), self.bounds(), &names.valid);
        quote!(#ranged::run_bits(#value, #min, #max, &mut #valid))
    }

    fn value(&self, names: &Names, raw: TokenStream) -> TokenStream {
        let (ranged, (min, max), valid) =
            (runtime::ranged(&names.runtime, self.int), self.bounds(), &names.valid);
        quote!(#ranged::run_value(#raw, #min, #max, &mut #valid))
    }
}

/// The compile-time check of a `#[bits]` range given by paths to constants.
pub fn range_check(names: &Names, int: IntTy, Range { min, max }: &Range, span: Span) -> TokenStream {
    let ranged = runtime::ranged(&names.runtime, int);
    problem_check(names, span, quote!(#ranged::problem(#min, #max)), Problem::Message)
}
