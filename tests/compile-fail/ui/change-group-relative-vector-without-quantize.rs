#[derive(bitpack::BitPack)]
struct Body {
    #[change_group]
    #[bitpack(relative)]
    position: glam::Vec3,
}

fn main() {}
