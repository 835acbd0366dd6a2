#[derive(bitpack::BitPack)]
struct Enemy {
    #[bits(min = 0, max = 1023)]
    x: u16,
    #[change_group]
    #[bitpack(skip)]
    cache: u32,
}

fn main() {}
