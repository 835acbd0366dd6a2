//! `#[bitpack(relative(rate = field, dt = D))]`: a relative float coded
//! against the baseline moved by the baseline's `rate` field times `D`.
//! The writer may hold the baseline as written and the reader only what it
//! decoded of it; the decoded value is still exactly what a whole encode
//! gives, a move the prediction foresees takes the near tier, and hostile
//! bits are an `Err` that leaves the reader in place.

use std::collections::BTreeMap;

use bitpack::sync::{Receiver, Sender};
use bitpack::{BitPack, BitRead, BitReader, BitWrite, BitWriter, ChangeGroups, ErrorKind};
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
