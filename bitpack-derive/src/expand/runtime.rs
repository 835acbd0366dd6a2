//! The runtime items that differ by integer or float type, as typed
//! tables: each integer type's `ranged_*` and `relative_*` module, and each
//! float item's `f32` and `f64` forms. No emitter builds a runtime name
//! itself, so a name the core renames is one row here.

use crate::ir::consts::AxisBounds;
use crate::ir::keyed::Form;
use crate::ir::runtime::Runtime;
use crate::parse::ty::{FloatTy, IntTy};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Ident;

/// The primitive type itself (`u8`, `f32`...), as a type in generated code.
pub fn primitive_int(int: IntTy) -> Ident {
    Ident::new(int.name(), Span::call_site())
}

pub fn primitive_float(float: FloatTy) -> Ident {
    Ident::new(
        match float {
            FloatTy::F32 => "f32",
            FloatTy::F64 => "f64",
        },
        Span::call_site(),
    )
}

/// Each integer type's two runtime modules: `ranged_<int>` and `relative_<int>`.
fn int_modules(int: IntTy) -> (TokenStream, TokenStream) {
    match int {
        IntTy::U8 => (quote!(ranged_u8), quote!(relative_u8)),
        IntTy::U16 => (quote!(ranged_u16), quote!(relative_u16)),
        IntTy::U32 => (quote!(ranged_u32), quote!(relative_u32)),
        IntTy::U64 => (quote!(ranged_u64), quote!(relative_u64)),
        IntTy::U128 => (quote!(ranged_u128), quote!(relative_u128)),
        IntTy::Usize => (quote!(ranged_usize), quote!(relative_usize)),
        IntTy::I8 => (quote!(ranged_i8), quote!(relative_i8)),
        IntTy::I16 => (quote!(ranged_i16), quote!(relative_i16)),
        IntTy::I32 => (quote!(ranged_i32), quote!(relative_i32)),
        IntTy::I64 => (quote!(ranged_i64), quote!(relative_i64)),
        IntTy::I128 => (quote!(ranged_i128), quote!(relative_i128)),
        IntTy::Isize => (quote!(ranged_isize), quote!(relative_isize)),
    }
}

/// `<runtime>::ranged_<int>`: a `#[bits(min, max)]` integer's write, read,
/// bits, schema, problem and run views.
pub fn ranged(p: &Runtime, int: IntTy) -> TokenStream {
    let (module, _) = int_modules(int);
    quote!(#p::#module)
}

/// `<runtime>::relative_<int>`: a ranged integer coded against its baseline.
pub fn relative_int(p: &Runtime, int: IntTy) -> TokenStream {
    let (_, module) = int_modules(int);
    quote!(#p::#module)
}

/// `<runtime>::quantized_axes_<float>` or `<runtime>::ranged_axes_<int>`:
/// a vector's per-axis write, read, bits, widths, schema, problem, run and
/// relative views.
pub fn axes(p: &Runtime, bounds: &AxisBounds) -> TokenStream {
    let module = match bounds {
        AxisBounds::Quantized(FloatTy::F32, _) => quote!(quantized_axes_f32),
        AxisBounds::Quantized(FloatTy::F64, _) => quote!(quantized_axes_f64),
        AxisBounds::Ranged(int, _) => match int {
            IntTy::U8 => quote!(ranged_axes_u8),
            IntTy::U16 => quote!(ranged_axes_u16),
            IntTy::U32 => quote!(ranged_axes_u32),
            IntTy::U64 => quote!(ranged_axes_u64),
            IntTy::U128 => quote!(ranged_axes_u128),
            IntTy::Usize => quote!(ranged_axes_usize),
            IntTy::I8 => quote!(ranged_axes_i8),
            IntTy::I16 => quote!(ranged_axes_i16),
            IntTy::I32 => quote!(ranged_axes_i32),
            IntTy::I64 => quote!(ranged_axes_i64),
            IntTy::I128 => quote!(ranged_axes_i128),
            IntTy::Isize => quote!(ranged_axes_isize),
        },
    };
    quote!(#p::#module)
}

/// The runtime items that come in an `f32` and an `f64` form.
#[derive(Clone, Copy)]
pub enum FloatItem {
    /// `BitWrite::write_compressed_*` and `BitRead::read_compressed_*`.
    WriteQuantized,
    ReadQuantized,
    /// Bits of a quantized declaration, and why one is refused.
    QuantizeBits,
    QuantizeProblem,
    /// A quantized declaration's fingerprint.
    QuantizedSchema,
    /// A quantized value in and out of a fused run.
    QuantizedRunBits,
    QuantizedRunValue,
    /// A block's quantized floats lane by lane: into steps, a run's raw
    /// bits checked as steps, and steps into values.
    QuantizedLanes,
    QuantizedSteps,
    DequantizedLanes,
    /// A plain float's IEEE bits in and out of a fused run.
    RawRunBits,
    RawRunValue,
    /// A quantized float coded against its baseline (a module).
    Relative,
    /// A fixed-point float: write, read, and whether it is negative.
    WriteFixed,
    ReadFixed,
    FixedIsNegative,
}

/// The path of `item` for `float`.
pub fn float(p: &Runtime, float: FloatTy, item: FloatItem) -> TokenStream {
    use FloatItem::*;
    let f32 = float == FloatTy::F32;
    match item {
        WriteQuantized if f32 => quote!(#p::BitWrite::write_compressed_float),
        WriteQuantized => quote!(#p::BitWrite::write_compressed_double),
        ReadQuantized if f32 => quote!(#p::BitRead::read_compressed_float),
        ReadQuantized => quote!(#p::BitRead::read_compressed_double),
        QuantizeBits if f32 => quote!(#p::quantize_bits),
        QuantizeBits => quote!(#p::quantize64_bits),
        QuantizeProblem if f32 => quote!(#p::quantize_problem),
        QuantizeProblem => quote!(#p::quantize64_problem),
        QuantizedSchema if f32 => quote!(#p::schema::quantized),
        QuantizedSchema => quote!(#p::schema::quantized64),
        QuantizedRunBits if f32 => quote!(#p::quantized_bits),
        QuantizedRunBits => quote!(#p::quantized64_bits),
        QuantizedRunValue if f32 => quote!(#p::quantized_value),
        QuantizedRunValue => quote!(#p::quantized64_value),
        QuantizedLanes if f32 => quote!(#p::quantized_lanes),
        QuantizedLanes => quote!(#p::quantized64_lanes),
        QuantizedSteps if f32 => quote!(#p::lane_steps),
        QuantizedSteps => quote!(#p::lane_steps64),
        DequantizedLanes if f32 => quote!(#p::dequantized_lanes),
        DequantizedLanes => quote!(#p::dequantized64_lanes),
        RawRunBits if f32 => quote!(#p::f32_bits),
        RawRunBits => quote!(#p::f64_bits),
        RawRunValue if f32 => quote!(#p::f32_value),
        RawRunValue => quote!(#p::f64_value),
        Relative if f32 => quote!(#p::relative_f32),
        Relative => quote!(#p::relative_f64),
        WriteFixed if f32 => quote!(#p::adaptive::write_fixed_f32),
        WriteFixed => quote!(#p::adaptive::write_fixed),
        ReadFixed if f32 => quote!(#p::adaptive::read_fixed_f32),
        ReadFixed => quote!(#p::adaptive::read_fixed),
        FixedIsNegative if f32 => quote!(#p::adaptive::fixed_is_negative_f32),
        FixedIsNegative => quote!(#p::adaptive::fixed_point_is_negative),
    }
}

/// `<runtime>::keyed::map` or `<runtime>::keyed::sorted_vec`: a keyed
/// collection's runtime (the same functions in both; a sender's calls
/// for a map it may hold flat go through `keyed::FlatProbe`); and the
/// trait a sorted `Vec`'s entries carry their key by.
pub fn keyed(p: &Runtime, form: &Form<'_>) -> TokenStream {
    match form {
        Form::Map { .. } => quote!(#p::keyed::map),
        Form::SortedVec => quote!(#p::keyed::sorted_vec),
    }
}

pub fn key_field(p: &Runtime) -> TokenStream {
    quote!(#p::keyed::KeyField)
}

/// `<runtime>::adaptive`: the adaptive integers' runtime.
pub fn adaptive(p: &Runtime) -> TokenStream {
    quote!(#p::adaptive)
}
