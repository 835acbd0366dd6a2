#[derive(bitpack::BitPack)]
struct Player {
    #[quantize(min = 0.0, max = 10.0, res = 0.0)]
    x: f32,
}

fn main() {}
