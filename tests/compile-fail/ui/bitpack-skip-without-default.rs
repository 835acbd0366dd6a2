struct Handle;

#[derive(bitpack::BitPack)]
struct Player {
    #[bitpack(skip)]
    handle: Handle,
}

fn main() {}
