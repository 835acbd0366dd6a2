//! What one client sees: which entries are in its scope, and which matter
//! most to it.

use super::sender::Entry;

/// One client's view of the world, for [`Sender::write_view`](super::Sender::write_view):
/// which keyed entries it gets at all ([`View::in_scope`]), and how urgent
/// each is when a packet cannot carry every change ([`View::priority`]).
/// An entry out of scope is, for that client, despawned: it leaves the
/// client's world within a packet or two (removals go first in a packet
/// that cannot carry everything), and is spawned again when it comes back
/// in scope. `()` is the view that sees everything, each entry alike.
///
/// Both methods are called with the whole world, so a view can look the
/// entry up (its position, its owner) without a copy of its own.
pub trait View<W> {
    /// Whether the client gets `entry` (asked for every keyed entry of
    /// every packet).
    fn in_scope(&mut self, world: &W, entry: Entry) -> bool {
        let _ = (world, entry);
        true
    }

    /// How fast `entry`'s priority grows each packet it is held back (see
    /// [`Sender::write_prioritized`](super::Sender::write_prioritized));
    /// asked only for packets that cannot carry everything.
    fn priority(&mut self, world: &W, entry: Entry) -> f32 {
        let _ = (world, entry);
        1.0
    }
}

impl<W> View<W> for () {}
