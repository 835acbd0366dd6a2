#[derive(bitpack::BitPack)]
#[bitpack(max_bytes = 4)]
struct Player {
    #[bits(min = 0, max = 1000)]
    health: u16,
    #[bitpack(max_len = 16)]
    name: String,
}

fn main() {}
