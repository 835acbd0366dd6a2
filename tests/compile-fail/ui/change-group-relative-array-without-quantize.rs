#[derive(bitpack::BitPack)]
struct Enemy {
    #[change_group]
    #[bitpack(relative)]
    position: [f32; 3],
}

fn main() {}
