//! An in-process datagram link: packets lost, duplicated and delayed
//! (so reordered), from a seed.

use super::SplitMix64;

/// How the link treats each datagram, in percent and ticks.
#[derive(Clone, Copy, Debug)]
pub struct Conditions {
    pub loss: u64,
    pub duplicate: u64,
    /// Chance a datagram is held back by 1 to `max_delay` extra ticks.
    pub delay: u64,
    pub max_delay: usize,
}

impl Conditions {
    pub const PERFECT: Conditions = Conditions { loss: 0, duplicate: 0, delay: 0, max_delay: 0 };
}

/// Datagrams in flight, each with the tick it arrives and a tag the sender
/// chose (the packet's sequence, for the tests).
pub struct Link {
    rng: SplitMix64,
    conditions: Conditions,
    in_flight: Vec<(usize, u16, Vec<u8>)>,
}

impl Link {
    pub fn new(seed: u64, conditions: Conditions) -> Link {
        Link { rng: SplitMix64(seed), conditions, in_flight: Vec::new() }
    }

    /// Sends `bytes` at tick `now`: it arrives at `now + 1` or later, once,
    /// twice, or never.
    pub fn send(&mut self, now: usize, tag: u16, bytes: &[u8]) {
        let copies = if self.rng.chance(self.conditions.duplicate) { 2 } else { 1 };
        for _ in 0..copies {
            if self.rng.chance(self.conditions.loss) {
                continue;
            }
            let mut due = now + 1;
            if self.conditions.max_delay > 0 && self.rng.chance(self.conditions.delay) {
                due += self.rng.range(1, self.conditions.max_delay as i32) as usize;
            }
            self.in_flight.push((due, tag, bytes.to_vec()));
        }
    }

    /// The datagrams arriving at tick `now`, in arrival order.
    pub fn arrivals(&mut self, now: usize) -> Vec<(u16, Vec<u8>)> {
        let (due, later): (Vec<_>, Vec<_>) = self.in_flight.drain(..).partition(|(at, ..)| *at <= now);
        self.in_flight = later;
        due.into_iter().map(|(_, tag, bytes)| (tag, bytes)).collect()
    }
}
