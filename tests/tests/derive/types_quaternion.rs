//! Smallest-three quaternions: the error bound over random rotations,
//! canonical decoding (every value read writes back to its own bits), ties,
//! relative coding and hostile bytes.

use bitpack::smallest_three::{self, Quaternion};
use bitpack::{BitCounter, BitRead, BitReader, BitWrite, BitWriter, ErrorKind};

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniformly random rotation (Shoemaker), `(x, y, z, w)`.
    fn rotation(&mut self) -> [f64; 4] {
        let (u1, u2, u3) = (self.unit(), self.unit(), self.unit());
        let tau = std::f64::consts::TAU;
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        [a * (tau * u2).sin(), a * (tau * u2).cos(), b * (tau * u3).sin(), b * (tau * u3).cos()]
    }
}

fn normalized(q: [f64; 4]) -> [f64; 4] {
    let length = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    q.map(|c| c / length)
}

/// The angle between the rotations `a` and `b` (radians), from the chord
/// between them (accurate where `acos` of a dot product near 1 is not).
fn angle(a: [f64; 4], b: [f64; 4]) -> f64 {
    let (a, b) = (normalized(a), normalized(b));
    let chord = |sign: f64| a.iter().zip(b).map(|(x, y)| (x - sign * y).powi(2)).sum::<f64>().sqrt();
    4.0 * (chord(1.0).min(chord(-1.0)) / 2.0).asin()
}

fn encode<Q: Quaternion>(q: &Q, component_bits: u32) -> (Vec<u8>, usize) {
    let mut buf = vec![0u8; 16];
    let mut writer = BitWriter::new(&mut buf);
    smallest_three::write(&mut writer, q, component_bits).unwrap();
    let bits = writer.bits_written();
    let used = writer.finish().unwrap();
    buf.truncate(used);
    (buf, bits)
}

fn decode<Q: Quaternion>(bytes: &[u8], component_bits: u32) -> Q {
    let mut reader = BitReader::new(bytes);
    let value = smallest_three::read(&mut reader, component_bits).unwrap();
    assert_eq!(reader.bits_read(), smallest_three::bits(component_bits));
    value
}

/// The bits of a value as a u128 (the low `bits` of the buffer).
fn bits_of(bytes: &[u8], bits: usize) -> u128 {
    let mut word = 0u128;
    for (index, byte) in bytes.iter().enumerate() {
        word |= u128::from(*byte) << (8 * index);
    }
    if bits < 128 { word & ((1u128 << bits) - 1) } else { word }
}

/// Writes, reads, checks the size, that the read value writes back to the
/// same bits, and returns the value read.
fn check_round_trip<Q: Quaternion + Copy>(q: &Q, component_bits: u32) -> Q {
    let (bytes, bits) = encode(q, component_bits);
    assert_eq!(bits, smallest_three::bits(component_bits));
    let mut counter = BitCounter::new();
    smallest_three::write(&mut counter, q, component_bits).unwrap();
    assert_eq!(counter.bits_written(), bits, "the measure stream agrees with the writer");
    let back: Q = decode(&bytes, component_bits);
    let (again, _) = encode(&back, component_bits);
    assert_eq!(bits_of(&again, bits), bits_of(&bytes, bits), "canonical at {component_bits} bits");
    back
}

fn f64s(q: [f32; 4]) -> [f64; 4] {
    q.map(f64::from)
}

#[test]
fn worst_error_over_100_000_random_rotations_is_within_the_bound() {
    for component_bits in [9, 11, 15] {
        let bound = smallest_three::max_angle_error(component_bits);
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ u64::from(component_bits));
        let (mut worst32, mut worst64) = (0.0f64, 0.0f64);
        for _ in 0..100_000 {
            let exact = rng.rotation();
            let single = exact.map(|c| c as f32);
            let back = check_round_trip(&single, component_bits);
            worst32 = worst32.max(angle(f64s(single), f64s(back)));
            let back = check_round_trip(&exact, component_bits);
            worst64 = worst64.max(angle(exact, back));
        }
        println!(
            "N = {component_bits}: bound {bound:.3e} rad ({:.4}°), worst f32 {worst32:.3e} rad ({:.4}°), \
             worst f64 {worst64:.3e} rad",
            bound.to_degrees(),
            worst32.to_degrees()
        );
        assert!(worst64 <= bound, "f64 at {component_bits}: {worst64} > {bound}");
        // An f32's own rounding comes on top (well under 1e-6 rad).
        assert!(worst32 <= bound + 1e-6, "f32 at {component_bits}: {worst32} > {bound}");
        // The bound is tight enough to mean something.
        assert!(worst64 > bound / 2.0, "{component_bits}: {worst64} vs {bound}");
    }
}

/// Quaternions with two, three or four components of (nearly) equal
/// magnitude: where the rebuilt component can come out below a sent one.
fn ties(rng: &mut Rng) -> [f64; 4] {
    let count = 2 + (rng.next() % 3) as usize;
    let mut q = [0.0f64; 4];
    let magnitude = 0.3 + 0.7 * rng.unit();
    for (index, c) in q.iter_mut().enumerate() {
        *c = if index < count { magnitude } else { rng.unit() * magnitude * 0.5 };
        if rng.next() & 1 == 1 {
            *c = -*c;
        }
        // A few ulps either way, or none.
        let nudge = (rng.next() % 9) as i64 - 4;
        *c = f64::from_bits((c.to_bits() as i64 + nudge * (rng.next() % 3) as i64) as u64);
    }
    // Shuffle which components tie.
    for index in (1..4).rev() {
        q.swap(index, (rng.next() % (index as u64 + 1)) as usize);
    }
    normalized(q)
}

#[test]
fn ties_settle_on_bits_that_read_back_canonically_at_every_width() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for component_bits in smallest_three::MIN_COMPONENT_BITS..=smallest_three::MAX_COMPONENT_BITS {
        let bound = smallest_three::max_angle_error(component_bits);
        let mut worst = 0.0f64;
        for round in 0..4_000 {
            let q = if round % 2 == 0 { ties(&mut rng) } else { rng.rotation() };
            let single = q.map(|c| c as f32);
            let back = check_round_trip(&single, component_bits);
            let back64 = check_round_trip(&q, component_bits);
            worst = worst.max(angle(q, back64));
            assert!(angle(f64s(single), f64s(back)) <= bound + 1e-6, "{single:?} at {component_bits}");
        }
        assert!(worst <= bound, "ties at {component_bits}: {worst} > {bound}");
    }
}

#[test]
fn axis_rotations_and_signs() {
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let cases: [[f32; 4]; 8] = [
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, 0.0, -1.0],
        [1.0, 0.0, 0.0, 0.0],
        [0.0, -1.0, 0.0, 0.0],
        [h, 0.0, 0.0, h],
        [0.0, h, -h, 0.0],
        [0.5, 0.5, 0.5, 0.5],
        [-0.5, -0.5, -0.5, -0.5],
    ];
    for component_bits in [2, 3, 9, 16, 24, 30] {
        for q in cases {
            let back = check_round_trip(&q, component_bits);
            let error = angle(f64s(q), f64s(back));
            assert!(error <= smallest_three::max_angle_error(component_bits) + 1e-6, "{q:?}: {error}");
            // The read value is unit.
            let length: f64 = f64s(back).iter().map(|c| c * c).sum();
            assert!((length - 1.0).abs() < 1e-6, "{back:?}");
        }
    }
}

#[test]
fn q_and_minus_q_write_the_same_bits() {
    let mut rng = Rng(17);
    for _ in 0..1_000 {
        let q = rng.rotation().map(|c| c as f32);
        let minus = q.map(|c| -c);
        assert_eq!(encode(&q, 11), encode(&minus, 11));
    }
}

#[test]
fn non_unit_quaternions_are_normalised_and_bad_ones_refused() {
    let mut rng = Rng(99);
    for _ in 0..1_000 {
        let q = rng.rotation();
        let scale = [1e-30, 0.25, 3.0, 1e30][(rng.next() % 4) as usize];
        let scaled = q.map(|c| c * scale);
        let back: [f64; 4] = check_round_trip(&scaled, 15);
        assert!(angle(q, back) <= smallest_three::max_angle_error(15), "{scaled:?}");
    }
    let huge = [f64::MAX, f64::MAX, 0.0, 0.0];
    let back: [f64; 4] = check_round_trip(&huge, 12);
    assert!((back[0] - back[1]).abs() < 1e-3);
    let mut counter = BitCounter::new();
    for bad in [[0.0f32; 4], [-0.0; 4], [f32::NAN, 0.0, 0.0, 1.0], [0.0, f32::INFINITY, 0.0, 0.0]] {
        let kind = smallest_three::write(&mut counter, &bad, 9).unwrap_err().kind();
        assert!(matches!(kind, ErrorKind::OutOfRange | ErrorKind::NonFiniteFloat), "{bad:?}");
    }
    assert_eq!(counter.bits_written(), 0);
}

/// Every code of a small width, read: what is accepted writes back to itself,
/// and what a writer can send is accepted.
#[test]
fn every_code_of_small_widths_is_canonical_or_refused() {
    for component_bits in [2u32, 3, 4] {
        let bits = smallest_three::bits(component_bits);
        let mut accepted = 0;
        for code in 0u32..(1 << bits) {
            let bytes = code.to_le_bytes();
            let mut reader = BitReader::new(&bytes);
            match smallest_three::read::<[f32; 4]>(&mut reader, component_bits) {
                Ok(q) => {
                    accepted += 1;
                    let (again, _) = encode(&q, component_bits);
                    assert_eq!(bits_of(&again, bits), u128::from(code), "{q:?}");
                    assert_eq!(reader.bits_read(), bits);
                }
                Err(error) => {
                    assert_eq!(error.kind(), ErrorKind::OutOfRange);
                    assert_eq!(reader.bits_read(), 0, "a refused read does not move");
                }
            }
        }
        // Each of the 4 indexes keeps the codes whose rebuilt component is the largest.
        assert!(accepted > 0 && accepted < 1 << bits, "{component_bits}: {accepted}");
    }
}

#[test]
fn hostile_bytes_never_panic_and_what_reads_is_canonical() {
    let mut rng = Rng(0xFEED);
    let mut accepted = 0;
    for round in 0..100_000u32 {
        let component_bits = 2 + round % 29;
        let bytes: Vec<u8> = (0..(rng.next() % 13) as usize).map(|_| rng.next() as u8).collect();
        let mut reader = BitReader::new(&bytes);
        let read = if round % 2 == 0 {
            smallest_three::read::<[f32; 4]>(&mut reader, component_bits).map(f64s)
        } else {
            smallest_three::read::<[f64; 4]>(&mut reader, component_bits)
        };
        match read {
            Ok(q) => {
                accepted += 1;
                let bits = smallest_three::bits(component_bits);
                let again = if round % 2 == 0 {
                    encode(&q.map(|c| c as f32), component_bits).0
                } else {
                    encode(&q, component_bits).0
                };
                assert_eq!(bits_of(&again, bits), bits_of(&bytes, bits), "{bytes:?} at {component_bits}");
            }
            Err(_) => assert_eq!(reader.bits_read(), 0),
        }
    }
    assert!(accepted > 1_000, "{accepted}");
}

#[test]
fn relative_rotations_cost_little_and_fall_back_when_the_largest_moves() {
    let mut rng = Rng(4242);
    let mut total_near = 0usize;
    for round in 0..20_000 {
        let baseline = rng.rotation().map(|c| c as f32);
        // A small turn, or a fresh rotation.
        let value = if round % 4 == 0 {
            rng.rotation().map(|c| c as f32)
        } else {
            let turn = 0.002 * (rng.unit() - 0.5);
            let q = f64s(baseline);
            normalized([q[0] + turn, q[1] - turn, q[2] + turn * 0.5, q[3]]).map(|c| c as f32)
        };
        let component_bits = [9, 11, 15][round % 3];
        let mut buf = [0u8; 16];
        let mut writer = BitWriter::new(&mut buf);
        smallest_three::write_relative(&mut writer, &value, &baseline, component_bits).unwrap();
        let bits = writer.bits_written();
        let mut counter = BitCounter::new();
        smallest_three::write_relative(&mut counter, &value, &baseline, component_bits).unwrap();
        assert_eq!(counter.bits_written(), bits);
        writer.finish().unwrap();
        assert!(bits <= 1 + smallest_three::bits(component_bits).max(3 * (2 + component_bits as usize)));
        let absolute: [f32; 4] = decode(&encode(&value, component_bits).0, component_bits);
        // The receiver may hold the baseline or only what it decoded of it.
        let decoded_baseline: [f32; 4] = decode(&encode(&baseline, component_bits).0, component_bits);
        for held in [baseline, decoded_baseline] {
            let mut reader = BitReader::new(&buf);
            let back: [f32; 4] = smallest_three::read_relative(&mut reader, &held, component_bits).unwrap();
            assert_eq!(reader.bits_read(), bits);
            assert_eq!(back.map(f32::to_bits), absolute.map(f32::to_bits), "relative decodes as absolute");
        }
        if round % 4 != 0 && bits < smallest_three::bits(component_bits) {
            total_near += 1;
        }
    }
    assert!(total_near > 10_000, "small turns are cheaper than absolute: {total_near}");
    // Unchanged: one bit and three near steps.
    let q = [0.1f32, 0.2, 0.3, 0.927_362];
    let mut counter = BitCounter::new();
    smallest_three::write_relative(&mut counter, &q, &q, 9).unwrap();
    assert_eq!(counter.bits_written(), 1 + 3 * 4);
    // A baseline with no code: absolute, and the reader knows.
    let mut counter = BitCounter::new();
    smallest_three::write_relative(&mut counter, &q, &[0.0; 4], 9).unwrap();
    assert_eq!(counter.bits_written(), 1 + 29);
}

#[test]
fn relative_bits_no_writer_sends_are_refused() {
    let q = [0.1f32, 0.2, 0.3, 0.927_362];
    // Absolute with the baseline's largest index: a writer sends that relative.
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    writer.write_bool(true).unwrap();
    smallest_three::write(&mut writer, &q, 9).unwrap();
    writer.finish().unwrap();
    let mut reader = BitReader::new(&buf);
    let error = smallest_three::read_relative::<[f32; 4]>(&mut reader, &q, 9).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::OutOfRange);
    assert_eq!(reader.bits_read(), 0);
    // Relative against a baseline with no code.
    let mut reader = BitReader::new(&[0u8; 8]);
    assert!(smallest_three::read_relative::<[f32; 4]>(&mut reader, &[0.0; 4], 9).is_err());
    assert_eq!(reader.bits_read(), 0);
    // Hostile bytes against a baseline never panic; what reads writes back.
    let mut rng = Rng(5);
    for _ in 0..20_000 {
        let bytes: Vec<u8> = (0..(rng.next() % 12) as usize).map(|_| rng.next() as u8).collect();
        let mut reader = BitReader::new(&bytes);
        if let Ok(back) = smallest_three::read_relative::<[f32; 4]>(&mut reader, &q, 9) {
            let mut again = [0u8; 16];
            let mut writer = BitWriter::new(&mut again);
            smallest_three::write_relative(&mut writer, &back, &q, 9).unwrap();
            let bits = writer.bits_written();
            assert_eq!(bits, reader.bits_read());
            writer.finish().unwrap();
            assert_eq!(bits_of(&again, bits), bits_of(&bytes, bits));
        } else {
            assert_eq!(reader.bits_read(), 0);
        }
    }
}

#[test]
fn truncated_input_is_an_error_that_moves_nothing() {
    let (bytes, _) = encode(&[0.1f32, 0.2, 0.3, 0.927_362], 15);
    for len in 0..bytes.len() - 1 {
        let mut reader = BitReader::new(&bytes[..len]);
        let error = smallest_three::read::<[f32; 4]>(&mut reader, 15).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::UnexpectedEnd);
        assert_eq!(reader.bits_read(), 0);
    }
}
