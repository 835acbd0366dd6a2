#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 0)]
    health: u16,
}

fn main() {}
