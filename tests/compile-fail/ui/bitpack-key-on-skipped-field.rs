#[derive(bitpack::BitPack)]
struct Unit {
    #[bitpack(key, skip)]
    id: u16,
    #[bits(min = 0, max = 100)]
    health: u8,
}

fn main() {}
