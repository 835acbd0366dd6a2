//! How old the entities a client holds are, in packets: a packet's sequence less the
//! `Receiver::updated_at` of each entity in the state it decoded to.

use std::collections::BTreeMap;

use bitpack::ChangeGroups;
use bitpack::sync::{Entry, Receiver};

use crate::world::{MOBS, PLAYERS};

/// Ages counted by value; ages past the last bucket count in it.
const BUCKETS: usize = 1024;

/// A histogram of entity ages in packets.
#[derive(Clone, Debug, PartialEq)]
pub struct Ages {
    counts: Vec<u64>,
    sum: u64,
}

impl Default for Ages {
    fn default() -> Self {
        Ages { counts: vec![0; BUCKETS], sum: 0 }
    }
}

impl Ages {
    /// Counts one entity `age` packets old.
    pub fn add(&mut self, age: u16) {
        self.counts[usize::from(age).min(BUCKETS - 1)] += 1;
        self.sum += u64::from(age);
    }

    /// Counts the age of each of `entries` in `receiver`'s newest state, the one its last
    /// `read` returned. `Err` for an entry it gives no `updated_at` for.
    pub fn record<W: ChangeGroups, const N: usize>(
        &mut self,
        receiver: &Receiver<W, N>,
        entries: impl IntoIterator<Item = Entry>,
    ) -> Result<(), String> {
        let packet = receiver.latest_sequence().ok_or("the receiver has decoded nothing")?;
        for entry in entries {
            let at = receiver.updated_at(entry).ok_or_else(|| format!("no updated_at for {entry:?}"))?;
            self.add(packet.wrapping_sub(at));
        }
        Ok(())
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &Ages) {
        for (count, more) in self.counts.iter_mut().zip(&other.counts) {
            *count += more;
        }
        self.sum += other.sum;
    }

    /// Entity ages counted.
    pub fn count(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The mean age, 0 when nothing was counted.
    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.count().max(1) as f64
    }

    /// The age at or below which `fraction` (0 to 1) of the ages lie: `quantile(0.99)` is the
    /// 99th percentile.
    pub fn quantile(&self, fraction: f64) -> u16 {
        let wanted = (fraction * self.count() as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (age, &count) in self.counts.iter().enumerate() {
            seen += count;
            if seen >= wanted {
                return age as u16;
            }
        }
        0
    }

    /// The oldest age counted (ages of 1023 or more count as 1023).
    pub fn max(&self) -> u16 {
        self.counts.iter().rposition(|&count| count > 0).unwrap_or(0) as u16
    }
}

/// The entries of a world's players and mobs, as `bitpack::sync` names them.
pub fn entries<'a, P, M>(
    players: &'a BTreeMap<u32, P>,
    mobs: &'a BTreeMap<u32, M>,
) -> impl Iterator<Item = Entry> + 'a {
    let entry = |collection| move |&key: &u32| Entry { collection, key: key.into() };
    players.keys().map(entry(PLAYERS)).chain(mobs.keys().map(entry(MOBS)))
}

#[cfg(test)]
mod tests {
    use super::Ages;

    #[test]
    fn mean_and_quantiles() {
        let mut ages = Ages::default();
        assert_eq!((ages.mean(), ages.quantile(0.99), ages.max()), (0.0, 0, 0));
        for _ in 0..98 {
            ages.add(0);
        }
        ages.add(3);
        ages.add(10);
        assert_eq!(ages.count(), 100);
        assert_eq!(ages.mean(), 0.13);
        assert_eq!((ages.quantile(0.98), ages.quantile(0.99), ages.quantile(1.0)), (0, 3, 10));
        assert_eq!(ages.max(), 10);
        let mut more = Ages::default();
        more.add(u16::MAX);
        ages.merge(&more);
        assert_eq!((ages.count(), ages.max()), (101, 1023));
    }
}
