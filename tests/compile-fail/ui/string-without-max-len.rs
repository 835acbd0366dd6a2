#[derive(bitpack::BitPack)]
struct Player {
    name: String,
}

fn main() {}
