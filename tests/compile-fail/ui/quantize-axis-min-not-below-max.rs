#[derive(bitpack::BitPack)]
struct Cube {
    #[quantize(min = [0.0, 5.0, 0.0], max = [1.0, 1.0, 1.0], res = 0.01)]
    position: glam::Vec3,
}

fn main() {}
