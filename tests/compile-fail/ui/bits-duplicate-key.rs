#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 0, max = 10, max = 20)]
    health: u16,
}

fn main() {}
