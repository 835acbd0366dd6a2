#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(adaptive(group = ids))]
    id: u32,
    #[bitpack(adaptive(group = ids), max_len = 16)]
    name: String,
}

fn main() {}
