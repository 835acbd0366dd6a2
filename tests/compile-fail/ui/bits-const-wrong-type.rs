const MAX_HEALTH: i64 = 1000;

#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = 0, max = MAX_HEALTH)]
    health: i32,
}

fn main() {}
