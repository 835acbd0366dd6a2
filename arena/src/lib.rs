//! An arena server and its clients, for the `arena` example and its test.
//!
//! - [`sim`]: a deterministic arena (players, projectiles and NPCs) stepped at 30 Hz;
//! - [`world`]: the state the server replicates, declared for bitpack;
//! - [`link`]: an in-process datagram link that loses and delays packets;
//! - [`agree`]: whether a client's world is the server's within the declared resolutions;
//! - [`rng`]: the seeded random numbers all of it draws from.

pub mod agree;
pub mod link;
pub mod rng;
pub mod sim;
pub mod world;
