#![no_std]
#![doc = include_str!("../../README.md")]

pub use bitpack_core::*;

#[cfg(feature = "derive")]
pub use bitpack_derive::BitPack;
