#[derive(bitpack::BitPack)]
struct Cube {
    #[bits(min = 0, max = 100)]
    position: glam::Vec3,
}

fn main() {}
