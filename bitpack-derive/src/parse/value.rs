//! Attribute values: the expression as written, and the number the derive
//! can read from it. The one place literals are parsed.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, ExprUnary, Lit, LitFloat, UnOp};

/// A number as written: a literal the derive checks itself, an array
/// literal of them (one per axis), or any other expression (a path to a
/// constant), checked by the compiler.
#[derive(Clone, Debug)]
pub struct Value {
    pub expr: Expr,
    pub literal: Literal,
}

/// What the derive knows of a value's number.
#[derive(Clone, Debug)]
pub enum Literal {
    Int(Int),
    Float(Float),
    /// An array literal, `[a, b, c]`: one value per axis.
    Array(Vec<Value>),
    /// Not a literal: left to the compiler.
    Opaque,
}

/// An integer literal of any width and sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Int {
    pub negative: bool,
    pub magnitude: u128,
}

/// A float literal, read in the float type a check needs (each read rounds
/// once, from the digits as written).
#[derive(Clone, Debug)]
pub struct Float {
    negative: bool,
    literal: LitFloat,
}

impl Int {
    pub fn new(negative: bool, magnitude: u128) -> Self {
        Int { negative: negative && magnitude != 0, magnitude }
    }

    pub fn less_than(self, other: Int) -> bool {
        match (self.negative, other.negative) {
            (true, false) => true,
            (false, true) => false,
            (false, false) => self.magnitude < other.magnitude,
            (true, true) => self.magnitude > other.magnitude,
        }
    }
}

impl std::fmt::Display for Int {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.negative {
            write!(f, "-")?;
        }
        write!(f, "{}", self.magnitude)
    }
}

impl Float {
    /// The f32 nearest to the literal (`None` if it does not parse).
    pub fn to_f32(&self) -> Option<f32> {
        let value = self.literal.base10_parse::<f32>().ok()?;
        Some(if self.negative { -value } else { value })
    }

    /// The f64 nearest to the literal (`None` if it does not parse).
    pub fn to_f64(&self) -> Option<f64> {
        let value = self.literal.base10_parse::<f64>().ok()?;
        Some(if self.negative { -value } else { value })
    }
}

impl Value {
    pub fn new(expr: Expr) -> Self {
        let literal = literal_of(&expr);
        Value { expr, literal }
    }

    pub fn span(&self) -> Span {
        self.expr.span()
    }

    /// Whether the derive cannot read the number (the compiler checks it).
    pub fn is_opaque(&self) -> bool {
        matches!(self.literal, Literal::Opaque)
    }

    /// The entries of an array literal (`[a, b, c]`), if it is one.
    pub fn entries(&self) -> Option<&[Value]> {
        match &self.literal {
            Literal::Array(entries) => Some(entries),
            _ => None,
        }
    }

    /// The value as an f32, if it is a literal number.
    pub fn as_f32(&self) -> Option<f32> {
        match &self.literal {
            Literal::Int(int) => {
                let magnitude = int.magnitude as f32;
                Some(if int.negative { -magnitude } else { magnitude })
            }
            Literal::Float(float) => float.to_f32(),
            Literal::Array(_) | Literal::Opaque => None,
        }
    }

    /// The value as an f64, if it is a literal number.
    pub fn as_f64(&self) -> Option<f64> {
        match &self.literal {
            Literal::Int(int) => {
                let magnitude = int.magnitude as f64;
                Some(if int.negative { -magnitude } else { magnitude })
            }
            Literal::Float(float) => float.to_f64(),
            Literal::Array(_) | Literal::Opaque => None,
        }
    }
}

fn literal_of(expr: &Expr) -> Literal {
    match expr {
        Expr::Lit(ExprLit { lit, .. }) => literal_number(lit, false),
        Expr::Unary(ExprUnary { op: UnOp::Neg(_), expr, .. }) => match &**expr {
            Expr::Lit(ExprLit { lit, .. }) => literal_number(lit, true),
            _ => Literal::Opaque,
        },
        Expr::Array(array) => Literal::Array(array.elems.iter().cloned().map(Value::new).collect()),
        Expr::Group(group) => literal_of(&group.expr),
        Expr::Paren(paren) => literal_of(&paren.expr),
        _ => Literal::Opaque,
    }
}

fn literal_number(lit: &Lit, negative: bool) -> Literal {
    match lit {
        Lit::Int(int) => match int.base10_parse::<u128>() {
            Ok(magnitude) => Literal::Int(Int::new(negative, magnitude)),
            Err(_) => Literal::Opaque,
        },
        Lit::Float(literal) => Literal::Float(Float { negative, literal: literal.clone() }),
        _ => Literal::Opaque,
    }
}
