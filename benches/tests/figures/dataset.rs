//! The dataset is the same on every run and every platform, and has the
//! shape issue 6 asks for.

use bitpack_benches::dataset::{self, ENTITIES, ID_MAX, INPUTS, SNAPSHOTS};

#[test]
fn fingerprint_is_pinned() {
    let data = dataset::generate();
    // Changing the generator changes every published figure: update the
    // README's tables along with this value.
    assert_eq!(dataset::fingerprint(&data), FINGERPRINT);
    assert_eq!(dataset::fingerprint(&dataset::generate()), FINGERPRINT);
}

const FINGERPRINT: u64 = 0x99AD_9E5C_B3F1_7933;

#[test]
fn shape_matches_the_issue() {
    let data = dataset::generate();
    assert_eq!(data.snapshots.len(), SNAPSHOTS);
    assert_eq!(data.inputs.len(), INPUTS);
    let first = &data.snapshots[0];
    let ids: Vec<u16> = first.entities.iter().map(|e| e.id).collect();
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]), "ids distinct and ascending");
    assert!(ids.iter().all(|&id| id <= ID_MAX));

    let mut moving = 0;
    let mut health_changes = 0;
    let mut high_health = 0;
    let mut with_target = 0;
    for (index, snapshot) in data.snapshots.iter().enumerate() {
        assert_eq!(snapshot.entities.len(), ENTITIES);
        assert_eq!(snapshot.tick, first.tick + index as u32, "30 Hz: one tick per snapshot");
        for (slot, entity) in snapshot.entities.iter().enumerate() {
            assert_eq!(entity.id, ids[slot], "entities keep their slots");
            assert!(entity.position.iter().all(|p| (-1024.0..=1024.0).contains(p)));
            assert!(entity.velocity.iter().all(|v| (-64.0..=64.0).contains(v)));
            assert!((0.0..core::f32::consts::TAU).contains(&entity.yaw));
            assert!(entity.health <= 1000 && entity.armor <= 100);
            assert!(entity.target.is_none_or(|t| ids.contains(&t)));
            moving += usize::from(entity.velocity != [0.0; 3]);
            high_health += usize::from(entity.health >= 800);
            with_target += usize::from(entity.target.is_some());
            if index > 0 {
                let before = &data.snapshots[index - 1].entities[slot];
                health_changes += usize::from(before.health != entity.health);
                if entity.velocity == [0.0; 3] {
                    assert_eq!(before.position, entity.position, "still entities stay put");
                }
            }
        }
    }
    let samples = (SNAPSHOTS * ENTITIES) as f64;
    let moving = moving as f64 / samples;
    let health_changes = health_changes as f64 / ((SNAPSHOTS - 1) * ENTITIES) as f64;
    assert!((0.33..0.47).contains(&moving), "about 40% moving: {moving}");
    assert!((0.03..0.07).contains(&health_changes), "about 5% change health: {health_changes}");
    let high_health = high_health as f64 / samples;
    assert!(high_health > 0.6, "health mostly high: {high_health}");
    assert!((0.2..0.4).contains(&(with_target as f64 / samples)), "some targets");

    let sequences: Vec<u16> = data.inputs.iter().map(|i| i.sequence).collect();
    assert!(sequences.windows(2).all(|pair| pair[1] == pair[0].wrapping_add(1)));
    assert!(sequences.contains(&u16::MAX) && sequences.contains(&0), "the sequence wraps");
    for input in &data.inputs {
        assert!((-1.0..=1.0).contains(&input.move_x) && (-1.0..=1.0).contains(&input.move_y));
        assert!((-core::f32::consts::PI..=core::f32::consts::PI).contains(&input.aim_yaw));
        assert!(input.aim_pitch.abs() <= core::f32::consts::FRAC_PI_2);
        assert!(input.weapon <= 15);
    }
}

/// The default allocation limit of `decode` (64 KiB plus 1 KiB per input
/// byte) never refuses a message of the dataset: every snapshot, input and
/// stream message decodes with it, and the largest allocation a decode can
/// claim (a snapshot's `Vec<Entity>`) is far inside it.
#[test]
fn every_message_decodes_within_the_default_allocation_limit() {
    use bitpack::{BitPack, BitReader};
    use bitpack_benches::dataset::{Entity, PlayerInput, Snapshot};
    use bitpack_benches::stream;

    let data = dataset::generate();
    let mut tightest = f64::MAX;
    for snapshot in &data.snapshots {
        let bytes = bitpack::encode(snapshot).expect("encodes");
        let claim = snapshot.entities.len() * size_of::<Entity>();
        let limit = BitReader::default_limit(bytes.len());
        tightest = tightest.min(limit as f64 / claim as f64);
        let decoded = bitpack::decode::<Snapshot>(&bytes).expect("decodes");
        assert_eq!(bitpack::decode_with_limit::<Snapshot>(&bytes, claim).expect("decodes"), decoded);
    }
    assert!(tightest > 100.0, "{tightest}x the largest claim");
    for input in &data.inputs {
        let bytes = bitpack::encode(input).expect("encodes");
        PlayerInput::read_from(&mut BitReader::new(&bytes)).expect("decodes");
    }
    let mut state: Snapshot = bitpack::decode(&stream::delta_messages(&data.snapshots).expect("writes")[0])
        .expect("decodes the first whole");
    for message in stream::delta_messages(&data.snapshots).expect("writes").iter().skip(1) {
        state = stream::read_delta(&state, message).expect("reads within the default limit");
    }
    let mut tracked = stream::blank_snapshot(dataset::ENTITIES);
    for message in stream::tracked_messages(&data.snapshots).expect("writes") {
        stream::read_tracked(&mut tracked, &message).expect("reads within the default limit");
    }
}
