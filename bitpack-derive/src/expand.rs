//! Turns a checked [`Plan`] into the `BitPack` impl. Nothing here can fail.
//!
//! The generated code names everything by full path through
//! `<crate>::__private` (or `::core`), uses `__`-prefixed locals, and sits in
//! `const _: () = { ... };`, so it means the same in any module, prelude or
//! not. Writes go to a generic `W: BitWrite`: one emitter serves the writer
//! and the measuring counter alike.

use crate::adaptive::{self, Scope};
use crate::ast::Style;
use crate::attr::Literal;
use crate::plan::{Body, Check, Const, Encoding, Field, Fields, Plan};
use proc_macro2::{Literal as LiteralToken, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{GenericParam, Generics, Ident, Index};

pub fn expand(plan: &Plan<'_>) -> TokenStream {
    let emitter = Emitter { runtime: runtime(&plan.krate) };
    let p = &emitter.runtime;
    let input = plan.input;
    let name = &input.ident;
    let consts = plan.consts.iter().map(constant);
    let checks = plan.checks.iter().map(|check| emitter.check(check));
    let mut parts = match &plan.body {
        Body::Struct(fields) => emitter.structure(fields),
        Body::Enum(variants) => emitter.enumeration(variants),
    };
    let scope = Scope::of(p, &plan.body).map(|scope| scope.wrap(p, &mut parts));
    let (max_bits, min_bits, schema, write_body, read_body) = parts;
    let uninhabited = matches!(&plan.body, Body::Enum(variants) if variants.is_empty());
    let write_body = if scope.is_none() && !uninhabited && !body_uses_adaptive(&plan.body) {
        reserved_write(p, write_body)
    } else {
        // Adaptive writes name the writer's type (`__W`): they take the
        // checked writer only. An enum without variants writes nothing.
        write_body
    };
    let (max_bits, force_check) = match &plan.max_bytes {
        Some((max_bytes, span)) => {
            let type_name = name.to_string();
            let max_bits = quote_spanned! {*span=>
                {
                    let __max_bits: usize = #max_bits;
                    if let #p::Some(__problem) = #p::max_bytes_problem(#type_name, __max_bits, #max_bytes) {
                        ::core::panic!("{}", __problem.as_str())
                    }
                    __max_bits
                }
            };
            // A generic type is checked where its MAX_BITS is used.
            let force = input
                .generics
                .params
                .is_empty()
                .then(|| quote_spanned!(*span=> const _: usize = <#name as #p::BitPack>::MAX_BITS;));
            (max_bits, force)
        }
        None => (max_bits, None),
    };
    let (mut generics, bounded) = bitpack_bounded(p, &input.generics);
    adaptive::bound_scoped(p, &plan.body, &bounded, generics.make_where_clause());
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let scope = scope.map(|scope| scope.expand(p, name, (&impl_generics, &ty_generics, where_clause)));
    let changes = plan.changes.as_ref().map(|changes| crate::change::expand(changes, plan, &emitter));
    // A struct that is one fused run is a few instructions: inline it
    // always (left to the compiler, a nested one was called out of line).
    let inline = match &plan.body {
        Body::Struct(fields) if crate::run::is_one_run(&fields.fields) => quote!(#[inline(always)]),
        _ => quote!(#[inline]),
    };
    quote! {
        const _: () = {
            #(#consts)*
            #(#checks)*
            #[automatically_derived]
            impl #impl_generics #p::BitPack for #name #ty_generics #where_clause {
                const MAX_BITS: usize = #max_bits;
                const MIN_BITS: usize = #min_bits;
                const SCHEMA: u64 = #schema;

                #inline
                fn write_to<__W: #p::BitWrite>(
                    &self,
                    __writer: &mut __W,
                ) -> #p::Result<(), #p::Error> {
                    #write_body
                }

                #inline
                fn read_from(__reader: &mut #p::BitReader<'_>) -> #p::Result<Self, #p::Error> {
                    #read_body
                }
            }
            #scope
            #force_check
            #changes
        };
    }
}

/// The input's generics with `T: BitPack` on every type parameter, and
/// those parameters' names.
pub(crate) fn bitpack_bounded(p: &TokenStream, generics: &Generics) -> (Generics, Vec<Ident>) {
    let mut generics = generics.clone();
    let params: Vec<Ident> = generics
        .params
        .iter()
        .filter_map(|param| match param {
            GenericParam::Type(param) => Some(param.ident.clone()),
            _ => None,
        })
        .collect();
    let where_clause = generics.make_where_clause();
    for ident in &params {
        where_clause.predicates.push(syn::parse_quote!(#ident: #p::BitPack));
    }
    (generics, params)
}

/// `<crate>::__private`.
pub fn runtime(krate: &TokenStream) -> TokenStream {
    quote!(#krate::__private)
}

/// `const NAME: TY = VALUE;`; an integer literal for an f32 becomes a float literal.
fn constant(constant: &Const<'_>) -> TokenStream {
    let Const { name, ty, value } = constant;
    let float = ty.to_string();
    let value = match (value.literal, float.as_str()) {
        (Literal::Int(int), "f32" | "f64") => {
            let mut literal = if float == "f32" {
                LiteralToken::f32_suffixed(int.magnitude as f32)
            } else {
                LiteralToken::f64_suffixed(int.magnitude as f64)
            };
            literal.set_span(value.span());
            if int.negative { quote!(-#literal) } else { quote!(#literal) }
        }
        _ => {
            let expr = &value.expr;
            quote!(#expr)
        }
    };
    quote!(const #name: #ty = #value;)
}

/// A value being written: a place (`self.x`) or a reference (`__field0`).
#[derive(Clone)]
pub(crate) enum Access {
    Place(TokenStream),
    Ref(TokenStream),
}

impl Access {
    pub fn reference(&self) -> TokenStream {
        match self {
            Access::Place(place) => quote!(&#place),
            Access::Ref(reference) => reference.clone(),
        }
    }

    pub fn value(&self) -> TokenStream {
        match self {
            Access::Place(place) => place.clone(),
            Access::Ref(reference) => quote!(*#reference),
        }
    }

    pub fn element(&self, index: usize) -> Access {
        let index = Index::from(index);
        match self {
            Access::Place(place) => Access::Place(quote!(#place.#index)),
            Access::Ref(reference) => Access::Place(quote!(#reference.#index)),
        }
    }

    pub fn unboxed(&self) -> Access {
        match self {
            Access::Place(place) => Access::Place(quote!((*#place))),
            Access::Ref(reference) => Access::Place(quote!((**#reference))),
        }
    }
}

pub(crate) struct Emitter {
    pub(crate) runtime: TokenStream,
}

/// MAX_BITS, MIN_BITS, SCHEMA, the body of write_to, the body of read_from.
pub type Parts = (TokenStream, TokenStream, TokenStream, TokenStream, TokenStream);

impl Emitter {
    fn structure(&self, fields: &Fields<'_>) -> Parts {
        let p = &self.runtime;
        let written: Vec<_> = fields
            .fields
            .iter()
            .filter_map(|field| Some((field, field.encoding.as_ref()?)))
            .map(|(field, encoding)| {
                let member = &field.member;
                (Access::Place(quote!(self.#member)), encoding)
            })
            .collect();
        let (max_bits, min_bits, schema) = self.sizes(written.iter().map(|(_, encoding)| *encoding));
        let writes = self.writes(&written);
        let write_body = quote! {
            #(#writes)*
            #p::Ok(())
        };
        let (reads, construct) = self.construct(quote!(Self), fields);
        let read_body = quote! {
            #(#reads)*
            #p::Ok(#construct)
        };
        (
            quote!(#p::sum(&[#(#max_bits),*])),
            quote!(#p::sum(&[#(#min_bits),*])),
            schema,
            write_body,
            read_body,
        )
    }

    fn enumeration(&self, variants: &[crate::plan::Variant<'_>]) -> Parts {
        let p = &self.runtime;
        let count = LiteralToken::u32_unsuffixed(variants.len() as u32);
        let mut variant_max = Vec::new();
        let mut variant_min = Vec::new();
        let mut variant_schema = Vec::new();
        let mut tag_arms = Vec::new();
        let mut write_arms = Vec::new();
        let mut read_arms = Vec::new();
        for (index, variant) in variants.iter().enumerate() {
            let ident = variant.ident;
            let tag = LiteralToken::u32_unsuffixed(index as u32);
            let encodings = variant.fields.fields.iter().filter_map(|field| field.encoding.as_ref());
            let (max_bits, min_bits, schema) = self.sizes(encodings);
            variant_max.push(quote!(#p::sum(&[#(#max_bits),*])));
            variant_min.push(quote!(#p::sum(&[#(#min_bits),*])));
            variant_schema.push(schema);

            let bindings =
                variant.fields.fields.iter().enumerate().map(|(position, field)| match field.encoding {
                    Some(_) => binding(position).to_token_stream(),
                    None => quote!(_),
                });
            let members = variant.fields.fields.iter().map(|field| &field.member);
            let pattern = match variant.fields.style {
                Style::Named => quote!({ #(#members: #bindings),* }),
                Style::Tuple => quote!(( #(#bindings),* )),
                Style::Unit => quote!(),
            };
            let written: Vec<_> = variant
                .fields
                .fields
                .iter()
                .enumerate()
                .filter_map(|(position, field)| {
                    let encoding = field.encoding.as_ref()?;
                    Some((Access::Ref(binding(position).to_token_stream()), encoding))
                })
                .collect();
            let writes = self.writes(&written);
            tag_arms.push(quote!(Self::#ident { .. } => #tag,));
            write_arms.push(quote! {
                Self::#ident #pattern => {
                    #(#writes)*
                }
            });
            let (reads, construct) = self.construct(quote!(Self::#ident), &variant.fields);
            read_arms.push(quote! {
                #tag => {
                    #(#reads)*
                    #construct
                }
            });
        }
        let max_bits = quote!(#p::sum(&[#p::tag_bits(#count), #p::max(&[#(#variant_max),*])]));
        let min_bits = quote!(#p::sum(&[#p::tag_bits(#count), #p::min(&[#(#variant_min),*])]));
        let schema = quote!(#p::schema::enumeration(&[#(#variant_schema),*]));
        if variants.is_empty() {
            let write_body = quote!(match *self {});
            let read_body = quote!(#p::Err(#p::invalid_tag(__reader)));
            return (max_bits, min_bits, schema, write_body, read_body);
        }
        // The tag first, from a match that only yields numbers (a table or
        // plain arithmetic, no jump per variant), then the fields.
        let write_body = quote! {
            let __tag: u32 = match self {
                #(#tag_arms)*
            };
            #p::write_tag(__writer, __tag, #count)?;
            match self {
                #(#write_arms)*
            }
            #p::Ok(())
        };
        let read_body = quote! {
            #p::Ok(match #p::read_tag(__reader, #count)? {
                #(#read_arms)*
                _ => return #p::Err(#p::invalid_tag(__reader)),
            })
        };
        (max_bits, min_bits, schema, write_body, read_body)
    }

    /// Field reads into `__field{n}` locals, then `path { .. }` built from them.
    fn construct(&self, path: TokenStream, fields: &Fields<'_>) -> (Vec<TokenStream>, TokenStream) {
        let mut reads = Vec::new();
        let bound: Vec<_> =
            fields.fields.iter().enumerate().map(|(position, f)| (f, binding(position))).collect();
        let mut position = 0;
        while let Some(field) = fields.fields.get(position) {
            let (run, read) = self.read_run(&bound[position..]);
            if run > 0 {
                reads.push(read);
                position += run;
                continue;
            }
            // A field group's later fields were read with its first.
            if let Some(pattern) = adaptive::read_pattern(field.encoding.as_ref(), position, binding) {
                let value = self.read_field(field);
                reads.push(quote!(let #pattern = #value;));
            }
            position += 1;
        }
        let locals = (0..fields.fields.len()).map(binding);
        let construct = match fields.style {
            Style::Named => {
                let members = fields.fields.iter().map(|field| &field.member);
                quote!(#path { #(#members: #locals),* })
            }
            Style::Tuple => quote!(#path(#(#locals),*)),
            Style::Unit => path,
        };
        (reads, construct)
    }

    /// The writes of `written` in order, fused runs as one write.
    pub(crate) fn writes(&self, written: &[(Access, &Encoding<'_>)]) -> Vec<TokenStream> {
        let mut writes = Vec::new();
        let mut position = 0;
        while let Some((access, encoding)) = written.get(position) {
            let (run, write) = self.write_run(&written[position..]);
            if run > 0 {
                writes.push(write);
                position += run;
                continue;
            }
            writes.push(self.write(encoding, access, 0));
            position += 1;
        }
        writes
    }

    pub(crate) fn read_field(&self, field: &Field<'_>) -> TokenStream {
        let p = &self.runtime;
        match &field.encoding {
            Some(encoding) => self.read(encoding, 0),
            None => {
                let ty = field.ty;
                quote_spanned!(ty.span()=> <#ty as #p::Default>::default())
            }
        }
    }

    /// MAX_BITS terms, MIN_BITS terms and the SCHEMA of fields in order.
    fn sizes<'e, 'a: 'e>(
        &self,
        encodings: impl Iterator<Item = &'e Encoding<'a>>,
    ) -> (Vec<TokenStream>, Vec<TokenStream>, TokenStream) {
        let p = &self.runtime;
        let mut max_bits = Vec::new();
        let mut min_bits = Vec::new();
        let mut schemas = Vec::new();
        for encoding in encodings.filter(|encoding| adaptive::on_wire(encoding)) {
            max_bits.push(self.max_bits(encoding));
            min_bits.push(self.min_bits(encoding));
            schemas.push(self.schema(encoding));
        }
        (max_bits, min_bits, quote!(#p::schema::sequence(&[#(#schemas),*])))
    }

    pub(crate) fn write(&self, encoding: &Encoding<'_>, access: &Access, depth: usize) -> TokenStream {
        let p = &self.runtime;
        match encoding {
            Encoding::Nested(ty) => {
                let reference = access.reference();
                quote_spanned!(ty.span()=> <#ty as #p::BitPack>::write_to(#reference, __writer)?;)
            }
            Encoding::Ranged { ty, min, max } => {
                let module = format_ident!("ranged_{}", ty.name());
                let value = access.value();
                quote!(#p::#module::write(__writer, #value, #min, #max)?;)
            }
            Encoding::Quantized { min, max, res, double } => {
                let value = access.value();
                let write =
                    if *double { quote!(write_compressed_double) } else { quote!(write_compressed_float) };
                quote!(#p::BitWrite::#write(__writer, #value, #min, #max, #res)?;)
            }
            Encoding::Str { max_len } => {
                let reference = access.reference();
                quote!(#p::BitWrite::write_str(__writer, #reference, #max_len)?;)
            }
            Encoding::Vec { max_len, element } => {
                let reference = access.reference();
                let item = format_ident!("__element{}", depth);
                let write_element = self.write(element, &Access::Ref(quote!(#item)), depth + 1);
                quote! {
                    #p::write_len(__writer, #p::Vec::len(#reference), #max_len)?;
                    for #item in #reference {
                        #write_element
                    }
                }
            }
            Encoding::Option(inner) => {
                let reference = access.reference();
                let item = format_ident!("__value{}", depth);
                let write_inner = self.write(inner, &Access::Ref(quote!(#item)), depth + 1);
                quote! {
                    match #reference {
                        #p::Some(#item) => {
                            #p::BitWrite::write_bool(__writer, true)?;
                            #write_inner
                        }
                        #p::None => #p::BitWrite::write_bool(__writer, false)?,
                    }
                }
            }
            Encoding::Boxed(inner) => self.write(inner, &access.unboxed(), depth),
            Encoding::Array { element, .. } => {
                let reference = access.reference();
                let item = format_ident!("__element{}", depth);
                let write_element = self.write(element, &Access::Ref(quote!(#item)), depth + 1);
                quote! {
                    for #item in #reference {
                        #write_element
                    }
                }
            }
            Encoding::Adaptive(adaptive) => adaptive::write(p, adaptive, access),
            Encoding::Tuple(elements) => {
                let writes = elements
                    .iter()
                    .enumerate()
                    .map(|(index, element)| self.write(element, &access.element(index), depth));
                quote!(#(#writes)*)
            }
        }
    }

    /// An expression of the value's type, read from `__reader` (`?` on errors).
    pub(crate) fn read(&self, encoding: &Encoding<'_>, depth: usize) -> TokenStream {
        let p = &self.runtime;
        match encoding {
            Encoding::Nested(ty) => quote_spanned!(ty.span()=> <#ty as #p::BitPack>::read_from(__reader)?),
            Encoding::Ranged { ty, min, max } => {
                let module = format_ident!("ranged_{}", ty.name());
                quote!(#p::#module::read(__reader, #min, #max)?)
            }
            Encoding::Quantized { min, max, res, double } => {
                let read =
                    if *double { quote!(read_compressed_double) } else { quote!(read_compressed_float) };
                quote!(#p::BitReader::#read(__reader, #min, #max, #res)?)
            }
            Encoding::Str { max_len } => quote!(#p::read_string(__reader, #max_len)?),
            Encoding::Vec { max_len, element } => {
                let len = format_ident!("__len{}", depth);
                let items = format_ident!("__elements{}", depth);
                let min_element_bits = self.min_bits(element);
                let read_element = self.read(element, depth + 1);
                quote! {{
                    let #len = #p::read_len(__reader, #max_len, #min_element_bits)?;
                    let mut #items = #p::Vec::with_capacity(#len);
                    for _ in 0..#len {
                        #p::Vec::push(&mut #items, #read_element);
                    }
                    #items
                }}
            }
            Encoding::Option(inner) => {
                let read_inner = self.read(inner, depth + 1);
                quote! {
                    if #p::BitReader::read_bool(__reader)? {
                        #p::Some(#read_inner)
                    } else {
                        #p::None
                    }
                }
            }
            Encoding::Boxed(inner) => {
                let read_inner = self.read(inner, depth);
                quote!(#p::Box::new(#read_inner))
            }
            Encoding::Array { len, element } => match (small_literal(len), &**element) {
                // A short array read element by element in one array
                // expression: no `Option` per slot to fill and unwrap.
                (Some(count), element) => {
                    let reads = (0..count).map(|_| self.read(element, depth + 1));
                    quote!([#(#reads),*])
                }
                (None, Encoding::Nested(ty)) => {
                    quote_spanned!(ty.span()=> #p::read_array(__reader, <#ty as #p::BitPack>::read_from)?)
                }
                (None, element) => {
                    let read_element = self.read(element, depth + 1);
                    let item = format_ident!("__element{}", depth);
                    quote! {
                        #p::read_array(__reader, |__reader| {
                            let #item = #read_element;
                            #p::Ok(#item)
                        })?
                    }
                }
            },
            Encoding::Adaptive(adaptive) => adaptive::read(p, adaptive),
            Encoding::Tuple(elements) => {
                let reads = elements.iter().map(|element| self.read(element, depth));
                quote!((#(#reads,)*))
            }
        }
    }

    fn max_bits(&self, encoding: &Encoding<'_>) -> TokenStream {
        let p = &self.runtime;
        match encoding {
            Encoding::Nested(ty) => quote_spanned!(ty.span()=> <#ty as #p::BitPack>::MAX_BITS),
            Encoding::Ranged { .. } | Encoding::Quantized { .. } => self.fixed_bits(encoding),
            Encoding::Str { max_len } => quote!(#p::str_max_bits(#max_len)),
            Encoding::Vec { max_len, element } => {
                let element = self.max_bits(element);
                quote!(#p::vec_max_bits(#max_len, #element))
            }
            Encoding::Option(inner) => {
                let inner = self.max_bits(inner);
                quote!(#p::sum(&[1, #inner]))
            }
            Encoding::Boxed(inner) => self.max_bits(inner),
            Encoding::Array { len, element } => {
                let element = self.max_bits(element);
                quote!(#p::times(#len, #element))
            }
            Encoding::Adaptive(adaptive) => adaptive::max_bits(p, adaptive),
            Encoding::Tuple(elements) => {
                let elements = elements.iter().map(|element| self.max_bits(element));
                quote!(#p::sum(&[#(#elements),*]))
            }
        }
    }

    fn min_bits(&self, encoding: &Encoding<'_>) -> TokenStream {
        let p = &self.runtime;
        match encoding {
            Encoding::Nested(ty) => quote_spanned!(ty.span()=> <#ty as #p::BitPack>::MIN_BITS),
            Encoding::Ranged { .. } | Encoding::Quantized { .. } => self.fixed_bits(encoding),
            Encoding::Str { max_len } | Encoding::Vec { max_len, .. } => quote!(#p::len_bits(#max_len)),
            Encoding::Option(_) => quote!(1),
            Encoding::Boxed(inner) => self.min_bits(inner),
            Encoding::Array { len, element } => {
                let element = self.min_bits(element);
                quote!(#p::times(#len, #element))
            }
            Encoding::Adaptive(adaptive) => adaptive::min_bits(p, adaptive),
            Encoding::Tuple(elements) => {
                let elements = elements.iter().map(|element| self.min_bits(element));
                quote!(#p::sum(&[#(#elements),*]))
            }
        }
    }

    /// Bits of an encoding that always takes the same number.
    fn fixed_bits(&self, encoding: &Encoding<'_>) -> TokenStream {
        let p = &self.runtime;
        match encoding {
            Encoding::Ranged { ty, min, max } => {
                let module = format_ident!("ranged_{}", ty.name());
                quote!(#p::#module::bits(#min, #max))
            }
            Encoding::Quantized { min, max, res, double } => {
                let bits = if *double { quote!(quantize64_bits) } else { quote!(quantize_bits) };
                quote!(#p::#bits(#min, #max, #res))
            }
            _ => quote!(0),
        }
    }

    fn schema(&self, encoding: &Encoding<'_>) -> TokenStream {
        let p = &self.runtime;
        match encoding {
            Encoding::Nested(ty) => quote_spanned!(ty.span()=> <#ty as #p::BitPack>::SCHEMA),
            Encoding::Ranged { ty, min, max } => {
                let module = format_ident!("ranged_{}", ty.name());
                quote!(#p::#module::schema(#min, #max))
            }
            Encoding::Quantized { min, max, res, double } => {
                let schema = if *double { quote!(quantized64) } else { quote!(quantized) };
                quote!(#p::schema::#schema(#min, #max, #res))
            }
            Encoding::Str { max_len } => quote!(#p::schema::string(#max_len)),
            Encoding::Vec { max_len, element } => {
                let element = self.schema(element);
                quote!(#p::schema::vec(#max_len, #element))
            }
            Encoding::Option(inner) => {
                let inner = self.schema(inner);
                quote!(#p::schema::option(#inner))
            }
            Encoding::Boxed(inner) => self.schema(inner),
            Encoding::Array { len, element } => {
                let element = self.schema(element);
                quote!(#p::schema::array(#len, #element))
            }
            Encoding::Adaptive(adaptive) => adaptive::schema(p, adaptive),
            Encoding::Tuple(elements) => {
                let elements = elements.iter().map(|element| self.schema(element));
                quote!(#p::schema::sequence(&[#(#elements),*]))
            }
        }
    }

    /// A compile-time check of values given as paths to constants, failing
    /// at the attribute that declared them.
    fn check(&self, check: &Check) -> TokenStream {
        let p = &self.runtime;
        match check {
            Check::Range { ty, min, max, span } => {
                let module = format_ident!("ranged_{}", ty.name());
                quote_spanned! {*span=>
                    const _: () = if let #p::Some(__problem) = #p::#module::problem(#min, #max) {
                        ::core::panic!("{}", __problem.as_str())
                    };
                }
            }
            Check::Quantize { min, max, res, double, span } => {
                let problem = if *double { quote!(quantize64_problem) } else { quote!(quantize_problem) };
                quote_spanned! {*span=>
                    const _: () = if let #p::Some(__problem) = #p::#problem(#min, #max, #res) {
                        ::core::panic!("{}", __problem)
                    };
                }
            }
            Check::Fixed { res, span } => adaptive::check(p, res, *span),
        }
    }
}

/// The local holding field number `position`.
pub(crate) fn binding(position: usize) -> syn::Ident {
    format_ident!("__field{}", position)
}

/// The write body run once with room for `MAX_BITS` checked up front (the
/// fields then skip their own room checks), else as is. Both copies write
/// and refuse the same values. Inside a reserved parent the check is always
/// true and the checked copy is dead code. (The checked copy out of line in
/// a `#[inline(never)]` function measured slower on the 14-field object,
/// and no faster on snapshots.)
fn reserved_write(p: &TokenStream, write_body: TokenStream) -> TokenStream {
    quote! {
        // An early return, not a `match`: the reservation's borrow must end
        // before the checked copy uses the writer again.
        if let #p::Some(mut __reserved) = #p::reserve(__writer, <Self as #p::BitPack>::MAX_BITS) {
            let __writer = &mut __reserved;
            return { #write_body };
        }
        #write_body
    }
}

/// Whether any field, however nested, is adaptive.
fn body_uses_adaptive(body: &Body<'_>) -> bool {
    let fields_use = |fields: &Fields<'_>| {
        fields.fields.iter().filter_map(|field| field.encoding.as_ref()).any(uses_adaptive)
    };
    match body {
        Body::Struct(fields) => fields_use(fields),
        Body::Enum(variants) => variants.iter().any(|variant| fields_use(&variant.fields)),
    }
}

fn uses_adaptive(encoding: &Encoding<'_>) -> bool {
    match encoding {
        Encoding::Adaptive(_) => true,
        Encoding::Vec { element, .. } | Encoding::Array { element, .. } => uses_adaptive(element),
        Encoding::Option(inner) | Encoding::Boxed(inner) => uses_adaptive(inner),
        Encoding::Tuple(elements) => elements.iter().any(uses_adaptive),
        Encoding::Nested(_) | Encoding::Ranged { .. } | Encoding::Quantized { .. } | Encoding::Str { .. } => {
            false
        }
    }
}

/// Arrays up to this length whose length is an integer literal are read as
/// one array expression of that many reads.
const UNROLLED_ARRAY_MAX: usize = 16;

/// The value of `len` when it is an integer literal up to [`UNROLLED_ARRAY_MAX`].
pub(crate) fn small_literal(len: &syn::Expr) -> Option<usize> {
    match len {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(int), .. }) => {
            int.base10_parse::<usize>().ok().filter(|count| *count <= UNROLLED_ARRAY_MAX)
        }
        _ => None,
    }
}
