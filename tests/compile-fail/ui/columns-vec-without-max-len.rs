#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(columns)]
    scores: Vec<u32>,
}

fn main() {}
