//! `Option`s of derived enums whose variants' fields are all fixed-width
//! scalars, written as one push of the presence bit, the tag and the
//! fields (`BitPack::__write_some`): the bits, errors and positions of the
//! presence bit and then the enum's own `write_to`, after every offset,
//! into every buffer size, on the writer and in a `Vec`'s element loop
//! (the writer in a local); measured (a counter counts each variant's bits
//! as one value, `__private::write_option`) as written, refused as written.

use crate::bulk_support;

use bitpack::{BitPack, BitRead, BitWrite, BitWriter, Error};
use bulk_support::written;
use proptest::prelude::*;

/// Every kind of variant: none, one or two fields, a ranged field that can
/// be refused, a skipped one, and one past 64 bits with its tag (the
/// default path).
#[derive(BitPack, Clone, Debug, PartialEq)]
enum Activity {
    Idle,
    Walking {
        speed: u16,
    },
    Attacking {
        target: u32,
        weapon: u8,
    },
    Talking(u32),
    Mood(bool, #[bits(min = -3, max = 9)] i8),
    Resting {
        #[bitpack(skip)]
        since: u8,
        hours: u8,
    },
    Wide(u64, u8),
}

/// Unit variants only: the tag alone.
#[derive(BitPack, Clone, Copy, Debug, PartialEq)]
enum Level {
    Low,
    Mid,
    High,
}

/// A field that is no scalar: the trait's default.
#[derive(BitPack, Clone, Debug, PartialEq)]
enum Note {
    Empty,
    Tags(#[bitpack(max_len = 4)] Vec<u8>),
}

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Entity {
    id: u32,
    activity: Option<Activity>,
    level: Option<Level>,
    note: Option<Note>,
    last: Option<Activity>,
}

#[derive(BitPack, Clone, Debug, PartialEq)]
struct World {
    #[bitpack(max_len = 8)]
    entities: Vec<Entity>,
}

/// `Some` as before: the presence bit, then the value's own `write_to`.
fn some<T: BitPack>(writer: &mut BitWriter<'_>, value: &Option<T>) -> Result<(), Error> {
    match value {
        Some(value) => {
            writer.write_bool(true)?;
            value.write_to(writer)
        }
        None => writer.write_bool(false),
    }
}

fn entity_as_before(writer: &mut BitWriter<'_>, entity: &Entity) -> Result<(), Error> {
    bitpack::__private::write_atomic(writer, |writer| {
        writer.write_u32(entity.id)?;
        some(writer, &entity.activity)?;
        some(writer, &entity.level)?;
        some(writer, &entity.note)?;
        some(writer, &entity.last)
    })
}

fn world_as_before(writer: &mut BitWriter<'_>, world: &World) -> Result<(), Error> {
    bitpack::__private::write_atomic(writer, |writer| {
        writer.write_int(world.entities.len() as i32, 0, 8)?;
        world.entities.iter().try_for_each(|entity| entity_as_before(writer, entity))
    })
}

fn activity() -> impl Strategy<Value = Activity> {
    prop_oneof![
        Just(Activity::Idle),
        any::<u16>().prop_map(|speed| Activity::Walking { speed }),
        (any::<u32>(), any::<u8>()).prop_map(|(target, weapon)| Activity::Attacking { target, weapon }),
        any::<u32>().prop_map(Activity::Talking),
        // Out of range past 9 or below -3: refused.
        (any::<bool>(), -5i8..12).prop_map(|(happy, mood)| Activity::Mood(happy, mood)),
        any::<u8>().prop_map(|hours| Activity::Resting { since: 0, hours }),
        (any::<u64>(), any::<u8>()).prop_map(|(a, b)| Activity::Wide(a, b)),
    ]
}

fn entity() -> impl Strategy<Value = Entity> {
    let level = prop_oneof![Just(Level::Low), Just(Level::Mid), Just(Level::High)];
    let note = prop_oneof![Just(Note::Empty), prop::collection::vec(any::<u8>(), 0..6).prop_map(Note::Tags)];
    (
        any::<u32>(),
        prop::option::of(activity()),
        prop::option::of(level),
        prop::option::of(note),
        prop::option::of(activity()),
    )
        .prop_map(|(id, activity, level, note, last)| Entity { id, activity, level, note, last })
}

/// Two outcomes alike: the same bytes and bits, or the same error at the
/// same bit with the writer at the same place.
fn same(
    derived: Result<(Vec<u8>, usize), (Error, usize)>,
    expected: Result<(Vec<u8>, usize), (Error, usize)>,
) -> Result<(), TestCaseError> {
    match (derived, expected) {
        (Ok(derived), Ok(expected)) => prop_assert_eq!(derived, expected),
        (Err((derived, at)), Err((expected, expected_at))) => {
            prop_assert_eq!(
                (derived.kind(), derived.bit(), at),
                (expected.kind(), expected.bit(), expected_at)
            );
        }
        (derived, expected) => prop_assert!(false, "{derived:?} against {expected:?}"),
    }
    Ok(())
}

proptest! {
    #[test]
    fn an_entity_writes_as_the_bit_then_the_enum(value in entity(), offset in 0u32..64, room in 0usize..40) {
        let room = room.max(offset.div_ceil(8) as usize);
        same(written(offset, room, |writer| value.write_to(writer)), written(offset, room, |writer| entity_as_before(writer, &value)))?;
        same(written(offset, 64, |writer| value.write_to(writer)), written(offset, 64, |writer| entity_as_before(writer, &value)))?;
        bulk_support::measured_as_written(&value, offset, 64)?;
    }

    #[test]
    fn a_world_writes_as_the_bit_then_the_enum(
        entities in prop::collection::vec(entity(), 0..9),
        offset in 0u32..64,
        room in 0usize..300,
    ) {
        let value = World { entities };
        let room = room.max(offset.div_ceil(8) as usize);
        same(written(offset, room, |writer| value.write_to(writer)), written(offset, room, |writer| world_as_before(writer, &value)))?;
        same(written(offset, 400, |writer| value.write_to(writer)), written(offset, 400, |writer| world_as_before(writer, &value)))?;
        bulk_support::measured_as_written(&value, offset, 400)?;
    }

    #[test]
    fn the_core_option_writes_as_the_bit_then_the_enum(value in prop::option::of(activity()), offset in 0u32..64, room in 0usize..20) {
        let room = room.max(offset.div_ceil(8) as usize);
        let as_before = |writer: &mut BitWriter<'_>| bitpack::__private::write_atomic(writer, |writer| some(writer, &value));
        same(written(offset, room, |writer| value.write_to(writer)), written(offset, room, as_before))?;
        bulk_support::measured_as_written(&value, offset, 24)?;
        if let Ok((bytes, bits)) = written(offset, 24, |writer| value.write_to(writer)) {
            let mut reader = bulk_support::reader_at(&bytes, offset);
            prop_assert_eq!(<Option<Activity>>::read_from(&mut reader).unwrap(), value);
            prop_assert_eq!(reader.bits_read(), bits);
        }
    }
}
