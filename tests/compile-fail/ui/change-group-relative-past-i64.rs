#[derive(bitpack::BitPack)]
struct Ledger {
    #[change_group]
    #[bits(min = 0, max = 18446744073709551615)]
    #[bitpack(relative)]
    total: u64,
}

fn main() {}
