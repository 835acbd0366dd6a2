//! Every name the generated code declares, made here and passed to each
//! emitter in [`Names`]: the code that declares `__writer` and the code
//! that writes to it take it from the same place. All are `__`-prefixed,
//! so they never meet the user's names. Also [`Access`], how an emitter
//! reaches the value it writes.

use crate::ir::consts::{ConstName, Role};
use crate::ir::runtime::Runtime;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::{Ident, Index, Lifetime};

/// The runtime's path and the generated locals.
pub struct Names {
    /// `<crate>::__private`.
    pub runtime: Runtime,
    /// The `BitWrite` being written to, and its type parameter.
    pub writer: Ident,
    pub writer_ty: Ident,
    /// The reader's type parameter (`__R`).
    pub reader_ty: Ident,
    /// The `BitRead` source being read from.
    pub reader: Ident,
    /// The message's sign mode, under which adaptive values are written.
    pub signs: Ident,
    /// An enum's variant index.
    pub tag: Ident,
    /// The writer with room for `MAX_BITS` checked once.
    pub reserved: Ident,
    /// Fields' bits gathered ahead of a bulk sequence's first push.
    pub prefix: Ident,
    /// A block's maximum bits.
    pub block_bits: Ident,
    /// A `MAX_BITS` checked against `max_bytes`.
    pub max_bits: Ident,
    /// What a compile-time check found.
    pub problem: Ident,
    /// An adaptive group's values while they are read.
    pub group: Ident,
    /// A fused run: its widths, their total, whether every value fits, the
    /// packer, and the block a read breaks out of.
    pub widths: Ident,
    pub run_bits: Ident,
    pub valid: Ident,
    pub run: Ident,
    pub run_block: Lifetime,
    /// Change groups: the value a delta codes against, the trackers, the
    /// decoded changes, and a nested type's changes.
    pub baseline: Ident,
    pub confirmed: Ident,
    pub latest: Ident,
    pub changes: Ident,
    pub nested: Ident,
    /// A sender's packet budget, passed on to keyed collections, and the
    /// state it records for a packet.
    pub budget: Ident,
    pub state: Ident,
    /// A sender's group prints: the baseline's, and the value's it records.
    pub baseline_prints: Ident,
    pub prints: Ident,
    /// The bit a delta group's flag is read at.
    pub flag: Ident,
    /// Blocks of a `Vec`'s elements (`expand::batch`): the elements, a
    /// block of them, a lane, the element at it, how many to read, and
    /// whether every lane's value is taken.
    pub items: Ident,
    pub block: Ident,
    pub lane: Ident,
    pub item_at_lane: Ident,
    pub len: Ident,
    pub lanes_valid: Ident,
}

fn local(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

impl Names {
    pub fn new(runtime: Runtime) -> Self {
        Names {
            runtime,
            writer: local("__writer"),
            writer_ty: local("__W"),
            reader_ty: local("__R"),
            reader: local("__reader"),
            signs: local("__signs"),
            tag: local("__tag"),
            reserved: local("__reserved"),
            prefix: local("__prefix"),
            block_bits: local("__block_bits"),
            max_bits: local("__max_bits"),
            problem: local("__problem"),
            group: local("__group"),
            widths: local("__WIDTHS"),
            run_bits: local("__BITS"),
            valid: local("__valid"),
            run: local("__run"),
            run_block: Lifetime::new("'__run", Span::call_site()),
            baseline: local("__baseline"),
            confirmed: local("__confirmed"),
            latest: local("__latest"),
            changes: local("__changes"),
            nested: local("__nested"),
            budget: local("__budget"),
            state: local("__state"),
            baseline_prints: local("__baseline_prints"),
            prints: local("__prints"),
            flag: local("__flag"),
            items: local("__items"),
            block: local("__block"),
            lane: local("__lane"),
            item_at_lane: local("__item"),
            len: local("__len"),
            lanes_valid: local("__lanes_valid"),
        }
    }

    /// The local holding field number `position` (a variant's binding, a read field).
    pub fn field(&self, position: usize) -> Ident {
        format_ident!("__field{}", position)
    }

    /// An element of a `Vec` or array, `depth` containers down.
    pub fn element(&self, depth: usize) -> Ident {
        format_ident!("__element{}", depth)
    }

    /// An `Option`'s value `depth` containers down; also the `index`th
    /// value of a run or of a group's changes.
    pub fn value(&self, index: usize) -> Ident {
        format_ident!("__value{}", index)
    }

    /// The `index`th scalar read out of a run.
    pub fn leaf(&self, index: usize) -> Ident {
        format_ident!("__leaf{}", index)
    }

    /// The value of the `index`th field of a run read as several scalars (a
    /// vector, a quaternion).
    pub fn parts(&self, index: usize) -> Ident {
        format_ident!("__parts{}", index)
    }

    /// The value of a run's `index`th field read as an `Option` (a nested
    /// type), once it is `Some`.
    pub fn unwrapped(&self, index: usize) -> Ident {
        format_ident!("__unwrapped{}", index)
    }

    /// A block's `index`th leaf computed lane by lane: its steps, and (read)
    /// its values.
    pub fn steps(&self, index: usize) -> Ident {
        format_ident!("__steps{}", index)
    }

    /// In `write_delta_cached`, a group's `index`th float quantized once:
    /// its steps, and the baseline's agreed steps.
    pub fn now_steps(&self, index: usize) -> Ident {
        format_ident!("__now_steps{}", index)
    }

    pub fn base_steps(&self, index: usize) -> Ident {
        format_ident!("__base_steps{}", index)
    }

    pub fn lane_values(&self, index: usize) -> Ident {
        format_ident!("__lane_values{}", index)
    }

    /// The element read at lane `lane` of a block.
    pub fn block_element(&self, lane: usize) -> Ident {
        format_ident!("__element_at{}", lane)
    }

    /// The `index`th change-group item's decoded changes.
    pub fn item(&self, index: usize) -> Ident {
        format_ident!("__item{}", index)
    }
}

/// `__BITPACK_{n}_{ROLE}`: a declared constant.
impl ToTokens for ConstName {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let role = match self.role {
            Role::Min => "MIN",
            Role::Max => "MAX",
            Role::Res => "RES",
            Role::Len => "LEN",
            Role::Bits => "BITS",
            Role::Dt => "DT",
        };
        format_ident!("__BITPACK_{}_{}", self.index, role).to_tokens(tokens);
    }
}

/// A value being written: a place (`self.x`) or a reference (`__field0`).
#[derive(Clone)]
pub enum Access {
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

    /// Element `index` of a tuple.
    pub fn element(&self, index: usize) -> Access {
        let index = Index::from(index);
        match self {
            Access::Place(place) => Access::Place(quote!(#place.#index)),
            Access::Ref(reference) => Access::Place(quote!(#reference.#index)),
        }
    }

    /// What a `Box` holds.
    pub fn unboxed(&self) -> Access {
        match self {
            Access::Place(place) => Access::Place(quote!((*#place))),
            Access::Ref(reference) => Access::Place(quote!((**#reference))),
        }
    }
}
