#[derive(bitpack::BitPack)]
struct Score {
    #[bitpack(adaptive(group = points))]
    points: u32,
    #[bitpack(adaptive)]
    kills: u32,
}

fn main() {}
