#[derive(bitpack::BitPack)]
struct Cube {
    #[quantize(min = -1.0, max = 1.0, res = 0.001)]
    orientation: glam::Quat,
}

fn main() {}
