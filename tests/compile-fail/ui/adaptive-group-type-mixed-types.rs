#[derive(bitpack::BitPack)]
#[bitpack(adaptive(group))]
struct Stats {
    kills: u32,
    score: u64,
}

fn main() {}
