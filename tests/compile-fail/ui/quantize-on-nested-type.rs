#[derive(bitpack::BitPack)]
struct Position {
    x: f32,
    y: f32,
}

#[derive(bitpack::BitPack)]
struct Player {
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    position: Position,
}

fn main() {}
