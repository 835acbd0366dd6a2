#[derive(bitpack::BitPack)]
struct Tile {
    #[bits(min = [0, 0, 0], max = 100)]
    cell: glam::IVec2,
}

fn main() {}
