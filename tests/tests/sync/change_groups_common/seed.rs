//! The seed scenario's messages: an 8-byte message over 4 phases of 200
//! ticks (see `change_groups_seed.rs` for the figures).

use super::SplitMix64;

/// Positions lie in `[0, 1023]`.
pub const WORLD: (i32, i32) = (0, 1023);
/// Ticks in each of the four phases.
pub const TICKS_PER_PHASE: usize = 200;

/// The seed message's plain fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message {
    pub action: u8,
    pub flags: u8,
    pub checksum: u8,
    pub orientation: u16,
    pub x: u16,
    pub y: u16,
}

impl Message {
    /// The field sizes of the 8-byte wire struct, in bits, in order.
    pub fn fields(&self) -> [(u16, usize); 6] {
        [
            (u16::from(self.action), 4),
            (u16::from(self.flags), 4),
            (u16::from(self.checksum), 8),
            (self.orientation, 16),
            (self.x, 16),
            (self.y, 16),
        ]
    }
}

/// Steps `position` by `step` in `direction`, bouncing off the world edges.
fn advance(position: &mut u16, direction: &mut i32, step: i32) {
    let mut next = i32::from(*position) + *direction * step;
    if !(WORLD.0..=WORLD.1).contains(&next) {
        *direction = -*direction;
        next = i32::from(*position) + *direction * step;
    }
    *position = next as u16;
}

fn turn(orientation: &mut u16, rng: &mut SplitMix64) {
    let step = rng.range(1, 3) * if rng.chance(50) { 1 } else { -1 };
    *orientation = (i32::from(*orientation) + step).rem_euclid(360) as u16;
}

/// The initial message and the 800 ticks after it.
pub fn scenario() -> (Message, Vec<Message>) {
    let mut rng = SplitMix64(0x5EED_2024);
    let initial = Message { action: 3, flags: 0b1010, checksum: 0x42, orientation: 90, x: 100, y: 500 };
    let mut state = initial;
    let (mut dx, mut dy) = (1, 1);
    let mut ticks = Vec::new();
    for phase in 0..4 {
        for _ in 0..TICKS_PER_PHASE {
            match phase {
                0 => advance(&mut state.x, &mut dx, rng.range(1, 2)),
                1 => {
                    advance(&mut state.x, &mut dx, rng.range(1, 2));
                    advance(&mut state.y, &mut dy, rng.range(1, 2));
                    turn(&mut state.orientation, &mut rng);
                }
                2 => {
                    advance(&mut state.x, &mut dx, rng.range(1, 2));
                    turn(&mut state.orientation, &mut rng);
                }
                _ => turn(&mut state.orientation, &mut rng),
            }
            let previous = state.checksum;
            while state.checksum == previous {
                state.checksum = rng.next_u64() as u8;
            }
            ticks.push(state);
        }
    }
    (initial, ticks)
}
