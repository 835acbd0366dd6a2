#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 0, max = 10)]
    speed: f32,
}

fn main() {}
