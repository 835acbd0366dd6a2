use bitpack::BitPack;

#[derive(BitPack)]
struct Scores {
    #[bitpack(max_len = 64, adaptive, adaptive_len)]
    scores: Vec<u32>,
}

fn main() {}
