#[derive(bitpack::BitPack)]
struct Enemy {
    #[change_group]
    #[bitpack(relative)]
    #[quantize(min = -1.0, max = 1.0, res = 0.01)]
    weights: [f32; 32],
}

fn main() {}
