#[derive(bitpack::BitPack)]
struct Enemy {
    #[change_group]
    #[bitpack(relative)]
    health: u16,
}

fn main() {}
