#[derive(bitpack::BitPack)]
struct Cube {
    #[quantize(bits = 31)]
    orientation: glam::Quat,
}

fn main() {}
