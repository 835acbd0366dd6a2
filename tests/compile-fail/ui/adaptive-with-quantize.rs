#[derive(bitpack::BitPack)]
struct Player {
    #[quantize(min = -1.0, max = 1.0, res = 0.01)]
    #[bitpack(adaptive)]
    x: f32,
}

fn main() {}
