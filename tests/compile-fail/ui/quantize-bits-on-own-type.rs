struct Rotor {
    angle: f32,
}

#[derive(bitpack::BitPack)]
struct Cube {
    #[quantize(bits = 9)]
    orientation: Rotor,
}

fn main() {}
