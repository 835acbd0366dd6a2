#![no_std]
//! bitpack: pack game state into the fewest bits a receiver can read back exactly.

pub use bitpack_core::*;

#[cfg(feature = "derive")]
pub use bitpack_derive::BitPack;
