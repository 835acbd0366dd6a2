#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(skip)]
    #[bits(min = 0, max = 10)]
    cache: u16,
}

fn main() {}
