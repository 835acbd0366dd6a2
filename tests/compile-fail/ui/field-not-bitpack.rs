struct Handle;

#[derive(bitpack::BitPack)]
struct Player {
    handle: Handle,
}

fn main() {}
