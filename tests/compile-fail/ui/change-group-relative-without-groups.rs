#[derive(bitpack::BitPack)]
struct Enemy {
    #[bits(min = 0, max = 1000)]
    #[bitpack(relative)]
    health: u16,
}

fn main() {}
