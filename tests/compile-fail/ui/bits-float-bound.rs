#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 0, max = 10.5)]
    health: u16,
}

fn main() {}
