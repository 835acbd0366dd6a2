// Every mistake in a type is reported at once, each at its own attribute.
#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 1000, max = 10)]
    health: u16,
    #[bits(min = 0, max = 1000)]
    level: u8,
    #[quantize(min = 0.0, max = 10.0, res = 0.0)]
    x: f32,
    #[quantize(min = 0.0, max = 1.0, res = 0.1)]
    count: u32,
    name: String,
    #[bitpack(max_length = 16)]
    tag: bool,
}

fn main() {}
