use std::collections::HashMap;

#[derive(bitpack::BitPack)]
struct Scores {
    by_player: HashMap<u16, u32>,
}

fn main() {}
