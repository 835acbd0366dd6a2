//! How one value goes on the wire. Leaves are explicit (a `bool`, an
//! integer plain or ranged, a float plain or quantized), so nothing after
//! `check` looks at a Rust type again; containers hold the encoding of
//! their values, and [`Encoding::walk`] visits them all.

use crate::ir::adaptive::Adaptive;
use crate::ir::columns::ColumnsField;
use crate::ir::consts::{ConstName, Range, Steps};
use crate::ir::geometry::{Rotation, Vector};
use crate::ir::keyed::Keyed;
use crate::parse::ty::{FloatTy, IntTy, SequenceTy};
use syn::{Expr, Path, Type};

pub enum Encoding<'a> {
    Bool(Bool<'a>),
    Int(Int<'a>),
    Float(Float<'a>),
    Text(Text),
    Vec(Sequence<'a>),
    Option(Optional<'a>),
    Boxed(Boxed<'a>),
    Array(Array<'a>),
    Tuple(Tuple<'a>),
    Nested(Nested<'a>),
    /// Under the message's sign mode: see [`Adaptive`].
    Adaptive(Adaptive<'a>),
    /// A vector with per-axis bounds: see [`Vector`].
    Vector(Vector<'a>),
    /// A quaternion as smallest three: see [`Rotation`].
    Rotation(Rotation<'a>),
    /// `#[bitpack(with = module)]`: through the module's items.
    With(With<'a>),
    /// The collections beyond `String` and `Vec`, with `max_len`.
    Collection(Collection<'a>),
    /// A `#[change_group]` keyed collection: see [`Keyed`].
    Keyed(Keyed<'a>),
    /// `#[bitpack(columns)]`: a collection written field by field, see [`ColumnsField`].
    Columns(ColumnsField<'a>),
}

/// A `bool`: one bit, through its own `BitPack`.
pub struct Bool<'a> {
    pub ty: &'a Type,
}

/// A primitive integer.
pub struct Int<'a> {
    pub ty: &'a Type,
    pub int: IntTy,
    /// `#[bits(min, max)]`: `value - min` in `bits_required(min, max)` bits.
    /// `None`: the type's own `BitPack` (its whole range).
    pub range: Option<Range>,
}

/// An `f32` or `f64`.
pub struct Float<'a> {
    pub ty: &'a Type,
    pub float: FloatTy,
    /// `#[quantize(min, max, res)]`: the reference's compressed float (in
    /// f64 for an `f64`). `None`: its IEEE bits, through its own `BitPack`.
    pub steps: Option<Steps>,
}

/// A `String`: `write_str(s, max_len)`'s wire, NUL allowed (`write_rust_string`).
pub struct Text {
    pub max_len: ConstName,
}

/// A `Vec`: `int(len, 0, max_len)`, then the elements.
pub struct Sequence<'a> {
    pub max_len: ConstName,
    pub element: Box<Encoding<'a>>,
}

/// An `Option`: a bool, then the value.
pub struct Optional<'a> {
    pub inner: Box<Encoding<'a>>,
}

/// A `Box`: what it holds.
pub struct Boxed<'a> {
    pub inner: Box<Encoding<'a>>,
}

/// An array: `len` values.
pub struct Array<'a> {
    pub len: &'a Expr,
    pub element: Box<Encoding<'a>>,
}

/// A tuple: the elements in order.
pub struct Tuple<'a> {
    pub elements: Vec<Encoding<'a>>,
}

/// Any other type: through its own `BitPack` impl.
pub struct Nested<'a> {
    pub ty: &'a Type,
}

/// `#[bitpack(with = path)]`: the field through `path::write`, `path::read`
/// and `path::{MAX_BITS, MIN_BITS, SCHEMA}`.
pub struct With<'a> {
    pub ty: &'a Type,
    pub path: &'a Path,
}

/// A collection with `#[bitpack(max_len = N)]`, on the wire as the `String`
/// or `Vec` it holds the values of (maps and sets in ascending key order).
pub enum Collection<'a> {
    /// `Box<str>`, `Cow<str>`, `Rc<str>`, `Arc<str>`: as a `String`.
    Text { ty: &'a Type, max_len: ConstName },
    /// `VecDeque<T>`, `Box<[T]>`, `Rc<[T]>`, `Arc<[T]>`: as a `Vec<T>`.
    /// `Vec<T>` too, with `#[bitpack(adaptive_len)]`: then (`adaptive_len`)
    /// the length is in the bounded-adaptive form, not `int(len, 0, max_len)`.
    Sequence {
        ty: &'a Type,
        kind: SequenceTy,
        max_len: ConstName,
        element: Box<Encoding<'a>>,
        adaptive_len: bool,
    },
    /// `BTreeMap`/`HashMap`: the length, then each key and its value.
    Map {
        ty: &'a Type,
        max_len: ConstName,
        /// The key's encoding, then the value's.
        entry: Vec<Encoding<'a>>,
    },
    /// `BTreeSet`/`HashSet`: the length, then each element.
    Set { ty: &'a Type, max_len: ConstName, element: Box<Encoding<'a>> },
}

impl<'a> Collection<'a> {
    /// The encodings of its values.
    pub fn children(&self) -> &[Encoding<'a>] {
        match self {
            Collection::Text { .. } => &[],
            Collection::Sequence { element, .. } | Collection::Set { element, .. } => {
                std::slice::from_ref(&**element)
            }
            Collection::Map { entry, .. } => entry,
        }
    }
}

/// Arrays up to this length whose length is an integer literal are
/// unrolled: read as one array expression, fused into runs, coded
/// relatively element by element.
const UNROLLED_ARRAY_MAX: usize = 16;

impl<'a> Array<'a> {
    /// The length when it is an integer literal up to [`UNROLLED_ARRAY_MAX`].
    pub fn literal_len(&self) -> Option<usize> {
        match self.len {
            Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(int), .. }) => {
                int.base10_parse::<usize>().ok().filter(|count| *count <= UNROLLED_ARRAY_MAX)
            }
            _ => None,
        }
    }
}

impl<'a> Int<'a> {
    /// Whether it fits a fused run: at most 64 bits, and not `usize` or
    /// `isize` left to their own (target-dependent) `BitPack`.
    pub fn fits_run(&self) -> bool {
        self.int.bits() <= 64 && (self.range.is_some() || !self.int.platform_sized())
    }
}

impl<'a> Encoding<'a> {
    /// The values inside this one (none for a leaf), in wire order.
    pub fn children(&self) -> &[Encoding<'a>] {
        match self {
            Encoding::Vec(Sequence { element: inner, .. })
            | Encoding::Option(Optional { inner })
            | Encoding::Boxed(Boxed { inner })
            | Encoding::Array(Array { element: inner, .. }) => std::slice::from_ref(&**inner),
            Encoding::Tuple(tuple) => &tuple.elements,
            Encoding::Collection(collection) => collection.children(),
            Encoding::Vector(_) | Encoding::Rotation(_) | Encoding::With(_) => &[],
            Encoding::Bool(_)
            | Encoding::Int(_)
            | Encoding::Float(_)
            | Encoding::Text(_)
            | Encoding::Nested(_)
            | Encoding::Adaptive(_)
            | Encoding::Keyed(_)
            // Opaque: its values are columns, outside the row's sign scope, runs and groups.
            | Encoding::Columns(_) => &[],
        }
    }

    /// This encoding and every one inside it, depth first in wire order.
    pub fn walk(&self) -> impl Iterator<Item = &Encoding<'a>> {
        let mut stack = vec![self];
        std::iter::from_fn(move || {
            let next = stack.pop()?;
            stack.extend(next.children().iter().rev());
            Some(next)
        })
    }

    /// Whether any value inside is adaptive.
    pub fn holds_adaptive(&self) -> bool {
        self.walk().any(|encoding| matches!(encoding, Encoding::Adaptive(_)))
    }

    /// How many fixed-width scalars it is on the wire, if it can join a
    /// fused run: one for a scalar, `len` for a short array of them.
    pub fn run_leaves(&self) -> Option<usize> {
        match self {
            Encoding::Bool(_) | Encoding::Float(_) => Some(1),
            Encoding::Int(int) => int.fits_run().then_some(1),
            Encoding::Vector(vector) => vector.run_leaves(),
            Encoding::Rotation(_) => Some(4),
            Encoding::Array(array) => {
                let len = array.literal_len().filter(|len| *len > 0)?;
                match *array.element {
                    Encoding::Bool(_) | Encoding::Float(_) | Encoding::Int(_) => {
                        array.element.run_leaves().map(|_| len)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// How it codes against a baseline: the ranged integer, quantized
    /// float, bounded vector or quaternion, alone or as the element of a
    /// short array (with its length); `None` when it cannot.
    pub fn relative(&self) -> Option<(&Encoding<'a>, Option<usize>)> {
        let leaf = |encoding: &Encoding<'a>| {
            matches!(
                encoding,
                Encoding::Int(Int { range: Some(_), .. })
                    | Encoding::Float(Float { steps: Some(_), .. })
                    | Encoding::Vector(_)
                    | Encoding::Rotation(_)
            )
        };
        match self {
            Encoding::Array(array) => {
                let len = array.literal_len().filter(|len| *len > 0)?;
                leaf(&array.element).then_some((&*array.element, Some(len)))
            }
            _ => leaf(self).then_some((self, None)),
        }
    }
}
