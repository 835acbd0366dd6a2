#[derive(bitpack::BitPack)]
struct Player {
    inventory: Vec<u8>,
}

fn main() {}
