#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 0, max = 100)]
    #[bitpack(adaptive)]
    health: u8,
}

fn main() {}
