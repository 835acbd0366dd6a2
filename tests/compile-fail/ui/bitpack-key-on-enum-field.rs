#[derive(bitpack::BitPack)]
enum Thing {
    Unit {
        #[bitpack(key)]
        #[bits(min = 0, max = 4095)]
        id: u16,
    },
}

fn main() {}
