//! An in-process datagram link: each datagram is lost with a given probability, and the
//! others arrive a fixed number of ticks later, in order.

use std::collections::VecDeque;

use crate::rng::Rng;

/// One direction of a lossy, delayed link.
#[derive(Clone, Debug)]
pub struct Link {
    rng: Rng,
    loss: f32,
    delay_ticks: u32,
    in_flight: VecDeque<(u32, Vec<u8>)>,
    sent: u32,
    lost: u32,
}

impl Link {
    /// A link losing `loss` (0 to 1) of the datagrams, delivering the others `delay_ticks` late.
    pub fn new(seed: u64, loss: f32, delay_ticks: u32) -> Self {
        Link { rng: Rng::new(seed), loss, delay_ticks, in_flight: VecDeque::new(), sent: 0, lost: 0 }
    }

    /// Sends `datagram` at tick `now`; false if the link drops it.
    pub fn send(&mut self, now: u32, datagram: &[u8]) -> bool {
        self.sent += 1;
        if self.rng.chance(self.loss) {
            self.lost += 1;
            return false;
        }
        self.in_flight.push_back((now + self.delay_ticks, datagram.to_vec()));
        true
    }

    /// Datagrams given to [`Link::send`].
    pub fn sent(&self) -> u32 {
        self.sent
    }

    /// Datagrams the link dropped.
    pub fn lost(&self) -> u32 {
        self.lost
    }

    /// The next datagram due by tick `now`, if any.
    pub fn receive(&mut self, now: u32) -> Option<Vec<u8>> {
        match self.in_flight.front() {
            Some(&(due, _)) if due <= now => self.in_flight.pop_front().map(|(_, datagram)| datagram),
            _ => None,
        }
    }
}
