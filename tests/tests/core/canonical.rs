//! Readers refuse bits that decode to a valid value in a form no writer
//! produces (`NonCanonical`, at the bit where the value starts), so every
//! decoded value re-encodes to the bits it came from.

use bitpack::__private::{self, relative_f32};
use bitpack::adaptive::{self, Signs};
use bitpack::change::{self, BitFingerprint};
use bitpack::{BitPack, BitRead, BitReader, BitWrite, BitWriter, Error, ErrorKind};

/// `prefix` marker bits, then what `write` writes: the bytes.
fn after_marker(prefix: u32, write: impl FnOnce(&mut BitWriter<'_>) -> Result<(), Error>) -> Vec<u8> {
    let mut buf = [0u8; 64];
    let mut writer = BitWriter::new(&mut buf);
    if prefix > 0 {
        writer.write_bits(0, prefix).unwrap();
    }
    write(&mut writer).unwrap();
    let used = writer.finish().unwrap();
    buf[..used].to_vec()
}

/// Reads with `read` after `prefix` bits: the error's kind and bit, and
/// where the reader was left.
fn refusal<'a, T>(
    bytes: &'a [u8],
    prefix: u32,
    read: impl FnOnce(&mut BitReader<'a>) -> Result<T, Error>,
) -> (ErrorKind, usize, usize) {
    let mut reader = BitReader::new(bytes);
    if prefix > 0 {
        reader.read_bits(prefix).unwrap();
    }
    match read(&mut reader) {
        Ok(_) => panic!("accepted"),
        Err(error) => (error.kind(), error.bit(), reader.bits_read()),
    }
}

#[test]
fn a_relative_int_far_form_for_a_near_value_is_refused() {
    // Flag 1 (far), then 102 in 10 bits, against 100: the near form holds it.
    let bytes = after_marker(3, |writer| {
        writer.write_bool(true)?;
        writer.write_int64(102, 0, 1023)
    });
    let read = |reader: &mut BitReader<'_>| change::read_relative_int(reader, 100, 0, 1023);
    assert_eq!(refusal(&bytes, 3, read), (ErrorKind::NonCanonical, 3, 3));
    // Just outside the near range, the far form is the writer's own.
    for (value, canonical) in [(95, true), (96, false), (103, false), (104, true)] {
        let bytes = after_marker(0, |writer| {
            writer.write_bool(true)?;
            writer.write_int64(value, 0, 1023)
        });
        let result = change::read_relative_int(&mut BitReader::new(&bytes), 100, 0, 1023);
        assert_eq!(result.is_ok(), canonical, "{value}");
    }
    // And through the derive's per-type module.
    let bytes = after_marker(0, |writer| {
        writer.write_bool(true)?;
        writer.write_int(102, 0, 1023)
    });
    let read = |reader: &mut BitReader<'_>| __private::relative_u16::read(reader, 100, 0, 1023);
    assert_eq!(refusal(&bytes, 0, read).0, ErrorKind::NonCanonical);
}

#[test]
fn a_middle_tier_step_the_near_tier_holds_is_refused() {
    // 18-bit steps: the mid tier is `10` then 10 bits of `difference + 512`.
    let mid = |difference: i32| {
        after_marker(5, |writer| {
            writer.write_bits(0b01, 2)?;
            writer.write_bits((difference + 512) as u32, 10)
        })
    };
    let read = |reader: &mut BitReader<'_>| change::read_relative_steps(reader, 1000, 204_800);
    for difference in -4..=3 {
        assert_eq!(refusal(&mid(difference), 5, read), (ErrorKind::NonCanonical, 5, 5), "{difference}");
    }
    for difference in [-5, 4, -512, 511] {
        let bytes = mid(difference);
        let mut reader = BitReader::new(&bytes);
        reader.read_bits(5).unwrap();
        assert_eq!(read(&mut reader).unwrap(), (1000 + difference) as u64);
    }
}

/// The far tier of relative steps: `11` then the steps in full.
fn far_steps(steps: u32, bits: u32) -> Vec<u8> {
    after_marker(0, |writer| {
        writer.write_bits(0b11, 2)?;
        writer.write_bits(steps, bits)
    })
}

#[test]
fn a_relative_float_sent_far_for_a_small_move_is_refused() {
    // [-512, 512] at 0.01 (102,400 steps, 17 bits): every step reads back to
    // itself, so the writer always codes against the baseline's steps and
    // sends a move of a few steps near, never far.
    let (min, max, res) = (-512.0, 512.0, 0.01);
    let baseline = 2.5f32;
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    relative_f32::write(&mut writer, 2.52, baseline, min, max, res).unwrap();
    assert_eq!(writer.bits_written(), 4);
    let base = bitpack::BitReader::new(&{
        let mut buf = [0u8; 4];
        let mut writer = BitWriter::new(&mut buf);
        writer.write_compressed_float(baseline, min, max, res).unwrap();
        writer.finish().unwrap();
        buf
    })
    .read_bits(17)
    .unwrap();
    // 17-bit steps: the mid tier holds moves in -256..256.
    for (steps, canonical) in
        [(base + 2, false), (base - 256, false), (base + 256, true), (base + 5000, true)]
    {
        let bytes = far_steps(steps, 17);
        let result = relative_f32::read(&mut BitReader::new(&bytes), baseline, min, max, res);
        assert_eq!(result.map_err(|error| error.kind()).is_ok(), canonical, "{steps} against {base}");
    }
    let read = |reader: &mut BitReader<'_>| relative_f32::read(reader, baseline, min, max, res);
    assert_eq!(refusal(&far_steps(base + 2, 17), 0, read), (ErrorKind::NonCanonical, 0, 0));
}

#[test]
fn a_relative_float_sent_near_where_the_sides_could_disagree_is_refused() {
    // At 0.0001 over [-1024, 1024], step 2,129,515 decodes to a value that
    // quantizes to 2,129,516: against a baseline there, the writer always
    // goes far (see the core's relative tests), so a near value is no
    // writer's.
    let (min, max, res) = (-1024.0f32, 1024.0, 0.0001);
    let decoded = {
        let bytes = after_marker(0, |writer| writer.write_bits(2_129_515, 25));
        BitReader::new(&bytes).read_compressed_float(min, max, res).unwrap()
    };
    let mut original = decoded;
    let quantize = |value: f32| {
        let bytes = after_marker(0, |writer| writer.write_compressed_float(value, min, max, res));
        BitReader::new(&bytes).read_bits(25).unwrap()
    };
    while quantize(original) != 2_129_515 {
        original = f32::from_bits(original.to_bits() + 1);
    }
    let near = after_marker(0, |writer| writer.write_bits(0b0100, 4));
    let read = |reader: &mut BitReader<'_>| relative_f32::read(reader, original, min, max, res);
    assert_eq!(refusal(&near, 0, read), (ErrorKind::NonCanonical, 0, 0));
    // The far form the writer sends there reads back, for either baseline.
    let far = far_steps(2_129_520, 25);
    for held in [original, decoded] {
        assert!(relative_f32::read(&mut BitReader::new(&far), held, min, max, res).is_ok());
    }
}

#[derive(BitPack, Debug, PartialEq)]
#[bitpack(adaptive)]
struct Score {
    delta: i32,
    total: i64,
}

#[test]
fn a_sign_bit_with_no_negative_value_is_refused() {
    // Sign bit 1 (zig-zag), then 6 and 40 zig-zag coded: +3 and +20.
    let bytes = after_marker(0, |writer| {
        writer.write_bool(true)?;
        adaptive::write_adaptive(writer, 6u32, Signs::NonNegative)?;
        adaptive::write_adaptive(writer, 40u64, Signs::NonNegative)
    });
    assert_eq!(refusal(&bytes, 0, Score::read_from), (ErrorKind::NonCanonical, 0, 0));
    // The writer's own bits for those values: sign bit 0.
    let bytes = bitpack::encode(&Score { delta: 3, total: 20 }).unwrap();
    assert_eq!(bitpack::decode::<Score>(&bytes).unwrap(), Score { delta: 3, total: 20 });
    // With a negative value, sign bit 1 is the writer's.
    let value = Score { delta: -3, total: 20 };
    assert_eq!(bitpack::decode::<Score>(&bitpack::encode(&value).unwrap()).unwrap(), value);
}

#[test]
fn an_adaptive_group_in_a_form_the_writer_would_not_pick_is_refused() {
    let group = |write: &dyn Fn(&mut BitWriter<'_>) -> Result<(), Error>| after_marker(2, write);
    let read = |reader: &mut BitReader<'_>| {
        let mut out = [0u16; 3];
        adaptive::read_adaptive_group(reader, &mut out, Signs::NonNegative).map(|()| out)
    };
    // [1000, 1001, 1002] per value (3 x 13 bits): shared takes 4 + 3 x 10.
    let per_value = group(&|writer| {
        writer.write_bool(false)?;
        for value in [1000u16, 1001, 1002] {
            adaptive::write_adaptive(writer, value, Signs::NonNegative)?;
        }
        Ok(())
    });
    assert_eq!(refusal(&per_value, 2, read), (ErrorKind::NonCanonical, 2, 2));
    // [0, 1, 0] shared at width 1 (4 + 3 bits): per value takes 4 + 4 + 4, but
    // at width 2 the shared form is longer than needed.
    let wide = group(&|writer| {
        writer.write_bool(true)?;
        writer.write_bits(2, 4)?;
        for value in [0, 1, 0] {
            writer.write_bits(value, 2)?;
        }
        Ok(())
    });
    assert_eq!(refusal(&wide, 2, read), (ErrorKind::NonCanonical, 2, 2));
    // [3] alone, shared at width 2 (4 + 2 bits): per value takes 4 + 1.
    let one = |write: &dyn Fn(&mut BitWriter<'_>) -> Result<(), Error>| after_marker(0, write);
    let single_shared = one(&|writer| {
        writer.write_bool(true)?;
        writer.write_bits(2, 4)?;
        writer.write_bits(3, 2)
    });
    let read_one = |reader: &mut BitReader<'_>| {
        let mut out = [0u16; 1];
        adaptive::read_adaptive_group(reader, &mut out, Signs::NonNegative).map(|()| out)
    };
    assert_eq!(refusal(&single_shared, 0, read_one).0, ErrorKind::NonCanonical);
    // What the writer writes reads back, in both forms.
    for values in [[1000u16, 1001, 1002], [3, 0, 0], [0, 0, 0], [1, 60_000, 2]] {
        let bytes =
            after_marker(0, |writer| adaptive::write_adaptive_group(writer, &values, Signs::NonNegative));
        assert_eq!(read(&mut BitReader::new(&bytes)).unwrap(), values);
    }
    // An adaptive Vec refuses alike, naming where it starts.
    let bytes = after_marker(0, |writer| {
        writer.write_int(3, 0, 8)?;
        writer.write_bool(false)?;
        for value in [1000u16, 1001, 1002] {
            adaptive::write_adaptive(writer, value, Signs::NonNegative)?;
        }
        Ok(())
    });
    let read_vec =
        |reader: &mut BitReader<'_>| adaptive::read_adaptive_vec::<u16>(reader, 8, Signs::NonNegative);
    assert_eq!(refusal(&bytes, 0, read_vec), (ErrorKind::NonCanonical, 0, 0));
}

#[test]
fn a_delta_group_sent_equal_to_its_baseline_is_refused() {
    let group = |value: i32| move |sink: &mut BitFingerprint| sink.write_int(value, 0, 100);
    // Sent though equal: refused at the flag's bit.
    let error = __private::delta_group_sent(17, group(40), group(40)).unwrap_err();
    assert_eq!((error.kind(), error.bit()), (ErrorKind::NonCanonical, 17));
    assert!(__private::delta_group_sent(17, group(41), group(40)).is_ok());
    // Alignment is judged where the group starts: 8 bits of a string from
    // bit 18 (after a flag at 17) pad differently from bit 0.
    let text = |sink: &mut BitFingerprint| sink.write_str("a", 3);
    assert!(__private::delta_group_sent(17, text, text).is_err());
}

#[derive(BitPack, Debug, Clone, PartialEq)]
struct Unit {
    #[change_group]
    #[bits(min = 0, max = 100)]
    health: u8,
}

#[test]
fn a_derived_delta_group_sent_equal_to_its_baseline_is_refused() {
    use bitpack::ChangeGroups;
    let baseline = Unit { health: 40 };
    let bytes = after_marker(0, |writer| {
        writer.write_bool(true)?;
        writer.write_int(40, 0, 100)
    });
    let mut reader = BitReader::new(&bytes);
    let error = Unit::read_delta(&baseline, &mut reader).unwrap_err();
    assert_eq!((error.kind(), error.bit(), reader.bits_read()), (ErrorKind::NonCanonical, 0, 0));
}

/// A nested type's groups after the outer group's flag, beside a named
/// group of two fields fused into a run.
#[derive(BitPack, Debug, Clone, PartialEq)]
struct Squad {
    #[change_group]
    leader: Unit,
    #[change_group(spot)]
    #[bits(min = 0, max = 15)]
    x: u8,
    #[change_group(spot)]
    #[bits(min = 0, max = 15)]
    y: u8,
}

/// A `Squad` delta as written by hand: the leader's flag (and if sent, its
/// own group's flag and health), then the spot group's flag (and x, y).
fn squad_delta(leader: Option<Option<i32>>, spot: Option<(i32, i32)>) -> Vec<u8> {
    after_marker(0, |writer| {
        writer.write_bool(leader.is_some())?;
        if let Some(health) = leader {
            writer.write_bool(health.is_some())?;
            health.map_or(Ok(()), |health| writer.write_int(health, 0, 100))?;
        }
        writer.write_bool(spot.is_some())?;
        spot.map_or(Ok(()), |(x, y)| {
            writer.write_int(x, 0, 15)?;
            writer.write_int(y, 0, 15)
        })
    })
}

#[test]
fn nested_and_run_groups_sent_equal_to_their_baseline_are_refused() {
    use bitpack::ChangeGroups;
    let baseline = Squad { leader: Unit { health: 40 }, x: 3, y: 4 };
    let read = |bytes: &[u8]| {
        let mut reader = BitReader::new(bytes);
        Squad::read_delta(&baseline, &mut reader)
            .map_err(|error| (error.kind(), error.bit(), reader.bits_read()))
    };
    // The nested group sent, its own group not: the leader is the baseline's.
    assert_eq!(read(&squad_delta(Some(None), None)), Err((ErrorKind::NonCanonical, 0, 0)));
    // The nested group sent with the baseline's health.
    assert_eq!(read(&squad_delta(Some(Some(40)), None)), Err((ErrorKind::NonCanonical, 1, 0)));
    // The spot group sent with the baseline's x and y.
    assert_eq!(read(&squad_delta(None, Some((3, 4)))), Err((ErrorKind::NonCanonical, 1, 0)));
    // One of them moved: accepted, and it re-encodes to the same bits.
    let bytes = squad_delta(None, Some((3, 5)));
    let moved = read(&bytes).unwrap();
    assert_eq!(moved, Squad { y: 5, ..baseline.clone() });
    let mut buf = [0u8; 8];
    let mut writer = BitWriter::new(&mut buf);
    moved.write_delta(&baseline, &mut writer).unwrap();
    let used = writer.finish().unwrap();
    assert_eq!(buf[..used], bytes[..]);
}

/// A hit, and the next version of it: one more 5-bit field, which fits in
/// the last byte's padding.
#[derive(BitPack, Debug, PartialEq)]
struct Hit {
    #[bits(min = 0, max = 1023)]
    target: u16,
    critical: bool,
}

#[derive(BitPack, Debug, PartialEq)]
struct HitV2 {
    #[bits(min = 0, max = 1023)]
    target: u16,
    critical: bool,
    #[bits(min = 0, max = 31)]
    damage: u8,
}

#[test]
fn decode_refuses_bits_after_the_value_in_its_last_byte() {
    let newer = bitpack::encode(&HitV2 { target: 700, critical: true, damage: 9 }).unwrap();
    let older = bitpack::encode(&Hit { target: 700, critical: true }).unwrap();
    assert_eq!(newer.len(), older.len());
    let error = bitpack::decode::<Hit>(&newer).unwrap_err();
    assert_eq!((error.kind(), error.bit()), (ErrorKind::NonCanonical, 11));
    assert_eq!(
        bitpack::decode_with_limit::<Hit>(&newer, 1 << 10).map_err(|e| e.kind()),
        Err(ErrorKind::NonCanonical)
    );
    // A zero field in the padding is the older value's own bits.
    let zero = bitpack::encode(&HitV2 { target: 700, critical: true, damage: 0 }).unwrap();
    assert_eq!(bitpack::decode::<Hit>(&zero), Ok(Hit { target: 700, critical: true }));
    assert_eq!(bitpack::decode::<Hit>(&older), Ok(Hit { target: 700, critical: true }));
}
