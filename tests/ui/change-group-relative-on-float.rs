#[derive(bitpack::BitPack)]
struct Enemy {
    #[change_group]
    #[quantize(min = -512.0, max = 512.0, res = 0.01)]
    #[bitpack(relative)]
    x: f32,
}

fn main() {}
