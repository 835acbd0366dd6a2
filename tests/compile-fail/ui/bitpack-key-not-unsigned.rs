#[derive(bitpack::BitPack)]
struct Unit {
    #[bitpack(key)]
    #[bits(min = -100, max = 100)]
    id: i16,
}

fn main() {}
