#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 1000, max = 10)]
    health: u16,
}

fn main() {}
