#[derive(bitpack::BitPack, Clone)]
struct Position {
    #[bits(min = 0, max = 1023)]
    x: u16,
}

#[derive(bitpack::BitPack)]
struct Enemy {
    #[change_group]
    position: Position,
}

fn main() {}
