#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(max_len = 8)]
    health: u16,
}

fn main() {}
