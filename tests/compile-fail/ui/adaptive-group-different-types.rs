#[derive(bitpack::BitPack)]
struct Vec3 {
    #[bitpack(adaptive(group = xyz))]
    x: i32,
    #[bitpack(adaptive(group = xyz))]
    y: i64,
    #[bitpack(adaptive(group = xyz))]
    z: i32,
}

fn main() {}
