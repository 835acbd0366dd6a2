//! What a field's Rust type is: the derive sees only the type as written,
//! so `Vec`, `Option`, `Box`, `String`, the primitives, the other standard
//! collections and glam's and mint's vectors and quaternions are recognised
//! by name (the last segment of the path), and anything else is a named type
//! of its own (`Shape::Nested`).

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
    pub fn name(self) -> &'static str {
        match self {
            FloatTy::F32 => "f32",
            FloatTy::F64 => "f64",
        }
    }

    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            FloatTy::F32 => 32,
            FloatTy::F64 => 64,
        }
    }
}

/// A vector's component type: an integer or a float.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    Int(IntTy),
    Float(FloatTy),
}

impl Scalar {
    fn from_name(name: &str) -> Option<Self> {
        match name {
            "f32" => Some(Scalar::Float(FloatTy::F32)),
            "f64" => Some(Scalar::Float(FloatTy::F64)),
            _ => IntTy::from_name(name).map(Scalar::Int),
        }
    }

    /// The scalar named by a type (`f32`, `i32`...), if it is one.
    fn of(ty: &Type) -> Option<Self> {
        match ty {
            Type::Path(path) if path.qself.is_none() => {
                let ident = path.path.get_ident()?;
                Scalar::from_name(&ident.to_string())
            }
            _ => None,
        }
    }
}

/// Which sequence a `Shape::Sequence` is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SequenceTy {
    /// `Vec<T>` (with `adaptive_len`; otherwise a `Vec` is its own encoding).
    Vec,
    /// `VecDeque<T>`.
    Deque,
    /// `Box<[T]>`, `Rc<[T]>`, `Arc<[T]>`: iterated through the slice.
    Slice,
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
    /// A glam or mint vector, by name (`Vec3`, `DVec2`, `IVec4`, `U8Vec3`...,
    /// mint's `Vector3<f32>`, `Point2<i32>`...): its component type and its
    /// number of axes. Without attributes, its own `BitPack`.
    Vector(Scalar, usize),
    /// glam's `Quat`/`DQuat` and mint's `Quaternion<f32>`/`Quaternion<f64>`,
    /// by name. Without attributes, its own `BitPack`.
    Quaternion,
    /// `Box<str>`, `Cow<str>`, `Rc<str>`, `Arc<str>`: sent as a `String`.
    Str,
    /// `VecDeque<T>`, `Box<[T]>`, `Rc<[T]>`, `Arc<[T]>`: sent as a `Vec<T>`.
    Sequence(SequenceTy, &'a Type),
    /// `BTreeMap<K, V>`, `HashMap<K, V>` (any hasher).
    Map(&'a Type, &'a Type),
    /// `BTreeSet<K>`, `HashSet<K>` (any hasher).
    Set(&'a Type),
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
                    "Quat" | "DQuat" => Shape::Quaternion,
                    _ => match IntTy::from_name(&name) {
                        Some(int) => Shape::Int(int),
                        None => glam_vector(&name)
                            .map_or(Shape::Nested, |(scalar, axes)| Shape::Vector(scalar, axes)),
                    },
                },
                PathArguments::AngleBracketed(args) => {
                    let types: Vec<&Type> = args
                        .args
                        .iter()
                        .filter_map(|arg| match arg {
                            GenericArgument::Type(ty) => Some(ty),
                            _ => None,
                        })
                        .collect();
                    // Lifetimes are fine only in `Cow<'a, str>`.
                    let only_types = types.len() == args.args.len();
                    generic(&name, &types, only_types)
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

/// A generic type by its name and type arguments.
fn generic<'a>(name: &str, types: &[&'a Type], only_types: bool) -> Shape<'a> {
    match (name, types) {
        ("Cow", [inner]) if is_str(inner) => Shape::Str,
        (_, _) if !only_types => Shape::Nested,
        ("Vec", [inner]) => Shape::Vec(inner),
        ("Option", [inner]) => Shape::Option(inner),
        ("Box", [inner]) => pointee(inner).unwrap_or(Shape::Box(inner)),
        ("Rc" | "Arc", [inner]) => pointee(inner).unwrap_or(Shape::Nested),
        ("VecDeque", [element]) => Shape::Sequence(SequenceTy::Deque, element),
        ("BTreeMap", [key, value]) | ("HashMap", [key, value] | [key, value, _]) => Shape::Map(key, value),
        ("BTreeSet", [element]) | ("HashSet", [element] | [element, _]) => Shape::Set(element),
        ("Vector2" | "Point2", [scalar]) => {
            Scalar::of(scalar).map_or(Shape::Nested, |scalar| Shape::Vector(scalar, 2))
        }
        ("Vector3" | "Point3", [scalar]) => {
            Scalar::of(scalar).map_or(Shape::Nested, |scalar| Shape::Vector(scalar, 3))
        }
        ("Vector4", [scalar]) => Scalar::of(scalar).map_or(Shape::Nested, |scalar| Shape::Vector(scalar, 4)),
        ("Quaternion", [scalar]) => match Scalar::of(scalar) {
            Some(Scalar::Float(_)) => Shape::Quaternion,
            _ => Shape::Nested,
        },
        _ => Shape::Nested,
    }
}

/// What a `Box`, `Rc` or `Arc` of an unsized type is: `str` a string, `[T]` a sequence.
fn pointee(inner: &Type) -> Option<Shape<'_>> {
    match inner {
        Type::Slice(slice) => Some(Shape::Sequence(SequenceTy::Slice, &slice.elem)),
        _ if is_str(inner) => Some(Shape::Str),
        _ => None,
    }
}

fn is_str(ty: &Type) -> bool {
    matches!(ty, Type::Path(path) if path.qself.is_none() && path.path.is_ident("str"))
}

/// The name of glam's 3-axis vector of `scalar`, for messages.
pub fn glam_vector3(scalar: Scalar) -> &'static str {
    match scalar {
        Scalar::Float(FloatTy::F32) => "Vec3",
        Scalar::Float(FloatTy::F64) => "DVec3",
        Scalar::Int(IntTy::U32) => "UVec3",
        Scalar::Int(IntTy::I8) => "I8Vec3",
        Scalar::Int(IntTy::U8) => "U8Vec3",
        Scalar::Int(IntTy::I16) => "I16Vec3",
        Scalar::Int(IntTy::U16) => "U16Vec3",
        Scalar::Int(IntTy::I64) => "I64Vec3",
        Scalar::Int(IntTy::U64) => "U64Vec3",
        Scalar::Int(_) => "IVec3",
    }
}

/// A glam vector's component type and axes, by its name.
fn glam_vector(name: &str) -> Option<(Scalar, usize)> {
    if name == "Vec3A" {
        return Some((Scalar::Float(FloatTy::F32), 3));
    }
    let last = name.chars().next_back()?;
    let prefix = &name[..name.len() - last.len_utf8()];
    let axes = match last {
        '2' => 2,
        '3' => 3,
        '4' => 4,
        _ => return None,
    };
    let scalar = match prefix {
        "Vec" => Scalar::Float(FloatTy::F32),
        "DVec" => Scalar::Float(FloatTy::F64),
        "IVec" => Scalar::Int(IntTy::I32),
        "UVec" => Scalar::Int(IntTy::U32),
        "I8Vec" => Scalar::Int(IntTy::I8),
        "U8Vec" => Scalar::Int(IntTy::U8),
        "I16Vec" => Scalar::Int(IntTy::I16),
        "U16Vec" => Scalar::Int(IntTy::U16),
        "I64Vec" => Scalar::Int(IntTy::I64),
        "U64Vec" => Scalar::Int(IntTy::U64),
        _ => return None,
    };
    Some((scalar, axes))
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
