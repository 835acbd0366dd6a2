use std::collections::BTreeMap;

#[derive(bitpack::BitPack, Clone, Default, PartialEq)]
struct Unit {
    #[bits(min = 0, max = 100)]
    health: u8,
}

#[derive(bitpack::BitPack)]
struct World {
    #[change_group]
    #[bitpack(max_len = 64)]
    units: BTreeMap<u32, Unit>,
}

fn main() {}
