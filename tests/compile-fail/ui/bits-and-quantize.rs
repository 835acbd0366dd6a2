#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 0, max = 10)]
    #[quantize(min = 0.0, max = 10.0, res = 0.1)]
    speed: f32,
}

fn main() {}
