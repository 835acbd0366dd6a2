//! Compressed floats at the top of their range: for an odd step count in
//! [2^23, 2^24) (f32) or [2^52, 2^53) (f64), `max + 0.5` rounds up to one
//! past the last step. The normative clamp after the floor keeps the
//! integer in range, so the maximum (and anything above it) reads back, and
//! the field after it keeps its bits.

use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, Error};

/// A float at `[0, MAX]` by 1, then a bool, written with the core calls (a
/// derived type could not declare these ranges: f32 does not resolve them).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Reading<const MAX: u32> {
    x: f32,
    alive: bool,
}

impl<const MAX: u32> BitPack for Reading<MAX> {
    const MAX_BITS: usize = 25;
    const SCHEMA: u64 = 0;

    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.write_compressed_float(self.x, 0.0, MAX as f32, 1.0)?;
        writer.write_bool(self.alive)
    }

    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        let x = reader.read_compressed_float(0.0, MAX as f32, 1.0)?;
        Ok(Reading { x, alive: reader.read_bool()? })
    }
}

/// The same with a compressed double at `[0, 2^53 - 1]` by 1.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Far {
    x: f64,
    alive: bool,
}

const FAR_MAX: f64 = 9_007_199_254_740_991.0;

impl BitPack for Far {
    const MAX_BITS: usize = 54;
    const SCHEMA: u64 = 0;

    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        writer.write_compressed_double(self.x, 0.0, FAR_MAX, 1.0)?;
        writer.write_bool(self.alive)
    }

    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        let x = reader.read_compressed_double(0.0, FAR_MAX, 1.0)?;
        Ok(Far { x, alive: reader.read_bool()? })
    }
}

fn round_trip<T: BitPack>(value: &T) -> T {
    let bytes = bitpack::encode(value).expect("the maximum writes");
    bitpack::decode::<T>(&bytes).expect("and reads back")
}

#[test]
fn the_maximum_then_false_reads_back_false() {
    // Unclamped, 2^24 - 1 wrote 2^24 in 24 bits: x read 0 and the spilled
    // top bit read as `alive: true`.
    let at_max = Reading::<16_777_215> { x: 16_777_215.0, alive: false };
    assert_eq!(round_trip(&at_max), at_max);
    // Unclamped, 8388609 wrote 8388610, which the reader refused.
    let at_max = Reading::<8_388_609> { x: 8_388_609.0, alive: false };
    assert_eq!(round_trip(&at_max), at_max);
    // Values above the maximum clamp to it.
    let above = Reading::<16_777_215> { x: 3.0e7, alive: false };
    assert_eq!(round_trip(&above), Reading { x: 16_777_215.0, alive: false });
    let far = Far { x: FAR_MAX, alive: false };
    assert_eq!(round_trip(&far), far);
    assert_eq!(round_trip(&Far { x: 1.0e300, alive: true }), Far { x: FAR_MAX, alive: true });
}

/// The writer's debug assertion that a pushed value fits its bits used to
/// fire here.
#[test]
#[cfg_attr(not(debug_assertions), ignore = "proves nothing without debug assertions")]
fn writing_the_maximum_is_not_a_debug_panic() {
    for max in [8_388_609.0f32, 16_777_215.0] {
        let mut buf = [0u8; 8];
        let mut writer = BitWriter::new(&mut buf);
        writer.write_compressed_float(max, 0.0, max, 1.0).unwrap();
        writer.write_bool(false).unwrap();
        assert_eq!(writer.bits_written(), 25);
        let used = writer.finish().unwrap();
        let mut reader = BitReader::new(&buf[..used]);
        assert_eq!(reader.read_compressed_float(0.0, max, 1.0).unwrap(), max);
        assert!(!reader.read_bool().unwrap());
        let mut counter = BitCounter::new();
        counter.write_compressed_float(max, 0.0, max, 1.0).unwrap();
        assert_eq!(counter.bits_written(), 24);
    }
}

#[test]
fn the_band_of_odd_step_counts_reads_back_at_every_top() {
    // A sweep of odd step counts across [2^23, 2^24): the maximum, and the
    // value just below it, read back without touching the next field.
    for steps in (8_388_609u32..16_777_216).step_by(4_098) {
        let max = steps as f32;
        let mut buf = [0u8; 8];
        for value in [max, max - 1.0, max + 5.0] {
            let mut writer = BitWriter::new(&mut buf);
            writer.write_compressed_float(value, 0.0, max, 1.0).unwrap();
            writer.write_bool(false).unwrap();
            let used = writer.finish().unwrap();
            let mut reader = BitReader::new(&buf[..used]);
            assert_eq!(reader.read_compressed_float(0.0, max, 1.0).unwrap(), value.min(max), "{steps}");
            assert!(!reader.read_bool().unwrap(), "{steps}: the next field keeps its bit");
        }
    }
}

/// The same through the derive (an `f32` declaration in the band is a
/// compile error, so an `f64` at the top of [2^52, 2^53)): `x` and `alive`
/// in one fused run, and `x` coded relatively in a delta.
#[derive(bitpack::BitPack, Debug, Clone, Copy, PartialEq)]
struct FarDerived {
    #[change_group]
    #[quantize(min = 0.0, max = 9_007_199_254_740_991.0, res = 1.0)]
    #[bitpack(relative)]
    x: f64,
    alive: bool,
}

#[test]
fn derived_runs_and_relative_steps_clamp_too() {
    use bitpack::ChangeGroups;
    assert_eq!(FarDerived::MAX_BITS, 54);
    let at_max = FarDerived { x: FAR_MAX, alive: false };
    assert_eq!(round_trip(&at_max), at_max);
    assert_eq!(round_trip(&FarDerived { x: 1.0e300, alive: false }), at_max);
    // The derived run writes the bits of the core calls.
    assert_eq!(
        bitpack::encode(&at_max).unwrap(),
        bitpack::encode(&Far { x: FAR_MAX, alive: false }).unwrap()
    );
    for baseline in [0.0, FAR_MAX - 1.0, FAR_MAX] {
        let baseline = FarDerived { x: baseline, alive: true };
        for now in [at_max, FarDerived { x: 1.0e300, alive: false }] {
            let mut buf = [0u8; 16];
            let mut writer = BitWriter::new(&mut buf);
            now.write_delta(&baseline, &mut writer).unwrap();
            let used = writer.finish().unwrap();
            let back = FarDerived::read_delta(&baseline, &mut BitReader::new(&buf[..used])).unwrap();
            assert_eq!(back, at_max, "against {}", baseline.x);
        }
    }
}
