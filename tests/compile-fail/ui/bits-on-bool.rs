#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 0, max = 1)]
    alive: bool,
}

fn main() {}
