#[derive(bitpack::BitPack)]
#[bitpack(adaptive(group = xy))]
struct Vec2 {
    x: i32,
    y: i32,
}

fn main() {}
