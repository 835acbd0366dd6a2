#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(columns)]
    score: u32,
}

fn main() {}
