#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(max_length = 16)]
    #[bitpack(max_len = 16)]
    name: String,
}

fn main() {}
