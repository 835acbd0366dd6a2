//! Fused runs: consecutive fields that are all fixed-width scalars (bools,
//! integers up to 64 bits with or without `#[bits]`, plain `f32`/`f64`,
//! `#[quantize(min, max, res)]` floats, and arrays of a literal length up to
//! 16 of them), written and read as one through `__private::{RunWriter,
//! RunReader}` in straight-line code with constant widths. The
//! field-by-field code stays as the fallback for a refused value or a short
//! buffer, so errors and positions are exactly those of separate writes and
//! reads.

use crate::expand::{Access, Emitter};
use crate::plan::{Encoding, Field};
use crate::ty::{IntTy, Shape};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use syn::Ident;

/// One fixed-width scalar on the wire.
enum Leaf {
    Bool,
    /// `value - min` in `bits(min, max)` bits: a `#[bits]` integer, or a
    /// plain one (its type's whole range, which is how it writes itself).
    Ranged {
        ty: IntTy,
        min: TokenStream,
        max: TokenStream,
    },
    Quantized {
        min: TokenStream,
        max: TokenStream,
        res: TokenStream,
        /// An `f64` field (`write_compressed_double`).
        double: bool,
    },
    /// A plain `f32` or `f64`: its IEEE bits.
    Float {
        bits: u32,
    },
}

/// How a field maps to leaves: one scalar, or `len` of them (an array).
struct FieldLeaves {
    leaf: Leaf,
    array_len: Option<usize>,
}

impl FieldLeaves {
    fn count(&self) -> usize {
        self.array_len.unwrap_or(1)
    }
}

fn leaf(encoding: &Encoding<'_>) -> Option<Leaf> {
    let narrow = |ty: &IntTy| !matches!(ty, IntTy::U128 | IntTy::I128);
    match encoding {
        Encoding::Nested(ty) => match crate::ty::shape(ty) {
            Shape::Bool => Some(Leaf::Bool),
            Shape::F32 => Some(Leaf::Float { bits: 32 }),
            Shape::F64 => Some(Leaf::Float { bits: 64 }),
            // `usize` and `isize` have no `BitPack` of their own.
            Shape::Int(ty) if narrow(&ty) && !matches!(ty, IntTy::Usize | IntTy::Isize) => {
                let primitive = format_ident!("{}", ty.name());
                Some(Leaf::Ranged {
                    ty,
                    min: quote!(::core::primitive::#primitive::MIN),
                    max: quote!(::core::primitive::#primitive::MAX),
                })
            }
            _ => None,
        },
        Encoding::Ranged { ty, min, max } if narrow(ty) => {
            Some(Leaf::Ranged { ty: *ty, min: quote!(#min), max: quote!(#max) })
        }
        Encoding::Quantized { min, max, res, double } => {
            Some(Leaf::Quantized { min: quote!(#min), max: quote!(#max), res: quote!(#res), double: *double })
        }
        _ => None,
    }
}

fn field_leaves(encoding: &Encoding<'_>) -> Option<FieldLeaves> {
    if let Encoding::Array { len, element } = encoding {
        // A literal length up to 16, unrolled into leaves.
        let len = crate::expand::small_literal(len).filter(|len| *len > 0)?;
        return Some(FieldLeaves { leaf: leaf(element)?, array_len: Some(len) });
    }
    Some(FieldLeaves { leaf: leaf(encoding)?, array_len: None })
}

/// Whether the fields are one run and nothing else: a small body that is
/// cheapest inlined into whatever writes or reads it.
pub(crate) fn is_one_run(fields: &[Field<'_>]) -> bool {
    !fields.is_empty() && run(fields.iter().map(|field| field.encoding.as_ref())).len() == fields.len()
}

/// The leading fields that form a run (at least two leaves between them),
/// or an empty list.
fn run<'e, 'a: 'e>(encodings: impl Iterator<Item = Option<&'e Encoding<'a>>>) -> Vec<FieldLeaves> {
    let fields: Vec<FieldLeaves> = encodings.map_while(|encoding| field_leaves(encoding?)).collect();
    if fields.iter().map(FieldLeaves::count).sum::<usize>() >= 2 { fields } else { Vec::new() }
}

impl Emitter {
    fn leaf_width(&self, leaf: &Leaf) -> TokenStream {
        let p = &self.runtime;
        match leaf {
            Leaf::Bool => quote!(1),
            Leaf::Ranged { ty, min, max } => {
                let module = format_ident!("ranged_{}", ty.name());
                quote!((#p::#module::bits(#min, #max) as ::core::primitive::u32))
            }
            Leaf::Quantized { min, max, res, double } => {
                let bits = if *double { quote!(quantize64_bits) } else { quote!(quantize_bits) };
                quote!((#p::#bits(#min, #max, #res) as ::core::primitive::u32))
            }
            Leaf::Float { bits } => quote!(#bits),
        }
    }

    fn widths(&self, fields: &[FieldLeaves]) -> Vec<TokenStream> {
        fields
            .iter()
            .flat_map(|field| std::iter::repeat_n(self.leaf_width(&field.leaf), field.count()))
            .collect()
    }

    fn leaf_bits(&self, leaf: &Leaf, value: TokenStream) -> TokenStream {
        let p = &self.runtime;
        match leaf {
            Leaf::Bool => quote!(#p::bool_bits(#value)),
            Leaf::Ranged { ty, min, max } => {
                let module = format_ident!("ranged_{}", ty.name());
                quote!(#p::#module::run_bits(#value, #min, #max, &mut __valid))
            }
            Leaf::Quantized { min, max, res, double } => {
                let bits = if *double { quote!(quantized64_bits) } else { quote!(quantized_bits) };
                quote!(#p::#bits(#value, #min, #max, #res, &mut __valid))
            }
            Leaf::Float { bits: 32 } => quote!(#p::f32_bits(#value)),
            Leaf::Float { .. } => quote!(#p::f64_bits(#value)),
        }
    }

    fn leaf_value(&self, leaf: &Leaf, raw: TokenStream) -> TokenStream {
        let p = &self.runtime;
        match leaf {
            Leaf::Bool => quote!(#p::bool_value(#raw)),
            Leaf::Ranged { ty, min, max } => {
                let module = format_ident!("ranged_{}", ty.name());
                quote!(#p::#module::run_value(#raw, #min, #max, &mut __valid))
            }
            Leaf::Quantized { min, max, res, double } => {
                let value = if *double { quote!(quantized64_value) } else { quote!(quantized_value) };
                quote!(#p::#value(#raw, #min, #max, #res, &mut __valid))
            }
            Leaf::Float { bits: 32 } => quote!(#p::f32_value(#raw)),
            Leaf::Float { .. } => quote!(#p::f64_value(#raw)),
        }
    }

    /// The run at the start of `written`, as one write falling back to the
    /// fields' own writes, and how many fields it took (0: no run here).
    pub(crate) fn write_run(&self, written: &[(Access, &Encoding<'_>)]) -> (usize, TokenStream) {
        let p = &self.runtime;
        let fields = run(written.iter().map(|(_, encoding)| Some(*encoding)));
        if fields.is_empty() {
            return (0, TokenStream::new());
        }
        let mut values = Vec::new();
        for ((access, _), field) in written.iter().zip(&fields) {
            match field.array_len {
                None => values.push(self.leaf_bits(&field.leaf, access.value())),
                Some(len) => {
                    let array = access.reference();
                    for index in 0..len {
                        let index = Literal::usize_unsuffixed(index);
                        values.push(self.leaf_bits(&field.leaf, quote!((#array)[#index])));
                    }
                }
            }
        }
        let widths = self.widths(&fields);
        let count = Literal::usize_unsuffixed(widths.len());
        let locals: Vec<Ident> = (0..values.len()).map(|index| format_ident!("__value{}", index)).collect();
        let puts = (0..values.len()).map(|index| {
            let local = &locals[index];
            let index = Literal::usize_unsuffixed(index);
            quote!(__run.put(__writer, #local, __WIDTHS[#index]);)
        });
        let fallback =
            written[..fields.len()].iter().map(|(access, encoding)| self.write(encoding, access, 0));
        // Widths and their total are constants, so the packing folds into
        // constant shifts (see `__private::RunWriter`).
        let code = quote! {{
            const __WIDTHS: [::core::primitive::u32; #count] = [#(#widths),*];
            const __BITS: ::core::primitive::usize = #p::run_bits(&__WIDTHS);
            let mut __valid = true;
            #(let #locals = #values;)*
            if __valid && #p::run_fits(__writer, __BITS) {
                let mut __run = #p::RunWriter::new();
                #(#puts)*
                __run.finish(__writer);
            } else {
                #(#fallback)*
            }
        }};
        (fields.len(), code)
    }

    /// The run at the start of `fields` (each with the local it binds), as
    /// one read binding those locals, falling back to the fields' own
    /// reads; and how many fields it took (0: no run here).
    pub(crate) fn read_run(&self, fields: &[(&Field<'_>, Ident)]) -> (usize, TokenStream) {
        let p = &self.runtime;
        let run_fields = run(fields.iter().map(|(field, _)| field.encoding.as_ref()));
        if run_fields.is_empty() {
            return (0, TokenStream::new());
        }
        let widths = self.widths(&run_fields);
        let count = Literal::usize_unsuffixed(widths.len());
        let mut leaves = Vec::new();
        let mut values = Vec::new();
        let mut raw_index = 0usize;
        for field in &run_fields {
            let mut take = || {
                let local = format_ident!("__leaf{}", raw_index);
                let index = Literal::usize_unsuffixed(raw_index);
                let raw = quote!(__run.get(__reader, __WIDTHS[#index]));
                let value = self.leaf_value(&field.leaf, raw);
                leaves.push(quote!(let #local = #value;));
                raw_index += 1;
                local
            };
            values.push(match field.array_len {
                None => {
                    let local = take();
                    quote!(#local)
                }
                Some(len) => {
                    let locals: Vec<Ident> = (0..len).map(|_| take()).collect();
                    quote!([#(#locals),*])
                }
            });
        }
        let taken = &fields[..run_fields.len()];
        let bindings = taken.iter().map(|(_, local)| local);
        let fallback = taken.iter().map(|(field, _)| self.read_field(field));
        let code = quote! {
            let (#(#bindings,)*) = '__run: {
                const __WIDTHS: [::core::primitive::u32; #count] = [#(#widths),*];
                const __BITS: ::core::primitive::usize = #p::run_bits(&__WIDTHS);
                if #p::run_remains(__reader, __BITS) {
                    let mut __run = #p::RunReader::new(__BITS);
                    let mut __valid = true;
                    #(#leaves)*
                    if __valid {
                        break '__run (#(#values,)*);
                    }
                    #p::unread_run(__reader, __BITS);
                }
                (#(#fallback,)*)
            };
        };
        (run_fields.len(), code)
    }
}
