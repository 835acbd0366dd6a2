#[derive(bitpack::BitPack)]
#[bitpack(columns)]
struct Sample {
    #[quantize(res = 0.01)]
    level: f32,
}

fn main() {}
