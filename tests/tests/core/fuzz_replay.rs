//! The fuzz targets' checks (`fuzz/logic/`), run on stable in the normal
//! test suite: over each target's committed corpus (`fuzz/corpus/<target>`,
//! minimised with `cargo fuzz cmin`), then over 100,000 random inputs per
//! target (an eighth of them unless `BITPACK_DEEP_TESTS=1`).

#[path = "../../../fuzz/logic/adaptive_and_changes.rs"]
mod adaptive_and_changes;
#[path = "../../../fuzz/logic/decode_columns.rs"]
mod decode_columns;
#[path = "../../../fuzz/logic/decode_derived.rs"]
mod decode_derived;
#[path = "../../../fuzz/logic/read_ops.rs"]
mod read_ops;
#[path = "../../../fuzz/logic/sync_receiver.rs"]
mod sync_receiver;

use std::path::Path;

const RANDOM_INPUTS: usize = 100_000;

/// Every file of the target's corpus; there is at least one.
fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus").join(target);
    let mut inputs: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| std::fs::read(entry.expect("a corpus entry").path()).expect("a corpus file"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "{} is empty", dir.display());
    inputs
}

/// `count` deterministic inputs of up to 96 bytes; every other one sparse
/// (mostly zero bits), where lengths, widths and flags of zero hide.
fn random_inputs(seed: u64, count: usize, mut check: impl FnMut(&[u8])) {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut bytes = [0u8; 96];
    for index in 0..count {
        let len = (next() % 97) as usize;
        for byte in bytes.iter_mut().take(len) {
            let random = next() as u8;
            *byte = if index % 2 == 0 { random } else { random & (next() as u8) & (next() as u8) };
        }
        check(&bytes[..len]);
    }
}

fn replay(target: &str, seed: u64, check: impl Fn(&[u8])) {
    for input in corpus(target) {
        check(&input);
    }
    random_inputs(seed, bitpack_tests::cases(RANDOM_INPUTS as u32) as usize, check);
}

#[test]
fn read_ops() {
    replay("read_ops", 0x9E37_79B9_7F4A_7C15, read_ops::check);
}

#[test]
fn decode_derived() {
    replay("decode_derived", 0x2545_F491_4F6C_DD1D, decode_derived::check);
}

#[test]
fn decode_columns() {
    replay("decode_columns", 0x6C8E_9CF5_7093_2BD1, decode_columns::check);
}

#[test]
fn adaptive_and_changes() {
    replay("adaptive_and_changes", 0xD1B5_4A32_D192_ED03, adaptive_and_changes::check);
}

#[test]
fn adaptive_and_changes_deltas_rewrite_exactly() {
    replay("adaptive_and_changes", 0xD1B5_4A32_D192_ED03, adaptive_and_changes::check_delta_exactly);
}

#[test]
fn sync_receiver() {
    replay("sync_receiver", 0x94D0_49BB_1331_11EB, sync_receiver::check);
}

#[path = "../../../fuzz/logic/sync_fragments.rs"]
mod sync_fragments;

#[test]
fn sync_fragments() {
    replay("sync_fragments", 0xBF58_476D_1CE4_E5B9, sync_fragments::check);
}
