#[derive(bitpack::BitPack)]
struct Body {
    #[change_group(motion)]
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    #[bitpack(relative(rate = velocity, dt = 0.5))]
    position: mint::Vector3<f32>,
    #[change_group(motion)]
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    velocity: [f32; 3],
}

fn main() {}
