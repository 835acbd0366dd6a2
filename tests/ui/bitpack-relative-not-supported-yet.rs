#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(relative)]
    sequence: u16,
}

fn main() {}
