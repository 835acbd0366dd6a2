#[derive(bitpack::BitPack)]
struct Tile {
    #[quantize(min = 0.0, max = 10.0, res = 0.5)]
    cell: glam::IVec3,
}

fn main() {}
