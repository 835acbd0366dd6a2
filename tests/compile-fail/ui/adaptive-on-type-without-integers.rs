#[derive(bitpack::BitPack)]
#[bitpack(adaptive)]
struct Player {
    alive: bool,
    #[bits(min = 0, max = 100)]
    health: u8,
}

fn main() {}
