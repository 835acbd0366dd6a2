#[derive(bitpack::BitPack)]
struct Enemy {
    #[change_group]
    #[bitpack(relative)]
    x: f32,
}

fn main() {}
