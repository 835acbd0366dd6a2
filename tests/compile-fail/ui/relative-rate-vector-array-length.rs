#[derive(bitpack::BitPack)]
struct Wings {
    #[change_group(motion)]
    #[quantize(min = -10.0, max = 10.0, res = 0.01)]
    #[bitpack(relative(rate = flap, dt = 0.5))]
    tips: [glam::Vec2; 2],
    #[change_group(motion)]
    #[quantize(min = -30.0, max = 30.0, res = 0.01)]
    flap: glam::Vec2,
}

fn main() {}
