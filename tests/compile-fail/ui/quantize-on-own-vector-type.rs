// A type of the user's named like glam's vector: recognised by name, then
// refused by the compiler (as glam's own is without the `glam` feature).
struct Vec3 {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(bitpack::BitPack)]
struct Cube {
    #[quantize(min = -1.0, max = 1.0, res = 0.01)]
    position: Vec3,
}

fn main() {}
