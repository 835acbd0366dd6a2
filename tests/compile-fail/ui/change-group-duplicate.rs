#[derive(bitpack::BitPack)]
struct Enemy {
    #[change_group(motion)]
    #[change_group(position)]
    #[bits(min = 0, max = 1023)]
    x: u16,
}

fn main() {}
