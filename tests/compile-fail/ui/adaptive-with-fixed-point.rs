#[derive(bitpack::BitPack)]
struct Player {
    #[quantize(res = 0.001)]
    #[bitpack(adaptive)]
    heading: f64,
}

fn main() {}
