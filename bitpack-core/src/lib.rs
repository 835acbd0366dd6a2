#![no_std]
#![doc = "The bit packer under `bitpack`: see that crate for the guide."]
#![doc = ""]
#![doc = "The wire format is bit-exact with the C++ `serialize` library: bits go"]
#![doc = "least significant first, in 32-bit little-endian words."]
#![forbid(unsafe_code)]
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
mod error;
mod impls;
#[cfg(feature = "glam")]
mod impls_glam;
#[cfg(feature = "mint")]
mod impls_mint;
mod impls_std;
mod pack;
/// The crate's own name for [`__private`].
use __private as private;
mod quantize;
mod reader;
mod relative;
mod sink;
pub mod smallest_three;
#[cfg(feature = "alloc")]
pub mod sync;
#[doc(hidden)]
pub mod with;
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
pub use reader::BitReader;
pub use relative::RelativeInt;
pub use sink::counter::BitCounter;
pub use sink::writer::BitWriter;
pub use write::BitWrite;
