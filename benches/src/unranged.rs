//! Issue 16's game snapshot set without declared ranges: the issue-6
//! dataset's 60 snapshots of 256 entities as its pre-quantized integer twin
//! ([`crate::quantized`]), with every `#[bits]` taken away: what a user
//! who keeps fixed-point integers and declares nothing sends.
//!
//! Declared three times like [`crate::mk48`]: [`rows`], [`adaptive`] and
//! [`columns`]. The data is the issue-6 dataset's (its fingerprint is
//! pinned in `tests/dataset.rs`).

macro_rules! snapshots {
    ($($ints:meta)?) => {
        use bitpack::BitPack;

        /// [`crate::quantized::EntityQ`] without ranges.
        #[derive(Clone, Copy, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
        $(#[bitpack($ints)])?
        pub struct Entity {
            pub id: u16,
            pub kind: u8,
            pub position: [i32; 3],
            pub velocity: [i16; 3],
            pub yaw: u16,
            pub health: u16,
            pub armor: u8,
            pub flags: u8,
            pub target: Option<u16>,
        }

        /// [`crate::quantized::SnapshotQ`] without ranges.
        #[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
        $(#[bitpack($ints)])?
        pub struct Snapshot {
            pub tick: u32,
            #[bitpack(max_len = 256)]
            pub entities: Vec<Entity>,
        }

        /// The issue-6 dataset's snapshots, pre-quantized.
        pub fn generate() -> Vec<Snapshot> {
            let data = crate::dataset::generate();
            data.snapshots
                .iter()
                .map(|snapshot| {
                    let mut twin = crate::quantized::SnapshotQ::default();
                    twin.quantize_from(snapshot);
                    Snapshot {
                        tick: twin.tick,
                        entities: twin
                            .entities
                            .iter()
                            .map(|e| Entity {
                                id: e.id,
                                kind: e.kind,
                                position: e.position,
                                velocity: e.velocity,
                                yaw: e.yaw,
                                health: e.health,
                                armor: e.armor,
                                flags: e.flags,
                                target: e.target,
                            })
                            .collect(),
                    }
                })
                .collect()
        }
    };
}

/// The reference's row layout.
pub mod rows {
    snapshots!();
}

/// Type-level `#[bitpack(adaptive)]`.
pub mod adaptive {
    snapshots!(adaptive);
}

/// Type-level `#[bitpack(columns)]`.
pub mod columns {
    snapshots!(columns);
}
