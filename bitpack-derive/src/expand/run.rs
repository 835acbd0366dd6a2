//! Fused runs (`Item::Run`): fixed-width fields written and read as one
//! through `__private::{RunWriter, RunReader}`, in straight-line code with
//! constant widths. The fields' own writes and reads stay as the fallback
//! for a refused value or a short buffer, so errors and positions are
//! exactly those of separate writes and reads.

use crate::expand::codec::{LaneLeaf, RunLeaf, RunParts, codec};
use crate::expand::names::{Access, Names};
use crate::ir::encoding::Encoding;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use syn::Ident;

/// How a field of a run maps to leaves.
enum FieldLeaves<'e> {
    /// One scalar, or `len` of them (an array).
    Scalars { leaf: &'e dyn RunLeaf, array_len: Option<usize> },
    /// Several scalars through one call each way (a vector, a quaternion).
    Parts(&'e dyn RunParts),
    /// An `Option` ending a block's run: its presence bit is the run's last
    /// leaf, its value (if any) follows the run through its own write and
    /// read, where the `Option`'s own would put it.
    Optional(&'e Encoding<'e>),
}

/// The leaves of each of `encodings`, or `None` if one is not a run leaf
/// after all (the fields are then written one by one).
fn leaves<'e>(encodings: impl Iterator<Item = &'e Encoding<'e>>) -> Option<Vec<FieldLeaves<'e>>> {
    let mut encodings = encodings.peekable();
    std::iter::from_fn(|| Some((encodings.next()?, encodings.peek().is_none())))
        .map(|(encoding, last)| match encoding {
            Encoding::Option(optional) if last => Some(FieldLeaves::Optional(&optional.inner)),
            Encoding::Array(array) => Some(FieldLeaves::Scalars {
                leaf: codec(&array.element).run_leaf()?,
                array_len: Some(array.literal_len().filter(|len| *len > 0)?),
            }),
            _ => {
                let codec = codec(encoding);
                match codec.run_leaf() {
                    Some(leaf) => Some(FieldLeaves::Scalars { leaf, array_len: None }),
                    None => Some(FieldLeaves::Parts(codec.run_parts()?)),
                }
            }
        })
        .collect()
}

/// A leaf of a run that a block computes lane by lane (see `expand::batch`).
pub struct RunLane<'e> {
    /// Its index among the run's leaves.
    pub leaf: usize,
    /// The field of the run it belongs to, and its index in that field's array.
    pub field: usize,
    pub index: Option<usize>,
    pub lane: &'e dyn LaneLeaf,
}

/// The leaves of the run of `encodings` that a block computes lane by
/// lane (none if the fields are not a run after all).
pub fn lanes<'e>(names: &Names, encodings: impl Iterator<Item = &'e Encoding<'e>>) -> Vec<RunLane<'e>> {
    let Some(fields) = leaves(encodings) else { return Vec::new() };
    let mut lanes = Vec::new();
    let mut leaf = 0;
    for (field, leaves) in fields.iter().enumerate() {
        match leaves {
            FieldLeaves::Scalars { leaf: scalar, array_len } => {
                for index in 0..array_len.unwrap_or(1) {
                    if let Some(lane) = scalar.lane() {
                        lanes.push(RunLane { leaf, field, index: array_len.map(|_| index), lane });
                    }
                    leaf += 1;
                }
            }
            FieldLeaves::Parts(parts) => leaf += parts.widths(names).len(),
            FieldLeaves::Optional(_) => leaf += 1,
        }
    }
    lanes
}

/// A run's code inside a block of elements (see `expand::batch`): for
/// each leaf computed lane by lane (by its index among the run's leaves)
/// this lane's steps (a place: an element of the block's array of steps,
/// or of the element's row).
pub struct InBlock<'a> {
    pub steps: &'a dyn Fn(usize) -> Option<TokenStream>,
    /// Every value of the run (and an `Option`'s leaf value after it) was
    /// accepted for the whole block ([`check_in`]) and the block's room
    /// reserved: the run is written with no check and no fallback.
    pub checked: bool,
}

fn widths(names: &Names, fields: &[FieldLeaves<'_>]) -> Vec<TokenStream> {
    fields
        .iter()
        .flat_map(|field| match field {
            FieldLeaves::Scalars { leaf, array_len } => {
                std::iter::repeat_n(leaf.width(names), array_len.unwrap_or(1)).collect()
            }
            FieldLeaves::Parts(parts) => parts.widths(names),
            FieldLeaves::Optional(_) => vec![quote!(1)],
        })
        .collect()
}

/// The value of an `Option` ending the run, written after it (nothing if
/// the run ends otherwise).
fn tail_write(names: &Names, written: &[(Access, &Encoding<'_>)], fields: &[FieldLeaves<'_>]) -> TokenStream {
    let (Some(FieldLeaves::Optional(inner)), Some((access, _))) = (fields.last(), written.last()) else {
        return TokenStream::new();
    };
    // As the `Option`'s own write binds it (the run's locals are done with).
    let (p, reference, item) = (&names.runtime, access.reference(), names.value(0));
    let write_inner = codec(inner).write(names, &Access::Ref(quote!(#item)), 1);
    quote! {
        if let #p::Some(#item) = #reference {
            #write_inner
        }
    }
}

/// [`tail_write`] where the `Option`'s value is one run leaf: put after the
/// run's leaves before the run is finished (the same bits: the value follows
/// the run), or, refused, written by its own code after the run (the error
/// then at the same bit). `None` for any other value.
fn tail_leaf(
    names: &Names,
    written: &[(Access, &Encoding<'_>)],
    fields: &[FieldLeaves<'_>],
    block: Option<&InBlock<'_>>,
) -> Option<TokenStream> {
    let (Some(FieldLeaves::Optional(inner)), Some((access, _))) = (fields.last(), written.last()) else {
        return None;
    };
    let leaf = codec(inner).run_leaf()?;
    let (p, writer, run, valid, bits_name) =
        (&names.runtime, &names.writer, &names.run, &names.valid, &names.run_bits);
    // The run's locals are done with: the `Option`'s value and its bits.
    let (reference, item, tail) = (access.reference(), names.value(0), names.value(1));
    let inner_access = Access::Ref(quote!(#item));
    let (bits, width) = (leaf.bits(names, inner_access.value()), leaf.width(names));
    if block.is_some_and(|block| block.checked) {
        // Accepted by the block's check, with room reserved.
        return Some(quote! {
            if let #p::Some(#item) = #reference {
                let #tail = #bits;
                #run.put_split(#writer, #tail, #width);
            }
            #run.finish(#writer);
        });
    }
    let write_inner = codec(inner).write(names, &inner_access, 1);
    Some(quote! {
        if let #p::Some(#item) = #reference {
            // `valid` is true here: the run's leaves were accepted. The room
            // checked was the run's (a reserved block's writer: always room).
            let #tail = #bits;
            if #valid && #p::run_fits(#writer, #bits_name + #width as ::core::primitive::usize) {
                #run.put_split(#writer, #tail, #width);
                #run.finish(#writer);
            } else {
                #run.finish(#writer);
                #write_inner
            }
        } else {
            #run.finish(#writer);
        }
    })
}

/// The fields at `written` (where each is and how it is encoded) as one write,
/// falling back to their own writes.
pub fn write(names: &Names, written: &[(Access, &Encoding<'_>)]) -> TokenStream {
    write_in(names, written, None)
}

/// [`write`], in a block: the leaves computed lane by lane take this lane's
/// steps from the block's arrays (which were checked before).
pub fn write_in(
    names: &Names,
    written: &[(Access, &Encoding<'_>)],
    block: Option<&InBlock<'_>>,
) -> TokenStream {
    let fallback = written.iter().map(|(access, encoding)| codec(encoding).write(names, access, 0));
    let Some(fields) = leaves(written.iter().map(|(_, encoding)| *encoding)) else {
        return quote!(#(#fallback)*);
    };
    let (p, writer, widths_name, bits_name, valid, run) =
        (&names.runtime, &names.writer, &names.widths, &names.run_bits, &names.valid, &names.run);
    let (lets, locals) = leaf_bits(names, written, &fields, block);
    let (finish, tail) = match (block, tail_leaf(names, written, &fields, block)) {
        // In a block, a leaf value after the run goes into its last word.
        (Some(_), Some(tail)) => (tail, TokenStream::new()),
        _ => (quote!(#run.finish(#writer);), tail_write(names, written, &fields)),
    };
    let widths = widths(names, &fields);
    let count = Literal::usize_unsuffixed(widths.len());
    // A block's elements split leaves across whole words (see
    // `__private::RunWriter::put_split`).
    let put = if block.is_some() { quote!(put_split) } else { quote!(put) };
    let puts = locals.iter().enumerate().map(|(index, local)| {
        let index = Literal::usize_unsuffixed(index);
        quote!(#run.#put(#writer, #local, #widths_name[#index]);)
    });
    // Widths and their total are constants, so the packing folds into
    // constant shifts (see `__private::RunWriter`).
    if block.is_some_and(|block| block.checked) {
        // `valid` is cleared by nothing that is read: the checks fold away.
        return quote! {{
            const #widths_name: [::core::primitive::u32; #count] = [#(#widths),*];
            const #bits_name: ::core::primitive::usize = #p::run_bits(&#widths_name);
            let mut #valid = true;
            #(#lets)*
            let mut #run = #p::RunWriter::new();
            #(#puts)*
            #finish
            #tail
        }};
    }
    quote! {{
        const #widths_name: [::core::primitive::u32; #count] = [#(#widths),*];
        const #bits_name: ::core::primitive::usize = #p::run_bits(&#widths_name);
        let mut #valid = true;
        #(#lets)*
        if #valid && #p::run_fits(#writer, #bits_name) {
            let mut #run = #p::RunWriter::new();
            #(#puts)*
            #finish
            #tail
        } else {
            #(#fallback)*
        }
    }}
}

/// Whether the run at `written` (in a block) takes its values: a `bool`
/// expression, false where [`write_in`] would fall back to the fields' own
/// writes for a refused value, or refuse an `Option`'s leaf value after the
/// run; `None` if the fields are not a run.
pub fn check_in(
    names: &Names,
    written: &[(Access, &Encoding<'_>)],
    block: &InBlock<'_>,
) -> Option<TokenStream> {
    let fields = leaves(written.iter().map(|(_, encoding)| *encoding))?;
    let (p, valid) = (&names.runtime, &names.valid);
    let (lets, _) = leaf_bits(names, written, &fields, Some(block));
    let tail = match (fields.last(), written.last()) {
        (Some(FieldLeaves::Optional(inner)), Some((access, _))) => codec(inner).run_leaf().map(|leaf| {
            let (reference, item) = (access.reference(), names.value(0));
            let bits = leaf.bits(names, Access::Ref(quote!(#item)).value());
            quote!(if let #p::Some(#item) = #reference {
                let _ = #bits;
            })
        }),
        _ => None,
    };
    Some(quote!({
        let mut #valid = true;
        #(#lets)*
        #tail
        #valid
    }))
}

/// Each field's scalars bound to `__value{n}` (their bits, in wire order;
/// in a block, the lanes' from their steps): the statements and the locals.
fn leaf_bits(
    names: &Names,
    written: &[(Access, &Encoding<'_>)],
    fields: &[FieldLeaves<'_>],
    block: Option<&InBlock<'_>>,
) -> (Vec<TokenStream>, Vec<Ident>) {
    // Each field's scalars, bound to `__value{n}` in wire order.
    let mut lets = Vec::new();
    let mut locals: Vec<Ident> = Vec::new();
    let mut next_local = || {
        let (index, local) = (locals.len(), names.value(locals.len()));
        locals.push(local.clone());
        (index, local)
    };
    // A leaf's bits: this lane's steps in a block, else from its value.
    let bits = |index: usize, leaf: &dyn RunLeaf, value: TokenStream| {
        let in_block = block.and_then(|block| Some(((block.steps)(index)?, leaf.lane()?)));
        match in_block {
            Some((steps, lane_leaf)) => lane_leaf.bits(steps),
            None => leaf.bits(names, value),
        }
    };
    for ((access, _), field) in written.iter().zip(fields) {
        match field {
            FieldLeaves::Scalars { leaf, array_len: None } => {
                let (index, local) = next_local();
                let bits = bits(index, *leaf, access.value());
                lets.push(quote!(let #local = #bits;));
            }
            FieldLeaves::Scalars { leaf, array_len: Some(len) } => {
                let array = access.reference();
                for index in 0..*len {
                    let index = Literal::usize_unsuffixed(index);
                    let (leaf_index, local) = next_local();
                    let bits = bits(leaf_index, *leaf, quote!((#array)[#index]));
                    lets.push(quote!(let #local = #bits;));
                }
            }
            FieldLeaves::Parts(parts) => {
                let parts_locals: Vec<Ident> = parts.widths(names).iter().map(|_| next_local().1).collect();
                let bits = parts.bits(names, access.reference());
                lets.push(quote!(let [#(#parts_locals),*] = #bits;));
            }
            FieldLeaves::Optional(_) => {
                let (p, (_, local), reference) = (&names.runtime, next_local(), access.reference());
                lets.push(quote!(let #local = #p::bool_bits(#p::Option::is_some(#reference));));
            }
        }
    }
    (lets, locals)
}

/// The fields `read` (how each is encoded, and the local it binds) as one
/// read binding those locals, falling back to their own reads.
pub fn read(names: &Names, read: &[(&Encoding<'_>, Ident)]) -> TokenStream {
    read_in(names, read, None)
}

/// [`read`], in a block: the leaves computed lane by lane store their steps
/// in this lane of the block's arrays and bind a placeholder (the block
/// sets the values once every lane is read); every value check clears the
/// block's `names.valid`, and a run that is not in the input ends the
/// block's read (`Ok(false)`: it is read again element by element).
pub fn read_in(names: &Names, read: &[(&Encoding<'_>, Ident)], block: Option<&InBlock<'_>>) -> TokenStream {
    let bindings = read.iter().map(|(_, local)| local);
    let fallback = read.iter().map(|(encoding, _)| codec(encoding).read(names, 0));
    let Some(fields) = leaves(read.iter().map(|(encoding, _)| *encoding)) else {
        return quote!(let (#(#bindings,)*) = (#(#fallback,)*););
    };
    let (p, reader, widths_name, bits_name, valid, run, run_block) = (
        &names.runtime,
        &names.reader,
        &names.widths,
        &names.run_bits,
        &names.valid,
        &names.run,
        &names.run_block,
    );
    let widths = widths(names, &fields);
    let count = Literal::usize_unsuffixed(widths.len());
    let raw = |index: Literal| quote!(#run.get(#reader, #widths_name[#index]));
    let ReadLeaves { leaves, values, options, somes, .. } = read_leaves(names, &fields, block, None, &raw);
    if block.is_some() {
        let unwrap = (!options.is_empty())
            .then(|| quote!(let (#(#p::Some(#somes),)*) = (#(#options,)*) else { return #p::Ok(false); };));
        return quote! {
            let (#(#bindings,)*) = {
                const #widths_name: [::core::primitive::u32; #count] = [#(#widths),*];
                const #bits_name: ::core::primitive::usize = #p::run_bits(&#widths_name);
                if !#p::run_remains(#reader, #bits_name) {
                    return #p::Ok(false);
                }
                let mut #run = #p::RunReader::new(#bits_name);
                #(#leaves)*
                #unwrap
                (#(#values,)*)
            };
        };
    }
    let accept = if options.is_empty() {
        quote!(if #valid {
            break #run_block (#(#values,)*);
        })
    } else {
        // Nested, not a `let` chain: the caller's crate may be of an
        // edition without them.
        quote!(if #valid {
            if let (#(#p::Some(#somes),)*) = (#(#options,)*) {
                break #run_block (#(#values,)*);
            }
        })
    };
    quote! {
        let (#(#bindings,)*) = #run_block: {
            const #widths_name: [::core::primitive::u32; #count] = [#(#widths),*];
            const #bits_name: ::core::primitive::usize = #p::run_bits(&#widths_name);
            if #p::run_remains(#reader, #bits_name) {
                let mut #run = #p::RunReader::new(#bits_name);
                let mut #valid = true;
                #(#leaves)*
                #accept
                #p::unread_run(#reader, #bits_name);
            }
            (#(#fallback,)*)
        };
    }
}

/// [`read_in`] for a block read through `window` (`__private::Window`,
/// checked once for the block): the leaves taken from the window with no
/// check of their own, every value check clearing the block's
/// `names.valid`, a refused nested value ending the block's read
/// (`Ok(false)`), an `Option` ending the run with its value taken from the
/// window too. `None` if the fields are not such a run (an `Option` whose
/// value is not one run leaf).
pub fn read_windowed(names: &Names, read: &[(&Encoding<'_>, Ident)], window: &Ident) -> Option<TokenStream> {
    let fields = leaves(read.iter().map(|(encoding, _)| *encoding))?;
    if let Some(FieldLeaves::Optional(inner)) = fields.last() {
        codec(inner).run_leaf()?;
    }
    let (p, widths_name, bits_name, run) = (&names.runtime, &names.widths, &names.run_bits, &names.run);
    let widths = widths(names, &fields);
    let count = Literal::usize_unsuffixed(widths.len());
    let raw = |index: Literal| quote!(#run.get_in(&mut #window, #widths_name[#index]));
    let ReadLeaves { leaves, rows, values, options, somes } =
        read_leaves(names, &fields, None, Some(window), &raw);
    let unwrap = (!options.is_empty())
        .then(|| quote!(let (#(#p::Some(#somes),)*) = (#(#options,)*) else { return #p::Ok(false); };));
    let bindings = read.iter().map(|(_, local)| local);
    Some(quote! {
        let (#(#bindings,)*) = {
            const #widths_name: [::core::primitive::u32; #count] = [#(#widths),*];
            const #bits_name: ::core::primitive::usize = #p::run_bits(&#widths_name);
            let mut #run = #p::RunReader::new(#bits_name);
            #(#leaves)*
            #(#rows)*
            #unwrap
            (#(#values,)*)
        };
    })
}

/// A run's leaves read: the statements binding them, those that set the
/// values of the leaves read as steps (`rows`, after `leaves`), each
/// field's value (in order), and the fields read as an `Option`
/// (`options`, bound to `somes` once all are `Some`).
struct ReadLeaves {
    leaves: Vec<TokenStream>,
    rows: Vec<TokenStream>,
    values: Vec<TokenStream>,
    options: Vec<Ident>,
    somes: Vec<Ident>,
}

/// The leaves of `fields`, leaf `index`'s bits from `raw(index)`. Through a
/// `window`, the quantized `f32` leaves bind their steps and are
/// dequantized four at a time after the run (`__private::dequantized_row`,
/// each local then bound again to its value).
fn read_leaves(
    names: &Names,
    fields: &[FieldLeaves<'_>],
    block: Option<&InBlock<'_>>,
    window: Option<&Ident>,
    raw: &dyn Fn(Literal) -> TokenStream,
) -> ReadLeaves {
    let mut leaves = Vec::new();
    let mut values = Vec::new();
    let mut raw_index = 0usize;
    let mut fallible = Vec::new();
    // The leaves dequantized in rows: each local and its declaration.
    let mut in_rows: Vec<(Ident, TokenStream)> = Vec::new();
    for (position, field) in fields.iter().enumerate() {
        let mut take = |leaf: Option<&dyn RunLeaf>| {
            let local = names.leaf(raw_index);
            let index = Literal::usize_unsuffixed(raw_index);
            let raw = raw(index);
            let in_block = block.and_then(|block| Some(((block.steps)(raw_index)?, leaf?.lane()?)));
            let in_row = window.and(leaf).and_then(|leaf| {
                let lane = leaf.lane()?;
                Some((lane, lane.row()?))
            });
            let value = match (leaf, in_block, in_row) {
                (_, _, Some((lane_leaf, declaration))) => {
                    in_rows.push((local.clone(), declaration));
                    lane_leaf.steps(names, raw)
                }
                (_, Some((steps, lane_leaf)), None) => {
                    let steps_value = lane_leaf.steps(names, raw);
                    quote!({
                        #steps = #steps_value;
                        0.0
                    })
                }
                (Some(leaf), None, None) => leaf.value(names, raw),
                (None, None, None) => raw,
            };
            leaves.push(quote!(let #local = #value;));
            raw_index += 1;
            local
        };
        values.push(match field {
            FieldLeaves::Scalars { leaf, array_len: None } => {
                let local = take(Some(*leaf));
                quote!(#local)
            }
            FieldLeaves::Scalars { leaf, array_len: Some(len) } => {
                let locals: Vec<Ident> = (0..*len).map(|_| take(Some(*leaf))).collect();
                quote!([#(#locals),*])
            }
            FieldLeaves::Parts(parts) => {
                // The raw scalars, then the value from them (which may clear
                // `valid`, so it is computed before `valid` is looked at).
                let raws: Vec<Ident> = parts.widths(names).iter().map(|_| take(None)).collect();
                let (local, value) = (names.parts(position), parts.value(names, &raws));
                leaves.push(quote!(let #local = #value;));
                if parts.fallible() {
                    // An `Option`: the run's value once it is `Some`.
                    let unwrapped = names.unwrapped(position);
                    fallible.push((local, unwrapped.clone()));
                    quote!(#unwrapped)
                } else {
                    quote!(#local)
                }
            }
            FieldLeaves::Optional(inner) => {
                // The presence bit; the value read after the run's bits
                // (through a block's window: its bits from the window, as
                // one leaf).
                let (p, present) = (&names.runtime, take(None));
                match (window, codec(inner).run_leaf()) {
                    (Some(window), Some(leaf)) => {
                        // Its bits loaded whether present or not: no branch.
                        // (Taken as the run's last leaf and given back when
                        // absent, which saves its load, the compiler
                        // branched on the presence bit however written.)
                        let (width, raw) = (leaf.width(names), names.value(1));
                        let value = leaf.value(names, quote!(#raw));
                        quote!({
                            let #raw = #window.take_if(#present != 0, #width);
                            if #present != 0 { #p::Some(#value) } else { #p::None }
                        })
                    }
                    _ => {
                        let read_inner = codec(inner).read(names, 1);
                        quote!(if #present != 0 { #p::Some(#read_inner) } else { #p::None })
                    }
                }
            }
        });
    }
    let (options, somes) = fallible.into_iter().unzip();
    let rows = in_rows
        .chunks(4)
        .map(|row| {
            let (p, valid) = (&names.runtime, &names.valid);
            // Unused lanes: the step 0 under a declaration that takes it.
            let unused = (row.len()..4).map(|_| (quote!(0u32), quote!((0.0f32, 1.0f32, 1.0f32))));
            let (steps, declarations): (Vec<_>, Vec<_>) = row
                .iter()
                .map(|(local, declaration)| (quote!(#local), declaration.clone()))
                .chain(unused)
                .unzip();
            let bound = row.iter().map(|(local, _)| quote!(#local)).chain((row.len()..4).map(|_| quote!(_)));
            quote! {
                let [#(#bound),*] = #p::dequantized_row([#(#steps),*], [#(#declarations),*], &mut #valid);
            }
        })
        .collect();
    ReadLeaves { leaves, rows, values, options, somes }
}

/// A struct whose fields are one run, as one leaf of a parent's run:
/// `__LEAF_BITS` (the run's total, when one 64-bit word holds it),
/// `__leaf` (the leaves' bits packed low first, as the run writes them)
/// and `__from_leaf` (the fields read back from such a word, as the run
/// reads them; `None` where the run would fall back to the fields' reads).
/// `written` reaches each field from `self`; `read` binds the locals that
/// `construct` builds the struct from.
pub fn as_leaf(
    names: &Names,
    written: &[(Access, &Encoding<'_>)],
    read: &[(&Encoding<'_>, Ident)],
    construct: TokenStream,
) -> TokenStream {
    let Some(fields) = leaves(written.iter().map(|(_, encoding)| *encoding)) else {
        return TokenStream::new();
    };
    let (p, widths_name, valid, word) = (&names.runtime, &names.widths, &names.valid, &names.run);
    let widths = widths(names, &fields);
    let count = Literal::usize_unsuffixed(widths.len());
    let (lets, locals) = leaf_bits(names, written, &fields, None);
    let packed = locals.iter().enumerate().map(|(index, local)| {
        let index = Literal::usize_unsuffixed(index);
        quote!(#p::leaf_put(#local, #p::leaf_offset(&#widths_name, #index)))
    });
    // Consecutive bools (two to seven) spread to a byte each at once
    // (`__private::spread_bools`), each then that byte: the compiler stores
    // them as one word, where a shift, mask and merge a bool measured
    // ... instructions a snapshot.
    let bools: Vec<bool> = fields
        .iter()
        .flat_map(|field| match field {
            FieldLeaves::Scalars { leaf, array_len } => vec![leaf.is_bool(); array_len.unwrap_or(1)],
            FieldLeaves::Parts(parts) => vec![false; parts.widths(names).len()],
            FieldLeaves::Optional(_) => vec![false],
        })
        .collect();
    let mut spreads = Vec::new();
    // Each leaf's group: its spread's local and its byte in it.
    let mut grouped: Vec<Option<(Ident, usize)>> = vec![None; bools.len()];
    let mut start = 0;
    while start < bools.len() {
        let len = bools[start..].iter().take(7).take_while(|bool| **bool).count();
        if len >= 2 {
            let (spread, first) = (format_ident!("__spread{start}"), Literal::usize_unsuffixed(start));
            let count = Literal::u32_unsuffixed(len as u32);
            spreads.push(quote! {
                let #spread = #p::spread_bools(#p::leaf_get(#word, #p::leaf_offset(&#widths_name, #first), #count));
            });
            for (byte, group) in grouped[start..start + len].iter_mut().enumerate() {
                *group = Some((spread.clone(), byte));
            }
        }
        start += len.max(1);
    }
    let raw = |index: Literal| {
        let at: usize = index.to_string().parse().unwrap_or(usize::MAX);
        match grouped.get(at) {
            Some(Some((spread, byte))) => {
                let offset = Literal::u32_unsuffixed(8 * *byte as u32);
                quote!(#p::leaf_get(#spread, #offset, 8))
            }
            _ => quote!(#p::leaf_get(#word, #p::leaf_offset(&#widths_name, #index), #widths_name[#index])),
        }
    };
    let ReadLeaves { leaves, values, options, somes, .. } = read_leaves(names, &fields, None, None, &raw);
    let unwrap = (!options.is_empty())
        .then(|| quote!(let (#(#p::Some(#somes),)*) = (#(#options,)*) else { return #p::None; };));
    let bindings = read.iter().map(|(_, local)| local);
    let widths_const = quote!(const #widths_name: [::core::primitive::u32; #count] = [#(#widths),*];);
    quote! {
        const __LEAF_BITS: ::core::primitive::u32 = #p::leaf_bits(#p::run_bits(&[#(#widths),*]));

        #[inline(always)]
        fn __leaf(&self) -> #p::Option<::core::primitive::u64> {
            #widths_const
            let mut #valid = true;
            #(#lets)*
            if !#valid {
                return #p::None;
            }
            #p::Some(0 #(| #packed)*)
        }

        #[inline(always)]
        fn __from_leaf(#word: ::core::primitive::u64) -> #p::Option<Self> {
            #widths_const
            let mut #valid = true;
            #(#spreads)*
            #(#leaves)*
            #unwrap
            if !#valid {
                return #p::None;
            }
            let (#(#bindings,)*) = (#(#values,)*);
            #p::Some(#construct)
        }
    }
}
