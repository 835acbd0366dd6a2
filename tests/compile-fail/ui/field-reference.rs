#[derive(bitpack::BitPack)]
struct Player<'a> {
    name: &'a str,
}

fn main() {}
