//! The derived change-group streams decode to exactly what the whole
//! snapshots decode to, and cost what the groups say.

use bitpack::BitPack;
use bitpack_benches::dataset::{self, Snapshot};
use bitpack_benches::{delta_estimate, stream};

fn decoded(snapshot: &Snapshot) -> Snapshot {
    bitpack::decode(&bitpack::encode(snapshot).expect("encodes")).expect("decodes")
}

#[test]
fn tracked_stream_rebuilds_every_snapshot() {
    let data = dataset::generate();
    let messages = stream::tracked_messages(&data.snapshots).expect("writes");
    let mut state = stream::blank_snapshot(dataset::ENTITIES);
    for (message, snapshot) in messages.iter().zip(&data.snapshots) {
        stream::read_tracked(&mut state, message).expect("reads");
        assert_eq!(state, decoded(snapshot));
    }
    // The first message sends every group: the whole snapshot plus 4 flags per entity.
    let first_bits = bitpack::measure(&data.snapshots[0]).expect("measures") + 4 * dataset::ENTITIES;
    assert_eq!(messages[0].len(), first_bits.div_ceil(8));
}

#[test]
fn delta_stream_rebuilds_every_snapshot() {
    let data = dataset::generate();
    let messages = stream::delta_messages(&data.snapshots).expect("writes");
    assert_eq!(messages.len(), data.snapshots.len());
    let mut state: Snapshot = bitpack::decode(&messages[0]).expect("decodes the first whole");
    for (message, snapshot) in messages.iter().zip(&data.snapshots).skip(1) {
        state = stream::read_delta(&state, message).expect("reads");
        assert_eq!(state, decoded(snapshot));
    }
}

#[test]
fn derived_delta_costs_what_the_estimate_counted() {
    let data = dataset::generate();
    let messages = stream::delta_messages(&data.snapshots).expect("writes");
    for (message, pair) in messages.iter().skip(1).zip(data.snapshots.windows(2)) {
        let bits = delta_estimate::delta_bits(&pair[1], &pair[0]).expect("counts");
        assert_eq!(message.len(), bits.div_ceil(8));
        assert!(message.len() * 2 < Snapshot::MAX_BITS / 8);
    }
}

#[test]
fn a_different_entity_count_is_refused() {
    let data = dataset::generate();
    let mut fewer = data.snapshots[1].clone();
    fewer.entities.pop();
    let mut buf = vec![0u8; 1 << 16];
    assert!(stream::write_delta(&fewer, &data.snapshots[0], &mut buf).is_err());
    let used = stream::write_delta(&data.snapshots[1], &data.snapshots[0], &mut buf).expect("writes");
    assert!(stream::read_delta(&fewer, &buf[..used]).is_err());
    let mut state = stream::blank_snapshot(10);
    assert!(stream::read_tracked(&mut state, &buf[..used]).is_err());
}
