//! The hand packer is only a fair reference if it does the same work: these
//! tests prove it writes exactly bitpack's bytes and reads the same values.

use bitpack_benches::hand;
use bitpack_benches::object::{self, BATCH, GameObject, OBJECT_MAX_BYTES};

fn edge_objects() -> Vec<GameObject<'static>> {
    vec![
        GameObject {
            alive: false,
            visible: false,
            crouching: false,
            id: 0,
            kind: 0,
            health: 0,
            armor: 0,
            team: 0,
            x: -1024.0,
            y: -1024.0,
            z: -1024.0,
            yaw: 0.0,
            owner: 0,
            name: "",
        },
        GameObject {
            alive: true,
            visible: true,
            crouching: true,
            id: 4095,
            kind: 7,
            health: 1000,
            armor: 100,
            team: 3,
            x: 1024.0,
            y: 2000.0,  // clamps
            z: -5000.0, // clamps
            yaw: core::f32::consts::TAU,
            owner: u64::MAX,
            name: "fifteen_bytes!!",
        },
    ]
}

#[test]
fn object_bytes_equal_bitpack_bytes() {
    let mut objects = object::sample_objects(4096, 1);
    objects.extend(edge_objects());
    for item in &objects {
        let mut ours = [0u8; OBJECT_MAX_BYTES];
        let mut theirs = [0xFFu8; OBJECT_MAX_BYTES];
        let used = object::write_object(item, &mut ours).expect("bitpack writes the object");
        let hand_used = hand::write_object(item, &mut theirs).expect("hand packer writes the object");
        assert_eq!(used, hand_used, "{item:?}");
        assert_eq!(ours[..used], theirs[..used], "{item:?}");
        assert_eq!(object::count_object(item).expect("counts"), hand::count_object(item).expect("counts"));
        assert_eq!(object::count_object(item).expect("counts").div_ceil(8), used);

        let back = object::read_object(&ours[..used]).expect("bitpack reads");
        let hand_back = hand::read_object(&ours[..used]).expect("hand reads");
        assert_eq!(back, hand_back);
        assert_eq!(back.id, item.id);
        assert_eq!(back.name, item.name);
        assert_eq!(back.owner, item.owner);
        // Half a step (0.005) plus the f32 rounding the reference arithmetic adds.
        assert!((back.x - item.x.clamp(-1024.0, 1024.0)).abs() <= 0.006, "{item:?} -> {back:?}");
    }
}

#[test]
fn sample_object_is_31_bytes_with_a_9_byte_name() {
    let item = object::sample_objects(1, 1)[0];
    assert_eq!(item.name.len(), 9);
    assert_eq!(object::count_object(&item).expect("counts"), 248);
}

#[test]
fn small_fields_match() {
    let values = object::sample_small(BATCH, 3);
    let mut ours = [0u8; 64];
    let mut theirs = [0u8; 64];
    let used = object::write_small(&values, &mut ours).expect("writes");
    assert_eq!(used, 40);
    assert_eq!(hand::write_small(&values, &mut theirs), Some(used));
    assert_eq!(ours[..used], theirs[..used]);
    let folded = values.iter().fold(0, |acc, v| acc ^ v);
    assert_eq!(object::read_small(&ours[..used], BATCH).expect("reads"), folded);
    assert_eq!(hand::read_small(&ours[..used], BATCH), Some(folded));
}

#[test]
fn positions_match() {
    let values = object::sample_positions(BATCH, 4);
    let mut ours = [0u8; 160];
    let mut theirs = [0u8; 160];
    let used = object::write_positions(&values, &mut ours).expect("writes");
    assert_eq!(used, BATCH * 18 / 8);
    assert_eq!(hand::write_positions(&values, &mut theirs), Some(used));
    assert_eq!(ours[..used], theirs[..used]);
    let sum = object::read_positions(&ours[..used], BATCH).expect("reads");
    assert_eq!(hand::read_positions(&ours[..used], BATCH).map(f32::to_bits), Some(sum.to_bits()));
}

#[test]
fn hand_reader_refuses_what_it_must() {
    let item = object::sample_objects(1, 1)[0];
    let mut buf = [0u8; OBJECT_MAX_BYTES];
    let used = object::write_object(&item, &mut buf).expect("writes");
    assert!(hand::read_object(&buf[..used - 1]).is_none(), "short name bytes");
    assert!(hand::read_object(&buf[..10]).is_none(), "short fixed part");
    // health is bits 18..28: 1023 is out of range.
    let mut bad = buf;
    bad[2] |= 0xFC;
    bad[3] |= 0x0F;
    assert!(hand::read_object(&bad[..used]).is_none());
    assert!(object::read_object(&bad[..used]).is_err());
}
