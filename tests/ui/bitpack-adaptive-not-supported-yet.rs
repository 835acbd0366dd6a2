#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(adaptive)]
    score: u32,
}

fn main() {}
