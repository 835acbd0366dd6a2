#[derive(bitpack::BitPack)]
struct Cube {
    // z: 16,383,999 steps, more than f32 arithmetic resolves (x and y are fine).
    #[quantize(min = [-256.0, -256.0, -4096.0], max = [255.0, 255.0, 4096.0], res = [0.01, 0.01, 0.0005])]
    position: glam::Vec3,
}

fn main() {}
