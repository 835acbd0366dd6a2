#[derive(bitpack::BitPack)]
#[bitpack(columns)]
struct Pair<T> {
    left: T,
    right: T,
}

fn main() {}
