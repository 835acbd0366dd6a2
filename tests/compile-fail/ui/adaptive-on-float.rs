#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(adaptive)]
    speed: f32,
}

fn main() {}
