#[derive(bitpack::BitPack)]
struct Player {
    #[change_group]
    #[bits(min = 0, max = 1000)]
    health: i32,
    #[bitpack(adaptive)]
    score: i64,
}

fn main() {}
