#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 0, max = [10, 10])]
    health: u16,
}

fn main() {}
