//! Checks the parsed input and plans its wire layout. Every mistake is
//! recorded, at the narrowest span that names it, and all are returned
//! together: a user fixing one never meets a surprise second round.

use crate::adaptive;
use crate::ast::{self, Body, FieldList, Input};
use crate::attr::{Bits, FixedPoint, Int, Literal, Quantize, Setting, Value};
use crate::errors::Errors;
use crate::plan::{self, Check, Const, Encoding, Plan};
use crate::ty::{IntTy, Shape, shape};
use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote};
use syn::{Ident, Type};

/// The largest step count a compressed float allows: the largest f32 below 2^32.
const MAX_STEPS: f32 = 4_294_967_040.0;

/// Plans `input`, or returns every mistake in it (with those `errors`
/// already found while parsing).
pub fn plan<'a>(input: &'a Input<'a>, errors: Errors) -> Result<Plan<'a>, syn::Error> {
    let mut planner = Planner {
        errors,
        consts: Vec::new(),
        checks: Vec::new(),
        next_id: 0,
        adaptive: adaptive::State::new(&input.attrs),
    };
    adaptive::check_type_group(&mut planner, &input.body);
    let body = match &input.body {
        Body::Struct(fields) => Some(plan::Body::Struct(planner.fields(fields))),
        Body::Enum(variants) => Some(plan::Body::Enum(
            variants
                .iter()
                .map(|variant| plan::Variant {
                    ident: &variant.original.ident,
                    fields: planner.fields(&variant.fields),
                })
                .collect(),
        )),
        Body::Union(token) => {
            planner.errors.spanned(
                token,
                "unions are not supported: a reader cannot know which field was written; use an enum",
            );
            None
        }
    };
    adaptive::check_type_reached(&mut planner);
    let max_bytes = input.attrs.max_bytes.as_ref().map(|setting| {
        let name = planner.length(setting, "max_bytes");
        (name, setting.name.span())
    });
    let krate = match &input.attrs.krate {
        Some(setting) => setting.value.to_token_stream(),
        None => quote!(::bitpack),
    };
    let changes = crate::change::plan(input, body.as_ref(), &mut planner.errors);
    planner.errors.finish()?;
    let Some(body) = body else {
        // Unreachable: a union always records an error above.
        return Err(syn::Error::new_spanned(&input.original.ident, "cannot derive BitPack here"));
    };
    Ok(Plan {
        input: input.original,
        krate,
        max_bytes,
        body,
        consts: planner.consts,
        checks: planner.checks,
        changes,
    })
}

pub struct Planner<'a> {
    pub errors: Errors,
    consts: Vec<Const<'a>>,
    pub checks: Vec<Check>,
    next_id: usize,
    /// `#[bitpack(adaptive)]` on the type, and whether it reached a field.
    pub adaptive: adaptive::State<'a>,
}

/// Which of a field's attributes some value inside it took (or was
/// already reported against), so an attribute nothing took is reported.
#[derive(Default)]
pub struct Used {
    bits: bool,
    quantize: bool,
    pub max_len: bool,
    pub adaptive: bool,
    pub fixed: bool,
}

/// The attributes that reach every value inside a field.
#[derive(Clone, Copy)]
pub struct Reach<'a> {
    pub bits: Option<&'a Bits>,
    pub quantize: Option<&'a Quantize>,
    pub max_len: Option<&'a Setting<Value>>,
    pub adaptive: Option<adaptive::Mode<'a>>,
    pub fixed: Option<&'a FixedPoint>,
}

/// What the derive could learn of an integer attribute value.
enum Known {
    Literal(Int),
    Opaque,
    Mistaken,
}

impl<'a> Planner<'a> {
    fn fields(&mut self, list: &'a FieldList<'a>) -> plan::Fields<'a> {
        let mut fields: Vec<_> = list
            .fields
            .iter()
            .map(|field| plan::Field {
                member: field.member.clone(),
                ty: field.ty,
                encoding: self.field(field),
            })
            .collect();
        adaptive::group_fields(self, list, &mut fields);
        plan::Fields { style: list.style, fields }
    }

    fn field(&mut self, field: &'a ast::Field<'a>) -> Option<Encoding<'a>> {
        let attrs = &field.attrs;
        if let Some(skip) = &attrs.skip {
            let adaptive = attrs.adaptive.is_some() || attrs.fixed.is_some();
            if attrs.bits.is_some() || attrs.quantize.is_some() || attrs.max_len.is_some() || adaptive {
                self.errors
                    .at(skip.span(), "a skipped field is not written; remove `skip` or its other attributes");
            }
            return None;
        }
        let mut reach = Reach {
            bits: attrs.bits.as_ref(),
            quantize: attrs.quantize.as_ref(),
            max_len: attrs.max_len.as_ref(),
            adaptive: None,
            fixed: None,
        };
        if let (Some(_), Some(second)) = (reach.bits, reach.quantize) {
            // One mistake, one message: neither is checked against the type.
            self.errors.at(second.name.span(), "#[bits] and #[quantize] on one field; keep one");
            reach.bits = None;
            reach.quantize = None;
        }
        adaptive::reach(self, attrs, &mut reach);
        let mut used = Used::default();
        let encoding = self.encode(field.ty, reach, &mut used);
        adaptive::check_used(self, reach, &used);
        if let (Some(bits), false) = (reach.bits, used.bits) {
            self.errors
                .at(bits.name.span(), "#[bits] needs an integer field (u8..u128, i8..i128); remove it");
        }
        if let (Some(quantize), false) = (reach.quantize, used.quantize) {
            self.errors.at(quantize.name.span(), "#[quantize] needs an `f32` field; remove it");
        }
        if let (Some(max_len), false) = (reach.max_len, used.max_len) {
            self.errors.at(max_len.name.span(), "`max_len` needs a `String` or `Vec` field; remove it");
        }
        Some(encoding)
    }

    /// The encoding of a value of type `ty` under the field's attributes.
    fn encode(&mut self, ty: &'a Type, reach: Reach<'a>, used: &mut Used) -> Encoding<'a> {
        let shape = shape(ty);
        if let Some(encoding) = adaptive::encode(self, ty, &shape, reach, used) {
            return encoding;
        }
        if !matches!(shape, Shape::Int(_)) {
            self.bits_misplaced(ty, reach, used);
        }
        if !matches!(shape, Shape::F32 | Shape::F64) {
            self.quantize_misplaced(ty, &shape, reach, used);
        }
        match shape {
            Shape::Int(int) => match reach.bits {
                Some(bits) => {
                    used.bits = true;
                    self.ranged(int, bits)
                }
                None => {
                    if int.platform_sized() {
                        self.errors.spanned(
                            ty,
                            format!(
                                "`{}` has a width that depends on the target; add #[bits(min = .., max = ..)]",
                                int.name()
                            ),
                        );
                    }
                    Encoding::Nested(ty)
                }
            },
            Shape::F32 | Shape::F64 => match reach.quantize {
                Some(quantize) => {
                    used.quantize = true;
                    self.quantized(quantize, matches!(shape, Shape::F64))
                }
                None => Encoding::Nested(ty),
            },
            Shape::Bool | Shape::Nested => Encoding::Nested(ty),
            Shape::String => match reach.max_len {
                Some(max_len) => {
                    used.max_len = true;
                    Encoding::Str { max_len: self.length(max_len, "max_len") }
                }
                None => {
                    self.errors.spanned(ty, "`String` needs a maximum length: add #[bitpack(max_len = N)]");
                    Encoding::Nested(ty)
                }
            },
            Shape::Vec(element) => {
                let element = Box::new(self.encode(element, reach, used));
                match reach.max_len {
                    Some(max_len) => {
                        used.max_len = true;
                        Encoding::Vec { max_len: self.length(max_len, "max_len"), element }
                    }
                    None => {
                        self.errors.spanned(ty, "`Vec` needs a maximum length: add #[bitpack(max_len = N)]");
                        Encoding::Nested(ty)
                    }
                }
            }
            Shape::Option(inner) => Encoding::Option(Box::new(self.encode(inner, reach, used))),
            Shape::Box(inner) => Encoding::Boxed(Box::new(self.encode(inner, reach, used))),
            Shape::Array(element, len) => {
                Encoding::Array { len, element: Box::new(self.encode(element, reach, used)) }
            }
            Shape::Tuple(elements) => Encoding::Tuple(
                elements.into_iter().map(|element| self.encode(element, reach, used)).collect(),
            ),
            Shape::Unsupported(reason) => {
                self.errors.spanned(ty, reason);
                Encoding::Nested(ty)
            }
        }
    }

    /// `#[bits]` reaching a value that is not an integer (containers pass it on).
    fn bits_misplaced(&mut self, ty: &Type, reach: Reach<'a>, used: &mut Used) {
        let Some(bits) = reach.bits else { return };
        let message = match shape(ty) {
            Shape::F32 | Shape::F64 => {
                format!(
                    "#[bits] needs an integer field, not `{}`; use #[quantize(min, max, res)] for floats",
                    name(ty)
                )
            }
            Shape::Bool | Shape::String | Shape::Nested => format!(
                "#[bits] needs an integer type written out (u8..u128, i8..i128), not `{}`; remove it",
                name(ty)
            ),
            _ => return,
        };
        used.bits = true;
        self.errors.at(bits.name.span(), message);
    }

    /// `#[quantize]` reaching a value that is not an `f32` or `f64`.
    fn quantize_misplaced(&mut self, ty: &Type, shape: &Shape<'_>, reach: Reach<'a>, used: &mut Used) {
        let Some(quantize) = reach.quantize else { return };
        let message = match shape {
            Shape::Int(_) => {
                format!(
                    "#[quantize] needs an `f32` or `f64` field, not `{}`; use #[bits(min, max)] for integers",
                    name(ty)
                )
            }
            Shape::Bool | Shape::String | Shape::Nested => {
                format!("#[quantize] needs an `f32` or `f64` field, not `{}`; remove it", name(ty))
            }
            _ => return,
        };
        used.quantize = true;
        self.errors.at(quantize.name.span(), message);
    }

    fn ranged(&mut self, int: IntTy, bits: &'a Bits) -> Encoding<'a> {
        let min = self.int_value(int, &bits.min, "min");
        let max = self.int_value(int, &bits.max, "max");
        if let (Known::Literal(min), Known::Literal(max)) = (&min, &max)
            && max.less_than(*min)
        {
            self.errors
                .spanned(&bits.min.expr, format!("`min` ({min}) is greater than `max` ({max}); swap them"));
        }
        let ty = Ident::new(int.name(), proc_macro2::Span::call_site()).into_token_stream();
        let min_name = self.constant(ty.clone(), &bits.min, "MIN");
        let max_name = self.constant(ty, &bits.max, "MAX");
        if matches!(min, Known::Opaque) || matches!(max, Known::Opaque) {
            self.checks.push(Check::Range {
                ty: int,
                min: min_name.clone(),
                max: max_name.clone(),
                span: bits.name.span(),
            });
        }
        Encoding::Ranged { ty: int, min: min_name, max: max_name }
    }

    fn int_value(&mut self, int: IntTy, value: &Value, key: &str) -> Known {
        match value.literal {
            Literal::Int(literal) if int.holds(literal) => Known::Literal(literal),
            Literal::Int(literal) => {
                self.errors.spanned(
                    &value.expr,
                    format!(
                        "`{key}` = {literal} does not fit in `{}` ({}..={}); change it or widen the field type",
                        int.name(),
                        int.min(),
                        int.max()
                    ),
                );
                Known::Mistaken
            }
            Literal::Float(_) => {
                self.errors.spanned(&value.expr, format!("`{key}` must be an integer, as in {key} = 100"));
                Known::Mistaken
            }
            Literal::Opaque => Known::Opaque,
        }
    }

    /// `double`: an `f64` field, quantized in f64 (`write_compressed_double`).
    fn quantized(&mut self, quantize: &'a Quantize, double: bool) -> Encoding<'a> {
        let min = self.float_value(&quantize.min, "min");
        let max = self.float_value(&quantize.max, "max");
        let res = self.float_value(&quantize.res, "res");
        // Literals are read as f32 here: for an f64 field only the checks
        // that cannot be wrong in f32 run now, the rest at compile time.
        if let (Some(min), Some(max), false) = (min, max, double) {
            if min >= max {
                self.errors
                    .at(quantize.min.span(), format!("`min` ({min}) must be below `max` ({max}); swap them"));
            } else if !(max - min).is_finite() {
                self.errors.spanned(&quantize.max.expr, "`max - min` overflows f32; narrow the range");
            } else if let Some(res) = res
                && res > 0.0
                && (max - min) / res > MAX_STEPS
            {
                self.errors.spanned(
                    &quantize.res.expr,
                    "this `res` makes more than 2^32 steps over the range; raise `res` or narrow the range",
                );
            }
        }
        if let Some(res) = res
            && res <= 0.0
        {
            self.errors
                .spanned(&quantize.res.expr, format!("`res` ({res}) must be above 0, as in res = 0.01"));
        }
        let ty = if double { quote!(f64) } else { quote!(f32) };
        let min_name = self.constant(ty.clone(), &quantize.min, "MIN");
        let max_name = self.constant(ty.clone(), &quantize.max, "MAX");
        let res_name = self.constant(ty, &quantize.res, "RES");
        let values = [&quantize.min, &quantize.max, &quantize.res];
        if double || values.iter().any(|value| value.literal == Literal::Opaque) {
            self.checks.push(Check::Quantize {
                min: min_name.clone(),
                max: max_name.clone(),
                res: res_name.clone(),
                double,
                span: quantize.name.span(),
            });
        }
        Encoding::Quantized { min: min_name, max: max_name, res: res_name, double }
    }

    /// A literal float value (integer literals count), checked to be finite.
    fn float_value(&mut self, value: &Value, key: &str) -> Option<f32> {
        let Some(float) = value.as_f32() else {
            if let Literal::Float(None) = value.literal {
                self.errors.spanned(&value.expr, format!("`{key}` is not a number an f32 can hold"));
            }
            return None;
        };
        if !float.is_finite() {
            self.errors.spanned(&value.expr, format!("`{key}` must be a finite f32"));
            return None;
        }
        Some(float)
    }

    /// A `max_len` or `max_bytes`: a `usize`.
    pub fn length(&mut self, setting: &'a Setting<Value>, key: &str) -> Ident {
        let fits = match setting.value.literal {
            Literal::Int(literal) => !literal.negative && u64::try_from(literal.magnitude).is_ok(),
            Literal::Float(_) => false,
            Literal::Opaque => true,
        };
        if !fits {
            self.errors.at(
                setting.value.span(),
                format!("`{key}` must be a whole number (0 or more), as in {key} = 16"),
            );
        }
        self.constant(quote!(usize), &setting.value, "LEN")
    }

    pub fn constant(&mut self, ty: TokenStream, value: &'a Value, role: &str) -> Ident {
        let name = format_ident!("__BITPACK_{}_{}", self.next_id, role);
        self.next_id += 1;
        self.consts.push(Const { name: name.clone(), ty, value });
        name
    }
}

/// A type as the user wrote it, for messages.
pub fn name(ty: &Type) -> String {
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
