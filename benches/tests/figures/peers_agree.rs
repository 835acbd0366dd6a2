//! Every peer round-trips the dataset, and bitpack and the hand packer
//! write the same bytes, so the size and speed comparisons are like for like.

use bitpack::{BitCounter, BitPack, BitReader, BitWriter};
use bitpack_benches::dataset::{self, PlayerInput, Snapshot};
use bitpack_benches::hand_game;
use bitpack_benches::peers;
use bitpack_benches::quantized::{PlayerInputQ, SnapshotQ};

fn bitpack_bytes<T: BitPack>(value: &T) -> Vec<u8> {
    let mut buf = vec![0u8; T::MAX_BITS.div_ceil(8)];
    let mut writer = BitWriter::new(&mut buf);
    value.write_to(&mut writer).expect("writes");
    let used = writer.finish().expect("finishes");
    buf.truncate(used);
    buf
}

#[test]
fn hand_packer_writes_bitpacks_bytes() {
    let data = dataset::generate();
    let mut buf = vec![0u8; hand_game::SNAPSHOT_MAX_BYTES];
    // The fused writer keeps 8 bytes of slack; fill it with garbage, which the bytes must not show.
    let mut wide = vec![0xA5u8; hand_game::SNAPSHOT_MAX_BYTES + 8];
    assert!(hand_game::write_snapshot_fused(&data.snapshots[0], &mut buf).is_none(), "no slack, no write");
    for snapshot in &data.snapshots {
        let ours = bitpack_bytes(snapshot);
        let used = hand_game::write_snapshot(snapshot, &mut buf).expect("hand writes");
        assert_eq!(ours, buf[..used]);
        let mut counter = BitCounter::new();
        snapshot.write_to(&mut counter).expect("counts");
        assert_eq!(counter.bytes(), used, "rounded up once per message");

        let fused = hand_game::write_snapshot_fused(snapshot, &mut wide).expect("hand writes");
        assert_eq!(ours, wide[..fused], "the fused hand packer writes the same bytes");

        let back = Snapshot::read_from(&mut BitReader::new(&ours)).expect("bitpack reads");
        assert_eq!(hand_game::read_snapshot(&ours).as_ref(), Some(&back));
        assert_eq!(hand_game::read_snapshot_fused(&ours).as_ref(), Some(&back));
        for (before, after) in snapshot.entities.iter().zip(&back.entities) {
            assert_eq!(
                (before.id, before.kind, before.health, before.armor),
                (after.id, after.kind, after.health, after.armor)
            );
            assert_eq!((before.flags, before.target), (after.flags, after.target));
            for (b, a) in before.position.iter().zip(&after.position) {
                assert!((b - a).abs() <= 0.006, "{b} -> {a}");
            }
            assert_eq!(before.velocity == [0.0; 3], after.velocity == [0.0; 3], "still stays still");
        }
    }
    for input in &data.inputs {
        let ours = bitpack_bytes(input);
        assert_eq!(ours.len(), hand_game::INPUT_BYTES);
        let used = hand_game::write_input(input, &mut buf).expect("hand writes");
        assert_eq!(ours, buf[..used]);
        let back = PlayerInput::read_from(&mut BitReader::new(&ours)).expect("bitpack reads");
        assert_eq!(hand_game::read_input(&ours), Some(back));
        assert_eq!(
            (back.tick, back.buttons, back.weapon, back.sequence),
            (input.tick, input.buttons, input.weapon, input.sequence)
        );
    }
}

#[test]
fn hand_readers_refuse_out_of_range_fields() {
    let data = dataset::generate();
    let bytes = bitpack_bytes(&data.snapshots[0]);
    // The first entity starts at bit 41: id 12, kind 3, then its first position.
    let set_bits = |bytes: &mut [u8], from: usize, count: usize| {
        for bit in from..from + count {
            bytes[bit / 8] |= 1 << (bit % 8);
        }
    };
    // Every position bit set: 2^18 - 1 steps, above the 204800 declared.
    let mut position = bytes.clone();
    set_bits(&mut position, 41 + 15, 18);
    // health at 41 + 15 + 54 + 42 + 13: 1023 > 1000.
    let mut health = bytes.clone();
    set_bits(&mut health, 41 + 15 + 54 + 42 + 13, 10);
    for bad in [position, health] {
        assert!(Snapshot::read_from(&mut BitReader::new(&bad)).is_err());
        assert!(hand_game::read_snapshot(&bad).is_none());
        assert!(hand_game::read_snapshot_fused(&bad).is_none());
    }
}

#[test]
fn integer_twin_packs_in_the_same_bits() {
    // The `bitpack (ints)` row: the twin's ranges in steps give every field
    // the float's bits, so its messages are exactly as long as bitpack's.
    let data = dataset::generate();
    for snapshot in &data.snapshots {
        let twin = SnapshotQ::from(snapshot);
        assert_eq!(bitpack_bytes(&twin).len(), bitpack_bytes(snapshot).len());
        let back = SnapshotQ::read_from(&mut BitReader::new(&bitpack_bytes(&twin))).expect("reads");
        assert_eq!(back, twin);
    }
    assert_eq!(dataset::Entity::MAX_BITS, bitpack_benches::quantized::EntityQ::MAX_BITS);
    for input in &data.inputs {
        let twin = PlayerInputQ::from(input);
        assert_eq!(bitpack_bytes(&twin).len(), bitpack_bytes(input).len());
    }
}

#[test]
fn converting_twin_gives_back_floats_within_a_step() {
    let data = dataset::generate();
    let mut twin = SnapshotQ::default();
    for snapshot in &data.snapshots {
        twin.quantize_from(snapshot);
        assert_eq!(twin, SnapshotQ::from(snapshot));
        let back = twin.to_floats().expect("known kinds");
        assert_eq!(back.entities.len(), snapshot.entities.len());
        for (before, after) in snapshot.entities.iter().zip(&back.entities) {
            assert_eq!(
                (before.id, before.kind, before.flags, before.target),
                (after.id, after.kind, after.flags, after.target)
            );
            for (b, a) in before.position.iter().zip(&after.position) {
                assert!((b - a).abs() <= 0.006, "{b} -> {a}");
            }
            assert!((before.yaw - after.yaw).abs() <= 0.0006);
        }
    }
}

#[test]
fn derived_bounds_are_the_field_bits() {
    // id 12, kind 3, position 3x18, velocity 3x14, yaw 13, health 10, armor 7, flags 5, target 1 + 12.
    assert_eq!(dataset::Entity::MAX_BITS, 159);
    assert_eq!(Snapshot::MAX_BITS, 32 + 9 + 256 * 159);
    assert_eq!(Snapshot::MAX_BITS.div_ceil(8), hand_game::SNAPSHOT_MAX_BYTES);
    // tick 32, buttons 16, sticks 2x8, aim 14 + 13, weapon 4, sequence 16.
    assert_eq!(PlayerInput::MAX_BITS, 111);
}

#[test]
fn hand_reader_refuses_truncated_snapshots() {
    let data = dataset::generate();
    let bytes = bitpack_bytes(&data.snapshots[0]);
    for cut in [0, 5, 6, 100, bytes.len() - 1] {
        assert!(hand_game::read_snapshot(&bytes[..cut]).is_none(), "cut at {cut}");
        assert!(hand_game::read_snapshot_fused(&bytes[..cut]).is_none(), "cut at {cut}");
        assert!(Snapshot::read_from(&mut BitReader::new(&bytes[..cut])).is_err(), "cut at {cut}");
    }
}

#[test]
fn every_peer_round_trips_every_message() {
    let data = dataset::generate();
    for mut contender in peers::snapshot_contenders(&data).into_iter().chain(peers::input_contenders(&data)) {
        contender.prepare().expect("encodes");
        assert!(!contender.is_empty());
        for index in 0..contender.len() {
            assert!(!contender.encoded(index).is_empty(), "{}", contender.name());
            contender.decode(index).unwrap_or_else(|e| panic!("{}: {e}", contender.name()));
            let again = contender.encode(index).expect("encodes again").to_vec();
            assert_eq!(again, contender.encoded(index), "{}: buffer reuse changes nothing", contender.name());
        }
    }
}
