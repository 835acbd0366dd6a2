use bitpack::BitPack;

#[derive(BitPack)]
struct Chat {
    #[bitpack(max_len = 64, adaptive_len)]
    text: String,
}

fn main() {}
