//! The bit packer under `bitpack`: see that crate for the guide.
//!
//! The wire format is bit-exact with the C++ `serialize` library: bits go
//! least significant first, in 32-bit little-endian words.
//!
//! The examples are written against `bitpack`, which re-exports every
//! public item of this crate at the same path (`bitpack::BitReader` is
//! `bitpack_core::BitReader`). They run here with this crate renamed
//! (`extern crate bitpack_core as bitpack;`, hidden), which is also how to
//! use them with `bitpack-core` alone.
//!
//! # Layout
//!
//! In layers, from the ground up: the sinks under the write interface, the
//! reader beside it, the encodings and `BitPack` on both, then change
//! groups and replication, the derive's runtime (`__private`), and the
//! impls. A file imports only files listed above it (a folder's `mod.rs`,
//! listed first, hands on the names its files define), but for two leaves
//! taken from further down: `private/schema.rs` (the fingerprints, which
//! `smallest_three.rs` and `sync/acks.rs` take too) and `sync/budget.rs`
//! (`ChangeGroups`' methods for a `Sender` take a `Budget`).
//!
//! ```text
//! src/
//! ├── lib.rs                the modules, the public names, `__private`
//! ├── error.rs              Error, ErrorKind: what failed, and at which bit
//! ├── bits.rs               widths of ranges, zig-zag, masks, alignment padding, the NUL scan
//! ├── relative.rs           the relative encodings' tables and integer types
//! ├── quantize.rs           the compressed float's arithmetic, in f32 and in f64
//! ├── with.rs               the contract behind #[bitpack(with = path)]
//! ├── sink/                 the raw bit sinks under BitWrite (sealed)
//! │   ├── mod.rs            BitSink (raw pushes) and Reserve (room checked once)
//! │   ├── writer.rs         BitWriter: bits into a buffer, in 32-bit words
//! │   ├── counter.rs        BitCounter: counts the bits, writes none
//! │   ├── fingerprint.rs    BitFingerprint and Fingerprint: a group's bits, without keeping them
//! │   ├── reserved.rs       a sink inside a reservation; the list of sinks that reserve
//! │   ├── local.rs          a sink moved into a local for a derived block's pushes
//! │   ├── held.rs           a writer's state held by value for a loop of derived items, kept on success
//! │   ├── detached.rs       a writer copied by value for a derived delta, its state back on success
//! │   └── window.rs         a writer's block stores, masked into a fixed window of its buffer
//! ├── unchecked.rs          the one unsafe module: the writer's stores (Words), ASCII as str, short owned strings, reads into a Vec's reserved room
//! ├── words.rs              bits gathered into 64-bit words before a push
//! ├── write.rs              BitWrite: every write, validated, over any sink; write_atomic
//! ├── source.rs             BitSource: the raw takes under BitRead (sealed)
//! ├── read.rs               BitRead: every read, checked, over any source
//! ├── reader.rs             BitReader: a slice as a source; the allocation budget
//! ├── boxed.rs              Box<T> and Box<[T; N]> read within the budget
//! ├── adaptive/             integers without a range: a length prefix, then the bits
//! │   ├── mod.rs            the wire format; the public names
//! │   ├── int.rs            AdaptiveInt, and the sign mode Signs
//! │   ├── value.rs          one value
//! │   ├── group.rs          values sharing one length: arrays, and Vecs after their length
//! │   ├── sign_scope.rs     SignScope: one sign bit for a whole message
//! │   └── fixed.rs          floats without a range, as fixed point
//! ├── columns/              #[bitpack(columns)]: a collection field by field (alloc)
//! │   ├── mod.rs            the wire format; the Columns trait, for integers and bool; fingerprints
//! │   ├── int.rs            an integer column: one header (shared, per value, offset), then the values
//! │   ├── bools.rs          a bool column, 64 bits at a time
//! │   ├── lengths.rs        a collection's length; columns of lengths and of strings
//! │   └── assemble.rs       decoded columns back into options, vecs, arrays, enums
//! ├── pack.rs               BitPack: a type that knows its wire layout
//! ├── change/               change groups: send the parts that changed
//! │   ├── mod.rs            ChangeGroups; the public names
//! │   ├── record.rs         GroupRecord, and the tracked and delta flags
//! │   ├── tracker.rs        GroupTracker: a derived type's records
//! │   ├── ring.rs           SnapshotRing: trackers per packet until acknowledged
//! │   └── relative.rs       integers and steps coded against a baseline
//! ├── codec.rs              encode, decode, measure: whole values
//! ├── smallest_three.rs     quaternions in 2 + 3 x N bits
//! ├── sync/                 replicating a world to a client (alloc)
//! │   ├── mod.rs            the guide; the public names
//! │   ├── packet.rs         a packet's header and check
//! │   ├── acks.rs           Acks: what a receiver holds
//! │   ├── budget.rs         Budget: which keyed entries a full packet sends
//! │   ├── sender.rs         Sender: the server's side of one client
//! │   ├── receiver.rs       Receiver: the client's side
//! │   └── fragments.rs      Fragments, Reassembly: a packet over several datagrams
//! ├── private/              `__private`: the runtime generated code calls (not public API)
//! │   ├── mod.rs            the list of its names, by caller; sizes, tags, lengths, strings, arrays, checks
//! │   ├── schema.rs         SCHEMA fingerprints
//! │   ├── message.rs        compile-time messages with numbers in them
//! │   ├── ranged.rs         #[bits(min, max)], one module per integer type
//! │   ├── run.rs            fused runs of fixed-width fields
//! │   ├── change.rs         group flags; #[bitpack(relative)] per integer and float type
//! │   ├── adaptive.rs       #[bitpack(adaptive)] and fixed point: sizes and fingerprints
//! │   ├── axes.rs           vectors axis by axis, each with its own bounds
//! │   ├── rotation.rs       #[quantize(bits = N)] on quaternions
//! │   ├── bulk.rs           sequences and arrays of bools and integers, 64 bits at a time
//! │   ├── collections.rs    max_len collections beyond String and Vec
//! │   ├── keyed.rs          keyed collections: maps and sorted Vecs by key
//! │   └── uses.rs           (a test) every name generated code calls, called as it calls it
//! ├── impls.rs              BitPack for bool, integers, floats, tuples, arrays, Option, Box, Rc, Arc
//! ├── impls_std.rs          ... for char, Duration, the NonZero integers, PhantomData
//! ├── impls_glam.rs         ... for glam's vectors and quaternions (feature glam)
//! └── impls_mint.rs         ... for mint's (feature mint)
//! ```
#![no_std]
// `unsafe` is refused everywhere but `unchecked.rs`, where each use is
// small and argued.
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private;
pub mod adaptive;
mod bits;
#[cfg(feature = "alloc")]
mod boxed;
pub mod change;
mod codec;
#[cfg(feature = "alloc")]
mod columns;
mod error;
mod impls;
#[cfg(feature = "glam")]
mod impls_glam;
#[cfg(feature = "mint")]
mod impls_mint;
mod impls_std;
mod pack;
// The crate's own name for `__private`.
use __private as private;
mod quantize;
mod read;
mod reader;
mod relative;
mod sink;
pub mod smallest_three;
mod source;
#[cfg(feature = "alloc")]
pub mod sync;
#[allow(unsafe_code)]
mod unchecked;
pub mod with;
mod words;
mod write;

pub use adaptive::{AdaptiveInt, SignScope, Signs};
pub use bits::{
    bits_required, bits_required64, bits_required128, zigzag_decode32, zigzag_decode64, zigzag_encode32,
    zigzag_encode64,
};
pub use change::{ChangeGroups, SnapshotRing};
#[cfg(feature = "alloc")]
pub use codec::encode;
pub use codec::{decode, decode_with_limit, encode_into, measure};
pub use error::{Error, ErrorKind};
pub use pack::BitPack;
pub use read::BitRead;
pub use reader::BitReader;
pub use relative::RelativeInt;
pub use sink::counter::BitCounter;
pub use sink::writer::BitWriter;
pub use write::BitWrite;
