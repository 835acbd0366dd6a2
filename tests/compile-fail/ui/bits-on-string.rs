#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 0, max = 10)]
    #[bitpack(max_len = 16)]
    name: String,
}

fn main() {}
