#[derive(bitpack::BitPack)]
struct Cube {
    #[quantize(min = [-256.0, -256.0], max = 255.0, res = 0.01)]
    position: glam::Vec3,
}

fn main() {}
