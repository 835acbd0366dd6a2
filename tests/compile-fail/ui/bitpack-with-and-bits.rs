#[path = "support/u32_bits.rs"]
mod u32_bits;

#[derive(bitpack::BitPack)]
struct Session {
    #[bits(min = 0, max = 100)]
    #[bitpack(with = u32_bits)]
    id: u32,
}

fn main() {}
