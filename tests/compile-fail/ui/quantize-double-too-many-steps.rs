#[derive(bitpack::BitPack)]
struct Galaxy {
    #[quantize(min = -1.0e9, max = 1.0e9, res = 1.0e-9)]
    x: f64,
}

fn main() {}
