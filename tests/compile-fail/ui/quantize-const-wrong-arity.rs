const MIN: [f32; 2] = [-256.0, -256.0];

#[derive(bitpack::BitPack)]
struct Cube {
    #[quantize(min = MIN, max = 255.0, res = 0.01)]
    position: glam::Vec3,
}

fn main() {}
