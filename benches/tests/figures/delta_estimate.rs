//! The delta estimate counts what it claims: flags always, group bits only
//! when a group's bits changed.

use bitpack::BitPack;
use bitpack_benches::dataset::{self, Snapshot};
use bitpack_benches::delta_estimate::{delta_bits, encode_delta};

#[test]
fn nothing_changed_costs_the_header_and_four_flags_per_entity() {
    let data = dataset::generate();
    for snapshot in &data.snapshots {
        assert_eq!(delta_bits(snapshot, snapshot).expect("counts"), 32 + 9 + 4 * snapshot.entities.len());
    }
}

#[test]
fn no_baseline_costs_the_full_snapshot_plus_the_flags() {
    let data = dataset::generate();
    let empty = Snapshot { tick: 0, entities: Vec::new() };
    for snapshot in &data.snapshots {
        let full = bitpack::measure(snapshot).expect("measures");
        assert_eq!(delta_bits(snapshot, &empty).expect("counts"), full + 4 * snapshot.entities.len());
    }
}

#[test]
fn deltas_are_written_and_much_smaller_than_full_snapshots() {
    let data = dataset::generate();
    let mut buf = vec![0u8; Snapshot::MAX_BITS.div_ceil(8) + 1024];
    for pair in data.snapshots.windows(2) {
        let bits = delta_bits(&pair[1], &pair[0]).expect("counts");
        let used = encode_delta(&pair[1], &pair[0], &mut buf).expect("writes");
        assert_eq!(used, bits.div_ceil(8));
        assert!(bits * 2 < bitpack::measure(&pair[1]).expect("measures"), "{bits}");
    }
}
