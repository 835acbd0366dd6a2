#[derive(bitpack::BitPack)]
#[bitpack(adaptive(group))]
enum Shape {
    Point { x: i32, y: i32 },
    Empty,
}

fn main() {}
