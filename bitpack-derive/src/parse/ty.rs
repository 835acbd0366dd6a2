//! What a field's Rust type is: the derive sees only the type as written,
//! so `Vec`, `Option`, `Box`, `String` and the primitives are recognised by
//! name, and anything else is a named type of its own (`Shape::Nested`).

use crate::parse::value::Int;
use quote::ToTokens;
use syn::{Expr, GenericArgument, Member, PathArguments, Type};

/// An integer type the derive can range.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum IntTy {
    U8,
    U16,
    U32,
    U64,
    U128,
    Usize,
    I8,
    I16,
    I32,
    I64,
    I128,
    Isize,
}

impl IntTy {
    fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "u8" => IntTy::U8,
            "u16" => IntTy::U16,
            "u32" => IntTy::U32,
            "u64" => IntTy::U64,
            "u128" => IntTy::U128,
            "usize" => IntTy::Usize,
            "i8" => IntTy::I8,
            "i16" => IntTy::I16,
            "i32" => IntTy::I32,
            "i64" => IntTy::I64,
            "i128" => IntTy::I128,
            "isize" => IntTy::Isize,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            IntTy::U8 => "u8",
            IntTy::U16 => "u16",
            IntTy::U32 => "u32",
            IntTy::U64 => "u64",
            IntTy::U128 => "u128",
            IntTy::Usize => "usize",
            IntTy::I8 => "i8",
            IntTy::I16 => "i16",
            IntTy::I32 => "i32",
            IntTy::I64 => "i64",
            IntTy::I128 => "i128",
            IntTy::Isize => "isize",
        }
    }

    /// Width in bits (`usize`/`isize` checked as 64-bit; the compiler
    /// catches a literal too wide for a smaller target).
    pub fn bits(self) -> u32 {
        match self {
            IntTy::U8 | IntTy::I8 => 8,
            IntTy::U16 | IntTy::I16 => 16,
            IntTy::U32 | IntTy::I32 => 32,
            IntTy::U64 | IntTy::I64 | IntTy::Usize | IntTy::Isize => 64,
            IntTy::U128 | IntTy::I128 => 128,
        }
    }

    pub fn signed(self) -> bool {
        matches!(self, IntTy::I8 | IntTy::I16 | IntTy::I32 | IntTy::I64 | IntTy::I128 | IntTy::Isize)
    }

    /// The type's smallest value.
    pub fn min(self) -> Int {
        if self.signed() { Int::new(true, 1u128 << (self.bits() - 1)) } else { Int::new(false, 0) }
    }

    /// The type's largest value.
    pub fn max(self) -> Int {
        let value_bits = if self.signed() { self.bits() - 1 } else { self.bits() };
        Int::new(false, u128::MAX >> (128 - value_bits))
    }

    pub fn holds(self, value: Int) -> bool {
        !value.less_than(self.min()) && !self.max().less_than(value)
    }

    /// Whether its width depends on the target (no plain impl: needs `bits`).
    pub fn platform_sized(self) -> bool {
        matches!(self, IntTy::Usize | IntTy::Isize)
    }
}

/// A float type.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum FloatTy {
    F32,
    F64,
}

impl FloatTy {
    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            FloatTy::F32 => 32,
            FloatTy::F64 => 64,
        }
    }
}

/// The shape of a field type.
pub enum Shape<'a> {
    Bool,
    Int(IntTy),
    Float(FloatTy),
    String,
    Vec(&'a Type),
    Option(&'a Type),
    Box(&'a Type),
    Array(&'a Type, &'a Expr),
    Tuple(Vec<&'a Type>),
    /// Any other named type: a nested `BitPack` (generic parameters included).
    Nested,
    /// A type that cannot be read back; the reason, with how to fix it.
    Unsupported(&'static str),
}

pub fn shape(ty: &Type) -> Shape<'_> {
    match ty {
        Type::Paren(inner) => shape(&inner.elem),
        Type::Group(inner) => shape(&inner.elem),
        Type::Array(array) => Shape::Array(&array.elem, &array.len),
        Type::Tuple(tuple) => Shape::Tuple(tuple.elems.iter().collect()),
        Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else { return Shape::Nested };
            let name = last.ident.to_string();
            match &last.arguments {
                PathArguments::None => match name.as_str() {
                    "bool" => Shape::Bool,
                    "f32" => Shape::Float(FloatTy::F32),
                    "f64" => Shape::Float(FloatTy::F64),
                    "String" => Shape::String,
                    _ => IntTy::from_name(&name).map_or(Shape::Nested, Shape::Int),
                },
                PathArguments::AngleBracketed(args) => {
                    let mut types = args.args.iter().filter_map(|arg| match arg {
                        GenericArgument::Type(ty) => Some(ty),
                        _ => None,
                    });
                    match (types.next(), types.next(), args.args.len()) {
                        (Some(inner), None, 1) => match name.as_str() {
                            "Vec" => Shape::Vec(inner),
                            "Option" => Shape::Option(inner),
                            "Box" => Shape::Box(inner),
                            _ => Shape::Nested,
                        },
                        _ => Shape::Nested,
                    }
                }
                PathArguments::Parenthesized(_) => {
                    Shape::Unsupported("a function type cannot be sent; remove it")
                }
            }
        }
        Type::Path(_) => Shape::Nested,
        Type::Reference(_) => {
            Shape::Unsupported("a reference cannot be read back; use an owned type such as `String` or `Vec`")
        }
        Type::Slice(_) => {
            Shape::Unsupported("a slice has no bounded length; use `Vec` with #[bitpack(max_len = N)]")
        }
        Type::Ptr(_) => Shape::Unsupported("a raw pointer cannot be sent; use an owned value"),
        Type::BareFn(_) => Shape::Unsupported("a function pointer cannot be sent; remove it"),
        Type::TraitObject(_) | Type::ImplTrait(_) => {
            Shape::Unsupported("a trait object cannot be read back; use a concrete type or an enum")
        }
        Type::Never(_) => Shape::Unsupported("`!` cannot be sent; remove the field"),
        _ => Shape::Unsupported("this type cannot be sent; use a concrete owned type"),
    }
}

/// A type as the user wrote it, for messages.
pub fn written(ty: &Type) -> String {
    ty.to_token_stream()
        .to_string()
        .replace(" < ", "<")
        .replace(" <", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" ,", ",")
}

/// A field's name as written (its index in a tuple struct), for messages.
pub fn member_name(member: &Member) -> String {
    match member {
        Member::Named(ident) => ident.to_string(),
        Member::Unnamed(index) => index.index.to_string(),
    }
}
