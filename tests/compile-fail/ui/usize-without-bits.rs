#[derive(bitpack::BitPack)]
struct Player {
    count: usize,
}

fn main() {}
