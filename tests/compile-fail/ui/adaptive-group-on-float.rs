#[derive(bitpack::BitPack)]
struct Vec2 {
    #[bitpack(adaptive(group = xy))]
    x: f32,
    #[bitpack(adaptive(group = xy))]
    y: i32,
}

fn main() {}
