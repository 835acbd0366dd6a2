#[derive(bitpack::BitPack)]
struct Player {
    #[change_group]
    health: u16,
}

fn main() {}
