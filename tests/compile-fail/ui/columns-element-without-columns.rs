#[derive(bitpack::BitPack)]
struct Contact {
    id: u32,
}

#[derive(bitpack::BitPack)]
struct Update {
    #[bitpack(columns, max_len = 16)]
    contacts: Vec<Contact>,
}

fn main() {}
