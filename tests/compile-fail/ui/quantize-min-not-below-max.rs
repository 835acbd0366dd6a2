#[derive(bitpack::BitPack)]
struct Player {
    #[quantize(min = 10.0, max = -10.0, res = 0.1)]
    x: f32,
}

fn main() {}
