//! Issue 16's datasets: deterministic (fingerprints pinned), shaped as the
//! issue asks, the same data in every layout, and the size claims of
//! benches/README.md ("Column widths (issue 16)"): bitpack's columns
//! smaller than bitcode on each, and than bitpack's rows and adaptive.

use bitpack_benches::{mk48, unranged, weblog};

const MK48_FINGERPRINT: u64 = 0xbbe4_86e5_6e88_49b3;
const WEBLOG_FINGERPRINT: u64 = 0x6d88_7249_a479_d7af;

fn total<T: bitpack::BitPack>(messages: &[T]) -> usize {
    messages.iter().map(|message| bitpack::encode(message).expect("encodes").len()).sum()
}

fn bitcode_total<T: bitcode::Encode>(messages: &[T]) -> usize {
    messages.iter().map(|message| bitcode::encode(message).len()).sum()
}

#[test]
fn fingerprints_are_pinned() {
    assert_eq!(mk48::fingerprint(&mk48::rows::generate()), MK48_FINGERPRINT);
    assert_eq!(weblog::fingerprint(&weblog::rows::generate()), WEBLOG_FINGERPRINT);
}

#[test]
fn every_layout_holds_the_same_data() {
    // bitcode ignores bitpack's attributes: equal bytes are equal values.
    let rows: Vec<Vec<u8>> = mk48::rows::generate().iter().map(bitcode::encode).collect();
    let columns: Vec<Vec<u8>> = mk48::columns::generate().iter().map(bitcode::encode).collect();
    let adaptive: Vec<Vec<u8>> = mk48::adaptive::generate().iter().map(bitcode::encode).collect();
    assert!(rows == columns && rows == adaptive);
    let rows: Vec<Vec<u8>> = weblog::rows::generate().iter().map(bitcode::encode).collect();
    let columns: Vec<Vec<u8>> = weblog::columns::generate().iter().map(bitcode::encode).collect();
    assert_eq!(rows, columns);
    let rows: Vec<Vec<u8>> = unranged::rows::generate().iter().map(bitcode::encode).collect();
    let columns: Vec<Vec<u8>> = unranged::columns::generate().iter().map(bitcode::encode).collect();
    assert_eq!(rows, columns);
}

#[test]
fn mk48_is_shaped_as_the_issue_asks() {
    let updates = mk48::rows::generate();
    let contacts: Vec<_> = updates.iter().flat_map(|update| &update.contacts).collect();
    let below = contacts.iter().filter(|contact| contact.id < 8192).count();
    assert!(below * 100 >= contacts.len() * 85, "ids mostly below 8192: {below} of {}", contacts.len());
    let boats: Vec<_> = contacts.iter().filter(|contact| !contact.reloads.is_empty()).collect();
    let reloads: usize = boats.iter().map(|contact| contact.reloads.len()).sum();
    assert!((9..=11).contains(&(reloads / boats.len())), "about 10 reloads");
    assert!(boats.iter().any(|contact| !contact.turrets.is_empty()));
    assert!(contacts.iter().any(|contact| contact.entity_type.is_none()));
    assert!(contacts.iter().any(|contact| contact.guidance.is_some()));
    assert!(updates.iter().any(|update| !update.terrain.is_empty()));
}

#[test]
fn columns_are_smaller_than_bitcode_rows_and_adaptive() {
    let sizes = [
        (
            "mk48",
            total(&mk48::rows::generate()),
            total(&mk48::adaptive::generate()),
            total(&mk48::columns::generate()),
            bitcode_total(&mk48::rows::generate()),
        ),
        (
            "weblog",
            total(&weblog::rows::generate()),
            total(&weblog::adaptive::generate()),
            total(&weblog::columns::generate()),
            bitcode_total(&weblog::rows::generate()),
        ),
        (
            "unranged",
            total(&unranged::rows::generate()),
            total(&unranged::adaptive::generate()),
            total(&unranged::columns::generate()),
            bitcode_total(&unranged::rows::generate()),
        ),
    ];
    for (name, rows, adaptive, columns, bitcode) in sizes {
        assert!(columns < bitcode && columns < rows && columns < adaptive, "{name}: {sizes:?}");
    }
    // The table in benches/README.md, byte for byte.
    assert_eq!(
        sizes,
        [
            ("mk48", 385_250, 328_757, 304_330, 371_148),
            ("weblog", 306_916, 227_674, 194_154, 235_336),
            ("unranged", 427_482, 270_485, 251_884, 420_522),
        ]
    );
}

#[test]
fn columns_round_trip_every_message() {
    for update in mk48::columns::generate() {
        assert_eq!(
            bitpack::decode::<mk48::columns::Update>(&bitpack::encode(&update).unwrap()).unwrap(),
            update
        );
    }
    for batch in weblog::columns::generate() {
        assert_eq!(
            bitpack::decode::<weblog::columns::Batch>(&bitpack::encode(&batch).unwrap()).unwrap(),
            batch
        );
    }
    for snapshot in unranged::columns::generate() {
        let bytes = bitpack::encode(&snapshot).unwrap();
        assert_eq!(bitpack::decode::<unranged::columns::Snapshot>(&bytes).unwrap(), snapshot);
    }
}
