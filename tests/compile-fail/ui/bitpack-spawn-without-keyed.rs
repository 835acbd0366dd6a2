fn fresh() -> u8 {
    100
}

#[derive(bitpack::BitPack)]
struct Unit {
    #[change_group]
    #[bits(min = 0, max = 100)]
    #[bitpack(spawn = fresh)]
    health: u8,
}

fn main() {}
