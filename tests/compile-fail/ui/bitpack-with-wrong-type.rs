#[path = "support/u32_bits.rs"]
mod u32_bits;

#[derive(bitpack::BitPack)]
struct Session {
    #[bitpack(with = u32_bits)]
    id: u64,
}

fn main() {}
