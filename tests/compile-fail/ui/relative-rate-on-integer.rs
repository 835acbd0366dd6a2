#[derive(bitpack::BitPack)]
struct Body {
    #[change_group(motion)]
    #[bits(min = 0, max = 1000)]
    #[bitpack(relative(rate = velocity, dt = 1))]
    position: u16,
    #[change_group(motion)]
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    velocity: f32,
}

fn main() {}
