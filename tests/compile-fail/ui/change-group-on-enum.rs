#[derive(bitpack::BitPack)]
#[change_group]
enum Command {
    Move(#[bits(min = 0, max = 1023)] u16),
    Stop,
}

fn main() {}
