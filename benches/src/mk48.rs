//! Issue 16's mk48-like world update: what an mk48.io client receives each
//! tick, generated from a fixed seed. 60 updates of 150 to 250 contacts:
//! a `u32` id (90% below 8192), a transform (raw `f32` position, `i16`
//! velocity, `u16` direction), an `i8` altitude, an optional entity type
//! (an enum of 24), optional guidance, an optional player id, about 10
//! reload flags (`Vec<bool>`), up to 6 turret angles (`Vec<u16>`), and a
//! few terrain chunks (`Vec<u8>` of 256 heights, mostly shallow water).
//! No field declares a range: the user of the issue keeps plain types.
//!
//! The same types are declared three times, in [`rows`] (the reference's
//! row layout, full width), [`adaptive`] (type-level `adaptive`) and
//! [`columns`] (type-level `columns`); each module generates the same data
//! from the same seed. A test pins its [`fingerprint`].

/// Updates in the dataset.
pub const UPDATES: usize = 60;
/// The seed of everything.
pub const SEED: u64 = 0x6d6b_3438_636f_6c16;

macro_rules! world {
    ($($all:meta)?; $($ints:meta)?) => {
        use crate::rng::SplitMix64;
        use bitpack::BitPack;

        /// What a contact is (a sample of mk48's boats, weapons and obstacles).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, BitPack, bitcode::Encode, bitcode::Decode)]
        $(#[bitpack($all)])?
        pub enum EntityType {
            Fairmile, Yasen, Kolkata, Iowa, Zubr, Typhoon, Ohio, Arleigh, Mk48, Set65, Harpoon, Kh35,
            Depth, Mine, Sea, Shell, Rocket, Sam, Decoy, Crate, Oil, Hq, Barrel, Coin,
        }

        /// Where a contact is and how it moves.
        #[derive(Clone, Copy, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
        $(#[bitpack($ints)])?
        pub struct Transform {
            pub x: f32,
            pub y: f32,
            pub velocity: i16,
            pub direction: u16,
        }

        /// Where a contact is steering.
        #[derive(Clone, Copy, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
        $(#[bitpack($ints)])?
        pub struct Guidance {
            pub direction_target: u16,
            pub velocity_target: i16,
            pub altitude_target: i8,
        }

        /// One visible entity.
        #[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
        $(#[bitpack($ints)])?
        pub struct Contact {
            pub id: u32,
            pub transform: Transform,
            pub altitude: i8,
            pub entity_type: Option<EntityType>,
            pub guidance: Option<Guidance>,
            pub player_id: Option<u32>,
            pub damage: u8,
            #[bitpack(max_len = 32)]
            pub reloads: Vec<bool>,
            #[bitpack(max_len = 16)]
            pub turrets: Vec<u16>,
        }

        /// 16 x 16 terrain heights.
        #[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
        $(#[bitpack($ints)])?
        pub struct Chunk {
            pub x: i16,
            pub y: i16,
            #[bitpack(max_len = 1024)]
            pub heights: Vec<u8>,
        }

        /// One tick's update.
        #[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
        $(#[bitpack($ints)])?
        pub struct Update {
            pub tick: u32,
            #[bitpack(max_len = 4096)]
            pub contacts: Vec<Contact>,
            #[bitpack(max_len = 64)]
            pub terrain: Vec<Chunk>,
        }

        const TYPES: [EntityType; 24] = [
            EntityType::Fairmile, EntityType::Yasen, EntityType::Kolkata, EntityType::Iowa,
            EntityType::Zubr, EntityType::Typhoon, EntityType::Ohio, EntityType::Arleigh,
            EntityType::Mk48, EntityType::Set65, EntityType::Harpoon, EntityType::Kh35,
            EntityType::Depth, EntityType::Mine, EntityType::Sea, EntityType::Shell,
            EntityType::Rocket, EntityType::Sam, EntityType::Decoy, EntityType::Crate,
            EntityType::Oil, EntityType::Hq, EntityType::Barrel, EntityType::Coin,
        ];

        fn contact(rng: &mut SplitMix64) -> Contact {
            let id = if rng.percent(90) { rng.below(8192) } else { rng.below(1 << 20) } as u32;
            let boat = rng.percent(60);
            Contact {
                id,
                transform: Transform {
                    x: rng.range_f32(-3000.0, 3000.0),
                    y: rng.range_f32(-3000.0, 3000.0),
                    velocity: rng.below(1601) as i16 - 800,
                    direction: rng.below(65536) as u16,
                },
                altitude: if rng.percent(80) { 0 } else { -(rng.below(60) as i8) },
                entity_type: rng.percent(97).then(|| TYPES[rng.below(24) as usize]),
                guidance: rng.percent(30).then(|| Guidance {
                    direction_target: rng.below(65536) as u16,
                    velocity_target: rng.below(1601) as i16 - 800,
                    altitude_target: -(rng.below(40) as i8),
                }),
                player_id: boat.then(|| rng.below(1000) as u32),
                damage: if rng.percent(85) { 0 } else { rng.below(256) as u8 },
                reloads: if boat { (0..8 + rng.below(5)).map(|_| rng.percent(85)).collect() } else { Vec::new() },
                turrets: if boat { (0..rng.below(7)).map(|_| rng.below(65536) as u16).collect() } else { Vec::new() },
            }
        }

        fn chunk(rng: &mut SplitMix64) -> Chunk {
            let land = rng.percent(30);
            let mut height = rng.below(20) as i32;
            let heights = (0..256)
                .map(|_| {
                    height = (height + rng.below(7) as i32 - 3).clamp(0, if land { 255 } else { 40 });
                    height as u8
                })
                .collect();
            Chunk { x: rng.below(64) as i16 - 32, y: rng.below(64) as i16 - 32, heights }
        }

        /// The dataset's updates.
        pub fn generate() -> Vec<Update> {
            let mut rng = SplitMix64::new(super::SEED);
            (0..super::UPDATES)
                .map(|index| {
                    let contacts = (0..150 + rng.below(101)).map(|_| contact(&mut rng)).collect();
                    let terrain = (0..rng.below(4)).map(|_| chunk(&mut rng)).collect();
                    Update { tick: 5000 + index as u32, contacts, terrain }
                })
                .collect()
        }
    };
}

/// The reference's row layout: every field at its type's full width.
pub mod rows {
    world!(;);
}

/// Type-level `#[bitpack(adaptive)]`: integers with a length prefix, arrays
/// and `Vec`s of them sharing one.
pub mod adaptive {
    world!(; adaptive);
}

/// Type-level `#[bitpack(columns)]`: every collection field by field.
pub mod columns {
    world!(columns; columns);
}

/// FNV-1a over the row layout's bytes of every update: the data, pinned.
pub fn fingerprint(updates: &[rows::Update]) -> u64 {
    crate::dataset::fingerprint_encoded(updates)
}
