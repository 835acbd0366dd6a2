#[derive(bitpack::BitPack)]
struct Enemy {
    #[change_group]
    #[bitpack(relative, max_len = 8)]
    name: String,
}

fn main() {}
