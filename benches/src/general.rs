//! Issue 15's general data, at full width (no `#[bits]` ranges, no
//! quantization: what a user writes before tuning anything), from fixed
//! seeds:
//!
//! - [`world`]: 256 entities, each an id, a `Vec<bool>` of 8 to 12 flags, a
//!   `Vec<u16>` of 2 to 6 item ids and an optional enum with data.
//! - [`logs`]: 256 web-log records, each a method, a short path and a short
//!   user agent (strings), a `u16` status and a `u64` size.
//! - [`records`]: 256 records, each an id, a `Vec<bool>` of 8 to 12 flags
//!   and a `Vec<u8>` payload of 12 to 20 bytes.
//!
//! Both derive `BitPack` and bitcode's `Encode`/`Decode`: `src/bin/bulk.rs`
//! counts both under callgrind, and the criterion bench `general` times them.

use bitpack::BitPack;

use crate::rng::SplitMix64;

/// Entities (or records) in a batch.
pub const BATCH: usize = 256;

/// What an entity is doing, if anything.
#[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
pub enum Activity {
    Idle,
    Walking { speed: u16 },
    Attacking { target: u32, weapon: u8 },
    Talking(u32),
}

/// One entity of a world update.
#[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
pub struct Entity {
    pub id: u32,
    #[bitpack(max_len = 16)]
    pub flags: Vec<bool>,
    #[bitpack(max_len = 8)]
    pub items: Vec<u16>,
    pub activity: Option<Activity>,
}

/// A world update: the entities that changed.
#[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
pub struct World {
    #[bitpack(max_len = 1024)]
    pub entities: Vec<Entity>,
}

/// One request of a web server's log.
#[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
pub struct LogRecord {
    #[bitpack(max_len = 8)]
    pub method: String,
    #[bitpack(max_len = 64)]
    pub path: String,
    pub status: u16,
    pub size: u64,
    #[bitpack(max_len = 32)]
    pub agent: String,
}

/// A batch of log records.
#[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
pub struct Logs {
    #[bitpack(max_len = 1024)]
    pub records: Vec<LogRecord>,
}

/// One record of general data: flags and a short byte payload.
#[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
pub struct Record {
    pub id: u16,
    #[bitpack(max_len = 16)]
    pub flags: Vec<bool>,
    #[bitpack(max_len = 32)]
    pub payload: Vec<u8>,
}

/// Records sent together.
#[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
pub struct Records {
    #[bitpack(max_len = 256)]
    pub records: Vec<Record>,
}

/// [`BATCH`] entities from seed 15: ids in order, half the flags set, one
/// entity in five idle, one in five without an activity.
pub fn world() -> World {
    let mut rng = SplitMix64::new(15);
    let entities = (0..BATCH as u32)
        .map(|index| Entity {
            id: 1000 + index,
            flags: (0..8 + rng.below(5)).map(|_| rng.percent(50)).collect(),
            items: (0..2 + rng.below(5)).map(|_| rng.below(4096) as u16).collect(),
            activity: match rng.below(5) {
                0 => None,
                1 => Some(Activity::Idle),
                2 => Some(Activity::Walking { speed: rng.below(400) as u16 }),
                3 => Some(Activity::Attacking {
                    target: rng.below(100_000) as u32,
                    weapon: rng.below(8) as u8,
                }),
                _ => Some(Activity::Talking(rng.below(100_000) as u32)),
            },
        })
        .collect();
    World { entities }
}

/// [`BATCH`] records from seed 15: ids in order, half the flags set,
/// random payload bytes.
pub fn records() -> Records {
    let mut rng = SplitMix64::new(15);
    let records = (0..BATCH)
        .map(|index| Record {
            id: index as u16,
            flags: (0..8 + rng.below(5)).map(|_| rng.percent(50)).collect(),
            payload: (0..12 + rng.below(9)).map(|_| rng.below(256) as u8).collect(),
        })
        .collect();
    Records { records }
}

const METHODS: [&str; 4] = ["GET", "GET", "POST", "HEAD"];
const SEGMENTS: [&str; 8] = ["api", "v1", "users", "items", "static", "img", "index.html", "search"];
const AGENTS: [&str; 4] = ["curl/8.5", "Mozilla/5.0", "bot/2.1", "okhttp/4.12"];
const STATUSES: [u16; 5] = [200, 200, 304, 404, 500];

/// [`BATCH`] log records from seed 16: paths of 1 to 3 segments and an id
/// (about 20 bytes), agents of 7 to 11 bytes.
pub fn logs() -> Logs {
    let mut rng = SplitMix64::new(16);
    let records = (0..BATCH)
        .map(|_| {
            let mut path = String::new();
            for _ in 0..1 + rng.below(3) {
                path.push('/');
                path.push_str(SEGMENTS[rng.below(8) as usize]);
            }
            path.push('/');
            path.push_str(&rng.below(10_000).to_string());
            LogRecord {
                method: METHODS[rng.below(4) as usize].to_string(),
                path,
                status: STATUSES[rng.below(5) as usize],
                size: rng.below(1 << 20),
                agent: AGENTS[rng.below(4) as usize].to_string(),
            }
        })
        .collect();
    Logs { records }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: BitPack + PartialEq + core::fmt::Debug>(value: &T) {
        let mut buf = vec![0u8; 64 * 1024];
        let mut writer = bitpack::BitWriter::new(&mut buf);
        value.write_to(&mut writer).unwrap();
        let used = writer.finish().unwrap();
        let mut reader = bitpack::BitReader::new(&buf[..used]);
        assert_eq!(&T::read_from(&mut reader).unwrap(), value);
    }

    #[test]
    fn the_general_datasets_read_back_and_have_their_shape() {
        let (world, logs) = (world(), logs());
        round_trip(&world);
        round_trip(&logs);
        round_trip(&records());
        let flags: usize = world.entities.iter().map(|entity| entity.flags.len()).sum();
        let items: usize = world.entities.iter().map(|entity| entity.items.len()).sum();
        assert!((9..=11).contains(&(flags / BATCH)) && (3..=5).contains(&(items / BATCH)), "{flags} {items}");
        assert!(world.entities.iter().any(|entity| entity.activity.is_none()));
        let path: usize = logs.records.iter().map(|record| record.path.len()).sum();
        assert!((10..30).contains(&(path / BATCH)), "{}", path / BATCH);
    }
}
