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
    // The figures in benches/README.md (`sizes --cubes`), within rounding.
    assert!((mean - 9.29).abs() < 0.01, "{mean}");
    assert!((settled_mean - 3.18).abs() < 0.01, "{settled_mean}");
    // Settled, a changed cube costs more than the 80 bits it would whole
    // only when its rotation's largest component changed: on average far less.
    let changed: usize = settled.iter().map(|frame| frame.changed).sum();
    let unchanged = settled.len() * CUBES - changed;
    let per_changed =
        (settled.iter().map(|frame| frame.bits).sum::<usize>() - unchanged) as f64 / changed as f64;
    assert!(per_changed < 60.0, "{per_changed}");
}
