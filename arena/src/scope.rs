//! A client's scope: the entities within a radius of the player it follows, the nearest
//! ones first when a packet cannot carry every change.

use bitpack::sync::{Entry, View};
use glam::Vec3;

use crate::world::{MOBS, PLAYERS, World};

/// How much faster an entity within a quarter of the radius gains priority while held back.
pub const NEAR_PRIORITY: f32 = 8.0;

/// The entities within `radius` of `center`; those within a quarter of it are
/// [`NEAR_PRIORITY`] times as urgent as the others.
#[derive(Clone, Copy, Debug)]
pub struct Near {
    /// Where the client is: its player's position, or where that player was last.
    pub center: Vec3,
    /// How far the client sees, in metres.
    pub radius: f32,
}

impl Near {
    /// A view of `radius` around the arena's centre until [`Near::follow`] moves it.
    pub fn new(radius: f32) -> Self {
        Near { center: Vec3::ZERO, radius }
    }

    /// Moves the centre to player `id`, if it is alive in `world` (a dead player's client
    /// keeps looking where it died).
    pub fn follow(&mut self, world: &World, id: u32) {
        if let Some(player) = world.players.get(&id) {
            self.center = player.position;
        }
    }

    fn distance(&self, world: &World, entry: Entry) -> Option<f32> {
        let key = u32::try_from(entry.key).ok()?;
        let position = match entry.collection {
            PLAYERS => world.players.get(&key)?.position,
            MOBS => world.mobs.get(&key)?.position,
            _ => return None,
        };
        Some(position.distance(self.center))
    }
}

impl View<World> for Near {
    fn in_scope(&mut self, world: &World, entry: Entry) -> bool {
        self.distance(world, entry).is_some_and(|distance| distance <= self.radius)
    }

    fn priority(&mut self, world: &World, entry: Entry) -> f32 {
        match self.distance(world, entry) {
            Some(distance) if distance <= self.radius / 4.0 => NEAR_PRIORITY,
            _ => 1.0,
        }
    }
}
