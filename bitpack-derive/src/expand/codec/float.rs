//! Floats: plain (their IEEE bits, through their own `BitPack`) or
//! `#[quantize(min, max, res)]` (the reference's compressed float, in f64
//! for an `f64`), as fields, run leaves and relative values.

use crate::expand::codec::{Codec, LaneLeaf, RelativeCoding, RunLeaf, nested};
use crate::expand::names::{Access, Names};
use crate::expand::problem::{Problem, problem_check};
use crate::expand::runtime::{self, FloatItem};
use crate::ir::consts::Steps;
use crate::ir::encoding::Float;
use crate::parse::ty::FloatTy;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Ident, Type};

impl Float<'_> {
    fn item(&self, names: &Names, item: FloatItem) -> TokenStream {
        runtime::float(&names.runtime, self.float, item)
    }
}

impl Codec for Float<'_> {
    fn write(&self, names: &Names, access: &Access, _: usize) -> TokenStream {
        let Some(Steps { min, max, res }) = &self.steps else { return nested::write(names, self.ty, access) };
        let (write, writer, value) =
            (self.item(names, FloatItem::WriteQuantized), &names.writer, access.value());
        quote!(#write(#writer, #value, #min, #max, #res)?;)
    }

    fn read(&self, names: &Names, _: usize) -> TokenStream {
        let Some(Steps { min, max, res }) = &self.steps else { return nested::read(names, self.ty) };
        let (read, reader) = (self.item(names, FloatItem::ReadQuantized), &names.reader);
        quote!(#read(#reader, #min, #max, #res)?)
    }

    fn max_bits(&self, names: &Names) -> TokenStream {
        match &self.steps {
            Some(steps) => bits(names, self.float, steps),
            None => nested::max_bits(names, self.ty),
        }
    }

    fn min_bits(&self, names: &Names) -> TokenStream {
        match &self.steps {
            Some(steps) => bits(names, self.float, steps),
            None => nested::min_bits(names, self.ty),
        }
    }

    fn schema(&self, names: &Names) -> TokenStream {
        let Some(Steps { min, max, res }) = &self.steps else { return nested::schema(names, self.ty) };
        let schema = self.item(names, FloatItem::QuantizedSchema);
        quote!(#schema(#min, #max, #res))
    }

    fn own_impl(&self) -> Option<&Type> {
        self.steps.is_none().then_some(self.ty)
    }

    fn run_leaf(&self) -> Option<&dyn RunLeaf> {
        Some(self)
    }

    /// Steps are `u64`: any declaration the writer takes codes relatively.
    fn relative(&self, names: &Names) -> Option<RelativeCoding> {
        let Steps { min, max, res } = self.steps.as_ref()?;
        let module = self.item(names, FloatItem::Relative);
        Some(RelativeCoding {
            write: quote!(#module::write),
            read: quote!(#module::read),
            by_reference: false,
            bounds: vec![quote!(#min), quote!(#max), quote!(#res)],
            problem: None,
        })
    }
}

/// Bits of a quantized float: always the same number.
fn bits(names: &Names, float: FloatTy, Steps { min, max, res }: &Steps) -> TokenStream {
    let bits = runtime::float(&names.runtime, float, FloatItem::QuantizeBits);
    quote!(#bits(#min, #max, #res))
}

impl RunLeaf for Float<'_> {
    fn width(&self, names: &Names) -> TokenStream {
        match &self.steps {
            Some(steps) => {
                let bits = bits(names, self.float, steps);
                quote!((#bits as ::core::primitive::u32))
            }
            None => {
                let bits = self.float.bits();
                quote!(#bits)
            }
        }
    }

    fn bits(&self, names: &Names, value: TokenStream) -> TokenStream {
        let Some(Steps { min, max, res }) = &self.steps else {
            let bits = self.item(names, FloatItem::RawRunBits);
            return quote!(#bits(#value));
        };
        let (bits, valid) = (self.item(names, FloatItem::QuantizedRunBits), &names.valid);
        quote!(#bits(#value, #min, #max, #res, &mut #valid))
    }

    fn value(&self, names: &Names, raw: TokenStream) -> TokenStream {
        let Some(Steps { min, max, res }) = &self.steps else {
            let value = self.item(names, FloatItem::RawRunValue);
            return quote!(#value(#raw));
        };
        let (value, valid) = (self.item(names, FloatItem::QuantizedRunValue), &names.valid);
        quote!(#value(#raw, #min, #max, #res, &mut #valid))
    }

    fn lane(&self) -> Option<&dyn LaneLeaf> {
        self.steps.as_ref().map(|_| self as &dyn LaneLeaf)
    }
}

/// Quantized floats only (`RunLeaf::lane` is `None` for plain ones).
impl LaneLeaf for Float<'_> {
    fn lanes(&self, names: &Names, values: TokenStream, sums: &Ident, valid: &Ident) -> TokenStream {
        let Some(Steps { min, max, res }) = &self.steps else { return TokenStream::new() };
        let lanes = self.item(names, FloatItem::QuantizedLanes);
        quote!(#lanes(#values, #min, #max, #res, &mut #sums, &mut #valid))
    }

    fn row(&self) -> Option<TokenStream> {
        let Some(Steps { min, max, res }) = &self.steps else { return None };
        matches!(self.float, FloatTy::F32).then(|| quote!((#min, #max, #res)))
    }

    fn bits(&self, steps: TokenStream) -> TokenStream {
        match self.float {
            FloatTy::F32 => {
                quote!(<::core::primitive::u64 as ::core::convert::From<::core::primitive::u32>>::from(#steps))
            }
            FloatTy::F64 => steps,
        }
    }

    fn steps(&self, names: &Names, raw: TokenStream) -> TokenStream {
        let steps = self.item(names, FloatItem::QuantizedSteps);
        quote!(#steps(#raw))
    }

    fn no_steps(&self) -> TokenStream {
        match self.float {
            FloatTy::F32 => quote!([0u32; 8]),
            FloatTy::F64 => quote!([0u64; 8]),
        }
    }

    fn values(&self, names: &Names, steps: TokenStream) -> TokenStream {
        let Some(Steps { min, max, res }) = &self.steps else { return TokenStream::new() };
        let (values, valid) = (self.item(names, FloatItem::DequantizedLanes), &names.valid);
        quote!(#values(#steps, #min, #max, #res, &mut #valid))
    }
}

/// The compile-time check of a `#[quantize]` declaration the derive could
/// not check itself (paths to constants, and every `f64` one).
pub fn quantize_check(
    names: &Names,
    float: FloatTy,
    Steps { min, max, res }: &Steps,
    span: Span,
) -> TokenStream {
    let problem = runtime::float(&names.runtime, float, FloatItem::QuantizeProblem);
    problem_check(names, span, quote!(#problem(#min, #max, #res)), Problem::Str)
}
