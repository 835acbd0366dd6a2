#[derive(bitpack::BitPack)]
struct Health(#[bits(min = 0, max = 100)] u8);

#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(adaptive)]
    health: Health,
}

fn main() {}
