#[derive(bitpack::BitPack)]
#[bitpack(columns)]
enum Never {}

fn main() {}
