#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(adaptive)]
    scores: Vec<u32>,
}

fn main() {}
