//! An arena server and its clients, for the `arena` and `udp` examples and their tests.
//!
//! - [`sim`]: a deterministic arena (players, projectiles and NPCs) stepped at 30 Hz;
//! - [`world`]: the state the server replicates, declared for bitpack;
//! - [`link`]: an in-process datagram link that loses and delays packets;
//! - [`agree`]: whether a client's world is the server's within the declared resolutions;
//! - [`age`]: how old, in packets, the entities a client holds are;
//! - [`scope`]: a client's view of the entities near the player it follows;
//! - [`rng`]: the seeded random numbers all of it draws from.

pub mod age;
pub mod agree;
pub mod link;
pub mod rng;
pub mod scope;
pub mod sim;
pub mod world;
