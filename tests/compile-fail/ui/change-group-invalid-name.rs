#[derive(bitpack::BitPack)]
struct Enemy {
    #[change_group("motion")]
    #[bits(min = 0, max = 1023)]
    x: u16,
}

fn main() {}
