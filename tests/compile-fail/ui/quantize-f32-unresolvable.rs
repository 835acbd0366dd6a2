#[derive(bitpack::BitPack)]
struct Player {
    // 16,383,999 steps: f32 arithmetic does not resolve them.
    #[quantize(min = -4096.0, max = 4096.0, res = 0.0005)]
    x: f32,
}

fn main() {}
