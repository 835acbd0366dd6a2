#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 0, max = 10)]
    #[quantize(res = 0.5)]
    heading: f32,
}

fn main() {}
