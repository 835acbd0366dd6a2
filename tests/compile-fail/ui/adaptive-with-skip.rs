#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(skip, adaptive)]
    score: u32,
}

fn main() {}
