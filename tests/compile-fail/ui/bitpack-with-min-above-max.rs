#[path = "support/u32_bits.rs"]
mod u32_bits;

mod id_bits {
    pub use super::u32_bits::{SCHEMA, read, write};
    pub const MAX_BITS: usize = 16;
    pub const MIN_BITS: usize = 32;
}

#[derive(bitpack::BitPack)]
struct Session {
    #[bitpack(with = id_bits)]
    id: u32,
}

fn main() {}
