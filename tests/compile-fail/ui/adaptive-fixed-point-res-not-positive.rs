#[derive(bitpack::BitPack)]
struct Player {
    #[quantize(res = -0.001)]
    heading: f64,
}

fn main() {}
