//! `#[bitpack(relative(rate = field, dt = D))]`: a relative float coded
//! against the baseline moved by the baseline's `rate` field times `D`.
//! The writer may hold the baseline as written and the reader only what it
//! decoded of it; the decoded value is still exactly what a whole encode
//! gives, a move the prediction foresees takes the near tier, and hostile
//! bits are an `Err` that leaves the reader in place. On glam and mint
//! vectors (and arrays of them) each axis is predicted by the same axis of
//! a rate vector: the wire of the scalar form, axis by axis.

use std::collections::BTreeMap;

use bitpack::sync::{Receiver, Sender};
use bitpack::{BitPack, BitRead, BitReader, BitWrite, BitWriter, ChangeGroups, ErrorKind};
use glam::{DVec2, DVec3, Vec2, Vec3, Vec3A};
use proptest::prelude::*;

const DT: f32 = 1.0 / 30.0;

/// A body moving by its velocity: positions predicted, per axis.
#[derive(BitPack, Clone, Copy, Debug, Default, PartialEq)]
struct Body {
    #[change_group(motion)]
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    #[bitpack(relative(rate = velocity, dt = DT))]
    position: [f32; 3],
    #[change_group(motion)]
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    #[bitpack(relative)]
    velocity: [f32; 3],
    #[change_group(spin)]
    #[bits(min = 0, max = 100)]
    health: u8,
}

/// A scalar, in f64, with a rate whose declaration does not resolve every
/// step (so a reader cannot always tell which steps the writer agreed on).
#[derive(BitPack, Clone, Copy, Debug, Default, PartialEq)]
struct Dial {
    #[change_group]
    #[quantize(min = 0.0, max = 1000.0, res = 0.001)]
    #[bitpack(relative(rate = speed, dt = 0.25))]
    angle: f64,
    #[change_group]
    #[quantize(min = 0.0, max = 1.0, res = 1.2e-16)]
    speed: f64,
}

/// What a receiver holds of `value`: its whole encode, decoded.
fn held<T: BitPack>(value: &T) -> T {
    bitpack::decode(&bitpack::encode(value).unwrap()).unwrap()
}

/// `now` as a delta against `writers` (the writer's baseline), read
/// against `readers` (the reader's): the bits and what was read.
fn delta<T: ChangeGroups>(now: &T, writers: &T, readers: &T) -> (usize, Result<T, bitpack::Error>) {
    let mut buf = [0u8; 256];
    let mut writer = BitWriter::new(&mut buf);
    now.write_delta(writers, &mut writer).unwrap();
    let bits = writer.bits_written();
    writer.finish().unwrap();
    (bits, T::read_delta(readers, &mut BitReader::new(&buf)))
}

#[test]
fn a_move_the_velocity_foresees_takes_the_near_tier() {
    let then = Body { position: [100.0, -200.0, 3.0], velocity: [12.0, -9.0, 0.5], health: 90 };
    let mut now = then;
    for axis in 0..3 {
        now.position[axis] += then.velocity[axis] * DT;
    }
    // One flag each group, then 3 near positions (4 bits) and 3 unchanged
    // velocities (4 bits).
    let (bits, read) = delta(&now, &then, &held(&then));
    assert_eq!(bits, 1 + 3 * 4 + 3 * 4 + 1);
    assert_eq!(read.unwrap(), held(&now));
    // Without the prediction each position moved 40, 30 and 1.7 steps:
    // two in the middle tier (2 + 10 bits).
    let still = Body { velocity: [0.0; 3], ..then };
    let (bits, _) = delta(&Body { velocity: [0.0; 3], ..now }, &still, &held(&still));
    assert_eq!(bits, 1 + 2 * 12 + 4 + 3 * 4 + 1);
}

#[test]
fn a_wrong_prediction_still_decodes_exactly() {
    // Turned around, hit the range's edge, and stopped.
    let then = Body { position: [1023.9, -1023.9, 0.0], velocity: [60.0, -60.0, 20.0], health: 5 };
    for now in [
        Body { position: [1023.95, -1023.5, 0.01], velocity: [-60.0, 60.0, 0.0], health: 5 },
        Body { position: [1024.0, -1024.0, -0.7], velocity: [0.0; 3], health: 6 },
        Body { position: [-1024.0, 1024.0, 500.0], velocity: [64.0, -64.0, 0.0], health: 100 },
    ] {
        let (_, read) = delta(&now, &then, &held(&then));
        assert_eq!(read.unwrap(), held(&now), "{now:?}");
    }
}

/// A sender's `write_delta_cached` quantizes each float of a group of
/// relative floats once, for the group's print and its write: it writes
/// `write_delta`'s bits (or fails with its error), whether it knows the
/// baseline's prints or not, and records what `group_prints` gives.
fn cached_as_plain<T: ChangeGroups>(now: &T, then: &T) -> Result<(), TestCaseError> {
    let mut expected_bytes = [0u8; 256];
    let plain = {
        let mut writer = BitWriter::new(&mut expected_bytes);
        now.write_delta(then, &mut writer).map(|()| writer.bits_written())
    };
    let mut held = vec![0u64; T::PRINTS];
    let known = then.group_prints(&mut held).is_ok();
    let mut expected = vec![0u64; T::PRINTS];
    let now_prints = now.group_prints(&mut expected);
    for baseline_prints in [if known { &held[..] } else { &[][..] }, &[]] {
        let mut prints = vec![0u64; T::PRINTS];
        let mut buf = [0u8; 256];
        let cached = {
            let mut writer = BitWriter::new(&mut buf);
            now.write_delta_cached(then, baseline_prints, &mut prints, &mut writer)
                .map(|()| writer.bits_written())
        };
        match (&plain, cached) {
            (Ok(plain), Ok(cached)) => {
                prop_assert_eq!(*plain, cached);
                prop_assert_eq!(&buf[..], &expected_bytes[..]);
                prop_assert!(now_prints.is_ok());
                prop_assert_eq!(&prints, &expected);
            }
            (Err(plain), Err(cached)) => prop_assert_eq!(plain.kind(), cached.kind()),
            (plain, cached) => prop_assert!(false, "write_delta {:?}, cached {:?}", plain, cached),
        }
    }
    Ok(())
}

/// A float for [`cached_as_plain`]: in range and past it, or not finite.
fn any_float(range: f32) -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -range..range,
        1 => prop_oneof![Just(f32::NAN), Just(f32::INFINITY), Just(-0.0f32), Just(range * 2.0)],
    ]
}

fn body() -> impl Strategy<Value = Body> {
    let axis = |range: f32| -range..range;
    ([axis(1100.0), axis(1100.0), axis(1100.0)], [axis(70.0), axis(70.0), axis(70.0)], 0u8..=100)
        .prop_map(|(position, velocity, health)| Body { position, velocity, health })
}

proptest! {
    /// Any pair, read against the baseline as the writer holds it or as a
    /// receiver decoded it: what a whole encode gives.
    #[test]
    fn deltas_read_back_what_the_whole_value_gives(
        then in body(),
        now in body(),
        moved in any::<bool>(),
        jitter in [-0.03f32..0.03, -0.03f32..0.03, -0.03f32..0.03],
    ) {
        let now = if moved {
            let position =
                core::array::from_fn(|axis| then.position[axis] + then.velocity[axis] * DT + jitter[axis]);
            Body { position, ..then }
        } else {
            now
        };
        // Against the writer's own baseline, unsent groups keep its values
        // as written: equal once sent whole.
        let (_, read) = delta(&now, &then, &then);
        prop_assert_eq!(held(&read.unwrap()), held(&now));
        let (_, read) = delta(&now, &then, &held(&then));
        prop_assert_eq!(read.unwrap(), held(&now));
    }

    /// f64, a rate whose steps a reader cannot always match to the
    /// writer's: still exact.
    #[test]
    fn a_rate_that_does_not_resolve_every_step_stays_exact(
        angle in -10.0f64..1010.0, speed in -0.5f64..1.5, next in -10.0f64..1010.0, near in any::<bool>(),
    ) {
        let then = Dial { angle, speed };
        let now = Dial { angle: if near { angle + speed * 0.25 + 0.001 } else { next }, speed };
        let (_, read) = delta(&now, &then, &then);
        prop_assert_eq!(held(&read.unwrap()), held(&now));
        let (_, read) = delta(&now, &then, &held(&then));
        prop_assert_eq!(read.unwrap(), held(&now));
    }

    /// The groups of relative floats quantized once in a sender's
    /// `write_delta_cached`: predicted in the group (`Body`), or by a rate
    /// in another group that does not resolve every step (`Dial`).
    #[test]
    fn cached_deltas_quantize_once_and_write_the_same_bits(
        then in body(),
        moved in any::<bool>(),
        now in ([any_float(1100.0), any_float(1100.0), any_float(1100.0)], [any_float(70.0), any_float(70.0), any_float(70.0)]),
        dial in [-10.0f64..1010.0, -0.5f64..1.5, -10.0f64..1010.0, -0.5f64..1.5],
    ) {
        let (position, velocity) = now;
        let position = if moved {
            core::array::from_fn(|axis| then.position[axis] + then.velocity[axis] * DT + position[axis] * 1e-5)
        } else {
            position
        };
        cached_as_plain(&Body { position, velocity, ..then }, &then)?;
        cached_as_plain(&Body { position: then.position, ..then }, &then)?;
        let [angle, speed, next, next_speed] = dial;
        let then = Dial { angle, speed };
        cached_as_plain(&Dial { angle: next, speed: next_speed }, &then)?;
        cached_as_plain(&Dial { angle: angle + speed * 0.25, speed }, &then)?;
        cached_as_plain(&Dial { angle: f64::NAN, speed }, &then)?;
    }

    /// Random bytes as a delta: a value or an `Err`, never a panic; a value
    /// re-encodes to the bits it came from.
    #[test]
    fn hostile_bytes_are_an_error_or_a_canonical_value(then in body(), bytes in prop::collection::vec(any::<u8>(), 0..24)) {
        let baseline = held(&then);
        let mut reader = BitReader::new(&bytes);
        if let Ok(read) = Body::read_delta(&baseline, &mut reader) {
            let used = reader.bits_read();
            let mut buf = [0u8; 64];
            let mut writer = BitWriter::new(&mut buf);
            read.write_delta(&baseline, &mut writer).unwrap();
            prop_assert_eq!(writer.bits_written(), used);
        }
    }
}

/// A sender's group of relative floats is quantized four at a time: each
/// row's values are checked finite on their own, so finite values whose sum
/// across rows is not (the first and fifth floats, the second and sixth)
/// still write as `write_delta` does and record their print.
#[test]
fn huge_finite_values_in_every_row_write_as_plain() {
    for huge in [f32::MAX, -f32::MAX] {
        let now = Body { position: [huge; 3], velocity: [huge; 3], health: 0 };
        let then = Body { position: [1.0; 3], velocity: [-1.0; 3], health: 0 };
        cached_as_plain(&now, &then).unwrap();
        cached_as_plain(&then, &now).unwrap();
        cached_as_plain(&Body { velocity: then.velocity, ..now }, &then).unwrap();
    }
}

#[test]
fn truncated_and_non_canonical_deltas_are_refused_in_place() {
    let then = Body { position: [10.0, 20.0, 30.0], velocity: [3.0, 0.0, -3.0], health: 50 };
    let mut now = then;
    now.position[0] += 3.0 * DT;
    let mut buf = [0u8; 64];
    let mut writer = BitWriter::new(&mut buf);
    now.write_delta(&then, &mut writer).unwrap();
    let used = writer.finish().unwrap();
    // Every truncation is an Err, and the reader stays where it was.
    for cut in 0..used.saturating_sub(1) {
        let mut reader = BitReader::new(&buf[..cut]);
        assert!(Body::read_delta(&held(&then), &mut reader).is_err(), "cut at {cut} bytes");
        assert_eq!(reader.bits_read(), 0);
    }
    // The first position sent far although its prediction's near tier
    // holds it: the writer never sends that, so the reader refuses it.
    let mut far = [0u8; 64];
    let mut writer = BitWriter::new(&mut far);
    writer.write_bool(true).unwrap(); // motion sent
    let mut raw = [0u8; 8];
    let mut steps = BitWriter::new(&mut raw);
    steps.write_compressed_float(now.position[0], -1024.0, 1024.0, 0.01).unwrap();
    steps.finish().unwrap();
    let position_steps = BitReader::new(&raw).read_bits64(18).unwrap();
    writer.write_bits64(0b11 | position_steps << 2, 2 + 18).unwrap();
    writer.finish().unwrap();
    let mut reader = BitReader::new(&far);
    let error = Body::read_delta(&held(&then), &mut reader).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NonCanonical);
    assert_eq!(reader.bits_read(), 0);
}

/// A world of bodies through a `Sender` and a `Receiver` over a lossy
/// link: after every packet decoded the receiver holds what the sender
/// recorded, as a whole encode decodes it.
#[derive(BitPack, Clone, Debug, Default, PartialEq)]
struct Bodies {
    #[change_group]
    #[bitpack(max_len = 64)]
    bodies: BTreeMap<u16, Body>,
}

#[test]
fn a_lossy_link_holds_what_the_sender_wrote() {
    let mut sender: Sender<Bodies> = Sender::new();
    let mut receiver: Receiver<Bodies> = Receiver::new();
    let mut world = Bodies::default();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let unit = |bits: u64| (bits % 2001) as f32 / 1000.0 - 1.0;
    let mut buf = vec![0u8; 1 << 12];
    for tick in 0..600u32 {
        for id in 0..40u16 {
            let body = world
                .bodies
                .entry(id)
                .or_insert(Body { position: [f32::from(id) * 10.0 - 200.0, 5.0, -5.0], ..Body::default() });
            for axis in 0..3 {
                body.velocity[axis] = (body.velocity[axis] + unit(next()) * 0.5).clamp(-60.0, 60.0);
                body.position[axis] = (body.position[axis] + body.velocity[axis] * DT).clamp(-1000.0, 1000.0);
            }
        }
        if tick % 7 == 0 {
            world.bodies.remove(&((tick / 7 % 40) as u16));
        }
        let sequence = sender.next_sequence();
        let used = sender.write(&world, &mut buf).unwrap();
        if next() % 10 == 0 {
            continue;
        }
        if let Some(decoded) = receiver.read(&buf[..used]).unwrap() {
            assert_eq!(decoded, &held(&sender.sent(sequence).unwrap()), "tick {tick}");
        }
        if next() % 10 != 0 {
            sender.ack(&receiver.acks());
        }
    }
}

/// A glam position predicted by a glam velocity, per-axis bounds on the
/// position (z from 0 to 64).
#[derive(BitPack, Clone, Copy, Debug, Default, PartialEq)]
struct Craft {
    #[change_group(motion)]
    #[quantize(min = [-1024.0, -1024.0, 0.0], max = [1024.0, 1024.0, 64.0], res = 0.01)]
    #[bitpack(relative(rate = velocity, dt = DT))]
    position: Vec3,
    #[change_group(motion)]
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    #[bitpack(relative)]
    velocity: Vec3,
}

/// [`Craft`] as the scalar form writes it: each axis a field of its own,
/// in the same order, one group.
#[derive(BitPack, Clone, Copy, Debug, Default, PartialEq)]
struct CraftAxes {
    #[change_group(motion)]
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    #[bitpack(relative(rate = vx, dt = DT))]
    x: f32,
    #[change_group(motion)]
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    #[bitpack(relative(rate = vy, dt = DT))]
    y: f32,
    #[change_group(motion)]
    #[quantize(min = 0.0, max = 64.0, res = 0.01)]
    #[bitpack(relative(rate = vz, dt = DT))]
    z: f32,
    #[change_group(motion)]
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    #[bitpack(relative)]
    vx: f32,
    #[change_group(motion)]
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    #[bitpack(relative)]
    vy: f32,
    #[change_group(motion)]
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    #[bitpack(relative)]
    vz: f32,
}

impl From<Craft> for CraftAxes {
    fn from(craft: Craft) -> Self {
        let ([x, y, z], [vx, vy, vz]) = (craft.position.to_array(), craft.velocity.to_array());
        CraftAxes { x, y, z, vx, vy, vz }
    }
}

/// [`Craft`] without `rate`: plain relative positions.
#[derive(BitPack, Clone, Copy, Debug, Default, PartialEq)]
struct Drift {
    #[change_group(motion)]
    #[quantize(min = [-1024.0, -1024.0, 0.0], max = [1024.0, 1024.0, 64.0], res = 0.01)]
    #[bitpack(relative)]
    position: Vec3,
    #[change_group(motion)]
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    #[bitpack(relative)]
    velocity: Vec3,
}

/// Every vector kind predicted: glam's `Vec2`, `Vec3A`, `DVec2` and
/// `DVec3`, mint's `Vector2` and `Vector3` (in f32 and f64), and an array
/// of `Vec2`; rates in the same group or another, relative or not, and of
/// another vector type of the same axes (a `Vec3` for a `Vec3A`, and for
/// mint's `Vector3`).
#[derive(BitPack, Clone, Copy, Debug, PartialEq)]
struct Fleet {
    #[change_group(plane)]
    #[quantize(min = -100.0, max = 100.0, res = 0.05)]
    #[bitpack(relative(rate = drift, dt = DT))]
    plane: Vec2,
    #[change_group(plane)]
    #[quantize(min = -10.0, max = 10.0, res = 0.05)]
    drift: Vec2,
    #[change_group(hull)]
    #[quantize(min = [-500.0, 0.0, -500.0], max = [500.0, 100.0, 500.0], res = [0.01, 0.02, 0.01])]
    #[bitpack(relative(rate = hull_velocity, dt = DT))]
    hull: Vec3A,
    #[change_group(hull_velocity)]
    #[quantize(min = -50.0, max = 50.0, res = [0.01, 0.02, 0.01])]
    #[bitpack(relative)]
    hull_velocity: Vec3,
    #[change_group(chart)]
    #[quantize(min = 0.0, max = 1000.0, res = 0.001)]
    #[bitpack(relative(rate = chart_speed, dt = 0.25))]
    chart: DVec2,
    #[change_group(chart)]
    #[quantize(min = 0.0, max = 1.0, res = 0.001)]
    chart_speed: DVec2,
    #[change_group(far)]
    #[quantize(min = -1.0e6, max = 1.0e6, res = 0.001)]
    #[bitpack(relative(rate = far_velocity, dt = 0.5))]
    far: DVec3,
    #[change_group(far)]
    #[quantize(min = -1000.0, max = 1000.0, res = 0.001)]
    #[bitpack(relative)]
    far_velocity: DVec3,
    #[change_group(marker)]
    #[quantize(min = -100.0, max = 100.0, res = 0.01)]
    #[bitpack(relative(rate = marker_velocity, dt = DT))]
    marker: mint::Vector3<f32>,
    #[change_group(marker)]
    #[quantize(min = -20.0, max = 20.0, res = 0.01)]
    marker_velocity: Vec3,
    #[change_group(tag)]
    #[quantize(min = -100.0, max = 100.0, res = 0.001)]
    #[bitpack(relative(rate = tag_velocity, dt = 0.125))]
    tag: mint::Vector2<f64>,
    #[change_group(tag)]
    #[quantize(min = -8.0, max = 8.0, res = 0.001)]
    #[bitpack(relative)]
    tag_velocity: mint::Vector2<f64>,
    #[change_group(wings)]
    #[quantize(min = -10.0, max = 10.0, res = 0.01)]
    #[bitpack(relative(rate = flap, dt = DT))]
    wings: [Vec2; 2],
    #[change_group(wings)]
    #[quantize(min = -30.0, max = 30.0, res = 0.01)]
    #[bitpack(relative)]
    flap: [Vec2; 2],
}

/// [`ChartWings`] as the scalar form writes it: arrays of the same floats
/// in the same order.
#[derive(BitPack, Clone, Copy, Debug, PartialEq)]
struct ChartWingsAxes {
    #[change_group(chart)]
    #[quantize(min = 0.0, max = 1000.0, res = 0.001)]
    #[bitpack(relative(rate = chart_speed, dt = 0.25))]
    chart: [f64; 2],
    #[change_group(chart)]
    #[quantize(min = 0.0, max = 1.0, res = 1.2e-16)]
    chart_speed: [f64; 2],
    #[change_group(wings)]
    #[quantize(min = -10.0, max = 10.0, res = 0.01)]
    #[bitpack(relative(rate = flap, dt = DT))]
    wings: [f32; 4],
    #[change_group(wings)]
    #[quantize(min = -30.0, max = 30.0, res = 0.01)]
    #[bitpack(relative)]
    flap: [f32; 4],
}

/// A `DVec2` predicted by a rate whose declaration does not resolve every
/// step (a reader cannot always tell which steps the writer agreed on),
/// and an array of `Vec2`.
#[derive(BitPack, Clone, Copy, Debug, PartialEq)]
struct ChartWings {
    #[change_group(chart)]
    #[quantize(min = 0.0, max = 1000.0, res = 0.001)]
    #[bitpack(relative(rate = chart_speed, dt = 0.25))]
    chart: DVec2,
    #[change_group(chart)]
    #[quantize(min = 0.0, max = 1.0, res = 1.2e-16)]
    chart_speed: DVec2,
    #[change_group(wings)]
    #[quantize(min = -10.0, max = 10.0, res = 0.01)]
    #[bitpack(relative(rate = flap, dt = DT))]
    wings: [Vec2; 2],
    #[change_group(wings)]
    #[quantize(min = -30.0, max = 30.0, res = 0.01)]
    #[bitpack(relative)]
    flap: [Vec2; 2],
}

impl From<ChartWings> for ChartWingsAxes {
    fn from(value: ChartWings) -> Self {
        let flat = |pair: [Vec2; 2]| [pair[0].x, pair[0].y, pair[1].x, pair[1].y];
        ChartWingsAxes {
            chart: value.chart.to_array(),
            chart_speed: value.chart_speed.to_array(),
            wings: flat(value.wings),
            flap: flat(value.flap),
        }
    }
}

/// The bytes and bits of `now`'s delta against `then`.
fn delta_bytes<T: ChangeGroups>(now: &T, then: &T) -> Result<(Vec<u8>, usize), bitpack::Error> {
    let mut buf = [0u8; 256];
    let mut writer = BitWriter::new(&mut buf);
    now.write_delta(then, &mut writer)?;
    let bits = writer.bits_written();
    let used = writer.finish()?;
    Ok((buf[..used].to_vec(), bits))
}

fn craft_moved(then: Craft, jitter: Vec3) -> Craft {
    Craft { position: then.position + then.velocity * DT + jitter, ..then }
}

#[test]
fn a_vector_move_the_velocity_foresees_takes_the_near_tier() {
    let then = Craft { position: Vec3::new(100.0, -200.0, 3.0), velocity: Vec3::new(12.0, -9.0, 0.5) };
    let now = craft_moved(then, Vec3::ZERO);
    // The flag, 3 near positions (4 bits) and 3 unchanged velocities (4 bits).
    let (bits, read) = delta(&now, &then, &held(&then));
    assert_eq!(bits, 1 + 3 * 4 + 3 * 4);
    assert_eq!(read.unwrap(), held(&now));
    // Plain `relative`: the positions moved 40, 30 and 1.7 steps, two in
    // the middle tier (2 + 10 bits on 18-bit axes).
    let plain = |craft: Craft| Drift { position: craft.position, velocity: craft.velocity };
    let (plain_bits, read) = delta(&plain(now), &plain(then), &held(&plain(then)));
    assert_eq!(plain_bits, 1 + 2 * 12 + 4 + 3 * 4);
    assert_eq!(read.unwrap(), held(&plain(now)));
    assert!(bits < plain_bits);
}

#[test]
fn every_vector_kind_round_trips_whole_and_as_a_delta() {
    let then = fleet_sample();
    let now = fleet_moved(&then);
    assert_eq!(bitpack::decode::<Fleet>(&bitpack::encode(&then).unwrap()).unwrap(), held(&then));
    let (bits, read) = delta(&now, &then, &held(&then));
    assert_eq!(read.unwrap(), held(&now));
    // Each group's flag. Every position moved where its rate put it: 4 bits
    // an axis, as unchanged relative rates; the other rates whole (the
    // plane's 2 x 9 bits, the marker's 3 x 12). The hull's velocity and
    // the chart did not change.
    let plane = 1 + 2 * 4 + 2 * 9;
    let hull = 1 + 3 * 4;
    let far = 1 + 3 * 4 + 3 * 4;
    let marker = 1 + 3 * 4 + 3 * 12;
    let tag = 1 + 2 * 4 + 2 * 4;
    let wings = 1 + 4 * 4 + 4 * 4;
    assert_eq!(bits, plane + hull + 1 + 1 + far + marker + tag + wings);
}

fn fleet_sample() -> Fleet {
    Fleet {
        plane: Vec2::new(10.0, -20.0),
        drift: Vec2::new(3.0, -6.0),
        hull: Vec3A::new(-100.0, 50.0, 200.0),
        hull_velocity: Vec3::new(30.0, -15.0, 6.0),
        chart: DVec2::new(500.0, 20.0),
        chart_speed: DVec2::new(0.75, 0.125),
        far: DVec3::new(123_456.0, -654_321.0, 7.0),
        far_velocity: DVec3::new(-900.0, 450.0, 1.5),
        marker: mint::Vector3 { x: 1.0, y: 2.0, z: 3.0 },
        marker_velocity: Vec3::new(-12.0, 15.0, 0.3),
        tag: mint::Vector2 { x: -50.0, y: 50.0 },
        tag_velocity: mint::Vector2 { x: 7.5, y: -7.5 },
        wings: [Vec2::new(1.0, 2.0), Vec2::new(-1.0, -2.0)],
        flap: [Vec2::new(25.0, -25.0), Vec2::new(-12.0, 12.0)],
    }
}

/// `then` (as held) moved by its rates over one `dt` each, but for the
/// chart.
fn fleet_moved(then: &Fleet) -> Fleet {
    let then = held(then);
    let mint3 = |v: mint::Vector3<f32>| Vec3::from_array(v.into());
    let mint2 = |v: mint::Vector2<f64>| DVec2::from_array(v.into());
    Fleet {
        plane: then.plane + then.drift * DT,
        hull: then.hull + Vec3A::from(then.hull_velocity) * DT,
        far: then.far + then.far_velocity * 0.5,
        marker: (mint3(then.marker) + then.marker_velocity * DT).to_array().into(),
        tag: (mint2(then.tag) + mint2(then.tag_velocity) * 0.125).to_array().into(),
        wings: [then.wings[0] + then.flap[0] * DT, then.wings[1] + then.flap[1] * DT],
        ..then
    }
}

fn vec2(range: f32) -> impl Strategy<Value = Vec2> {
    [-range..range, -range..range].prop_map(Vec2::from_array)
}

fn vec3(range: f32) -> impl Strategy<Value = Vec3> {
    [-range..range, -range..range, -range..range].prop_map(Vec3::from_array)
}

fn dvec2(low: f64, high: f64) -> impl Strategy<Value = DVec2> {
    [low..high, low..high].prop_map(DVec2::from_array)
}

fn dvec3(range: f64) -> impl Strategy<Value = DVec3> {
    [-range..range, -range..range, -range..range].prop_map(DVec3::from_array)
}

fn craft() -> impl Strategy<Value = Craft> {
    ([-1100.0f32..1100.0, -1100.0f32..1100.0, -10.0f32..70.0], vec3(70.0))
        .prop_map(|(position, velocity)| Craft { position: Vec3::from_array(position), velocity })
}

fn fleet() -> impl Strategy<Value = Fleet> {
    let mint3 = |range: f32| vec3(range).prop_map(|v| mint::Vector3::from(v.to_array()));
    let mint2 = |range: f64| dvec2(-range, range).prop_map(|v| mint::Vector2::from(v.to_array()));
    (
        (vec2(110.0), vec2(11.0), vec3(550.0).prop_map(Vec3A::from), vec3(55.0)),
        (dvec2(-10.0, 1010.0), dvec2(-0.5, 1.5), dvec3(1.1e6), dvec3(1100.0)),
        (mint3(110.0), vec3(22.0), mint2(110.0), mint2(9.0)),
        ([vec2(11.0), vec2(11.0)], [vec2(33.0), vec2(33.0)]),
    )
        .prop_map(|(glam, doubles, minted, (wings, flap))| {
            let (plane, drift, hull, hull_velocity) = glam;
            let (chart, chart_speed, far, far_velocity) = doubles;
            let (marker, marker_velocity, tag, tag_velocity) = minted;
            Fleet {
                plane,
                drift,
                hull,
                hull_velocity,
                chart,
                chart_speed,
                far,
                far_velocity,
                marker,
                marker_velocity,
                tag,
                tag_velocity,
                wings,
                flap,
            }
        })
}

/// Whether each axis of `read` is within half a step (`res`) of `value`'s,
/// where `value`'s axes are in range.
fn within<const N: usize>(read: [f64; N], value: [f64; N], res: [f64; N]) -> bool {
    (0..N).all(|axis| (read[axis] - value[axis]).abs() <= res[axis] / 2.0 + 1e-4)
}

proptest! {
    /// A vector predicted per axis writes the scalar form's bits, axis by
    /// axis: `Craft` as its six floats, `chart` and `wings` as arrays.
    #[test]
    fn vectors_write_the_scalar_forms_wire(
        then in craft(),
        now in craft(),
        moved in any::<bool>(),
        jitter in vec3(0.05),
        wings in (dvec2(-10.0, 1010.0), dvec2(-0.5, 1.5), [vec2(11.0), vec2(11.0)], [vec2(33.0), vec2(33.0)]),
        next in (dvec2(-10.0, 1010.0), [vec2(11.0), vec2(11.0)]),
    ) {
        let now = if moved { craft_moved(then, jitter) } else { now };
        let vector = delta_bytes(&now, &then);
        let scalar = delta_bytes(&CraftAxes::from(now), &CraftAxes::from(then));
        prop_assert_eq!(vector.map_err(|error| error.kind()), scalar.map_err(|error| error.kind()));

        let (chart, chart_speed, wings, flap) = wings;
        let then = ChartWings { chart, chart_speed, wings, flap };
        let (next_chart, next_wings) = next;
        for now in [
            ChartWings { chart: next_chart, wings: next_wings, ..then },
            ChartWings {
                chart: then.chart + then.chart_speed * 0.25,
                wings: [then.wings[0] + then.flap[0] * DT, then.wings[1] + then.flap[1] * DT],
                ..then
            },
        ] {
            let vector = delta_bytes(&now, &then);
            let scalar = delta_bytes(&ChartWingsAxes::from(now), &ChartWingsAxes::from(then));
            prop_assert_eq!(vector.map_err(|error| error.kind()), scalar.map_err(|error| error.kind()));
            let (_, read) = delta(&now, &then, &held(&then));
            prop_assert_eq!(read.unwrap(), held(&now));
        }
    }

    /// Any pair, read against the writer's baseline or what a receiver
    /// decoded of it: what a whole encode gives, each axis in range within
    /// half a step of the value written.
    #[test]
    fn vector_deltas_read_back_within_the_resolution(then in fleet(), now in fleet(), craft in craft(), moved in any::<bool>()) {
        let now = if moved { fleet_moved(&then) } else { now };
        // Against the writer's own baseline, unsent groups keep its values
        // as written: equal once sent whole.
        let (_, read) = delta(&now, &then, &then);
        prop_assert_eq!(held(&read.unwrap()), held(&now));
        let (_, read) = delta(&now, &then, &held(&then));
        let read = read.unwrap();
        prop_assert_eq!(read, held(&now));
        let clamp2 = |v: Vec2, range: f32| v.clamp(Vec2::splat(-range), Vec2::splat(range)).as_dvec2();
        prop_assert!(within(read.plane.as_dvec2().to_array(), clamp2(now.plane, 100.0).to_array(), [0.05; 2]));
        let hull = now.hull.clamp(Vec3A::new(-500.0, 0.0, -500.0), Vec3A::new(500.0, 100.0, 500.0));
        prop_assert!(within(read.hull.as_dvec3().to_array(), hull.as_dvec3().to_array(), [0.01, 0.02, 0.01]));
        let far = now.far.clamp(DVec3::splat(-1.0e6), DVec3::splat(1.0e6));
        prop_assert!(within(read.far.to_array(), far.to_array(), [0.001; 3]));
        let chart = now.chart.clamp(DVec2::ZERO, DVec2::splat(1000.0));
        prop_assert!(within(read.chart.to_array(), chart.to_array(), [0.001; 2]));
        let marker = Vec3::from_array(now.marker.into()).clamp(Vec3::splat(-100.0), Vec3::splat(100.0));
        let read_marker = Vec3::from_array(read.marker.into()).as_dvec3();
        prop_assert!(within(read_marker.to_array(), marker.as_dvec3().to_array(), [0.01; 3]));
        let tag = DVec2::from_array(now.tag.into()).clamp(DVec2::splat(-100.0), DVec2::splat(100.0));
        prop_assert!(within(<[f64; 2]>::from(read.tag), tag.to_array(), [0.001; 2]));
        for (read, now) in read.wings.iter().zip(now.wings) {
            prop_assert!(within(read.as_dvec2().to_array(), clamp2(now, 10.0).to_array(), [0.01; 2]));
        }

        let (_, read) = delta(&craft, &then_craft(), &held(&then_craft()));
        prop_assert_eq!(read.unwrap(), held(&craft));
    }

    /// A sender's `write_delta_cached` writes `write_delta`'s bits for
    /// groups of predicted vectors too.
    #[test]
    fn cached_vector_deltas_write_the_same_bits(then in fleet(), now in fleet(), moved in any::<bool>(), nan in 0usize..4) {
        let mut now = if moved { fleet_moved(&then) } else { now };
        match nan {
            0 => now.plane.y = f32::NAN,
            1 => now.far.z = f64::INFINITY,
            _ => {}
        }
        cached_as_plain(&now, &then)?;
    }

    /// Random bytes as a delta of vectors: a value or an `Err` that leaves
    /// the reader in place, never a panic; a value re-encodes to exactly
    /// the bits it came from.
    #[test]
    fn hostile_vector_deltas_are_an_error_or_a_canonical_value(
        then in fleet(),
        craft in craft(),
        bytes in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        fn canonical<T: ChangeGroups>(baseline: &T, bytes: &[u8]) -> Result<(), TestCaseError> {
            let mut reader = BitReader::new(bytes);
            match T::read_delta(baseline, &mut reader) {
                Ok(read) => {
                    let used = reader.bits_read();
                    let (written, bits) = delta_bytes(&read, baseline).unwrap();
                    prop_assert_eq!(bits, used);
                    let (mut again, mut given) = (BitReader::new(&written), BitReader::new(bytes));
                    for bit in 0..used {
                        prop_assert_eq!(again.read_bool().unwrap(), given.read_bool().unwrap(), "bit {}", bit);
                    }
                }
                Err(_) => prop_assert_eq!(reader.bits_read(), 0),
            }
            Ok(())
        }
        canonical(&held(&then), &bytes)?;
        canonical(&held(&craft), &bytes)?;
    }
}

fn then_craft() -> Craft {
    Craft { position: Vec3::new(-3.0, 4.0, 32.0), velocity: Vec3::new(60.0, -60.0, 1.0) }
}
