#[derive(bitpack::BitPack, Clone, Default, PartialEq)]
struct Unit {
    #[change_group]
    #[bits(min = 0, max = 100)]
    health: u8,
}

#[derive(bitpack::BitPack)]
struct World {
    #[change_group]
    #[bitpack(max_len = 64)]
    units: Vec<Unit>,
}

fn main() {}
