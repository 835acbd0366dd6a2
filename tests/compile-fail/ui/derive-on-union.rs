#[derive(bitpack::BitPack)]
union Either {
    int: u32,
    float: f32,
}

fn main() {}
