#[derive(bitpack::BitPack)]
struct Player {
    #[quantize(min = -100000.0, max = 100000.0, res = 0.00001)]
    x: f32,
}

fn main() {}
