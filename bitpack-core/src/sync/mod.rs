//! Replicating a world to many clients (requires `alloc`).
//!
//! TODO guide
mod acks;
pub(crate) mod budget;
mod packet;
mod receiver;
mod sender;

pub use acks::{ACK_BITS, Acks};
pub use budget::Budget;
pub use receiver::Receiver;
pub use sender::{Entry, Sender};
