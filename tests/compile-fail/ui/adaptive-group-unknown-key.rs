#[derive(bitpack::BitPack)]
struct Vec2 {
    #[bitpack(adaptive(grup = xy))]
    x: i32,
    #[bitpack(adaptive)]
    y: i32,
}

fn main() {}
