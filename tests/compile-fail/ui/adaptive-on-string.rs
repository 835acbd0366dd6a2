#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(adaptive, max_len = 16)]
    name: String,
}

fn main() {}
