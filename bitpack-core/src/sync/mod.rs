//! # Replicating a world
//!
//! A game server sends its world to every client each tick. Each client
//! has acknowledged a different past state, packets are lost, duplicated
//! and reordered, and sequence numbers wrap. This module does that part,
//! transport-free (bytes in, bytes out; requires `alloc`): a [`Sender`] per
//! client writes each tick's packet, the world as a delta against the
//! newest state that client acknowledged (whole when it holds none), never
//! longer than the datagram buffer; the client's [`Receiver`] decodes it
//! against the state the packet names and keeps the result; the
//! receiver's [`Acks`] go back, and [`Sender::ack`] takes them. A world
//! that should arrive whole though it takes more than one datagram is
//! split into [`Fragments`] and put back together by a [`Reassembly`].
//!
//! The world is any [`ChangeGroups`](crate::ChangeGroups) type that is
//! `Clone`, in practice a struct deriving `BitPack` with `#[change_group]`
//! fields and keyed collections of entities (`#[change_group]` on a
//! `BTreeMap<K, V>`, or a `Vec<V>` sorted by a `#[bitpack(key)]` field, with
//! `#[bitpack(max_len = N)]`). The guide, with a complete server and
//! client, the wire and the costs per client, is the `bitpack` crate's
//! `sync` module (this one, re-exported with the derive at hand).

mod acks;
pub(crate) mod budget;
pub(crate) mod fragments;
mod packet;
mod receiver;
mod sender;
mod stale;
mod view;

pub use acks::{ACK_BITS, Acks};
pub use budget::Budget;
pub use fragments::{FRAGMENT_HEADER_BYTES, Fragments, MAX_FRAGMENTS, Reassembly};
pub use receiver::Receiver;
pub use sender::{Entry, Sender};
pub use view::View;
