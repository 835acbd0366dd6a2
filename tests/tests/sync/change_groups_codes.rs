//! A sender's `write_delta_cached` gathers a group of relative floats'
//! codes for one reservation, and writes them one by one when they do not
//! all fit or hold more than 128 bits: in every buffer it writes
//! `write_delta`'s bits, or fails with its error at the same bit.

use bitpack::{BitPack, BitWrite, BitWriter, ChangeGroups};
use proptest::prelude::*;

const DT: f32 = 1.0 / 30.0;

/// Positions predicted by the velocity, and a heading: at most 137 bits of
/// codes (3 x 20, 3 x 16, 2 + 13 + 2 + 12), gathered when under 128.
#[derive(BitPack, Clone, Copy, Debug, Default, PartialEq)]
struct Mover {
    #[change_group(motion)]
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    #[bitpack(relative(rate = velocity, dt = DT))]
    position: [f32; 3],
    #[change_group(motion)]
    #[quantize(min = -64.0, max = 64.0, res = 0.01)]
    #[bitpack(relative)]
    velocity: [f32; 3],
    #[change_group(motion)]
    #[quantize(min = 0.0, max = 6.3, res = 0.001)]
    #[bitpack(relative)]
    yaw: f32,
    #[change_group(motion)]
    #[quantize(min = 0.0, max = 2.0, res = 0.001)]
    #[bitpack(relative)]
    pitch: f32,
    #[change_group(vitals)]
    #[bits(min = 0, max = 100)]
    health: u8,
}

/// Fine f64s: 43-bit far codes, 129 bits for the three (never gathered
/// when all are far).
#[derive(BitPack, Clone, Copy, Debug, Default, PartialEq)]
struct Survey {
    #[change_group]
    #[quantize(min = -1.0e6, max = 1.0e6, res = 1.0e-6)]
    #[bitpack(relative)]
    point: [f64; 3],
}

/// `write_delta_cached` (with the baseline's prints, and without) against
/// `write_delta`, in every buffer from empty to one byte past the delta.
fn cached_as_plain_in_every_buffer<T: ChangeGroups>(now: &T, then: &T) -> Result<(), TestCaseError> {
    let mut held = vec![0u64; T::PRINTS];
    then.group_prints(&mut held).unwrap();
    let mut room = [0u8; 256];
    let full = {
        let mut writer = BitWriter::new(&mut room);
        now.write_delta(then, &mut writer).map(|()| writer.bits_written())
    };
    let Ok(bits) = full else { return Ok(()) };
    for bytes in 0..=bits.div_ceil(8) + 1 {
        let mut expected = vec![0u8; bytes];
        let plain = {
            let mut writer = BitWriter::new(&mut expected);
            now.write_delta(then, &mut writer).map(|()| writer.bits_written())
        };
        for baseline_prints in [&held[..], &[]] {
            let mut prints = vec![0u64; T::PRINTS];
            let mut buf = vec![0u8; bytes];
            let cached = {
                let mut writer = BitWriter::new(&mut buf);
                now.write_delta_cached(then, baseline_prints, &mut prints, &mut writer)
                    .map(|()| writer.bits_written())
            };
            match (&plain, cached) {
                (Ok(plain), Ok(cached)) => {
                    prop_assert_eq!(*plain, cached);
                    prop_assert_eq!(&buf, &expected);
                }
                (Err(plain), Err(cached)) => {
                    prop_assert_eq!(
                        (plain.kind(), plain.bit()),
                        (cached.kind(), cached.bit()),
                        "{} bytes",
                        bytes
                    )
                }
                (plain, cached) => {
                    prop_assert!(false, "{} bytes: write_delta {:?}, cached {:?}", bytes, plain, cached)
                }
            }
        }
    }
    Ok(())
}

/// A value near `base` (a few steps, a few hundred, or anywhere).
fn near(base: f32, range: f32) -> impl Strategy<Value = f32> {
    prop_oneof![
        (-0.04f32..0.04).prop_map(move |d| (base + d).clamp(-range, range)),
        (-3.0f32..3.0).prop_map(move |d| (base + d).clamp(-range, range)),
        -range..range,
    ]
}

fn mover() -> impl Strategy<Value = Mover> {
    (
        [-1000.0f32..1000.0, -1000.0f32..1000.0, -1000.0f32..1000.0],
        [-60.0f32..60.0, -60.0f32..60.0, -60.0f32..60.0],
        (0.0f32..6.3, 0.0f32..2.0, 0u8..=100),
    )
        .prop_map(|(position, velocity, (yaw, pitch, health))| Mover {
            position,
            velocity,
            yaw,
            pitch,
            health,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(256)))]

    #[test]
    fn gathered_codes_write_the_plain_delta_in_every_buffer(
        then in mover(),
        moves in [near(0.0, 1024.0), near(0.0, 1024.0), near(0.0, 1024.0)],
        turns in (near(0.0, 64.0), near(0.0, 6.3), near(0.0, 2.0)),
        health in 0u8..=100,
    ) {
        let position = core::array::from_fn(|axis| {
            let predicted = then.position[axis] + then.velocity[axis] * DT;
            (predicted + moves[axis] * 1e-3).clamp(-1024.0, 1024.0)
        });
        let (speed, yaw, pitch) = turns;
        let velocity = [then.velocity[0] + speed * 0.01, then.velocity[1], speed];
        let now = Mover { position, velocity, yaw, pitch, health };
        cached_as_plain_in_every_buffer(&now, &then)?;
        // Every code far: more than 128 bits, written one by one.
        let far = Mover { position: then.position.map(|p| -p), velocity: then.velocity.map(|v| -v), ..now };
        cached_as_plain_in_every_buffer(&far, &then)?;
    }

    #[test]
    fn codes_past_128_bits_write_the_plain_delta_in_every_buffer(
        then in [-1.0e6f64..1.0e6, -1.0e6f64..1.0e6, -1.0e6f64..1.0e6],
        moved in [prop_oneof![-1.0e-5f64..1.0e-5, -1.0e6f64..1.0e6], prop_oneof![-1.0e-5f64..1.0e-5, -1.0e6f64..1.0e6], prop_oneof![-1.0e-5f64..1.0e-5, -1.0e6f64..1.0e6]],
    ) {
        let now = core::array::from_fn(|axis| (then[axis] + moved[axis]).clamp(-1.0e6, 1.0e6));
        cached_as_plain_in_every_buffer(&Survey { point: now }, &Survey { point: then })?;
    }
}
