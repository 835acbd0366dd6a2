#[derive(bitpack::BitPack)]
struct Unit {
    #[bitpack(key)]
    #[bits(min = 0, max = 4095)]
    id: u16,
    #[bitpack(key)]
    #[bits(min = 0, max = 4095)]
    owner: u16,
}

fn main() {}
