#[derive(bitpack::BitPack)]
struct Path {
    #[bitpack(adaptive(group = points))]
    start: i32,
    #[bitpack(adaptive(group = points))]
    rest: [i32; 3],
}

fn main() {}
