#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(max_len = 16)]
    #[bitpack(max_len = 32)]
    name: String,
}

fn main() {}
