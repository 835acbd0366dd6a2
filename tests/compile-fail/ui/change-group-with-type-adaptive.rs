#[derive(bitpack::BitPack)]
#[bitpack(adaptive)]
struct Player {
    #[change_group]
    #[bits(min = 0, max = 1000)]
    health: i32,
    score: i64,
}

fn main() {}
