#[derive(bitpack::BitPack)]
struct Player {
    #[quantize(min = 0.0, max = 1.0, res = 0.1)]
    alive: bool,
}

fn main() {}
