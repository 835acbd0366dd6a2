#[derive(bitpack::BitPack)]
struct Player {
    #[quantize(res = 0.5)]
    score: i32,
}

fn main() {}
