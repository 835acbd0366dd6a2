#[derive(bitpack::BitPack)]
struct Cube {
    #[quantize(bits = 9, res = 0.01)]
    orientation: glam::Quat,
}

fn main() {}
