#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(adaptive)]
    alive: bool,
}

fn main() {}
