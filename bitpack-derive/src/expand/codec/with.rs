//! A field through a `#[bitpack(with = module)]` module: `module::write`,
//! `module::read` and `module::{MAX_BITS, MIN_BITS, SCHEMA}` where the
//! field's own `BitPack` items would be. Every use carries the path's span,
//! so a missing item or a signature for another type is an error there.

use crate::expand::codec::Codec;
use crate::expand::names::{Access, Names};
use crate::expand::problem::{Problem, problem_check};
use crate::expand::tokens::respan;
use crate::ir::encoding::With;
use proc_macro2::TokenStream;
use quote::quote;
use syn::Path;
use syn::spanned::Spanned;

/// `tokens` spanned at the module's path.
fn at(path: &Path, tokens: TokenStream) -> TokenStream {
    respan(&tokens, path.span())
}

impl Codec for With<'_> {
    fn write(&self, names: &Names, access: &Access, _: usize) -> TokenStream {
        let (path, writer, reference) = (self.path, &names.writer, access.reference());
        at(path, quote!(#path::write(#reference, #writer)?;))
    }

    /// Read into a local of the field's type: a `read` for another type is
    /// a mismatch at the path, not at the derive.
    fn read(&self, names: &Names, depth: usize) -> TokenStream {
        let (path, ty, reader, value) = (self.path, self.ty, &names.reader, names.value(depth));
        at(
            path,
            quote!({
                let #value: #ty = #path::read(#reader)?;
                #value
            }),
        )
    }

    fn max_bits(&self, _: &Names) -> TokenStream {
        let path = self.path;
        at(path, quote!(#path::MAX_BITS))
    }

    fn min_bits(&self, _: &Names) -> TokenStream {
        let path = self.path;
        at(path, quote!(#path::MIN_BITS))
    }

    fn schema(&self, _: &Names) -> TokenStream {
        let path = self.path;
        at(path, quote!(#path::SCHEMA))
    }
}

/// `MIN_BITS` above `MAX_BITS` fails the build at the path.
pub fn with_check(names: &Names, path: &Path) -> TokenStream {
    let (p, span) = (&names.runtime, path.span());
    let problem = at(path, quote!(#p::with_bits_problem(#path::MIN_BITS, #path::MAX_BITS)));
    problem_check(names, span, problem, Problem::Str)
}
