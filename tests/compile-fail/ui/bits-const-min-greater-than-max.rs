const LOW: i32 = 50;
const HIGH: i32 = 10;

#[derive(bitpack::BitPack)]
struct Player {
    #[bits(min = LOW, max = HIGH)]
    health: i32,
}

fn main() {}
