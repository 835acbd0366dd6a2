#[derive(bitpack::BitPack)]
enum Command {
    #[change_group(motion)]
    Move(#[bits(min = 0, max = 1023)] u16),
    Stop,
}

fn main() {}
