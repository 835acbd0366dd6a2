//! Once warmed up, a sender and a receiver allocate per packet only the
//! world copy each keeps for it, in fragments too: a counting global
//! allocator (per thread) watches every call, and compares with what
//! cloning the world allocates.

use crate::counting_allocator;
use crate::sync_common;

use bitpack::ChangeGroups;
use bitpack::sync::{Acks, Fragments, Reassembly, Receiver, Sender};
use counting_allocator::measure;
use sync_common::{SplitMix64, World};

const SPAWNS: usize = 2;

/// A world of 200 units, two spawning and two despawning each tick, sent
/// in datagrams of `datagram` bytes for 400 ticks (as `form` holds it);
/// checks the last 300.
fn session<W: ChangeGroups + Clone + PartialEq>(datagram: usize, form: fn(&World) -> W) {
    let mut rng = SplitMix64(21);
    let mut units = World::random(&mut rng, 200);
    let mut sender: Sender<W> = Sender::new();
    let mut receiver: Receiver<W> = Receiver::new();
    let mut buf = vec![0u8; datagram];
    let mut acks = [0u8; 16];
    for tick in 0..400 {
        units.step(&mut rng, SPAWNS, SPAWNS);
        let world = form(&units);
        let (_, clone) = measure(|| world.clone());
        let (used, write) = measure(|| sender.write(&world, &mut buf));
        let used = used.expect("writes");
        let (decoded, read) = measure(|| receiver.read(&buf[..used]).map(|world| world.is_some()));
        assert_eq!(decoded, Ok(true));
        let (again, stale) = measure(|| receiver.read(&buf[..used]).map(|world| world.is_some()));
        assert_eq!(again, Ok(false));
        let (_, ack) = measure(|| {
            let used = bitpack::encode_into(&receiver.acks(), &mut acks).expect("fits");
            sender.ack(&bitpack::decode::<Acks>(&acks[..used]).expect("decodes"));
        });
        if tick < 100 {
            continue;
        }
        let whole = sender.sent(sender.next_sequence().wrapping_sub(1)).is_some_and(|sent| sent == world);
        // A packet that carried everything records a clone of the world.
        // Otherwise, and on the receiver, the copy kept is the baseline's
        // clone with the packet's entries put in (its changed and removed
        // entries, then the new ones): a B-tree built another way, a node
        // more or less, and each new entry's insert may split a leaf and
        // its parent.
        let copy = clone.allocations + 2 * SPAWNS + 2;
        if whole {
            assert!(write.allocations <= clone.allocations, "tick {tick}: {write:?} vs {clone:?}");
        } else {
            assert!(write.allocations <= copy, "tick {tick}: {write:?} vs {clone:?}");
        }
        assert!(read.allocations <= copy, "tick {tick}: {read:?} vs {clone:?}");
        assert_eq!(stale.allocations, 0, "a stale packet allocates nothing");
        assert_eq!(ack.allocations, 0, "acks allocate nothing");
    }
}

#[test]
fn packets_that_carry_everything_allocate_one_world_copy() {
    session(1 << 14, World::clone);
    session(1 << 14, World::as_sorted);
}

#[test]
fn packets_under_a_budget_allocate_one_world_copy() {
    session(300, World::clone);
    session(300, World::as_sorted);
}

#[test]
fn packets_in_fragments_allocate_one_world_copy() {
    let mut rng = SplitMix64(22);
    let mut world = World::random(&mut rng, 200);
    let mut sender: Sender<World> = Sender::new();
    let mut receiver: Receiver<World> = Receiver::new();
    let mut fragments = Fragments::new(300, 32);
    let mut reassembly: Reassembly = Reassembly::new(300, 32);
    for tick in 0..300 {
        world.step(&mut rng, SPAWNS, SPAWNS);
        let (_, clone) = measure(|| world.clone());
        let (count, write) = measure(|| fragments.write(&mut sender, &world));
        let count = count.expect("writes");
        let (sent, iterate) = measure(|| fragments.iter().map(<[u8]>::len).sum::<usize>());
        let (decoded, read) = measure(|| {
            let mut decoded = 0;
            for datagram in fragments.iter() {
                decoded += usize::from(reassembly.read(&mut receiver, datagram).expect("takes").is_some());
            }
            decoded
        });
        assert_eq!(decoded, 1);
        let (again, copies) = measure(|| {
            let mut ignored = true;
            for datagram in fragments.iter() {
                ignored &= matches!(reassembly.read(&mut receiver, datagram), Ok(None));
            }
            ignored
        });
        assert!(again);
        sender.ack(&receiver.acks());
        if tick < 100 {
            continue;
        }
        // Several datagrams a packet, all of the world.
        assert!(count >= 3 && sent > 600, "tick {tick}: {count} fragments, {sent} bytes");
        assert_eq!(sender.sent(sender.next_sequence().wrapping_sub(1)).as_ref(), Some(&world));
        let copy = clone.allocations + 2 * SPAWNS + 2;
        assert!(write.allocations <= clone.allocations, "tick {tick}: {write:?} vs {clone:?}");
        assert!(read.allocations <= copy, "tick {tick}: {read:?} vs {clone:?}");
        assert_eq!(iterate.allocations, 0, "the fragments are iterated in place");
        assert_eq!(copies.allocations, 0, "copies of fragments allocate nothing");
    }
}
