#[path = "support/u32_bits.rs"]
mod u32_bits;

mod id_bits {
    pub use super::u32_bits::{MAX_BITS, SCHEMA, read, write};
}

#[derive(bitpack::BitPack)]
struct Session {
    #[bitpack(with = id_bits)]
    id: u32,
}

fn main() {}
