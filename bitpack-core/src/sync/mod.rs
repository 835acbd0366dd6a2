//! # Replicating a world
//!
//! A game server sends its world to every client each tick. Each client
//! has acknowledged a different past state, packets are lost, duplicated
//! and reordered, and sequence numbers wrap. This module does that part,
//! transport-free (bytes in, bytes out; requires `alloc`):
//!
//! - a [`Sender`] per client writes each tick's packet: the world as a
//!   delta against the newest state that client acknowledged (whole when
//!   it holds none), never longer than the datagram buffer;
//! - the client's [`Receiver`] decodes it against the state the packet
//!   names and keeps the result;
//! - the receiver's [`Acks`] go back, and [`Sender::ack`] takes them.
//!
//! The world is any [`ChangeGroups`](crate::ChangeGroups) type that is
//! `Clone`. Its change groups decide what a delta sends; a keyed
//! collection of entities (`#[change_group] entities: BTreeMap<K, V>` with
//! `#[bitpack(max_len = N)]`) sends only the entities that changed,
//! spawned or despawned, so an unchanged world costs a few bits whatever
//! its size.
//!
//! ## A server and a client
//!
//! ```
//! # extern crate bitpack_core as bitpack;
//! use std::collections::BTreeMap;
//! use bitpack::sync::{Acks, Receiver, Sender};
//! # use bitpack::__private::{self as p, keyed::{self, Budget}};
//! # use bitpack::{BitPack, BitRead, BitReader, BitWrite, ChangeGroups, Error};
//!
//! // An arena: the round, and its units by id. With the derive this is
//! //
//! // #[derive(BitPack, Clone)]
//! // struct Arena {
//! //     #[change_group(round)]
//! //     round: u32,
//! //     #[change_group]
//! //     #[bitpack(max_len = 1024)]
//! //     units: BTreeMap<u32, Unit>,
//! // }
//! //
//! // (until it supports keyed collections, this example writes its impls by
//! // hand; see the source.)
//! #[derive(Clone, Debug, PartialEq)]
//! struct Arena {
//!     round: u32,
//!     units: BTreeMap<u32, Unit>,
//! }
//!
//! /// A unit: one change group, its position on a 1024-wide line.
//! #[derive(Clone, Debug, Default, PartialEq)]
//! struct Unit {
//!     x: i32,
//! }
//! # impl BitPack for Unit {
//! #     const MAX_BITS: usize = 10;
//! #     const SCHEMA: u64 = 1;
//! #     fn write_to<W: BitWrite>(&self, w: &mut W) -> Result<(), Error> { w.write_int(self.x, 0, 1023) }
//! #     fn read_from<R: BitRead>(r: &mut R) -> Result<Self, Error> { Ok(Unit { x: r.read_int(0, 1023)? }) }
//! # }
//! # impl ChangeGroups for Unit {
//! #     type Tracker = p::GroupTracker<1, ()>;
//! #     type Changes = (Option<i32>,);
//! #     fn write_changes<W: BitWrite>(&self, w: &mut W, c: &Self::Tracker, l: &mut Self::Tracker) -> Result<(), Error> {
//! #         if p::tracked_group(w, &c.records[0], &mut l.records[0], |s| s.write_int(self.x, 0, 1023))? { w.write_int(self.x, 0, 1023)?; }
//! #         Ok(())
//! #     }
//! #     fn decode_changes<R: BitRead>(r: &mut R) -> Result<Self::Changes, Error> {
//! #         Ok((if r.read_bool()? { Some(r.read_int(0, 1023)?) } else { None },))
//! #     }
//! #     fn apply_changes(&mut self, (x,): Self::Changes) { if let Some(x) = x { self.x = x; } }
//! #     fn write_delta<W: BitWrite>(&self, b: &Self, w: &mut W) -> Result<(), Error> {
//! #         if p::delta_group(w, |s| s.write_int(self.x, 0, 1023), |s| s.write_int(b.x, 0, 1023))? {
//! #             p::relative_i32::write(w, self.x, b.x, 0, 1023)?;
//! #         }
//! #         Ok(())
//! #     }
//! #     fn read_delta<R: BitRead>(b: &Self, r: &mut R) -> Result<Self, Error> {
//! #         Ok(Unit { x: if r.read_bool()? { p::relative_i32::read(r, b.x, 0, 1023)? } else { b.x } })
//! #     }
//! # }
//! # fn write_arena<W: BitWrite>(a: &Arena, w: &mut W, budget: Option<&mut Budget>) -> Result<(), Error> {
//! #     w.write_u32(a.round)?;
//! #     keyed::map::write(w, &a.units, 1024, budget)
//! # }
//! # fn write_arena_delta<W: BitWrite>(a: &Arena, b: &Arena, w: &mut W, budget: Option<&mut Budget>) -> Result<(), Error> {
//! #     if p::delta_group(w, |s| s.write_u32(a.round), |s| s.write_u32(b.round))? { w.write_u32(a.round)?; }
//! #     keyed::map::write_delta(w, &a.units, &b.units, 1024, Unit::default, budget)
//! # }
//! # impl BitPack for Arena {
//! #     const MAX_BITS: usize = 32 + keyed::map::max_bits::<u32, Unit>(1024);
//! #     const SCHEMA: u64 = p::schema::sequence(&[<u32 as BitPack>::SCHEMA, keyed::map::schema::<u32, Unit>(1024)]);
//! #     fn write_to<W: BitWrite>(&self, w: &mut W) -> Result<(), Error> { write_arena(self, w, None) }
//! #     fn read_from<R: BitRead>(r: &mut R) -> Result<Self, Error> {
//! #         Ok(Arena { round: r.read_u32()?, units: keyed::map::read(r, 1024)? })
//! #     }
//! # }
//! # impl ChangeGroups for Arena {
//! #     type Tracker = p::GroupTracker<2, ()>;
//! #     type Changes = (Option<u32>, Option<BTreeMap<u32, Unit>>);
//! #     fn write_changes<W: BitWrite>(&self, w: &mut W, c: &Self::Tracker, l: &mut Self::Tracker) -> Result<(), Error> {
//! #         if p::tracked_group(w, &c.records[0], &mut l.records[0], |s| s.write_u32(self.round))? { w.write_u32(self.round)?; }
//! #         let units = |s: &mut p::BitFingerprint| keyed::map::write(s, &self.units, 1024, None);
//! #         if p::tracked_group(w, &c.records[1], &mut l.records[1], units)? { keyed::map::write(w, &self.units, 1024, None)?; }
//! #         Ok(())
//! #     }
//! #     fn decode_changes<R: BitRead>(r: &mut R) -> Result<Self::Changes, Error> {
//! #         let round = if r.read_bool()? { Some(r.read_u32()?) } else { None };
//! #         Ok((round, if r.read_bool()? { Some(keyed::map::read(r, 1024)?) } else { None }))
//! #     }
//! #     fn apply_changes(&mut self, (round, units): Self::Changes) {
//! #         if let Some(round) = round { self.round = round; }
//! #         if let Some(units) = units { self.units = units; }
//! #     }
//! #     fn write_delta<W: BitWrite>(&self, b: &Self, w: &mut W) -> Result<(), Error> { write_arena_delta(self, b, w, None) }
//! #     fn read_delta<R: BitRead>(b: &Self, r: &mut R) -> Result<Self, Error> {
//! #         let round = if r.read_bool()? { r.read_u32()? } else { b.round };
//! #         Ok(Arena { round, units: keyed::map::read_delta(r, &b.units, 1024, Unit::default)? })
//! #     }
//! #     fn write_to_within<W: BitWrite>(&self, w: &mut W, budget: &mut Budget) -> Result<(), Error> {
//! #         write_arena(self, w, Some(budget))
//! #     }
//! #     fn write_delta_within<W: BitWrite>(&self, b: &Self, w: &mut W, budget: &mut Budget) -> Result<(), Error> {
//! #         write_arena_delta(self, b, w, Some(budget))
//! #     }
//! #     fn sent_state(&self, b: Option<&Self>, budget: &mut Budget) -> Result<Self, Error> {
//! #         Ok(Arena { round: self.round, units: keyed::map::sent_state(&self.units, b.map(|b| &b.units), budget)? })
//! #     }
//! # }
//!
//! // The server: a world, and a sender per client.
//! let mut arena = Arena { round: 1, units: (0..300).map(|id| (id * 3, Unit { x: 500 })).collect() };
//! let mut sender: Sender<Arena> = Sender::new();
//! // The client.
//! let mut receiver: Receiver<Arena> = Receiver::new();
//!
//! let mut datagram = [0u8; 1200];
//! for tick in 0..50u32 {
//!     // Server: simulate, then write this client's packet.
//!     for (id, unit) in arena.units.iter_mut() {
//!         if (id + tick) % 7 == 0 {
//!             unit.x = (unit.x + 1) % 1024;
//!         }
//!     }
//!     arena.units.remove(&(tick * 3)); // a despawn
//!     arena.units.insert(5000 + tick, Unit { x: 7 }); // a spawn
//!     let len = sender.write(&arena, &mut datagram)?;
//!     assert!(len <= datagram.len());
//!
//!     // The transport carries datagram[..len]; lose one in ten.
//!     if tick % 10 != 9 {
//!         // Client: `Some` for a new state, `None` for a stale or repeated packet.
//!         if let Some(seen) = receiver.read(&datagram[..len])? {
//!             assert_eq!(seen.units.len(), arena.units.len());
//!         }
//!         // Client -> server: what it holds.
//!         let acks = bitpack::encode(&receiver.acks())?;
//!         sender.ack(&bitpack::decode::<Acks>(&acks)?);
//!     }
//! }
//! // The last packet was lost: the next one catches the client up.
//! let len = sender.write(&arena, &mut datagram)?;
//! assert_eq!(receiver.read(&datagram[..len])?, Some(&arena));
//! sender.ack(&receiver.acks());
//!
//! // Nothing changed since the acknowledged state: a few bytes.
//! let len = sender.write(&arena, &mut datagram)?;
//! assert_eq!(len, 8);
//! # Ok::<(), bitpack::Error>(())
//! ```
//!
//! ## What goes on the wire
//!
//! A packet is a 32-bit check (a hash of the rest of the packet and of the
//! world type's `SCHEMA`, so corrupted packets, stray datagrams and packets
//! for another world type are refused), the packet's sequence (16 bits),
//! one bit for "delta", and then the baseline's sequence relative to the
//! packet's (`write_ack_relative`, 7 bits): 56 bits. Then the world: its
//! `write_delta` against the baseline, or its `write_to` when whole.
//!
//! A keyed collection, whole, is its length as `int(len, 0, max_len)` and
//! its entries in key order, each key the adaptive gap after the previous
//! one. As a delta it is one bit (0: nothing changed), then the number of
//! items and the items in key order: each key's gap, then for a key the
//! baseline holds a bit (0: changed, followed by the entry's own
//! `write_delta` against the baseline's; 1: removed), and for a new key
//! the entry's `write_delta` against the spawn value. An entry equal
//! (`==`) to the baseline's is not sent at all.
//!
//! ## The packet budget
//!
//! [`Sender::write`] never writes more than the buffer holds. When the
//! world's delta does not fit, keyed collections send the entries with the
//! highest accumulated priority and hold the others back; an entry's
//! priority grows each packet it waits (by 1, or by what the function
//! given to [`Sender::write_prioritized`] says, for example more for
//! entities near the client), so every entry is sent within a bounded
//! number of packets. The state the sender records for the packet is
//! exactly what the client will hold (the entries sent, the others as in
//! the baseline), so later deltas stay exact. Such a packet measures the
//! whole delta, writes the selected entries, and builds the recorded state
//! from the baseline: about twice the cost of one that carries everything.
//!
//! ## Loss, order and hostile bytes
//!
//! Sequences are u16 and wrap. A receiver decodes only packets newer than
//! the newest it decoded (`Ok(None)` for the others); the sender deltas
//! only against states the client acknowledged, and keeps the last `N`
//! (default 32) so that any of them can serve. With equal `N` on both
//! sides a receiver always holds the baseline a newer packet names. Bytes
//! that are not such a packet are an `Err` (`ChecksumMismatch`,
//! `UnexpectedEnd`, `MissingBaseline`, ...), and only `Ok(Some)` changes
//! the receiver. The check detects corruption, not forgery: authenticate
//! the transport against an attacker.
//!
//! ## Costs per client
//!
//! - **Memory**: a `Sender<W, N>` keeps `N` copies of the world (what the
//!   client holds after each of the last `N` packets), a `Receiver<W, N>`
//!   `N` decoded ones: `N x` the size of `W` each, heap included (for a
//!   `BTreeMap` of entities, about the entries' size plus a node per 11
//!   entries). The sender's budget buffers add about 50 bytes per entry a
//!   packet could carry.
//! - **Allocation**: once warmed up, one world copy per packet on each side
//!   (the state kept for it), nothing else.
//! - **CPU**: a packet that carries everything costs the delta's write
//!   (each changed entry's `write_delta`, an `==` per entry held in both,
//!   the keys) and a clone of the world; one that cannot carry everything
//!   about twice that. On the benchmark world (262 entities, 46% changing
//!   each tick; `benches/README.md`) a `write` costs about 2.5x a whole
//!   encode of the same world with the entities in a sorted `Vec`, 3x in
//!   a `BTreeMap`, most of it the entities' own `write_delta`; a `read`
//!   1.3x and 2x.

mod acks;
pub(crate) mod budget;
mod packet;
mod receiver;
mod sender;

pub use acks::{ACK_BITS, Acks};
pub use budget::Budget;
pub use receiver::Receiver;
pub use sender::{Entry, Sender};
