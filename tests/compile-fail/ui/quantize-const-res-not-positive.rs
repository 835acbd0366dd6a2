const RES: f32 = -0.5;

#[derive(bitpack::BitPack)]
struct Player {
    #[quantize(min = 0.0, max = 10.0, res = RES)]
    x: f32,
}

fn main() {}
