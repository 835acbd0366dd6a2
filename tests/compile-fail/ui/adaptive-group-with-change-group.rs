#[derive(bitpack::BitPack)]
struct Enemy {
    #[change_group(motion)]
    #[bitpack(adaptive(group = xy))]
    x: i32,
    #[change_group(motion)]
    #[bitpack(adaptive(group = xy))]
    y: i32,
}

fn main() {}
