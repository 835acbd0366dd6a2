#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = -200, max = 0)]
    offset: i8,
}

fn main() {}
