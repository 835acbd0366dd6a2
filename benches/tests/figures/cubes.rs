//! Issue 12's cube scene: the published bit counts, and the delta stream
//! on the falling-and-settling simulation (figures in benches/README.md).

use bitpack::BitPack;
use bitpack_benches::cubes::{self, CUBES, Cube, CubeState, FRAMES};

#[test]
fn the_published_cubes_take_321_and_80_bits() {
    assert_eq!(CubeState::MAX_BITS, 321);
    assert_eq!(Cube::MAX_BITS, 80);
    assert_eq!(Cube::MIN_BITS, 80);
    let frames = cubes::simulate(12);
    let states = cubes::simulate_states(12);
    let mut buf = vec![0u8; CUBES * 41];
    let raw = cubes::write_snapshot(&states[FRAMES], &mut buf).unwrap();
    let compressed = cubes::write_snapshot(&frames[FRAMES], &mut buf).unwrap();
    assert_eq!(raw, (CUBES * 321).div_ceil(8));
    assert_eq!(compressed, CUBES * 80 / 8);
    assert_eq!(format!("{:.2}", cubes::mbps(raw as f64)), "17.37");
    assert_eq!(format!("{:.2}", cubes::mbps(compressed as f64)), "4.34");
}

#[test]
fn the_scene_falls_settles_and_is_kicked() {
    let frames = cubes::simulate(12);
    assert_eq!(frames.len(), FRAMES + 1);
    assert_eq!(frames, cubes::simulate(12), "deterministic");
    assert!(frames[0].iter().all(|cube| !cube.at_rest), "dropped");
    let resting = |frame: &[Cube]| frame.iter().filter(|cube| cube.at_rest).count();
    // Settled after a few seconds; kicked cubes keep some moving to the end.
    assert!(resting(&frames[5 * 60]) > CUBES * 9 / 10, "{}", resting(&frames[5 * 60]));
    assert!(resting(&frames[FRAMES]) < CUBES - 1, "{}", resting(&frames[FRAMES]));
    let bounds = |cube: &Cube| {
        let p = cube.position;
        (-256.0..=255.0).contains(&p.x) && (-256.0..=255.0).contains(&p.y) && (0.0..32.0).contains(&p.z)
    };
    assert!(frames.iter().flatten().all(bounds));
    // At rest, a cube lies flat: its up axis is the world's.
    for cube in frames[FRAMES].iter().filter(|cube| cube.at_rest) {
        assert!((cube.orientation * glam::Vec3::Z).z > 0.9999);
    }
}

#[test]
fn the_delta_stream_costs_a_bit_per_cube_at_rest() {
    use bitpack::{BitCounter, BitWrite, ChangeGroups};
    // A cube at rest against what the receiver decoded of it: one bit.
    let last = cubes::simulate(12).pop().unwrap();
    for cube in last.iter().filter(|cube| cube.at_rest) {
        let decoded: Cube = bitpack::decode(&bitpack::encode(cube).unwrap()).unwrap();
        let mut counter = BitCounter::new();
        cube.write_delta(&decoded, &mut counter).unwrap();
        assert_eq!(counter.bits_written(), 1);
    }
    let frames = cubes::simulate(12);
    let stream = cubes::delta_stream(&frames).unwrap();
    assert_eq!(stream.len(), FRAMES);
    for frame in &stream {
        // One bit per unchanged cube; a changed one costs at most its flag,
        // the relative position and rotation, and the flag bit.
        assert!(frame.bits >= CUBES - frame.changed + frame.changed * 10, "{frame:?}");
        assert!(frame.bits <= CUBES - frame.changed + frame.changed * (1 + 2 + 3 * 19 + 1 + 29 + 1));
    }
    let settled = &stream[5 * 60..];
    let mean = cubes::bits_per_cube(&stream);
    let settled_mean = cubes::bits_per_cube(settled);
    println!("delta: {mean:.2} bits per cube over 10 s, {settled_mean:.2} after 5 s");
    // The figures in benches/README.md (`sizes --cubes`), as printed there.
    let row = |part: &[cubes::DeltaFrame]| {
        let bytes = cubes::bytes_per_packet(part);
        format!("{:.2} {bytes:.0} {:.2}", cubes::bits_per_cube(part), cubes::mbps(bytes))
    };
    assert_eq!(row(&stream), "9.29 1047 0.52");
    assert_eq!(row(&stream[..3 * 60]), "23.65 2664 1.29");
    assert_eq!(row(&stream[3 * 60..5 * 60]), "3.02 340 0.18");
    assert_eq!(row(settled), "3.18 359 0.19");
    let changed = |part: &[cubes::DeltaFrame]| part.iter().map(|frame| frame.changed).sum::<usize>();
    let per_frame = |part: &[cubes::DeltaFrame]| format!("{:.1}", changed(part) as f64 / part.len() as f64);
    assert_eq!((per_frame(&stream), per_frame(settled)), ("213.1".to_owned(), "37.9".to_owned()));
    // What a changed cube costs: about 34 bits while the cubes fall, 52
    // once only kicked (fast, spinning) ones move.
    let per_changed = |part: &[cubes::DeltaFrame]| {
        let unchanged = part.len() * CUBES - changed(part);
        let bits = part.iter().map(|frame| frame.bits).sum::<usize>();
        format!("{:.0}", (bits - unchanged) as f64 / changed(part) as f64)
    };
    assert_eq!((per_changed(&stream[..60]), per_changed(settled)), ("34".to_owned(), "53".to_owned()));
}
