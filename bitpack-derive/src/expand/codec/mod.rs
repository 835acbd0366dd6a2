//! One file per encoding family, each holding every view of its
//! encodings: how they write, read, count their most and fewest bits,
//! fingerprint, sit in a fused run, code against a baseline, and (for
//! adaptive values) answer for their signs. [`codec`] is the one `match`
//! over `Encoding`; everything else asks the [`Codec`] it returns.
//!
//! - `bool`: a `bool`.
//! - `int`: integers, plain and `#[bits(min, max)]`.
//! - `float`: floats, plain and `#[quantize(min, max, res)]`.
//! - `text`: a `String`.
//! - `containers`: `Vec`, `Option`, `Box`, arrays, tuples.
//! - `nested`: a type through its own `BitPack` (also the plain leaves' form).
//! - `adaptive`: adaptive integers, groups and fixed-point floats.
//! - `keyed`: keyed collections (whole here; their deltas for change groups).
//! - `geometry`: vectors with per-axis bounds, quaternions as smallest three.
//! - `collections`: `Box<str>` and the like, `VecDeque`, boxed slices, maps, sets.
//! - `with`: a field through a `#[bitpack(with = module)]` module.
//! - `columns`: a collection written field by field, and its columns.
//!
//! Emitted code writes to `names.writer` and reads from `names.reader`, as
//! statements and expressions that end in `?` on errors.

pub mod adaptive;
pub mod bool;
pub mod collections;
pub mod columns;
pub mod containers;
pub mod float;
pub mod geometry;
pub mod int;
pub mod keyed;
pub mod nested;
pub mod text;
pub mod with;

use crate::expand::names::{Access, Names};
use crate::expand::problem::Problem;
use crate::ir::encoding::Encoding;
use proc_macro2::TokenStream;
use syn::{Ident, Type};

/// Every view of one kind of encoding.
pub trait Codec {
    /// Statements writing the value at `access`; `depth` counts the
    /// containers around it (their locals are numbered by it).
    fn write(&self, names: &Names, access: &Access, depth: usize) -> TokenStream;
    /// An expression of the value's type, read.
    fn read(&self, names: &Names, depth: usize) -> TokenStream;
    /// The most bits the value takes (`const`).
    fn max_bits(&self, names: &Names) -> TokenStream;
    /// The fewest bits the value takes (`const`).
    fn min_bits(&self, names: &Names) -> TokenStream;
    /// The value's fingerprint (`const`).
    fn schema(&self, names: &Names) -> TokenStream;

    /// The type it goes through the `BitPack` impl of, if it does.
    fn own_impl(&self) -> Option<&Type> {
        None
    }
    /// As one scalar of a fused run (those `Encoding::run_leaves` counts).
    fn run_leaf(&self) -> Option<&dyn RunLeaf> {
        None
    }
    /// As several scalars of a fused run through one call each way (those
    /// `Encoding::run_leaves` counts for vectors and quaternions).
    fn run_parts(&self) -> Option<&dyn RunParts> {
        None
    }
    /// How it codes against a baseline (those `Encoding::relative` finds).
    fn relative(&self, _names: &Names) -> Option<RelativeCoding> {
        None
    }
    /// Whether the value at `access` holds a negative adaptive value
    /// (`None` when it holds no signed adaptive value).
    fn negative(&self, _names: &Names, _access: &Access, _depth: usize) -> Option<TokenStream> {
        None
    }
    /// The value's own `HAS_SIGNED` term (`const` bool), if it may be signed
    /// (not counting the values inside it).
    fn signed(&self, _names: &Names) -> Option<TokenStream> {
        None
    }
}

/// A fixed-width scalar in a fused run, through `RunWriter`/`RunReader`.
pub trait RunLeaf {
    /// Its width in bits (`const` `u32`).
    fn width(&self, names: &Names) -> TokenStream;
    /// The `u64` that goes into the run for `value`, clearing
    /// `names.valid` if the value is refused.
    fn bits(&self, names: &Names, value: TokenStream) -> TokenStream;
    /// The value read back from `raw`, clearing `names.valid` if it is out of range.
    fn value(&self, names: &Names, raw: TokenStream) -> TokenStream;
    /// As a lane of a block of elements (quantized floats), if a block
    /// computes it lane by lane rather than element by element.
    fn lane(&self) -> Option<&dyn LaneLeaf> {
        None
    }
    /// Whether it is a `bool` (one bit, `bool_value` of it), which a
    /// nested leaf's read takes with its neighbouring bools at once
    /// (`run::as_leaf`).
    fn is_bool(&self) -> bool {
        false
    }
}

/// A run leaf a block of `__private::BLOCK` elements computes lane by lane
/// (see `expand::batch`): its steps into the run, its values out of it.
pub trait LaneLeaf {
    /// The `[u32 or u64; BLOCK]` of steps for `values` (`[f32 or f64; BLOCK]`),
    /// adding them to `sums` (a `__private::LaneSums`, checked after every
    /// field's) and clearing `valid` if the declaration is refused.
    fn lanes(&self, names: &Names, values: TokenStream, sums: &Ident, valid: &Ident) -> TokenStream;
    /// Its declaration as `(min, max, res)`, if a block's window computes
    /// it in an element's row of four (`__private::quantized_row`: `f32`).
    fn row(&self) -> Option<TokenStream>;
    /// The `u64` that goes into the run for one lane's `steps`.
    fn bits(&self, steps: TokenStream) -> TokenStream;
    /// One lane's steps (`u32` or `u64`) from a run's `raw` bits, unchecked.
    fn steps(&self, names: &Names, raw: TokenStream) -> TokenStream;
    /// An array of `BLOCK` steps, all zero.
    fn no_steps(&self) -> TokenStream;
    /// The `[f32 or f64; BLOCK]` values of `steps`, clearing `names.valid`
    /// if one is refused (checked lane by lane, the block's values then
    /// unused).
    fn values(&self, names: &Names, steps: TokenStream) -> TokenStream;
}

/// A value that is several fixed-width scalars of a fused run (a vector's
/// axes, a quaternion's index and components), packed and unpacked by one
/// runtime call each way.
pub trait RunParts {
    /// Its scalars' widths in bits (`const` `u32` each), in wire order.
    fn widths(&self, names: &Names) -> Vec<TokenStream>;
    /// The `[u64; K]` of its scalars for the value at `reference`, clearing
    /// `names.valid` if the value is refused.
    fn bits(&self, names: &Names, reference: TokenStream) -> TokenStream;
    /// The value from its scalars read back (`raws`, `u64` locals), clearing
    /// `names.valid` if it is refused; an `Option` of it if `fallible`.
    fn value(&self, names: &Names, raws: &[Ident]) -> TokenStream;
    /// Whether `value` is an `Option` (`None`: refused), for a type with no
    /// value to stand in for a refused one (a nested type).
    fn fallible(&self) -> bool {
        false
    }
}

/// How a value codes against its baseline in a delta: `write(writer, now,
/// then, bounds...)` and `read(reader, then, bounds...)`, the values passed
/// by value or by reference.
pub struct RelativeCoding {
    pub write: TokenStream,
    pub read: TokenStream,
    /// Whether `now` and `then` are passed as references (vectors and
    /// quaternions) rather than values (scalars).
    pub by_reference: bool,
    pub bounds: Vec<TokenStream>,
    /// What the compiler must check of the bounds, if anything (a range
    /// must lie within i64, which steps are coded in): a runtime `problem`
    /// call, and what it returns.
    pub problem: Option<(TokenStream, Problem)>,
}

/// The codec of `encoding`: the one place that tells the families apart.
pub fn codec<'e>(encoding: &'e Encoding<'_>) -> &'e dyn Codec {
    match encoding {
        Encoding::Bool(bool) => bool,
        Encoding::Int(int) => int,
        Encoding::Float(float) => float,
        Encoding::Text(text) => text,
        Encoding::Vec(vec) => vec,
        Encoding::Option(option) => option,
        Encoding::Boxed(boxed) => boxed,
        Encoding::Array(array) => array,
        Encoding::Tuple(tuple) => tuple,
        Encoding::Nested(nested) => nested,
        Encoding::Adaptive(adaptive) => adaptive,
        Encoding::Keyed(keyed) => keyed,
        Encoding::Vector(vector) => vector,
        Encoding::Rotation(rotation) => rotation,
        Encoding::With(with) => with,
        Encoding::Collection(collection) => collection,
        Encoding::Columns(columns) => columns,
    }
}
