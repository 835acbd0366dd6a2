//! Vectors with per-axis bounds (through the runtime's
//! `quantized_axes_<float>` and `ranged_axes_<int>`) and quaternions as
//! smallest three (through `smallest_three`): as fields, as several scalars
//! of a fused run, and coded against a baseline. Calls name the field's
//! type and carry its span, so a type that is not a vector (its `Axes`) or
//! a quaternion (its `Quaternion`) is reported there, with what to do.

use crate::expand::codec::{Codec, RelativeCoding, RunParts};
use crate::expand::names::{Access, Names};
use crate::expand::problem::{Problem, problem_check};
use crate::expand::runtime;
use crate::expand::tokens::respan;
use crate::ir::consts::{AxisBounds, ConstName, Range, Steps};
use crate::ir::geometry::{Rotation, Vector};
use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::{Ident, Type};

/// The bounds' constants, in the order the runtime takes them.
fn bounds(bounds: &AxisBounds) -> Vec<TokenStream> {
    match bounds {
        AxisBounds::Quantized(_, Steps { min, max, res }) => vec![quote!(#min), quote!(#max), quote!(#res)],
        AxisBounds::Ranged(_, Range { min, max }) => vec![quote!(#min), quote!(#max)],
    }
}

/// `tokens` spanned at the field's type.
fn at(ty: &Type, tokens: TokenStream) -> TokenStream {
    respan(&tokens, ty.span())
}

impl Vector<'_> {
    fn module(&self, names: &Names) -> TokenStream {
        runtime::axes(&names.runtime, &self.bounds)
    }

    /// `module::bits(bounds)`: always the same number.
    fn bits(&self, names: &Names) -> TokenStream {
        let (module, bounds) = (self.module(names), bounds(&self.bounds));
        quote!(#module::bits(#(#bounds),*))
    }
}

impl Codec for Vector<'_> {
    fn write(&self, names: &Names, access: &Access, _: usize) -> TokenStream {
        let (module, bounds, ty) = (self.module(names), bounds(&self.bounds), self.ty);
        let (writer, reference, axes) =
            (&names.writer, access.reference(), Literal::usize_unsuffixed(self.axes));
        at(ty, quote!(#module::write::<_, #ty, #axes>(#writer, #reference, #(#bounds),*)?;))
    }

    fn read(&self, names: &Names, _: usize) -> TokenStream {
        let (module, bounds, ty) = (self.module(names), bounds(&self.bounds), self.ty);
        let (reader, axes) = (&names.reader, Literal::usize_unsuffixed(self.axes));
        at(ty, quote!(#module::read::<#ty, #axes>(#reader, #(#bounds),*)?))
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        self.bits(names)
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        self.bits(names)
    }

    fn schema(&self, names: &Names) -> TokenStream {
        let (module, bounds) = (self.module(names), bounds(&self.bounds));
        quote!(#module::schema(#(#bounds),*))
    }

    fn run_parts(&self) -> Option<&dyn RunParts> {
        Some(self)
    }

    fn relative(&self, names: &Names) -> Option<RelativeCoding> {
        let (module, bounds) = (self.module(names), bounds(&self.bounds));
        // Steps are `u64`: any declaration the writer takes codes relatively;
        // ranges must lie within i64.
        let problem = match self.bounds {
            AxisBounds::Quantized(..) => None,
            AxisBounds::Ranged(..) => {
                Some((quote!(#module::relative_problem(#(#bounds),*)), Problem::Message))
            }
        };
        Some(RelativeCoding {
            write: quote!(#module::write_relative),
            read: quote!(#module::read_relative),
            by_reference: true,
            bounds,
            problem,
        })
    }
}

impl RunParts for Vector<'_> {
    fn widths(&self, names: &Names) -> Vec<TokenStream> {
        let (module, bounds) = (self.module(names), bounds(&self.bounds));
        (0..self.axes)
            .map(|axis| {
                let axis = Literal::usize_unsuffixed(axis);
                quote!(#module::widths(#(#bounds),*)[#axis])
            })
            .collect()
    }

    fn bits(&self, names: &Names, reference: TokenStream) -> TokenStream {
        let (module, bounds, ty, valid) = (self.module(names), bounds(&self.bounds), self.ty, &names.valid);
        let axes = Literal::usize_unsuffixed(self.axes);
        at(ty, quote!(#module::run_bits::<#ty, #axes>(#reference, #(#bounds,)* &mut #valid)))
    }

    fn value(&self, names: &Names, raws: &[Ident]) -> TokenStream {
        let (module, bounds, ty, valid) = (self.module(names), bounds(&self.bounds), self.ty, &names.valid);
        let axes = Literal::usize_unsuffixed(self.axes);
        at(ty, quote!(#module::run_value::<#ty, #axes>([#(#raws),*], #(#bounds,)* &mut #valid)))
    }
}

impl Codec for Rotation<'_> {
    fn write(&self, names: &Names, access: &Access, _: usize) -> TokenStream {
        let (p, writer, reference, ty, bits) =
            (&names.runtime, &names.writer, access.reference(), self.ty, &self.bits);
        at(ty, quote!(#p::smallest_three::write::<_, #ty>(#writer, #reference, #bits)?;))
    }

    fn read(&self, names: &Names, _: usize) -> TokenStream {
        let (p, reader, ty, bits) = (&names.runtime, &names.reader, self.ty, &self.bits);
        at(ty, quote!(#p::smallest_three::read::<#ty>(#reader, #bits)?))
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        let (p, bits) = (&names.runtime, &self.bits);
        quote!(#p::smallest_three::bits(#bits))
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        self.max_bits(names)
    }

    fn schema(&self, names: &Names) -> TokenStream {
        let (p, ty, bits) = (&names.runtime, self.ty, &self.bits);
        at(ty, quote!(#p::smallest_three_schema::<#ty>(#bits)))
    }

    fn run_parts(&self) -> Option<&dyn RunParts> {
        Some(self)
    }

    fn relative(&self, names: &Names) -> Option<RelativeCoding> {
        let (p, bits) = (&names.runtime, &self.bits);
        Some(RelativeCoding {
            write: quote!(#p::smallest_three::write_relative),
            read: quote!(#p::smallest_three::read_relative),
            by_reference: true,
            bounds: vec![bits.to_token_stream()],
            problem: None,
        })
    }
}

impl RunParts for Rotation<'_> {
    fn widths(&self, names: &Names) -> Vec<TokenStream> {
        let (p, bits) = (&names.runtime, &self.bits);
        (0..4)
            .map(|leaf| {
                let leaf = Literal::usize_unsuffixed(leaf);
                quote!(#p::smallest_three_widths(#bits)[#leaf])
            })
            .collect()
    }

    fn bits(&self, names: &Names, reference: TokenStream) -> TokenStream {
        let (p, ty, bits, valid) = (&names.runtime, self.ty, &self.bits, &names.valid);
        at(ty, quote!(#p::smallest_three_run_bits::<#ty>(#reference, #bits, &mut #valid)))
    }

    fn value(&self, names: &Names, raws: &[Ident]) -> TokenStream {
        let (p, ty, bits, valid) = (&names.runtime, self.ty, &self.bits, &names.valid);
        at(ty, quote!(#p::smallest_three_run_value::<#ty>([#(#raws),*], #bits, &mut #valid)))
    }
}

/// The compile-time check of a vector's bounds, failing at the attribute
/// with the axis the core refuses.
pub fn axes_check(names: &Names, axis_bounds: &AxisBounds, span: Span) -> TokenStream {
    let (module, bounds) = (runtime::axes(&names.runtime, axis_bounds), bounds(axis_bounds));
    problem_check(names, span, quote!(#module::problem(#(#bounds),*)), Problem::Message)
}

/// The compile-time check of a quaternion's bits given as a path.
pub fn rotation_check(names: &Names, bits: &ConstName, span: Span) -> TokenStream {
    let p = &names.runtime;
    problem_check(names, span, quote!(#p::smallest_three_problem(#bits)), Problem::Message)
}
