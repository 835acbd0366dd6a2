//! Size table: adaptive integers vs fixed width vs protobuf (prost) vs
//! bitcode, on messages of realistic ids, counters and scores.
//!
//! `cargo test -p bitpack-tests --test derive adaptive_sizes -- --nocapture` prints
//! the table as Markdown; the test asserts adaptive is never larger than any
//! of the others on this set.

use crate::adaptive_support;

use adaptive_support::{Position, Published, SAMPLES_MAX_LEN, Samples, encode};
use bitpack::adaptive::{self, SignScope, Signs, read_adaptive, write_adaptive};
use bitpack::{BitCounter, BitPack, BitRead, BitWrite, Error};
use prost::Message;

/// A per-match scoreboard row.
#[derive(Clone, Debug, PartialEq, bitcode::Encode)]
struct PlayerStats {
    player_id: u32,
    kills: u16,
    deaths: u16,
    score: i32,
    ping_ms: u16,
}

impl SignScope for PlayerStats {
    const HAS_SIGNED: bool = true;
    fn any_negative(&self) -> bool {
        self.score < 0
    }
    fn write_scoped<W: BitWrite>(&self, w: &mut W, s: Signs) -> Result<(), Error> {
        write_adaptive(w, self.player_id, s)?;
        write_adaptive(w, self.kills, s)?;
        write_adaptive(w, self.deaths, s)?;
        write_adaptive(w, self.score, s)?;
        write_adaptive(w, self.ping_ms, s)
    }
    fn read_scoped<R: BitRead>(r: &mut R, s: Signs) -> Result<Self, Error> {
        Ok(PlayerStats {
            player_id: read_adaptive(r, s)?,
            kills: read_adaptive(r, s)?,
            deaths: read_adaptive(r, s)?,
            score: read_adaptive(r, s)?,
            ping_ms: read_adaptive(r, s)?,
        })
    }
}

impl BitPack for PlayerStats {
    const MAX_BITS: usize = 1 + 37 + 3 * 20 + 37;
    const SCHEMA: u64 = 0xB1;
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        adaptive::write_scope(self, writer)
    }
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        adaptive::read_scope(reader)
    }
}

#[derive(Clone, PartialEq, prost::Message)]
struct PlayerStatsProto {
    #[prost(uint32, tag = "1")]
    player_id: u32,
    #[prost(uint32, tag = "2")]
    kills: u32,
    #[prost(uint32, tag = "3")]
    deaths: u32,
    #[prost(sint32, tag = "4")]
    score: i32,
    #[prost(uint32, tag = "5")]
    ping_ms: u32,
}

/// A server tick: a millisecond timestamp, an entity and a health change.
#[derive(Clone, Debug, PartialEq, bitcode::Encode)]
struct Tick {
    time_ms: u64,
    entity_id: u32,
    health_delta: i32,
}

impl SignScope for Tick {
    const HAS_SIGNED: bool = true;
    fn any_negative(&self) -> bool {
        self.health_delta < 0
    }
    fn write_scoped<W: BitWrite>(&self, w: &mut W, s: Signs) -> Result<(), Error> {
        write_adaptive(w, self.time_ms, s)?;
        write_adaptive(w, self.entity_id, s)?;
        write_adaptive(w, self.health_delta, s)
    }
    fn read_scoped<R: BitRead>(r: &mut R, s: Signs) -> Result<Self, Error> {
        Ok(Tick {
            time_ms: read_adaptive(r, s)?,
            entity_id: read_adaptive(r, s)?,
            health_delta: read_adaptive(r, s)?,
        })
    }
}

impl BitPack for Tick {
    const MAX_BITS: usize = 1 + 70 + 37 + 37;
    const SCHEMA: u64 = 0xB2;
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        adaptive::write_scope(self, writer)
    }
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        adaptive::read_scope(reader)
    }
}

#[derive(Clone, PartialEq, prost::Message)]
struct TickProto {
    #[prost(uint64, tag = "1")]
    time_ms: u64,
    #[prost(uint32, tag = "2")]
    entity_id: u32,
    #[prost(sint32, tag = "3")]
    health_delta: i32,
}

/// The top five scores of a leaderboard, one shared-length group.
#[derive(Clone, Debug, PartialEq, bitcode::Encode)]
struct Leaderboard {
    scores: Vec<u32>,
}

impl SignScope for Leaderboard {
    const HAS_SIGNED: bool = false;
    fn any_negative(&self) -> bool {
        false
    }
    fn write_scoped<W: BitWrite>(&self, w: &mut W, s: Signs) -> Result<(), Error> {
        adaptive::write_adaptive_vec(w, &self.scores, SAMPLES_MAX_LEN, s)
    }
    fn read_scoped<R: BitRead>(r: &mut R, s: Signs) -> Result<Self, Error> {
        Ok(Leaderboard { scores: adaptive::read_adaptive_vec(r, SAMPLES_MAX_LEN, s)? })
    }
}

impl BitPack for Leaderboard {
    const MAX_BITS: usize = adaptive::adaptive_vec_max_bits::<u32>(SAMPLES_MAX_LEN);
    const SCHEMA: u64 = 0xB3;
    fn write_to<W: BitWrite>(&self, writer: &mut W) -> Result<(), Error> {
        adaptive::write_scope(self, writer)
    }
    fn read_from<R: BitRead>(reader: &mut R) -> Result<Self, Error> {
        adaptive::read_scope(reader)
    }
}

#[derive(Clone, PartialEq, prost::Message)]
struct PublishedProto {
    #[prost(int64, tag = "1")]
    id: i64,
    #[prost(int32, tag = "2")]
    a: i32,
    #[prost(int32, tag = "3")]
    b: i32,
}

#[derive(Clone, PartialEq, prost::Message)]
struct RepeatedProto {
    #[prost(uint32, repeated, tag = "1")]
    values: Vec<u32>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Vec3Proto {
    #[prost(sint32, tag = "1")]
    x: i32,
    #[prost(sint32, tag = "2")]
    y: i32,
    #[prost(sint32, tag = "3")]
    z: i32,
}

#[derive(bitcode::Encode)]
struct PublishedBitcode {
    id: i64,
    a: i32,
    b: i32,
}

/// Bits the same fields take at full width, as underived `#[bits]`-free
/// fields do (a `Vec` of at most 16: a 5-bit count, then each element).
fn fixed_bits(write: impl Fn(&mut BitCounter) -> Result<(), Error>) -> usize {
    let mut counter = BitCounter::new();
    write(&mut counter).expect("fixed width never fails");
    counter.bits_written()
}

struct Row {
    name: &'static str,
    adaptive_bits: usize,
    fixed_bits: usize,
    protobuf_bytes: usize,
    bitcode_bytes: usize,
}

fn adaptive_bits<T: BitPack + PartialEq + std::fmt::Debug>(value: &T) -> usize {
    let (bytes, bits) = encode(value).expect("encodes");
    assert_eq!(&adaptive_support::decode::<T>(&bytes).expect("decodes"), value);
    bits
}

fn rows() -> Vec<Row> {
    let count_bits = 5; // bits_required(0, 16)
    let stats = PlayerStats { player_id: 48_213, kills: 7, deaths: 3, score: 1_250, ping_ms: 42 };
    let tick = Tick { time_ms: 1_700_000_000_123, entity_id: 90_210, health_delta: -17 };
    let inventory = Samples { values: vec![1, 12, 64, 3, 0, 99, 5, 20] };
    let leaderboard = Leaderboard { scores: vec![98_000, 97_550, 97_200, 96_000, 95_880] };
    let position = Position { xyz: [1520, -340, 88] };
    let published = Published { id: 123_456_789, a: 25, b: 3 };

    vec![
        Row {
            name: "published example {i64, i32, i32}",
            adaptive_bits: adaptive_bits(&published),
            fixed_bits: fixed_bits(|c| {
                c.write_u64(published.id as u64)?;
                c.write_u32(published.a as u32)?;
                c.write_u32(published.b as u32)
            }),
            protobuf_bytes: PublishedProto { id: published.id, a: published.a, b: published.b }.encoded_len(),
            bitcode_bytes: bitcode::encode(&PublishedBitcode {
                id: published.id,
                a: published.a,
                b: published.b,
            })
            .len(),
        },
        Row {
            name: "player stats {u32 id, u16 kills, u16 deaths, i32 score, u16 ping}",
            adaptive_bits: adaptive_bits(&stats),
            fixed_bits: fixed_bits(|c| {
                c.write_u32(stats.player_id)?;
                c.write_u16(stats.kills)?;
                c.write_u16(stats.deaths)?;
                c.write_u32(stats.score as u32)?;
                c.write_u16(stats.ping_ms)
            }),
            protobuf_bytes: PlayerStatsProto {
                player_id: stats.player_id,
                kills: stats.kills.into(),
                deaths: stats.deaths.into(),
                score: stats.score,
                ping_ms: stats.ping_ms.into(),
            }
            .encoded_len(),
            bitcode_bytes: bitcode::encode(&stats).len(),
        },
        Row {
            name: "tick {u64 time ms, u32 entity, i32 health delta -17}",
            adaptive_bits: adaptive_bits(&tick),
            fixed_bits: fixed_bits(|c| {
                c.write_u64(tick.time_ms)?;
                c.write_u32(tick.entity_id)?;
                c.write_u32(tick.health_delta as u32)
            }),
            protobuf_bytes: TickProto {
                time_ms: tick.time_ms,
                entity_id: tick.entity_id,
                health_delta: tick.health_delta,
            }
            .encoded_len(),
            bitcode_bytes: bitcode::encode(&tick).len(),
        },
        Row {
            name: "inventory counts Vec<u16> x8",
            adaptive_bits: adaptive_bits(&inventory),
            fixed_bits: count_bits + 16 * inventory.values.len(),
            protobuf_bytes: RepeatedProto { values: inventory.values.iter().map(|&v| v.into()).collect() }
                .encoded_len(),
            bitcode_bytes: bitcode::encode(&inventory.values).len(),
        },
        Row {
            name: "leaderboard Vec<u32> x5 (close scores)",
            adaptive_bits: adaptive_bits(&leaderboard),
            fixed_bits: count_bits + 32 * leaderboard.scores.len(),
            protobuf_bytes: RepeatedProto { values: leaderboard.scores.clone() }.encoded_len(),
            bitcode_bytes: bitcode::encode(&leaderboard).len(),
        },
        Row {
            name: "position [i32; 3] in cm [1520, -340, 88]",
            adaptive_bits: adaptive_bits(&position),
            fixed_bits: 3 * 32,
            protobuf_bytes: Vec3Proto { x: position.xyz[0], y: position.xyz[1], z: position.xyz[2] }
                .encoded_len(),
            bitcode_bytes: bitcode::encode(&position.xyz).len(),
        },
    ]
}

#[test]
fn size_table_adaptive_vs_fixed_vs_protobuf_vs_bitcode() {
    let rows = rows();
    println!("| message | adaptive | fixed width | protobuf (prost) | bitcode |");
    println!("|---|---:|---:|---:|---:|");
    let (mut adaptive_total, mut fixed_total, mut protobuf_total, mut bitcode_total) = (0, 0, 0, 0);
    for row in &rows {
        let adaptive_bytes = row.adaptive_bits.div_ceil(8);
        let fixed_bytes = row.fixed_bits.div_ceil(8);
        println!(
            "| {} | {} bits ({} B) | {} bits ({} B) | {} B | {} B |",
            row.name,
            row.adaptive_bits,
            adaptive_bytes,
            row.fixed_bits,
            fixed_bytes,
            row.protobuf_bytes,
            row.bitcode_bytes
        );
        assert!(adaptive_bytes <= row.protobuf_bytes, "{}: adaptive larger than protobuf", row.name);
        assert!(adaptive_bytes <= row.bitcode_bytes, "{}: adaptive larger than bitcode", row.name);
        assert!(row.adaptive_bits < row.fixed_bits, "{}: adaptive not below fixed width", row.name);
        adaptive_total += adaptive_bytes;
        fixed_total += fixed_bytes;
        protobuf_total += row.protobuf_bytes;
        bitcode_total += row.bitcode_bytes;
    }
    println!(
        "| **total** | **{adaptive_total} B** | {fixed_total} B | {protobuf_total} B | {bitcode_total} B |"
    );
    // The published example, pinned: 48 bits against protobuf's 9 bytes.
    assert_eq!((rows[0].adaptive_bits, rows[0].protobuf_bytes), (48, 9));
}
