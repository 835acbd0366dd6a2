#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(adaptive = true)]
    score: u32,
}

fn main() {}
