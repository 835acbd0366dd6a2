#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 0, max = 1000)]
    health: u8,
}

fn main() {}
