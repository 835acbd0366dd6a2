//! Adaptive integers (`#[bitpack(adaptive)]`) and fixed-point floats
//! (`#[quantize(res = C)]` alone): planning and code generation, hooked
//! into `valid` and `expand` at a few points.
//!
//! - On a field, `adaptive` reaches every integer inside it (through
//!   `Option`, `Box`, tuples, arrays and `Vec`); an array or `Vec` of
//!   integers is one shared-length group; a nested type shares the parent's
//!   sign bit (it must implement `SignScope`, as derived adaptive types do).
//! - On the type, it applies to every integer of every field without
//!   `#[bits]` or `#[quantize]`; nested types keep their own encoding.
//! - `adaptive(group = name)` on fields makes them one shared-length group
//!   (they must be plain integers of one type, two or more, in one struct or
//!   variant); `adaptive(group)` on a struct groups every plain integer
//!   field that takes the type's `adaptive`. The group is written where its
//!   first field is, exactly as an array of its values would be; its other
//!   fields write nothing where they stand, so they need not be adjacent.
//! - A type holding any of these implements `SignScope`, and its `BitPack`
//!   writes the sign bit (only if it holds signed adaptive values, nested
//!   ones included) and then its fields under that one mode.

use crate::ast::{self, FieldList, Style};
use crate::attr::{ContainerAttrs, FieldAttrs, FixedPoint, Literal};
use crate::expand::{Access, Parts};
use crate::plan::{self, Body, Check, Encoding, Fields};
use crate::ty::{IntTy, Shape, shape};
use crate::valid::{Planner, Reach, Used, name};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{
    Expr, ExprLit, ExprUnary, Ident, ImplGenerics, Lit, Member, Type, TypeGenerics, UnOp, WhereClause,
};

/// An adaptive value on the wire, under the message's `Signs`.
pub enum Adaptive<'a> {
    /// One integer.
    Int(IntTy),
    /// An array of integers: one shared-length group of `len`.
    Group { ty: IntTy, len: &'a Expr },
    /// A `Vec` of integers: its length, then one group.
    Vec { ty: IntTy, max_len: Ident },
    /// A float as `round(x / res)`, an adaptive `i64`.
    Fixed { float_bits: u32, res: Ident },
    /// A nested `SignScope` type, without a sign bit of its own.
    Scoped(&'a Type),
    /// The first field of a field group: the values of all its fields, in
    /// field order, as one shared-length group (the wire of an array).
    FieldGroup { ty: IntTy, members: Vec<GroupMember> },
    /// A later field of a field group: written and read with its first field.
    GroupFollower(IntTy),
}

/// A field of a field group.
pub struct GroupMember {
    pub member: Member,
    /// Its position among the fields (its `__field{n}` local).
    pub position: usize,
}

/// How `adaptive` reached a field.
#[derive(Clone, Copy)]
pub enum Mode<'a> {
    /// `#[bitpack(adaptive)]` on the field: every value inside must take it.
    Explicit(&'a Ident),
    /// `#[bitpack(adaptive)]` on the type: integers take it, the rest ignore it.
    Implicit,
}

/// `#[bitpack(adaptive)]` on the type, and whether any integer took it.
pub struct State<'a> {
    default: Option<&'a Ident>,
    reached: bool,
    /// The `group` of `adaptive(group)` on a struct.
    group: Option<&'a Ident>,
}

impl<'a> State<'a> {
    pub fn new(attrs: &'a ContainerAttrs) -> Self {
        State { default: attrs.adaptive.as_ref(), reached: false, group: attrs.adaptive_group.as_ref() }
    }
}

/// Refuses `adaptive(group)` on an enum: which variant's fields would it group?
pub fn check_type_group(planner: &mut Planner<'_>, body: &ast::Body<'_>) {
    if let (Some(group), ast::Body::Enum(_) | ast::Body::Union(_)) = (planner.adaptive.group, body) {
        planner.errors.at(
            group.span(),
            "`adaptive(group)` on an enum: mark each variant's fields with adaptive(group = name) instead",
        );
        planner.adaptive.group = None;
    }
}

/// Sets how `adaptive` and fixed point reach a field, reporting the
/// attributes they cannot go with.
pub fn reach<'a>(planner: &mut Planner<'a>, attrs: &'a FieldAttrs, reach: &mut Reach<'a>) {
    if let Some(adaptive) = &attrs.adaptive {
        let span = adaptive.span();
        if reach.bits.is_some() {
            planner.errors.at(
                span,
                "`adaptive` and #[bits] on one field: a ranged integer already has its size; keep one",
            );
            reach.bits = None;
        } else if attrs.quantize.is_some() {
            planner.errors.at(span, "`adaptive` and #[quantize] on one field; keep one");
            reach.quantize = None;
        } else if attrs.fixed.is_some() {
            planner.errors.at(
                span,
                "#[quantize(res)] without `min`/`max` is already adaptive (fixed point); remove `adaptive`",
            );
        } else {
            reach.adaptive = Some(Mode::Explicit(adaptive));
        }
    } else if planner.adaptive.default.is_some()
        && attrs.bits.is_none()
        && attrs.quantize.is_none()
        && attrs.fixed.is_none()
    {
        reach.adaptive = Some(Mode::Implicit);
    }
    if let Some(fixed) = &attrs.fixed {
        if reach.bits.is_some() {
            planner.errors.at(fixed.name.span(), "#[bits] and #[quantize] on one field; keep one");
            reach.bits = None;
        } else {
            reach.fixed = Some(fixed);
        }
    }
}

/// Reports a field `adaptive` or fixed point reached no value of.
pub fn check_used(planner: &mut Planner<'_>, reach: Reach<'_>, used: &Used) {
    if let (Some(Mode::Explicit(adaptive)), false) = (reach.adaptive, used.adaptive) {
        planner.errors.at(
            adaptive.span(),
            "`adaptive` needs an integer field (or a nested type with adaptive fields); remove it",
        );
    }
    if let (Some(fixed), false) = (reach.fixed, used.fixed) {
        planner.errors.at(fixed.name.span(), "#[quantize(res)] needs an `f32` or `f64` field; remove it");
    }
}

/// One group of fields, as written: where its name (or the type's `group`)
/// was written, and the positions of its fields.
struct Marked<'a> {
    name: &'a Ident,
    /// Named on the fields (`adaptive(group = name)`), not by the type.
    named: bool,
    positions: Vec<usize>,
}

/// Makes each field group of `list` one shared-length group written at its
/// first field, after checking it: two or more fields, plain integers of one
/// type, and no change groups in the type.
pub fn group_fields<'a>(planner: &mut Planner<'a>, list: &'a FieldList<'a>, fields: &mut [plan::Field<'a>]) {
    let mut groups: Vec<Marked<'a>> = Vec::new();
    for (position, field) in list.fields.iter().enumerate() {
        let Some(name) = &field.attrs.adaptive_group else { continue };
        match groups.iter_mut().find(|group| group.name == name) {
            Some(group) => group.positions.push(position),
            None => groups.push(Marked { name, named: true, positions: vec![position] }),
        }
    }
    if let Some(group) = planner.adaptive.group {
        // The integers the type's `adaptive` reached (no attribute of their own).
        let positions = list
            .fields
            .iter()
            .zip(fields.iter())
            .enumerate()
            .filter(|(_, (field, planned))| {
                field.attrs.adaptive.is_none()
                    && matches!(planned.encoding, Some(Encoding::Adaptive(Adaptive::Int(_))))
            })
            .map(|(position, _)| position)
            .collect::<Vec<_>>();
        if positions.len() == 1 || (positions.is_empty() && planner.adaptive.reached) {
            planner.errors.at(
                group.span(),
                format!(
                    "`adaptive(group)` found {} plain integer field{} to group; a group needs two or more \
                     (or remove `group`)",
                    positions.len(),
                    if positions.len() == 1 { "" } else { "s" }
                ),
            );
        } else if !positions.is_empty() {
            groups.push(Marked { name: group, named: false, positions });
        }
    }
    let change_groups = list.fields.iter().any(|field| field.attrs.change_group.is_some());
    for group in groups {
        if group.positions.len() < 2 {
            planner.errors.at(
                group.name.span(),
                format!(
                    "group `{}` has one field; a group shares one length among two or more fields \
                     (for one field write `adaptive`)",
                    group.name
                ),
            );
        } else if change_groups {
            planner.errors.at(
                group.name.span(),
                "adaptive field groups and #[change_group] fields in one type are not supported yet; \
                 use an array field instead",
            );
        } else if let Some(ty) = group_type(planner, list, fields, &group) {
            let members = group
                .positions
                .iter()
                .map(|&position| GroupMember { member: fields[position].member.clone(), position })
                .collect();
            let (first, rest) = group.positions.split_at(1);
            fields[first[0]].encoding = Some(Encoding::Adaptive(Adaptive::FieldGroup { ty, members }));
            for &position in rest {
                fields[position].encoding = Some(Encoding::Adaptive(Adaptive::GroupFollower(ty)));
            }
        }
    }
}

/// The one integer type of a group's fields, or `None` after reporting
/// the fields that break it (fields already reported stay silent).
fn group_type(
    planner: &mut Planner<'_>,
    list: &FieldList<'_>,
    fields: &[plan::Field<'_>],
    group: &Marked<'_>,
) -> Option<IntTy> {
    let mut first: Option<(IntTy, &Member)> = None;
    let mut valid = true;
    for &position in &group.positions {
        let field = &list.fields[position];
        match &fields[position].encoding {
            Some(Encoding::Adaptive(Adaptive::Int(ty))) => match first {
                None => first = Some((*ty, &field.member)),
                Some((first_ty, _)) if first_ty == *ty => {}
                Some((first_ty, first_member)) => {
                    valid = false;
                    let (member, first_member) = (member_name(&field.member), member_name(first_member));
                    let message = if group.named {
                        format!(
                            "`{member}` is `{}` but group `{}` is `{}` (from `{first_member}`); \
                             the fields of one group share one integer type",
                            ty.name(),
                            group.name,
                            first_ty.name()
                        )
                    } else {
                        format!(
                            "`adaptive(group)` puts every integer field in one group, and `{member}` is `{}` \
                             but `{first_member}` is `{}`; give them one type or name groups on the \
                             fields with adaptive(group = name)",
                            ty.name(),
                            first_ty.name()
                        )
                    };
                    planner.errors.spanned(field.ty, message);
                }
            },
            Some(encoding) if contains_adaptive(encoding) => {
                valid = false;
                planner.errors.spanned(
                    field.ty,
                    format!(
                        "a field of group `{}` must be a plain integer (u8..u128, i8..i128), not `{}`; \
                         an array or `Vec` is a group of its own",
                        group.name,
                        name(field.ty)
                    ),
                );
            }
            // Already reported (a float, a `String`, `#[bits]` with `adaptive`...).
            _ => valid = false,
        }
    }
    first.filter(|_| valid).map(|(ty, _)| ty)
}

fn member_name(member: &Member) -> String {
    match member {
        Member::Named(ident) => ident.to_string(),
        Member::Unnamed(index) => index.index.to_string(),
    }
}

/// The pattern a field's read binds: its own local; for the first field of
/// a field group, the locals of all the group's fields (the group reads as
/// an array); for its later fields, nothing (they were read with the first).
pub fn read_pattern(
    encoding: Option<&Encoding<'_>>,
    position: usize,
    local: impl Fn(usize) -> Ident,
) -> Option<TokenStream> {
    match encoding {
        Some(Encoding::Adaptive(Adaptive::FieldGroup { members, .. })) => {
            let locals = members.iter().map(|member| local(member.position));
            Some(quote!([#(#locals),*]))
        }
        Some(Encoding::Adaptive(Adaptive::GroupFollower(_))) => None,
        _ => Some(local(position).into_token_stream()),
    }
}

/// Whether an encoding puts anything of its own on the wire (a field
/// group's later fields do not: their first field writes them all).
pub fn on_wire(encoding: &Encoding<'_>) -> bool {
    !matches!(encoding, Encoding::Adaptive(Adaptive::GroupFollower(_)))
}

/// Reports `#[bitpack(adaptive)]` on a type whose fields hold no integer it could take.
pub fn check_type_reached(planner: &mut Planner<'_>) {
    if let (Some(adaptive), false) = (planner.adaptive.default, planner.adaptive.reached) {
        planner.errors.at(
            adaptive.span(),
            "`adaptive` on the type reaches no integer field without #[bits]; remove it",
        );
    }
}

/// The adaptive encoding of a value of type `ty`, or `None` to let the
/// ordinary planner encode it (containers pass the reach on to their values).
pub fn encode<'a>(
    planner: &mut Planner<'a>,
    ty: &'a Type,
    shape: &Shape<'a>,
    reach: Reach<'a>,
    used: &mut Used,
) -> Option<Encoding<'a>> {
    if let Some(fixed) = reach.fixed {
        let float_bits = match shape {
            Shape::F32 => 32,
            Shape::F64 => 64,
            Shape::Int(_) | Shape::Bool | Shape::String | Shape::Nested => {
                used.fixed = true;
                planner.errors.at(
                    fixed.name.span(),
                    format!(
                        "#[quantize(res)] (fixed point) needs an `f32` or `f64` field, not `{}`; remove it",
                        name(ty)
                    ),
                );
                return None;
            }
            _ => return None,
        };
        used.fixed = true;
        let res = fixed_res(planner, fixed);
        return Some(Encoding::Adaptive(Adaptive::Fixed { float_bits, res }));
    }
    let mode = reach.adaptive?;
    let adaptive = match shape {
        Shape::Int(int) => Adaptive::Int(*int),
        Shape::Array(element, len) => match shape_int(element) {
            Some(int) => Adaptive::Group { ty: int, len },
            None => return None,
        },
        Shape::Vec(element) => match (shape_int(element), reach.max_len) {
            (Some(int), Some(max_len)) => {
                used.max_len = true;
                Adaptive::Vec { ty: int, max_len: planner.length(max_len, "max_len") }
            }
            // The ordinary planner reports a missing `max_len`.
            _ => return None,
        },
        Shape::Nested => match mode {
            Mode::Explicit(_) => Adaptive::Scoped(ty),
            Mode::Implicit => return None,
        },
        Shape::Bool | Shape::String | Shape::F32 | Shape::F64 => {
            if let Mode::Explicit(adaptive) = mode {
                used.adaptive = true;
                let hint = match shape {
                    Shape::F32 | Shape::F64 => "; for fixed point write #[quantize(res = 0.001)] instead",
                    _ => "; remove it",
                };
                planner.errors.at(
                    adaptive.span(),
                    format!("`adaptive` needs an integer field, not `{}`{hint}", name(ty)),
                );
            }
            return None;
        }
        _ => return None,
    };
    match mode {
        Mode::Explicit(_) => used.adaptive = true,
        Mode::Implicit => planner.adaptive.reached = true,
    }
    Some(Encoding::Adaptive(adaptive))
}

fn shape_int(ty: &Type) -> Option<IntTy> {
    match shape(ty) {
        Shape::Int(int) => Some(int),
        _ => None,
    }
}

/// The constant holding a fixed-point `res`, checked: here for a literal,
/// at compile time for a path to a constant.
fn fixed_res<'a>(planner: &mut Planner<'a>, fixed: &'a FixedPoint) -> Ident {
    let res = planner.constant(quote!(f64), &fixed.res, "RES");
    match literal_f64(&fixed.res.expr) {
        Some(value) if value.is_finite() && value > 0.0 => {}
        Some(value) => planner.errors.spanned(
            &fixed.res.expr,
            format!("`res` ({value}) must be a finite number above 0, as in res = 0.001"),
        ),
        None if fixed.res.literal == Literal::Opaque => {
            planner.checks.push(Check::Fixed { res: res.clone(), span: fixed.name.span() })
        }
        None => planner.errors.spanned(&fixed.res.expr, "`res` must be a number, as in res = 0.001"),
    }
    res
}

/// A literal number as an `f64` (`None` if not a literal, or not a number).
fn literal_f64(expr: &Expr) -> Option<f64> {
    match expr {
        Expr::Lit(ExprLit { lit: Lit::Float(float), .. }) => float.base10_parse().ok(),
        Expr::Lit(ExprLit { lit: Lit::Int(int), .. }) => int.base10_parse::<u64>().ok().map(|v| v as f64),
        Expr::Unary(ExprUnary { op: UnOp::Neg(_), expr, .. }) => literal_f64(expr).map(|value| -value),
        Expr::Group(group) => literal_f64(&group.expr),
        Expr::Paren(paren) => literal_f64(&paren.expr),
        _ => None,
    }
}

// ---- Code generation -------------------------------------------------------

fn int_ty(int: IntTy) -> Ident {
    Ident::new(int.name(), Span::call_site())
}

fn signed(int: IntTy) -> bool {
    int.name().starts_with('i')
}

/// Writes one adaptive value (`__signs` is the message's mode).
pub fn write(p: &TokenStream, adaptive: &Adaptive<'_>, access: &Access) -> TokenStream {
    let a = quote!(#p::adaptive);
    match adaptive {
        Adaptive::Int(int) => {
            let (ty, value) = (int_ty(*int), access.value());
            quote!(#a::write_adaptive::<#ty, __W>(__writer, #value, __signs)?;)
        }
        Adaptive::Group { ty, .. } => {
            let (ty, reference) = (int_ty(*ty), access.reference());
            quote!(#a::write_adaptive_group::<#ty, __W>(__writer, #reference, __signs)?;)
        }
        Adaptive::Vec { ty, max_len } => {
            let (ty, reference) = (int_ty(*ty), access.reference());
            quote!(#a::write_adaptive_vec::<#ty, __W>(__writer, #reference, #max_len, __signs)?;)
        }
        Adaptive::Fixed { float_bits, res } => {
            let value = access.value();
            let function = if *float_bits == 32 { quote!(write_fixed_f32) } else { quote!(write_fixed) };
            quote!(#a::#function(__writer, #value, #res, __signs)?;)
        }
        Adaptive::Scoped(ty) => {
            let reference = access.reference();
            quote_spanned!(ty.span()=> <#ty as #a::SignScope>::write_scoped(#reference, __writer, __signs)?;)
        }
        Adaptive::FieldGroup { ty, members } => {
            // A field group is only ever a whole field: a struct's `self.member`
            // (`Place`) or a variant's `__field{n}` binding (`Ref`).
            let values = members.iter().map(|GroupMember { member, position }| match access {
                Access::Place(_) => quote!(self.#member),
                Access::Ref(_) => {
                    let local = crate::expand::binding(*position);
                    quote!(*#local)
                }
            });
            let ty = int_ty(*ty);
            quote!(#a::write_adaptive_group::<#ty, __W>(__writer, &[#(#values),*], __signs)?;)
        }
        Adaptive::GroupFollower(_) => TokenStream::new(),
    }
}

/// Reads one adaptive value: an expression (`?` on errors).
pub fn read(p: &TokenStream, adaptive: &Adaptive<'_>) -> TokenStream {
    let a = quote!(#p::adaptive);
    match adaptive {
        Adaptive::Int(int) => {
            let ty = int_ty(*int);
            quote!(#a::read_adaptive::<#ty>(__reader, __signs)?)
        }
        Adaptive::Group { ty, len } => read_group(&a, *ty, len.to_token_stream()),
        Adaptive::FieldGroup { ty, members } => read_group(&a, *ty, group_len(members)),
        Adaptive::Vec { ty, max_len } => {
            let ty = int_ty(*ty);
            quote!(#a::read_adaptive_vec::<#ty>(__reader, #max_len, __signs)?)
        }
        Adaptive::Fixed { float_bits, res } => {
            let function = if *float_bits == 32 { quote!(read_fixed_f32) } else { quote!(read_fixed) };
            quote!(#a::#function(__reader, #res, __signs)?)
        }
        Adaptive::Scoped(ty) => {
            quote_spanned!(ty.span()=> <#ty as #a::SignScope>::read_scoped(__reader, __signs)?)
        }
        // Never read on its own: `read_pattern` binds it with the first field.
        Adaptive::GroupFollower(_) => TokenStream::new(),
    }
}

/// Reads a group of `len` values of `ty` into an array.
fn read_group(a: &TokenStream, ty: IntTy, len: TokenStream) -> TokenStream {
    let ty = int_ty(ty);
    quote! {{
        let mut __group = [<#ty as #a::AdaptiveInt>::ZERO; #len];
        #a::read_adaptive_group::<#ty>(__reader, &mut __group, __signs)?;
        __group
    }}
}

/// A field group's size, as a `usize` literal.
fn group_len(members: &[GroupMember]) -> TokenStream {
    proc_macro2::Literal::usize_unsuffixed(members.len()).into_token_stream()
}

/// The most bits the value takes (`const`).
pub fn max_bits(p: &TokenStream, adaptive: &Adaptive<'_>) -> TokenStream {
    let a = quote!(#p::adaptive);
    match adaptive {
        Adaptive::Int(int) => {
            let ty = int_ty(*int);
            quote!(#a::int_max_bits::<#ty>())
        }
        Adaptive::Group { ty, len } => {
            let ty = int_ty(*ty);
            quote!(#a::adaptive_group_max_bits::<#ty>(#len))
        }
        Adaptive::FieldGroup { ty, members } => {
            let (ty, len) = (int_ty(*ty), group_len(members));
            quote!(#a::adaptive_group_max_bits::<#ty>(#len))
        }
        Adaptive::GroupFollower(_) => quote!(0),
        Adaptive::Vec { ty, max_len } => {
            let ty = int_ty(*ty);
            quote!(#a::adaptive_vec_max_bits::<#ty>(#max_len))
        }
        Adaptive::Fixed { .. } => quote!(#a::FIXED_MAX_BITS),
        Adaptive::Scoped(ty) => quote_spanned! {ty.span()=>
            #a::scoped_bits(<#ty as #p::BitPack>::MAX_BITS, <#ty as #a::SignScope>::HAS_SIGNED)
        },
    }
}

/// The fewest bits the value takes (`const`).
pub fn min_bits(p: &TokenStream, adaptive: &Adaptive<'_>) -> TokenStream {
    let a = quote!(#p::adaptive);
    match adaptive {
        Adaptive::Int(int) => {
            let ty = int_ty(*int);
            quote!(#a::int_min_bits::<#ty>())
        }
        Adaptive::Group { ty, len } => {
            let ty = int_ty(*ty);
            quote!(#a::group_min_bits::<#ty>(#len))
        }
        Adaptive::FieldGroup { ty, members } => {
            let (ty, len) = (int_ty(*ty), group_len(members));
            quote!(#a::group_min_bits::<#ty>(#len))
        }
        Adaptive::GroupFollower(_) => quote!(0),
        Adaptive::Vec { max_len, .. } => quote!(#a::vec_min_bits(#max_len)),
        Adaptive::Fixed { .. } => quote!(#a::FIXED_MIN_BITS),
        Adaptive::Scoped(ty) => quote_spanned! {ty.span()=>
            #a::scoped_bits(<#ty as #p::BitPack>::MIN_BITS, <#ty as #a::SignScope>::HAS_SIGNED)
        },
    }
}

/// The value's fingerprint (`const`).
pub fn schema(p: &TokenStream, adaptive: &Adaptive<'_>) -> TokenStream {
    let a = quote!(#p::adaptive);
    match adaptive {
        Adaptive::Int(int) => {
            let ty = int_ty(*int);
            quote!(#a::int_schema::<#ty>())
        }
        Adaptive::Group { ty, len } => {
            let ty = int_ty(*ty);
            quote!(#a::group_schema::<#ty>(#len))
        }
        // The wire of an array of the group's values, so the same fingerprint
        // (a later field adds no part: see `on_wire`).
        Adaptive::FieldGroup { ty, members } => {
            let (ty, len) = (int_ty(*ty), group_len(members));
            quote!(#a::group_schema::<#ty>(#len))
        }
        Adaptive::GroupFollower(_) => quote!(0),
        Adaptive::Vec { ty, max_len } => {
            let ty = int_ty(*ty);
            quote!(#a::vec_schema::<#ty>(#max_len))
        }
        Adaptive::Fixed { float_bits, res } => quote!(#a::fixed_schema(#res, #float_bits)),
        Adaptive::Scoped(ty) => quote_spanned!(ty.span()=> #a::scoped_schema(<#ty as #p::BitPack>::SCHEMA)),
    }
}

/// The compile-time check of a fixed-point `res` given as a path.
pub fn check(p: &TokenStream, res: &Ident, span: Span) -> TokenStream {
    quote_spanned! {span=>
        const _: () = if let #p::Some(__problem) = #p::adaptive::fixed_problem(#res) {
            ::core::panic!("{}", __problem)
        };
    }
}

/// What makes a type with adaptive values a `SignScope`.
pub struct Scope {
    /// `const` bool: whether the type holds signed adaptive values.
    has_signed: TokenStream,
    /// The body of `any_negative(&self) -> bool`.
    any_negative: TokenStream,
    write_body: TokenStream,
    read_body: TokenStream,
}

impl Scope {
    /// The scope of a type, if any of its values is adaptive.
    pub fn of(p: &TokenStream, body: &Body<'_>) -> Option<Self> {
        let a = quote!(#p::adaptive);
        let mut has_signed = Vec::new();
        let any_negative = match body {
            Body::Struct(fields) => {
                if !fields_adaptive(fields) {
                    return None;
                }
                let terms = fields.fields.iter().filter_map(|field| {
                    let encoding = field.encoding.as_ref()?;
                    let member = &field.member;
                    signed_terms(p, encoding, &mut has_signed);
                    negative(p, encoding, &Access::Place(quote!(self.#member)), 0)
                });
                or(terms.collect())
            }
            Body::Enum(variants) => {
                if !variants.iter().any(|variant| fields_adaptive(&variant.fields)) {
                    return None;
                }
                let arms = variants.iter().map(|variant| {
                    let ident = variant.ident;
                    let mut terms = Vec::new();
                    let bindings: Vec<_> = variant
                        .fields
                        .fields
                        .iter()
                        .enumerate()
                        .map(|(position, field)| {
                            let Some(encoding) = &field.encoding else { return quote!(_) };
                            signed_terms(p, encoding, &mut has_signed);
                            let local = format_ident!("__field{}", position);
                            match negative(p, encoding, &Access::Ref(local.to_token_stream()), 0) {
                                Some(term) => {
                                    terms.push(term);
                                    local.into_token_stream()
                                }
                                None => quote!(_),
                            }
                        })
                        .collect();
                    let members = variant.fields.fields.iter().map(|field| &field.member);
                    let pattern = match variant.fields.style {
                        Style::Named => quote!({ #(#members: #bindings),* }),
                        Style::Tuple => quote!(( #(#bindings),* )),
                        Style::Unit => quote!(),
                    };
                    let term = or(terms);
                    quote!(Self::#ident #pattern => #term,)
                });
                quote!(match self { #(#arms)* })
            }
        };
        Some(Scope {
            has_signed: quote!(#a::any(&[#(#has_signed),*])),
            any_negative,
            write_body: TokenStream::new(),
            read_body: TokenStream::new(),
        })
    }

    /// Turns the type's parts into those of a message: the sign bit counts
    /// in its sizes and fingerprint, and `write_to`/`read_from` go through
    /// `write_scope`/`read_scope` (the field code moves to `SignScope`).
    pub fn wrap(mut self, p: &TokenStream, parts: &mut Parts) -> Self {
        let a = quote!(#p::adaptive);
        let has_signed = &self.has_signed;
        let (max_bits, min_bits, schema, write_body, read_body) = parts;
        *max_bits = quote!(#p::sum(&[#a::sign_bits(#has_signed), #max_bits]));
        *min_bits = quote!(#p::sum(&[#a::sign_bits(#has_signed), #min_bits]));
        *schema = quote!(#a::scope_schema(#has_signed, #schema));
        self.write_body = std::mem::replace(write_body, quote!(#a::write_scope(self, __writer)));
        self.read_body = std::mem::replace(read_body, quote!(#a::read_scope(__reader)));
        self
    }

    /// `impl SignScope for Type`.
    pub fn expand(
        &self,
        p: &TokenStream,
        name: &Ident,
        generics: (&ImplGenerics<'_>, &TypeGenerics<'_>, Option<&WhereClause>),
    ) -> TokenStream {
        let a = quote!(#p::adaptive);
        let (impl_generics, ty_generics, where_clause) = generics;
        let Scope { has_signed, any_negative, write_body, read_body } = self;
        quote! {
            #[automatically_derived]
            impl #impl_generics #a::SignScope for #name #ty_generics #where_clause {
                const HAS_SIGNED: bool = #has_signed;

                #[inline]
                fn any_negative(&self) -> bool {
                    #any_negative
                }

                #[inline]
                fn write_scoped<__W: #p::BitWrite>(
                    &self,
                    __writer: &mut __W,
                    __signs: #a::Signs,
                ) -> #p::Result<(), #p::Error> {
                    #write_body
                }

                #[inline]
                fn read_scoped(
                    __reader: &mut #p::BitReader<'_>,
                    __signs: #a::Signs,
                ) -> #p::Result<Self, #p::Error> {
                    #read_body
                }
            }
        }
    }
}

/// Adds `Type: SignScope` for each nested scoped type that names a type
/// parameter (concrete ones are checked where they are used).
pub fn bound_scoped(p: &TokenStream, body: &Body<'_>, params: &[Ident], where_clause: &mut WhereClause) {
    fn scoped<'e, 'a>(encoding: &'e Encoding<'a>, found: &mut Vec<&'e Type>) {
        match encoding {
            Encoding::Adaptive(Adaptive::Scoped(ty)) => found.push(ty),
            Encoding::Vec { element, .. }
            | Encoding::Option(element)
            | Encoding::Boxed(element)
            | Encoding::Array { element, .. } => scoped(element, found),
            Encoding::Tuple(elements) => elements.iter().for_each(|element| scoped(element, found)),
            _ => {}
        }
    }
    let fields: Vec<&Fields<'_>> = match body {
        Body::Struct(fields) => vec![fields],
        Body::Enum(variants) => variants.iter().map(|variant| &variant.fields).collect(),
    };
    let mut found = Vec::new();
    for encoding in fields.iter().flat_map(|fields| fields.fields.iter()).filter_map(|f| f.encoding.as_ref())
    {
        scoped(encoding, &mut found);
    }
    for ty in found {
        if names_any(ty.to_token_stream(), params) {
            where_clause.predicates.push(syn::parse_quote!(#ty: #p::adaptive::SignScope));
        }
    }
}

fn names_any(tokens: TokenStream, params: &[Ident]) -> bool {
    tokens.into_iter().any(|token| match token {
        proc_macro2::TokenTree::Ident(ident) => params.contains(&ident),
        proc_macro2::TokenTree::Group(group) => names_any(group.stream(), params),
        _ => false,
    })
}

fn fields_adaptive(fields: &Fields<'_>) -> bool {
    fields.fields.iter().filter_map(|field| field.encoding.as_ref()).any(contains_adaptive)
}

pub(crate) fn contains_adaptive(encoding: &Encoding<'_>) -> bool {
    match encoding {
        Encoding::Adaptive(_) => true,
        Encoding::Vec { element, .. }
        | Encoding::Option(element)
        | Encoding::Boxed(element)
        | Encoding::Array { element, .. } => contains_adaptive(element),
        Encoding::Tuple(elements) => elements.iter().any(contains_adaptive),
        _ => false,
    }
}

/// `const` bool terms, one per adaptive leaf that may be signed.
fn signed_terms(p: &TokenStream, encoding: &Encoding<'_>, terms: &mut Vec<TokenStream>) {
    let a = quote!(#p::adaptive);
    match encoding {
        Encoding::Adaptive(adaptive) => match adaptive {
            Adaptive::Int(ty)
            | Adaptive::Group { ty, .. }
            | Adaptive::Vec { ty, .. }
            | Adaptive::FieldGroup { ty, .. }
            | Adaptive::GroupFollower(ty) => {
                if signed(*ty) {
                    terms.push(quote!(true));
                }
            }
            Adaptive::Fixed { .. } => terms.push(quote!(true)),
            Adaptive::Scoped(ty) => {
                terms.push(quote_spanned!(ty.span()=> <#ty as #a::SignScope>::HAS_SIGNED))
            }
        },
        Encoding::Vec { element, .. }
        | Encoding::Option(element)
        | Encoding::Boxed(element)
        | Encoding::Array { element, .. } => signed_terms(p, element, terms),
        Encoding::Tuple(elements) => elements.iter().for_each(|element| signed_terms(p, element, terms)),
        _ => {}
    }
}

/// Whether the value at `access` holds a negative adaptive value, or
/// `None` when it cannot (no signed adaptive value inside).
fn negative(p: &TokenStream, encoding: &Encoding<'_>, access: &Access, depth: usize) -> Option<TokenStream> {
    let a = quote!(#p::adaptive);
    match encoding {
        Encoding::Adaptive(adaptive) => match adaptive {
            Adaptive::Int(int) | Adaptive::FieldGroup { ty: int, .. } | Adaptive::GroupFollower(int)
                if signed(*int) =>
            {
                let value = access.value();
                Some(quote!(#a::AdaptiveInt::is_negative(#value)))
            }
            Adaptive::Group { ty, .. } | Adaptive::Vec { ty, .. } if signed(*ty) => {
                let (ty, reference) = (int_ty(*ty), access.reference());
                Some(quote!(#a::any_negative::<#ty>(#reference)))
            }
            Adaptive::Fixed { float_bits, res } => {
                let value = access.value();
                Some(if *float_bits == 32 {
                    quote!(#a::fixed_is_negative_f32(#value, #res))
                } else {
                    quote!(#a::fixed_point_is_negative(#value, #res))
                })
            }
            Adaptive::Scoped(ty) => {
                let reference = access.reference();
                Some(quote_spanned!(ty.span()=> <#ty as #a::SignScope>::any_negative(#reference)))
            }
            _ => None,
        },
        Encoding::Vec { element, .. } | Encoding::Array { element, .. } => {
            let item = format_ident!("__element{}", depth);
            let inner = negative(p, element, &Access::Ref(item.to_token_stream()), depth + 1)?;
            let reference = access.reference();
            Some(quote!(#a::Iterator::any(&mut #a::IntoIterator::into_iter(#reference), |#item| #inner)))
        }
        Encoding::Option(inner) => {
            let item = format_ident!("__value{}", depth);
            let inner = negative(p, inner, &Access::Ref(item.to_token_stream()), depth + 1)?;
            let reference = access.reference();
            Some(quote!(match #reference { #p::Some(#item) => #inner, #p::None => false }))
        }
        Encoding::Boxed(inner) => negative(p, inner, &access.unboxed(), depth),
        Encoding::Tuple(elements) => {
            let terms: Vec<_> = elements
                .iter()
                .enumerate()
                .filter_map(|(index, element)| negative(p, element, &access.element(index), depth))
                .collect();
            (!terms.is_empty()).then(|| or(terms))
        }
        _ => None,
    }
}

/// `a || b || ...`, or `false` for none.
fn or(terms: Vec<TokenStream>) -> TokenStream {
    if terms.is_empty() { quote!(false) } else { quote!(#((#terms))||*) }
}
