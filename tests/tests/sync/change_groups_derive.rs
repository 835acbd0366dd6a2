//! Change groups derived from `#[change_group]` and `#[bitpack(relative)]`:
//! the issue's `Enemy`/`Combat` example, and the hand-written tests' key
//! scenarios ported to derived types, with the same figures and bytes.

use crate::change_groups_common;

use bitpack::{BitCounter, BitPack, BitRead, BitReader, BitWrite, BitWriter, ChangeGroups, Error};

#[derive(BitPack, Clone, Debug, Default, PartialEq)]
struct Combat {
    #[change_group]
    #[bits(min = 0, max = 63)]
    ammo: u8,
    #[change_group]
    #[bits(min = 0, max = 3)]
    stance: u8,
}

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Enemy {
    #[bits(min = 0, max = 4095)]
    id: u16, // outside any group: always written
    #[change_group(motion)]
    #[quantize(min = -512.0, max = 512.0, res = 0.01)]
    x: f32,
    #[change_group(motion)]
    #[quantize(min = -512.0, max = 512.0, res = 0.01)]
    y: f32, // x and y share one flag bit
    #[change_group]
    #[bits(min = 0, max = 1000)]
    health: i32, // a group of its own
    #[change_group]
    combat: Combat, // nested: Combat's own groups nest inside
}

#[test]
fn the_issue_example_sends_only_what_changed() -> Result<(), Error> {
    let enemy = Enemy { id: 7, x: 1.5, y: -2.25, health: 900, combat: Combat { ammo: 30, stance: 1 } };
    let mut latest = <Enemy as ChangeGroups>::Tracker::default();
    let mut buf = [0u8; 32];
    let mut writer = BitWriter::new(&mut buf);
    enemy.write_changes(&mut writer, &Default::default(), &mut latest)?;
    // id 12, motion 1 + 17 + 17, health 1 + 10, combat 1 + (1 + 6) + (1 + 2).
    assert_eq!(writer.bits_written(), 12 + 35 + 11 + 11);
    let used = writer.finish()?;
    let mut seen = Enemy { id: 0, x: 0.0, y: 0.0, health: 0, combat: Combat::default() };
    seen.read_changes(&mut BitReader::new(&buf[..used]))?;
    assert_eq!(seen.id, 7);
    assert!((seen.x - 1.5).abs() <= 0.005 && (seen.y + 2.25).abs() <= 0.005);
    assert_eq!((seen.health, &seen.combat), (900, &enemy.combat));

    let confirmed = latest.clone();
    let mut hurt = enemy.clone();
    hurt.health = 850;
    hurt.combat.stance = 2;
    let mut counter = BitCounter::new();
    hurt.write_changes(&mut counter, &confirmed, &mut latest)?;
    // id 12, motion 1, health 1 + 10, combat 1 + ammo 1 + stance 1 + 2.
    assert_eq!(counter.bits_written(), 12 + 1 + 11 + 1 + 1 + 3);
    Ok(())
}

#[test]
fn a_delta_below_the_resolution_is_not_a_change() -> Result<(), Error> {
    let before = Enemy { id: 1, x: 10.001, y: 5.0, health: 10, combat: Combat { ammo: 1, stance: 0 } };
    let mut after = before.clone();
    after.x = 10.003; // same quantized bits
    let mut counter = BitCounter::new();
    after.write_delta(&before, &mut counter)?;
    // id 12 and one 0 bit per top-level group.
    assert_eq!(counter.bits_written(), 12 + 3);
    after.health = 11;
    let mut buf = [0u8; 16];
    let mut writer = BitWriter::new(&mut buf);
    after.write_delta(&before, &mut writer)?;
    let used = writer.finish()?;
    let read = Enemy::read_delta(&before, &mut BitReader::new(&buf[..used]))?;
    assert_eq!(read, Enemy { health: 11, ..before });
    Ok(())
}

// ---------------------------------------------------------------------------
// The seed scenario with derived messages.

use change_groups_common::seed::{Message, scenario};

/// The seed message, groups as in the hand-written version: `header`
/// {action, flags}, orientation, x, y; the checksum always written.
#[derive(BitPack, Clone, Copy, Debug, PartialEq)]
struct SeedAbsolute {
    #[change_group(header)]
    #[bits(min = 0, max = 15)]
    action: u8,
    #[change_group(header)]
    #[bits(min = 0, max = 15)]
    flags: u8,
    checksum: u8,
    #[change_group]
    #[bits(min = 0, max = 359)]
    orientation: u16,
    #[change_group]
    #[bits(min = 0, max = 1023)]
    x: u16,
    #[change_group]
    #[bits(min = 0, max = 1023)]
    y: u16,
}

/// The same message with relative coding in deltas.
#[derive(BitPack, Clone, Copy, Debug, PartialEq)]
struct SeedRelative {
    #[change_group(header)]
    #[bits(min = 0, max = 15)]
    action: u8,
    #[change_group(header)]
    #[bits(min = 0, max = 15)]
    flags: u8,
    checksum: u8,
    #[change_group]
    #[bits(min = 0, max = 359)]
    #[bitpack(relative)]
    orientation: u16,
    #[change_group]
    #[bits(min = 0, max = 1023)]
    #[bitpack(relative)]
    x: u16,
    #[change_group]
    #[bits(min = 0, max = 1023)]
    #[bitpack(relative)]
    y: u16,
}

impl From<&Message> for SeedAbsolute {
    fn from(&Message { action, flags, checksum, orientation, x, y }: &Message) -> Self {
        SeedAbsolute { action, flags, checksum, orientation, x, y }
    }
}

impl From<&Message> for SeedRelative {
    fn from(&Message { action, flags, checksum, orientation, x, y }: &Message) -> Self {
        SeedRelative { action, flags, checksum, orientation, x, y }
    }
}

/// Tracked, every packet acknowledged before the next; checks each decode.
fn seed_tracked_bytes<T>(initial: &Message, ticks: &[Message]) -> Result<usize, Error>
where
    T: ChangeGroups + for<'m> From<&'m Message> + PartialEq + std::fmt::Debug,
{
    let mut buf = [0u8; 16];
    let mut latest = T::Tracker::default();
    T::from(initial).write_changes(&mut BitCounter::new(), &Default::default(), &mut latest)?;
    let mut receiver = T::from(initial);
    let mut total = 0;
    for tick in ticks {
        let confirmed = latest.clone();
        let sent = T::from(tick);
        let mut writer = BitWriter::new(&mut buf);
        sent.write_changes(&mut writer, &confirmed, &mut latest)?;
        let used = writer.finish()?;
        receiver.read_changes(&mut BitReader::new(&buf[..used]))?;
        assert_eq!(receiver, sent);
        total += used;
    }
    Ok(total)
}

/// Delta against the previous tick; checks each decode.
fn seed_delta_bytes<T>(initial: &Message, ticks: &[Message]) -> Result<usize, Error>
where
    T: ChangeGroups + for<'m> From<&'m Message> + PartialEq + std::fmt::Debug,
{
    let mut buf = [0u8; 16];
    let mut baseline = T::from(initial);
    let mut total = 0;
    for tick in ticks {
        let sent = T::from(tick);
        let mut writer = BitWriter::new(&mut buf);
        sent.write_delta(&baseline, &mut writer)?;
        let used = writer.finish()?;
        assert_eq!(T::read_delta(&baseline, &mut BitReader::new(&buf[..used]))?, sent);
        baseline = sent;
        total += used;
    }
    Ok(total)
}

#[test]
fn derived_seed_scenario_matches_the_hand_written_figures() -> Result<(), Error> {
    let (initial, ticks) = scenario();
    let tracked = seed_tracked_bytes::<SeedAbsolute>(&initial, &ticks)?;
    let tracked_relative = seed_tracked_bytes::<SeedRelative>(&initial, &ticks)?;
    let delta_absolute = seed_delta_bytes::<SeedAbsolute>(&initial, &ticks)?;
    let delta_relative = seed_delta_bytes::<SeedRelative>(&initial, &ticks)?;
    println!(
        "derived seed: tracked {tracked} B, delta relative off {delta_absolute} B, on {delta_relative} B"
    );
    // The hand-written figures (change_groups_seed.rs).
    assert_eq!(tracked, 200 * (3 + 6 + 4 + 3));
    assert_eq!(tracked_relative, tracked, "relative coding applies to deltas only");
    assert_eq!(delta_absolute, tracked);
    assert_eq!(delta_relative, 200 * (2 + 3 + 3 + 2));
    assert!(delta_relative <= 2800);
    Ok(())
}

// ---------------------------------------------------------------------------
// The hand-written `Entity` of change_groups_common, derived.

use change_groups_common::loss::{LossPattern, lost_20_percent, run_lossy};
use change_groups_common::{ENTITY_BITS, ENTITY_GROUPS, SplitMix64, World};
use proptest::prelude::*;

#[derive(BitPack, Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Arms {
    #[change_group]
    #[bits(min = 0, max = 63)]
    ammo: i32,
    #[change_group]
    #[bits(min = 0, max = 3)]
    stance: i32,
}

#[derive(BitPack, Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Unit {
    #[change_group(motion)]
    #[bits(min = 0, max = 1023)]
    #[bitpack(relative)]
    x: i32,
    #[change_group(motion)]
    #[bits(min = 0, max = 1023)]
    #[bitpack(relative)]
    y: i32,
    #[change_group]
    #[bits(min = 0, max = 100)]
    health: i32,
    #[change_group]
    arms: Arms,
}

impl From<&change_groups_common::Entity> for Unit {
    fn from(entity: &change_groups_common::Entity) -> Self {
        let arms = Arms { ammo: entity.combat.ammo, stance: entity.combat.stance };
        Unit { x: entity.x, y: entity.y, health: entity.health, arms }
    }
}

/// `N` derived units in a row, each with its own groups and no flag of
/// its own: the derived counterpart of the hand-written `World`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Fleet<const N: usize>(Vec<Unit>);

impl<const N: usize> From<&World<N>> for Fleet<N> {
    fn from(world: &World<N>) -> Self {
        Fleet(world.entities.iter().map(Unit::from).collect())
    }
}

#[derive(Clone, Debug)]
struct FleetTracker<const N: usize>(Vec<<Unit as ChangeGroups>::Tracker>);

impl<const N: usize> Default for FleetTracker<N> {
    fn default() -> Self {
        FleetTracker(vec![Default::default(); N])
    }
}

impl<const N: usize> BitPack for Fleet<N> {
    const MAX_BITS: usize = N * Unit::MAX_BITS;
    const SCHEMA: u64 = 0xF1EE7;
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        self.0.iter().try_for_each(|unit| unit.write_to(writer))
    }
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        (0..N).map(|_| Unit::read_from(reader)).collect::<Result<_, _>>().map(Fleet)
    }
}

impl<const N: usize> ChangeGroups for Fleet<N> {
    type Tracker = FleetTracker<N>;
    type Changes = Vec<<Unit as ChangeGroups>::Changes>;

    fn write_changes<W: BitWrite>(
        &self,
        writer: &mut W,
        confirmed: &FleetTracker<N>,
        latest: &mut FleetTracker<N>,
    ) -> Result<(), Error> {
        for ((unit, confirmed), latest) in self.0.iter().zip(&confirmed.0).zip(&mut latest.0) {
            unit.write_changes(writer, confirmed, latest)?;
        }
        Ok(())
    }
    fn decode_changes<R: BitRead>(reader: &mut R) -> Result<Self::Changes, Error> {
        (0..N).map(|_| Unit::decode_changes(reader)).collect()
    }
    fn apply_changes(&mut self, changes: Self::Changes) {
        for (unit, changes) in self.0.iter_mut().zip(changes) {
            unit.apply_changes(changes);
        }
    }
    fn write_delta<W: BitWrite>(&self, baseline: &Self, writer: &mut W) -> Result<(), Error> {
        self.0.iter().zip(&baseline.0).try_for_each(|(unit, baseline)| unit.write_delta(baseline, writer))
    }
    fn read_delta<R: BitRead>(baseline: &Self, reader: &mut R) -> Result<Self, Error> {
        baseline
            .0
            .iter()
            .map(|baseline| Unit::read_delta(baseline, reader))
            .collect::<Result<_, _>>()
            .map(Fleet)
    }
}

/// Writes with `write` into a fresh buffer; the bytes used.
fn bytes_of(write: impl FnOnce(&mut BitWriter<'_>) -> Result<(), Error>) -> Result<Vec<u8>, Error> {
    let mut buf = vec![0u8; 4096];
    let mut writer = BitWriter::new(&mut buf);
    write(&mut writer)?;
    let used = writer.finish()?;
    buf.truncate(used);
    Ok(buf)
}

const ENTITIES: usize = 256;
const TICKS: usize = 60;

#[test]
fn derived_world_matches_the_hand_written_bytes_and_figures() -> Result<(), Error> {
    // The scenario of change_groups_world.rs, run on both implementations.
    let mut rng = SplitMix64(0x0057_0A1D);
    let mut world = World::<ENTITIES>::random(&mut rng);
    let mut hand_latest = <World<ENTITIES> as ChangeGroups>::Tracker::default();
    world.write_changes(&mut BitCounter::new(), &Default::default(), &mut hand_latest)?;
    let mut fleet = Fleet::from(&world);
    let mut latest = <Fleet<ENTITIES> as ChangeGroups>::Tracker::default();
    fleet.write_changes(&mut BitCounter::new(), &Default::default(), &mut latest)?;
    let mut receiver = fleet.clone();
    let (mut whole, mut tracked, mut delta_relative) = (0, 0, 0);
    for _ in 0..TICKS {
        world.tick(&mut rng, 80, 5, false);
        let baseline = fleet;
        fleet = Fleet::from(&world);

        let bytes = bytes_of(|w| fleet.write_to(w))?;
        assert_eq!(bytes, bytes_of(|w| world.write_to(w))?);
        whole += bytes.len();

        let (confirmed, hand_confirmed) = (latest.clone(), hand_latest.clone());
        let bytes = bytes_of(|w| fleet.write_changes(w, &confirmed, &mut latest))?;
        assert_eq!(bytes, bytes_of(|w| world.write_changes(w, &hand_confirmed, &mut hand_latest))?);
        receiver.read_changes(&mut BitReader::new(&bytes))?;
        assert_eq!(receiver, fleet);
        tracked += bytes.len();

        let bytes = bytes_of(|w| fleet.write_delta(&baseline, w))?;
        let hand_baseline = World::<ENTITIES> {
            entities: baseline
                .0
                .iter()
                .map(|unit| change_groups_common::Entity {
                    x: unit.x,
                    y: unit.y,
                    health: unit.health,
                    combat: change_groups_common::Combat { ammo: unit.arms.ammo, stance: unit.arms.stance },
                })
                .collect(),
        };
        assert_eq!(bytes, bytes_of(|w| world.write_delta(&hand_baseline, w))?);
        assert_eq!(Fleet::<ENTITIES>::read_delta(&baseline, &mut BitReader::new(&bytes))?, fleet);
        delta_relative += bytes.len();
    }
    // The hand-written figures (change_groups_world.rs).
    assert_eq!(whole, TICKS * (ENTITIES * ENTITY_BITS).div_ceil(8));
    assert_eq!(tracked, 36_927);
    assert_eq!(delta_relative, 18_777);
    Ok(())
}

#[test]
fn an_unchanged_derived_world_costs_one_bit_per_group() -> Result<(), Error> {
    let fleet = Fleet::<ENTITIES>::from(&World::<ENTITIES>::random(&mut SplitMix64(7)));
    let mut latest = Default::default();
    let mut counter = BitCounter::new();
    fleet.write_changes(&mut counter, &Default::default(), &mut latest)?;
    assert_eq!(counter.bits_written(), ENTITIES * (ENTITY_GROUPS + 2 + ENTITY_BITS));
    assert_eq!(Unit::MAX_BITS, ENTITY_BITS);

    let confirmed = latest.clone();
    let mut counter = BitCounter::new();
    fleet.write_changes(&mut counter, &confirmed, &mut latest)?;
    assert_eq!(counter.bits_written(), ENTITIES * ENTITY_GROUPS);

    let mut counter = BitCounter::new();
    fleet.write_delta(&fleet, &mut counter)?;
    assert_eq!(counter.bits_written(), ENTITIES * ENTITY_GROUPS);
    Ok(())
}

#[test]
fn a_failed_read_changes_leaves_the_value_as_it_was() -> Result<(), Error> {
    let unit = Unit { x: 1, y: 2, health: 3, arms: Arms { ammo: 4, stance: 1 } };
    let bytes = bytes_of(|w| unit.write_changes(w, &Default::default(), &mut Default::default()))?;
    let mut seen = Unit::default();
    for cut in 0..bytes.len() {
        let mut reader = BitReader::new(&bytes[..cut]);
        assert!(seen.read_changes(&mut reader).is_err());
        assert_eq!((seen, reader.bits_read()), (Unit::default(), 0));
    }
    let delta = bytes_of(|w| unit.write_delta(&Unit::default(), w))?;
    for cut in 0..delta.len() {
        assert!(Unit::read_delta(&Unit::default(), &mut BitReader::new(&delta[..cut])).is_err());
    }
    // Health out of range inside its group: refused by the writer.
    let hurt = Unit { health: 101, ..unit };
    assert!(
        hurt.write_changes(&mut BitCounter::new(), &Default::default(), &mut Default::default()).is_err()
    );
    assert!(hurt.write_delta(&unit, &mut BitCounter::new()).is_err());
    Ok(())
}

fn unit_strategy() -> impl Strategy<Value = Unit> {
    (0..=1023, 0..=1023, 0..=100, 0..=63, 0..=3).prop_map(|(x, y, health, ammo, stance)| Unit {
        x,
        y,
        health,
        arms: Arms { ammo, stance },
    })
}

fn as_entity(unit: &Unit) -> change_groups_common::Entity {
    change_groups_common::Entity {
        x: unit.x,
        y: unit.y,
        health: unit.health,
        combat: change_groups_common::Combat { ammo: unit.arms.ammo, stance: unit.arms.stance },
    }
}

proptest! {
    #[test]
    fn derived_bytes_equal_the_hand_written_bytes(
        first in unit_strategy(),
        second in unit_strategy(),
        near in (-4i32..=3, -4i32..=3),
        acknowledged in any::<bool>(),
    ) {
        // A near move as well, so relative coding takes its short form.
        let moved = Unit { x: (first.x + near.0).clamp(0, 1023), y: (first.y + near.1).clamp(0, 1023), ..second };
        let (hand_first, hand_moved) = (as_entity(&first), as_entity(&moved));
        let run = || -> Result<[Vec<u8>; 6], Error> {
            let mut latest = <Unit as ChangeGroups>::Tracker::default();
            let mut hand_latest = <change_groups_common::Entity as ChangeGroups>::Tracker::default();
            let first_packet = bytes_of(|w| first.write_changes(w, &Default::default(), &mut latest))?;
            let hand_first_packet =
                bytes_of(|w| hand_first.write_changes(w, &Default::default(), &mut hand_latest))?;
            let (confirmed, hand_confirmed) =
                if acknowledged { (latest.clone(), hand_latest.clone()) } else { Default::default() };
            let second_packet = bytes_of(|w| moved.write_changes(w, &confirmed, &mut latest))?;
            let hand_second_packet = bytes_of(|w| hand_moved.write_changes(w, &hand_confirmed, &mut hand_latest))?;
            let delta = bytes_of(|w| moved.write_delta(&first, w))?;
            let hand_delta = bytes_of(|w| hand_moved.write_delta(&hand_first, w))?;
            Ok([first_packet, hand_first_packet, second_packet, hand_second_packet, delta, hand_delta])
        };
        let [first_packet, hand_first_packet, second_packet, hand_second_packet, delta, hand_delta] =
            run().map_err(|error| TestCaseError::fail(error.to_string()))?;
        prop_assert_eq!(first_packet, hand_first_packet);
        prop_assert_eq!(second_packet, hand_second_packet);
        prop_assert_eq!(&delta, &hand_delta);
        prop_assert_eq!(Unit::read_delta(&first, &mut BitReader::new(&delta)).ok(), Some(moved));
    }
}

// ---------------------------------------------------------------------------
// Loss: the scenario of change_groups_loss.rs on derived units.

const LOSS_ENTITIES: usize = 12;
const LOSS_TICKS: usize = 80;

fn run_with_loss(
    seed: u64,
    first_sequence: u16,
    packet_lost: &[bool],
    ack_lost: &[bool],
    ack_delay: &[usize],
) -> Result<usize, TestCaseError> {
    let mut rng = SplitMix64(seed);
    let mut world = World::<LOSS_ENTITIES>::random(&mut rng);
    let receiver = Fleet::<LOSS_ENTITIES>(vec![Unit::default(); LOSS_ENTITIES]);
    let pattern = LossPattern { first_sequence, packet_lost, ack_lost, ack_delay };
    run_lossy::<_, 8>(receiver, &pattern, |_| {
        world.tick(&mut rng, 30, 20, true);
        Fleet::from(&world)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(bitpack_tests::cases(64)))]

    #[test]
    fn derived_receiver_holds_what_the_decoded_packet_carried(
        seed in any::<u64>(),
        first_sequence in prop_oneof![65_500u16..=65_535, any::<u16>()],
        packet_lost in lost_20_percent(LOSS_TICKS),
        ack_lost in lost_20_percent(LOSS_TICKS),
        ack_delay in proptest::collection::vec(0usize..10, LOSS_TICKS),
    ) {
        let decoded = run_with_loss(seed, first_sequence, &packet_lost, &ack_lost, &ack_delay)?;
        prop_assert_eq!(decoded, packet_lost.iter().filter(|lost| !**lost).count());
    }
}

// ---------------------------------------------------------------------------
// Other shapes: a group split by other fields, tuple structs, skipped
// fields, generic nesting, groups of containers.

/// `pos` spans `x` and `z`, with `tag` (ungrouped) between them: the group
/// goes on the wire at its first field.
#[derive(BitPack, Clone, Debug, Default, PartialEq)]
struct Split {
    #[change_group(pos)]
    #[bits(min = 0, max = 7)]
    x: u8,
    tag: bool,
    #[bitpack(skip)]
    cache: u32,
    #[change_group(pos)]
    #[bits(min = 0, max = 7)]
    z: u8,
    #[change_group(names)]
    #[bitpack(max_len = 4)]
    name: String,
    #[change_group(names)]
    #[bitpack(max_len = 2)]
    #[bits(min = 0, max = 9)]
    digits: Vec<u8>,
}

#[derive(BitPack, Clone, Debug, Default, PartialEq)]
struct Pair(#[change_group] bool, #[change_group] Option<u16>);

#[derive(BitPack, Clone, Debug, Default, PartialEq)]
struct Holder<T> {
    #[change_group]
    inner: T,
    #[change_group(whole)]
    copy: Pair, // named: sent whole, not nested
}

#[test]
fn a_split_group_goes_at_its_first_field() -> Result<(), Error> {
    let value = Split { x: 5, tag: true, cache: 9, z: 6, name: "ab".into(), digits: vec![1, 2] };
    let mut counter = BitCounter::new();
    value.write_changes(&mut counter, &Default::default(), &mut Default::default())?;
    let written = counter.bits_written();
    let expected = bytes_of(|w| {
        w.write_bool(true)?;
        w.write_int(5, 0, 7)?;
        w.write_int(6, 0, 7)?;
        w.write_bool(true)?;
        w.write_bool(true)?;
        w.write_str("ab", 4)?;
        w.write_int(2, 0, 2)?;
        w.write_int(1, 0, 9)?;
        w.write_int(2, 0, 9)
    })?;
    let bytes = bytes_of(|w| value.write_changes(w, &Default::default(), &mut Default::default()))?;
    assert_eq!(bytes, expected);
    assert_eq!(bytes.len(), written.div_ceil(8));
    let mut seen = Split { cache: 3, ..Split::default() };
    seen.read_changes(&mut BitReader::new(&bytes))?;
    assert_eq!(seen, Split { cache: 3, ..value.clone() }, "a skipped field is left alone");
    let delta = bytes_of(|w| value.write_delta(&Split::default(), w))?;
    assert_eq!(
        Split::read_delta(&Split::default(), &mut BitReader::new(&delta))?,
        Split { cache: 0, ..value }
    );
    Ok(())
}

#[test]
fn generic_and_tuple_types_nest() -> Result<(), Error> {
    let value = Holder { inner: Pair(true, Some(9)), copy: Pair(false, None) };
    let mut latest = <Holder<Pair> as ChangeGroups>::Tracker::default();
    let mut counter = BitCounter::new();
    value.write_changes(&mut counter, &Default::default(), &mut latest)?;
    // inner: 1 + (1 + 1) + (1 + 1 + 16); copy: 1 + 1 + 1.
    assert_eq!(counter.bits_written(), 21 + 3);
    let confirmed = latest.clone();
    let changed = Holder { inner: Pair(false, Some(9)), ..value.clone() };
    let bytes = bytes_of(|w| changed.write_changes(w, &confirmed, &mut latest))?;
    let mut seen = value.clone();
    seen.read_changes(&mut BitReader::new(&bytes))?;
    assert_eq!(seen, changed);
    let delta = bytes_of(|w| changed.write_delta(&value, w))?;
    assert_eq!(Holder::read_delta(&value, &mut BitReader::new(&delta))?, changed);
    Ok(())
}

// ---- relative quantized floats (`#[bitpack(relative)]` with `#[quantize]`) ----

#[derive(BitPack, Clone, Debug, PartialEq)]
struct Body {
    #[bits(min = 0, max = 255)]
    id: u8,
    #[change_group(motion)]
    #[bitpack(relative)]
    #[quantize(min = -1024.0, max = 1024.0, res = 0.01)]
    position: [f32; 3],
    #[change_group(motion)]
    #[bitpack(relative)]
    #[quantize(min = 0.0, max = 6.2831855, res = 0.001)]
    yaw: f32,
    #[change_group]
    #[bits(min = 0, max = 100)]
    health: u8,
}

/// What a receiver holds after decoding `body` whole.
fn received(body: &Body) -> Result<Body, Error> {
    let bytes = bytes_of(|w| body.write_to(w))?;
    Body::read_from(&mut BitReader::new(&bytes))
}

#[test]
fn relative_floats_decode_as_the_whole_message_does() -> Result<(), Error> {
    let mut rng = SplitMix64(0x5eed_f10a7);
    let mut before = Body { id: 1, position: [0.0; 3], yaw: 0.0, health: 100 };
    for step in 0..4000 {
        let mut after = before.clone();
        // Small moves, large jumps, edges and values past the range (clamped).
        let scale = [0.001, 0.05, 3.0, 900.0][step % 4];
        for axis in &mut after.position {
            *axis += (rng.next_u64() % 2001) as f32 * scale / 1000.0 - scale;
        }
        if step % 97 == 0 {
            after.position = [-1024.0, 1024.0, 2000.0];
        }
        after.yaw = (rng.next_u64() % 6284) as f32 * 0.001;
        after.health = (rng.next_u64() % 101) as u8;
        let delta = bytes_of(|w| after.write_delta(&before, w))?;
        let expected = received(&after)?;
        // The receiver holds what it decoded, or the sender's own baseline.
        for held in [received(&before)?, before.clone()] {
            let decoded = Body::read_delta(&held, &mut BitReader::new(&delta))?;
            assert_eq!(decoded, expected, "step {step}");
        }
        let mut counter = BitCounter::new();
        after.write_delta(&before, &mut counter)?;
        assert_eq!(counter.bits_written().div_ceil(8), delta.len());
        before = after;
    }
    Ok(())
}

#[test]
fn relative_floats_cost_their_tier() -> Result<(), Error> {
    let before = Body { id: 1, position: [10.0, 20.0, 30.0], yaw: 1.0, health: 50 };
    let bits = |after: &Body| -> Result<usize, Error> {
        let mut counter = BitCounter::new();
        after.write_delta(&before, &mut counter)?;
        Ok(counter.bits_written())
    };
    // id 8, motion flag, health flag; position 18-bit steps (mid 10), yaw 13-bit (mid 7).
    assert_eq!(bits(&before)?, 8 + 1 + 1);
    let small = Body { position: [10.03, 20.0, 29.96], yaw: 1.003, ..before.clone() };
    assert_eq!(bits(&small)?, 8 + 1 + 4 * 3 + 4 + 1);
    let mid = Body { position: [15.0, 20.0, 30.0], yaw: 1.05, ..before.clone() };
    assert_eq!(bits(&mid)?, 8 + 1 + (2 + 10) + 4 + 4 + (2 + 7) + 1);
    let far = Body { position: [-500.0, 20.0, 30.0], yaw: 3.0, ..before.clone() };
    assert_eq!(bits(&far)?, 8 + 1 + (2 + 18) + 4 + 4 + (2 + 13) + 1);
    // Not finite: refused like an absolute write.
    let nan = Body { yaw: f32::NAN, ..before.clone() };
    assert!(bits(&nan).is_err());
    Ok(())
}

/// Relative compressed doubles: 31-bit steps, mid tier 16 bits.
#[derive(BitPack, Clone, Debug, PartialEq)]
struct Ship {
    #[change_group]
    #[bitpack(relative)]
    #[quantize(min = -1.0e6, max = 1.0e6, res = 0.001)]
    position: [f64; 2],
}

#[test]
fn relative_doubles_decode_as_the_whole_message_does() -> Result<(), Error> {
    let received = |ship: &Ship| -> Result<Ship, Error> {
        let bytes = bytes_of(|w| ship.write_to(w))?;
        Ship::read_from(&mut BitReader::new(&bytes))
    };
    let mut rng = SplitMix64(0xd0b1e);
    let mut before = Ship { position: [0.0; 2] };
    for step in 0..4000 {
        let scale = [0.000_5, 0.02, 30.0, 500_000.0][step % 4];
        let mut after = before.clone();
        for axis in &mut after.position {
            *axis += (rng.next_u64() % 2001) as f64 * scale / 1000.0 - scale;
        }
        let delta = bytes_of(|w| after.write_delta(&before, w))?;
        let expected = received(&after)?;
        // A receiver holding what it decoded rebuilds exactly what a whole message gives.
        assert_eq!(
            Ship::read_delta(&received(&before)?, &mut BitReader::new(&delta))?,
            expected,
            "step {step}"
        );
        // One holding the original baseline keeps it where nothing changed on the wire, so
        // it holds a value with the same bits.
        let kept = Ship::read_delta(&before, &mut BitReader::new(&delta))?;
        assert_eq!(received(&kept)?, expected, "step {step}");
        before = after;
    }
    let at = Ship { position: [1000.0, -2000.0] };
    let bits = |after: &Ship| -> Result<usize, Error> {
        let mut counter = BitCounter::new();
        after.write_delta(&at, &mut counter)?;
        Ok(counter.bits_written())
    };
    // The flag, then near (4), mid (2 + 16) or far (2 + 31) per axis.
    assert_eq!(bits(&Ship { position: [1000.002, -2000.0] })?, 1 + 4 + 4);
    assert_eq!(bits(&Ship { position: [1010.0, -2000.0] })?, 1 + (2 + 16) + 4);
    assert_eq!(bits(&Ship { position: [9000.0, -2000.0] })?, 1 + (2 + 31) + 4);
    Ok(())
}
