#[derive(bitpack::BitPack)]
#[bitpack(adaptive(group))]
struct Stats {
    kills: u32,
    alive: bool,
}

fn main() {}
