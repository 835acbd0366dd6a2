#![no_std]
#![doc = include_str!("../README.md")]
#![doc = include_str!("../docs/derive.md")]

pub use bitpack_core::*;

/// `#[derive(BitPack)]`, its attributes one line each below; [the guide](crate#derivebitpack)
/// has an example of each.
///
#[cfg(feature = "derive")]
pub use bitpack_derive::BitPack;

#[cfg(feature = "alloc")]
pub mod sync {
    #![doc = include_str!("../docs/sync.md")]
    pub use bitpack_core::sync::*;
}

// Guide pages with no code of their own, modules so that rustdoc renders them (and runs their
// examples) beside the API they describe.
pub mod wire_format {
    #![doc = include_str!("../docs/wire.md")]
}

pub mod hostile_input {
    #![doc = include_str!("../docs/hostile.md")]
}

/// The runtime generated code calls; not public API.
#[doc(hidden)]
pub use bitpack_core::__private;
