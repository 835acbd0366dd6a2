const RES: f64 = 0.0;

#[derive(bitpack::BitPack)]
struct Player {
    #[quantize(res = RES)]
    heading: f64,
}

fn main() {}
