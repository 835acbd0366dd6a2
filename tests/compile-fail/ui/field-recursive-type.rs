#[derive(bitpack::BitPack)]
enum Tree {
    Leaf,
    Node(Box<Tree>, Box<Tree>),
}

fn main() {}
