#[derive(bitpack::BitPack)]
struct Player {
    #[quantize(bits = 9)]
    yaw: f32,
}

fn main() {}
