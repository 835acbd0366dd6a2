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

pub mod adaptive;
mod bits;
pub mod change;
mod codec;
mod counter;
mod error;
mod impls;
#[cfg(feature = "glam")]
mod impls_glam;
#[cfg(feature = "mint")]
mod impls_mint;
mod impls_std;
mod pack;
#[doc(hidden)]
pub mod __private {
    //! The runtime behind `#[derive(BitPack)]`; not public API.
    pub use crate::private::*;
}
mod private;
mod quantize;
mod reader;
mod relative;
pub mod smallest_three;
#[cfg(feature = "alloc")]
pub mod sync;
pub mod with;
mod write;
mod writer;

pub use adaptive::{AdaptiveInt, SignScope, Signs};
pub use bits::{
    bits_required, bits_required64, bits_required128, zigzag_decode32, zigzag_decode64, zigzag_encode32,
    zigzag_encode64,
};
pub use change::{ChangeGroups, SnapshotRing};
#[cfg(feature = "alloc")]
pub use codec::encode;
pub use codec::{decode, decode_with_limit, encode_into, measure};
pub use counter::BitCounter;
pub use error::{Error, ErrorKind};
pub use pack::BitPack;
pub use reader::BitReader;
pub use relative::RelativeInt;
pub use write::BitWrite;
pub use writer::BitWriter;
