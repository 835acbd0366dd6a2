#[derive(bitpack::BitPack)]
struct Body {
    #[change_group(motion)]
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    #[bitpack(relative(rate = position, dt = 0.5))]
    position: f32,
}

fn main() {}
