const ORIENTATION_BITS: u32 = 1;

#[derive(bitpack::BitPack)]
struct Cube {
    #[quantize(bits = ORIENTATION_BITS)]
    orientation: glam::Quat,
}

fn main() {}
