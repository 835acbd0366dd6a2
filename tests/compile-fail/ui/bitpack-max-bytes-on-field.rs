#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(max_bytes = 4)]
    health: u16,
}

fn main() {}
