//! Blocks of elements (issue 15): for a struct whose fused runs hold
//! quantized floats, the `BitPack` impl overrides the hidden
//! `__write_items` / `__read_items` that a `Vec` of it writes and reads
//! through (`__private::write_items` / `read_items`), handling
//! `__private::BLOCK` elements at a time:
//!
//! - write: each quantized leaf's steps for the whole block in one lane-wise
//!   call (`quantized_lanes`, checked into one flag), then each element's
//!   own write body with those leaves' bits taken from the lanes
//!   (`run::write_in`); a refused lane writes the block element by element;
//! - read: each element's own read body with those leaves' steps stored in
//!   the block's arrays (`run::read_in`, every check into one flag), then
//!   the values set lane by lane (`dequantized_lanes`); a refusal, a short
//!   input or an error reads the block again element by element.
//!
//! Either way the bits are the elements' own, and every error the one their
//! `write_to` / `read_from` gives, at the same bit.
//!
//! A block's runs also take in what an element's own body cannot know is
//! fixed-width: a nested field whose type is one leaf (`__LEAF_BITS`: a
//! field-less enum's tag, a struct of one run; behind a test of constants,
//! the planner's runs otherwise), and an `Option` after a run (its presence
//! bit the run's last leaf, its value after the run). A struct with such
//! fields gets blocks even without quantized floats.

use crate::expand::body;
use crate::expand::names::{Access, Names};
use crate::expand::run::{self, InBlock, RunLane};
use crate::expand::{atomic, items, pattern};
use crate::ir::Fields;
use crate::ir::encoding::Encoding;
use crate::ir::items::Item;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use syn::{Ident, Member, Type};

/// Elements per block: `__private::BLOCK`, whose lane functions take arrays
/// of this many (a mismatch does not compile).
const BLOCK: usize = 8;

/// A leaf computed lane by lane: its run (by position among the items), its
/// place in the run, and the field and array index it is at.
struct BlockLane<'e> {
    item: usize,
    run: RunLane<'e>,
    member: &'e Member,
}

/// The lane leaves of the runs of `items` (a fusing of `fields`), in wire order.
fn block_lanes<'e>(names: &Names, fields: &'e Fields<'e>, items: &[Item]) -> Vec<BlockLane<'e>> {
    let mut lanes = Vec::new();
    for (item, entry) in items.iter().enumerate() {
        let Item::Run(positions) = entry else { continue };
        let written: Vec<(usize, &Encoding<'_>)> = positions
            .iter()
            .filter_map(|&position| Some((position, fields.fields[position].encoding.as_ref()?)))
            .collect();
        for run in run::lanes(names, written.iter().map(|(_, encoding)| *encoding)) {
            let member = &fields.fields[written[run.field].0].member;
            lanes.push(BlockLane { item, run, member });
        }
    }
    lanes
}

/// `place` or `place[index]`: a lane leaf's value in an element.
fn leaf_place(place: TokenStream, lane: &BlockLane<'_>) -> TokenStream {
    match lane.run.index {
        Some(index) => {
            let index = Literal::usize_unsuffixed(index);
            quote!(#place[#index])
        }
        None => place,
    }
}

/// This lane's steps (`lane`'s element of the block's array) of the leaf at
/// `leaf` of the run at `item`, if it is computed lane by lane.
fn steps_of(names: &Names, lanes: &[BlockLane<'_>], item: usize, leaf: usize) -> Option<TokenStream> {
    let position = lanes.iter().position(|lane| lane.item == item && lane.run.leaf == leaf)?;
    let (steps, lane) = (names.steps(position), &names.lane);
    Some(quote!(#steps[#lane]))
}

/// The element's steps of the leaf at `leaf` of the run at `item` in its
/// rows of four (`__row{n}`, see [`rows`]), if it is computed lane by lane.
fn row_of(lanes: &[BlockLane<'_>], item: usize, leaf: usize) -> Option<TokenStream> {
    let position = lanes.iter().position(|lane| lane.item == item && lane.run.leaf == leaf)?;
    Some(row_lane(position))
}

/// The steps of the `position`th value [`quantized_rows`] quantized.
pub(crate) fn row_lane(position: usize) -> TokenStream {
    let (row, at) = (format_ident!("__row{}", position / 4), Literal::usize_unsuffixed(position % 4));
    quote!(#row[#at])
}

/// The element `item`'s lane leaves quantized four at a time
/// (`__private::quantized_row`, into `__row{n}`), their values added to
/// `sums`; `None` unless every lane leaf can be (`f32`s).
fn rows(names: &Names, lanes: &[BlockLane<'_>], item: &Ident, sums: &Ident) -> Option<TokenStream> {
    let declared: Vec<(TokenStream, TokenStream)> = lanes
        .iter()
        .map(|lane| {
            let member = lane.member;
            Some((leaf_place(quote!(#item.#member), lane), lane.run.lane.row()?))
        })
        .collect::<Option<_>>()?;
    let rows = quantized_rows(names, &declared, sums, &names.lanes_valid);
    Some(quote!(#(#rows)*))
}

/// `declared` (each `f32` value and its declaration as a row takes it)
/// quantized four at a time: a statement per row of four,
/// `let __row{n} = __private::quantized_row(..)`, their values added to
/// `sums`, a refused value clearing `valid`.
pub(crate) fn quantized_rows(
    names: &Names,
    declared: &[(TokenStream, TokenStream)],
    sums: &Ident,
    valid: &Ident,
) -> Vec<TokenStream> {
    let p = &names.runtime;
    declared
        .chunks(4)
        .enumerate()
        .map(|(index, row)| {
            let row_name = format_ident!("__row{index}");
            // Unused lanes: 0 under a declaration that takes it.
            let unused = (row.len()..4).map(|_| (quote!(0.0f32), quote!((0.0f32, 1.0f32, 1.0f32))));
            let (values, declarations): (Vec<_>, Vec<_>) = row.iter().cloned().chain(unused).unzip();
            quote! {
                let #row_name = #p::quantized_row(
                    [#(#values),*], [#(#declarations),*], &mut #sums, &mut #valid,
                );
            }
        })
        .collect()
}

/// The `__write_items` and `__read_items` of a struct with quantized run
/// leaves, or with fields to join to its runs (nothing for any other: they
/// keep the element-by-element loops).
/// `generic`: the struct has generic parameters (its nested fields then
/// stay out of the runs: a run's constants cannot name them).
pub fn items(names: &Names, fields: &Fields<'_>, generic: bool) -> TokenStream {
    let lanes = block_lanes(names, fields, &fields.items);
    let joined = with_nested(fields).filter(|_| !generic);
    if lanes.is_empty() && joined.is_none() {
        return TokenStream::new();
    }
    let p = &names.runtime;
    let (mut write, mut read) =
        (write_items(names, fields, &fields.items, &lanes), read_items(names, fields, &fields.items, &lanes));
    // With its nested fields that are leaves (`BitPack::__LEAF_BITS`) in the
    // runs: a test of constants, so only one of the two is compiled in.
    if let Some((items, nested)) = joined {
        let lanes = block_lanes(names, fields, &items);
        let (write_fused, read_fused) =
            (write_items(names, fields, &items, &lanes), read_items(names, fields, &items, &lanes));
        if nested.is_empty() {
            (write, read) = (write_fused, read_fused);
        } else {
            let leaves = quote!(#(#p::is_leaf(<#nested as #p::BitPack>::__LEAF_BITS))&&*);
            write = quote!(if #leaves { #write_fused } else { #write });
            read = quote!(if #leaves { #read_fused } else { #read });
        }
    }
    let (writer, writer_ty, reader, reader_ty, items, len) =
        (&names.writer, &names.writer_ty, &names.reader, &names.reader_ty, &names.items, &names.len);
    quote! {
        #[inline]
        fn __write_items<#writer_ty: #p::BitWrite>(
            #items: &[Self],
            #writer: &mut #writer_ty,
        ) -> #p::Result<(), #p::Error> {
            #write
        }

        #p::if_alloc! {
            #[inline]
            fn __read_items<#reader_ty: #p::BitRead>(
                #reader: &mut #reader_ty,
                #len: ::core::primitive::usize,
                #items: &mut #p::Vec<Self>,
            ) -> #p::Result<(), #p::Error> {
                #read
            }
        }
    }
}

/// `fields.items` with each nested field (a type through its own impl)
/// that neighbours a run joined to it, and an `Option` after a run joined
/// to its end, and the nested types so joined; `None` if none joined.
fn with_nested<'f>(fields: &'f Fields<'f>) -> Option<(Vec<Item>, Vec<&'f Type>)> {
    let mut fused = Fused::default();
    for item in &fields.items {
        let encoding = |position: usize| fields.fields[position].encoding.as_ref();
        match item {
            Item::Run(positions) => {
                fused.positions.extend(positions);
                fused.leaves += positions.iter().filter_map(|&at| encoding(at)?.run_leaves()).sum::<usize>();
            }
            Item::Field(position) => match encoding(*position) {
                Some(Encoding::Nested(field)) => {
                    fused.positions.push(*position);
                    fused.leaves += 1;
                    fused.types.push(field.ty);
                }
                Some(other) if other.run_leaves().is_some() => {
                    fused.positions.push(*position);
                    fused.leaves += other.run_leaves().unwrap_or(0);
                }
                // Its presence bit ends the run (its value follows it).
                Some(Encoding::Option(_)) if !fused.positions.is_empty() => {
                    fused.positions.push(*position);
                    fused.leaves += 1;
                    fused.joined = true;
                    fused.end();
                }
                _ => fused.push(item),
            },
            Item::AdaptiveGroup(_) => fused.push(item),
        }
    }
    fused.end();
    (fused.joined || !fused.nested.is_empty()).then_some((fused.items, fused.nested))
}

/// [`with_nested`]'s state: the items so far, the nested types in their
/// runs, and the stretch of fixed-width fields being fused.
#[derive(Default)]
struct Fused<'f> {
    items: Vec<Item>,
    nested: Vec<&'f Type>,
    positions: Vec<usize>,
    leaves: usize,
    types: Vec<&'f Type>,
    /// Whether an `Option` joined a run.
    joined: bool,
}

impl Fused<'_> {
    /// Ends the stretch (a run if it holds two or more scalars), then `item`.
    fn push(&mut self, item: &Item) {
        self.end();
        self.items.push(item.clone());
    }

    fn end(&mut self) {
        let positions = std::mem::take(&mut self.positions);
        if std::mem::take(&mut self.leaves) >= 2 {
            self.nested.append(&mut self.types);
            self.items.push(Item::Run(positions));
        } else {
            self.types.clear();
            self.items.extend(positions.into_iter().map(Item::Field));
        }
    }
}

/// The blocks written, the runs those of `fused`.
fn write_items(names: &Names, fields: &Fields<'_>, fused: &[Item], lanes: &[BlockLane<'_>]) -> TokenStream {
    let (p, writer) = (&names.runtime, &names.writer);
    let (block, lane, item, lanes_valid) =
        (&names.block, &names.lane, &names.item_at_lane, &names.lanes_valid);
    let sums = format_ident!("__sums");
    let computed = lanes.iter().enumerate().map(|(index, leaf)| {
        let steps = names.steps(index);
        let member = leaf.member;
        let values = (0..BLOCK).map(|at| {
            let at = Literal::usize_unsuffixed(at);
            leaf_place(quote!(#block[#at].#member), leaf)
        });
        let lanes = leaf.run.lane.lanes(names, quote!([#(#values),*]), &sums, lanes_valid);
        quote!(let #steps = #lanes;)
    });
    let access = |position: usize| {
        let member = &fields.fields[position].member;
        Access::Place(quote!(#item.#member))
    };
    let runs = |entry: &Item| {
        let Item::Run(positions) = entry else { return None };
        let written: Vec<(Access, &Encoding<'_>)> = positions
            .iter()
            .filter_map(|&position| Some((access(position), fields.fields[position].encoding.as_ref()?)))
            .collect();
        Some(written)
    };
    // The checks and the body of an element whose lanes' steps are at
    // `steps_of(item, leaf)`: the block's arrays, or the element's rows.
    let element = |steps_of: &dyn Fn(usize, usize) -> Option<TokenStream>| {
        let checks = fused.iter().enumerate().filter_map(|(index, entry)| {
            let steps = |leaf: usize| steps_of(index, leaf);
            run::check_in(names, &runs(entry)?, &InBlock { steps: &steps, checked: true })
        });
        let writes = fused.iter().enumerate().map(|(index, entry)| match runs(entry) {
            Some(written) => {
                let steps = |leaf: usize| steps_of(index, leaf);
                run::write_in(names, &written, Some(&InBlock { steps: &steps, checked: true }))
            }
            None => items::write(names, &fields.fields, entry, &access),
        });
        (checks.collect::<Vec<_>>(), atomic::write(names, quote!(#(#writes)* #p::Ok(()))))
    };
    let (checks, body) = element(&|item, leaf| steps_of(names, lanes, item, leaf));
    // Through a window the eight bodies are unrolled (each lane's steps at a
    // constant offset, no loop state: 42.8k -> 42.1k instructions a
    // snapshot, the integer twin 34.4k -> 31.9k); the reserved local's
    // fallback keeps a loop (unrolled before windows existed, the bodies
    // measured 22% more instructions, 63k -> 77k).
    let (elements, reserved, bits) = (&names.items, &names.reserved, &names.block_bits);
    let window = |checks: &[TokenStream]| {
        let each = (0..BLOCK).map(|at| {
            let at = Literal::usize_unsuffixed(at);
            quote! {
                let #lane: ::core::primitive::usize = #at;
                let #item = &#block[#lane];
                #(#lanes_valid &= #checks;)*
                #body?;
            }
        });
        quote! {
            if let #p::Some(mut #reserved) = #p::write_window(#writer, #bits) {
                let #writer = &mut #reserved;
                #({ #each })*
                return #p::Ok(#lanes_valid && !#p::overran(#writer));
            }
        }
    };
    // When every item is a run (no write of its own that could fail) and the
    // block has float lanes, a window's block is written with its checks in
    // the element loop, each field loaded once, and a refused value rewinds
    // the whole block (`write_blocks`) to be written element by element.
    // (Without float lanes, the integer twin, this measured 34.4k -> 37.5k
    // instructions a snapshot: there the separate check loop is cheaper.)
    let all_runs = fused.iter().all(|entry| matches!(entry, Item::Run(_)));
    let row_sums = format_ident!("__row_sums");
    let rows = rows(names, lanes, item, &row_sums).filter(|_| all_runs && !lanes.is_empty());
    let (folded, after, by_rows) = match rows {
        // Each element's floats quantized in rows of four straight from its
        // fields as it is written (`quantized_row`), its steps in registers
        // (the lanes' arrays, a gather of each field across the block and
        // the steps stored and loaded again, are for the other paths).
        Some(rows) => {
            let (checks, body) = element(&|item, leaf| row_of(lanes, item, leaf));
            let each = (0..BLOCK).map(|at| {
                let at = Literal::usize_unsuffixed(at);
                quote! {
                    let #item = &#block[#at];
                    #rows
                    #(#lanes_valid &= #checks;)*
                    #body?;
                }
            });
            let by_rows = quote! {
                if let #p::Some(mut #reserved) = #p::write_window(#writer, #bits) {
                    let #writer = &mut #reserved;
                    let mut #row_sums = #p::RowSums::new();
                    #({ #each })*
                    #lanes_valid &= #row_sums.finite();
                    return #p::Ok(#lanes_valid && !#p::overran(#writer));
                }
            };
            (TokenStream::new(), TokenStream::new(), by_rows)
        }
        None if all_runs && !lanes.is_empty() => {
            let window = window(&checks);
            (quote!(if #lanes_valid { #window }), TokenStream::new(), TokenStream::new())
        }
        None => (TokenStream::new(), window(&[]), TokenStream::new()),
    };
    quote! {
            #p::write_blocks(#elements, #writer, #[inline(always)] |#writer, #block| {
                let mut #lanes_valid = true;
                let #bits = <Self as #p::BitPack>::MAX_BITS.saturating_mul(#BLOCK);
                #by_rows
                // The floats' sums lane by lane: one test of their finiteness.
                let mut #sums = #p::LaneSums::new();
                #(#computed)*
                #lanes_valid &= #sums.finite();
                // The whole block's room checked once, the writer moved into
                // locals (its state in registers across the elements), its
                // stores into a fixed window of the buffer with no bounds
                // check; past the window (a `MAX_BITS` that understates),
                // the block is written again element by element.
                #folded
                // Every run's values checked for the whole block (one flag),
                // so each element's runs are written with no check of their
                // own and no fallback.
                for #lane in 0..#BLOCK {
                    let #item = &#block[#lane];
                    #(#lanes_valid &= #checks;)*
                }
                if !#lanes_valid {
                    return #p::Ok(false);
                }
                #after
                // Near the buffer's end (no room for the window): the
                // block's room checked once; without it, the elements are
                // written one by one.
                let #p::Some(mut #reserved) = #p::reserve(#writer, #bits) else {
                    return #p::Ok(false);
                };
                let mut #reserved = #p::local(&mut #reserved);
                let #writer = &mut #reserved;
                for #lane in 0..#BLOCK {
                    let #item = &#block[#lane];
                    #body?;
                }
                #p::Ok(true)
            })
    }
}

/// The blocks read, the runs those of `fused`.
fn read_items(names: &Names, fields: &Fields<'_>, fused: &[Item], lanes: &[BlockLane<'_>]) -> TokenStream {
    let (p, reader, valid, lane, len) =
        (&names.runtime, &names.reader, &names.valid, &names.lane, &names.len);
    let no_steps = lanes.iter().enumerate().map(|(index, leaf)| {
        let (steps, zero) = (names.steps(index), leaf.run.lane.no_steps());
        quote!(let mut #steps = #zero;)
    });
    let reads = body::reads_with(names, fields, fused, &|entry| {
        let Item::Run(positions) = entry else { return items::read(names, &fields.fields, entry) };
        let index = fused.iter().position(|other| std::ptr::eq(other, entry)).unwrap_or(usize::MAX);
        let read: Vec<_> = positions
            .iter()
            .filter_map(|&position| Some((fields.fields[position].encoding.as_ref()?, names.field(position))))
            .collect();
        let steps = |leaf: usize| steps_of(names, lanes, index, leaf);
        run::read_in(names, &read, Some(&InBlock { steps: &steps, checked: false }))
    });
    let construct = pattern::construct(names, quote!(Self), fields);
    let values = lanes.iter().enumerate().map(|(index, leaf)| {
        let (steps, values) = (names.steps(index), names.lane_values(index));
        let dequantized = leaf.run.lane.values(names, quote!(#steps));
        quote!(let #values = #dequantized;)
    });
    // Unrolled: each lane's element a local of its own, its steps stored at
    // a constant index, its values set from constant lanes.
    let elements: Vec<Ident> = (0..BLOCK).map(|at| names.block_element(at)).collect();
    let each_read = elements.iter().enumerate().map(|(at, element)| {
        let at = Literal::usize_unsuffixed(at);
        quote! {
            let mut #element = {
                let #lane: ::core::primitive::usize = #at;
                #(#reads)*
                #construct
            };
        }
    });
    let each_set = elements.iter().enumerate().map(|(at, element)| {
        let at = Literal::usize_unsuffixed(at);
        let sets = lanes.iter().enumerate().map(|(index, leaf)| {
            let (values, member) = (names.lane_values(index), leaf.member);
            let place = leaf_place(quote!(#element.#member), leaf);
            quote!(#place = #values[#at];)
        });
        quote!(#(#sets)*)
    });
    let windowed = read_windowed(names, fields, fused);
    let items = &names.items;
    // With values set lane by lane, a push each (the elements go straight to
    // the `Vec`: 51.2k -> 49.6k instructions a snapshot); without, one
    // `extend` (a push each measured 46.2k -> 48.0k on the integer twin).
    let store = if lanes.is_empty() {
        quote!(<#p::Vec<Self> as ::core::iter::Extend<Self>>::extend(#items, [#(#elements),*]);)
    } else {
        quote!(#(#p::Vec::push(#items, #elements);)*)
    };
    let lanes_read = quote! {
            #p::read_blocks(#reader, #len, #items, #[inline(always)] |#reader, #items| {
                let mut #valid = true;
                #(#no_steps)*
                #(#each_read)*
                #(#values)*
                if !#valid {
                    return #p::Ok(false);
                }
                #(#each_set)*
                #store
                #p::Ok(true)
            })
    };
    match windowed {
        // A test of constants: only one of the two is compiled in.
        Some(windowed) => quote! {
            if #p::fits_window(<Self as #p::BitPack>::MAX_BITS) { #windowed } else { #lanes_read }
        },
        None => lanes_read,
    }
}

/// The blocks read through a window of the input (`__private::Window`):
/// each element read from it with no check of its own and pushed, every
/// value check into one flag, the block's bits taken from the reader once
/// at its end; a refusal or a block past the window or the input reads it
/// again element by element. `None` unless every item of `fused` is a run
/// that can be read so.
fn read_windowed(names: &Names, fields: &Fields<'_>, fused: &[Item]) -> Option<TokenStream> {
    let (p, reader, valid, len, items) =
        (&names.runtime, &names.reader, &names.valid, &names.len, &names.items);
    let (window, pad, taken) = (format_ident!("__window"), format_ident!("__pad"), format_ident!("__taken"));
    let runs = fused
        .iter()
        .map(|entry| {
            let Item::Run(positions) = entry else { return None };
            let read: Vec<_> = positions
                .iter()
                .filter_map(|&position| {
                    Some((fields.fields[position].encoding.as_ref()?, names.field(position)))
                })
                .collect();
            run::read_windowed(names, &read, &window)
        })
        .collect::<Option<Vec<TokenStream>>>()?;
    let reads = body::reads_with(names, fields, fused, &|entry| {
        let index = fused.iter().position(|other| std::ptr::eq(other, entry));
        index.and_then(|index| runs.get(index).cloned()).unwrap_or_default()
    });
    let construct = pattern::construct(names, quote!(Self), fields);
    // A branch on the flag after each element: otherwise its checks are
    // kept to the block's end, each in a byte of the stack.
    // Each element put straight into the room reserved for the block
    // (`BlockSlots`: no capacity test or length update per element).
    let slots = format_ident!("__slots");
    let each = (0..BLOCK).map(|_| {
        quote!({
            #(#reads)*
            if !#valid {
                return #p::Ok(false);
            }
            #slots.put(#construct);
        })
    });
    Some(quote! {
        #p::read_blocks(#reader, #len, #items, #[inline(always)] |#reader, #items| {
            let mut #valid = true;
            let #p::Some(mut #slots) = #p::block_slots(#items) else {
                return #p::Ok(false);
            };
            let mut #pad = #p::None;
            let mut #window = #p::read_window(&*#reader, &mut #pad);
            #(#each)*
            let #taken = #window.end();
            #p::Ok(#valid && #p::close_window(#reader, #taken))
        })
    })
}
