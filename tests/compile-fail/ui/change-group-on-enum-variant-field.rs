#[derive(bitpack::BitPack)]
enum Command {
    Move {
        #[change_group]
        #[bits(min = 0, max = 1023)]
        x: u16,
    },
    Stop,
}

fn main() {}
