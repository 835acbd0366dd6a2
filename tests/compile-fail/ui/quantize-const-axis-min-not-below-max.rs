const MIN: [f32; 3] = [0.0, 0.0, 2.0];
const MAX: [f32; 3] = [1.0, 1.0, 1.0];

#[derive(bitpack::BitPack)]
struct Cube {
    #[quantize(min = MIN, max = MAX, res = 0.01)]
    position: glam::Vec3,
}

fn main() {}
