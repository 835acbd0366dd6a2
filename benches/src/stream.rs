//! bitpack's change-group streams of the snapshots (issue 4), through the
//! `ChangeGroups` the derive generates for [`Entity`] (groups: identity,
//! motion, vitals, state). A snapshot message is its tick (32 bits), its
//! entity count (`int(0, 256)`), then each entity's groups: one flag bit
//! each, and the group's fields when it is sent.
//!
//! - **Tracked** ([`TrackedSender`]): a group is sent when it may differ
//!   from what the peer acknowledged. The first message sends everything.
//! - **Delta** ([`write_delta`]): a group is sent when its bits differ from
//!   the baseline's, a snapshot both sides hold (here the previous one).
//!
//! Both need the same entities in the same slots from message to message,
//! as a server's entity table has; a different count is refused.

use bitpack::{BitRead, BitReader, BitWrite, BitWriter, ChangeGroups, Error, ErrorKind};

use crate::dataset::{ENTITIES, Entity, EntityFlags, EntityKind, Snapshot};

type Tracker = <Entity as ChangeGroups>::Tracker;

fn write_header<W: BitWrite>(snapshot: &Snapshot, writer: &mut W) -> Result<(), Error> {
    writer.write_u32(snapshot.tick)?;
    let count = i32::try_from(snapshot.entities.len()).unwrap_or(i32::MAX);
    writer.write_int(count, 0, ENTITIES as i32)
}

/// Reads the header; refuses a count other than `expected`.
fn read_header<R: BitRead>(reader: &mut R, expected: usize) -> Result<u32, Error> {
    let tick = reader.read_u32()?;
    let at = reader.bits_read();
    let count = reader.read_int(0, ENTITIES as i32)? as usize;
    if count != expected {
        return Err(Error::new(ErrorKind::OutOfRange, at));
    }
    Ok(tick)
}

/// The sender's side of the tracked stream: what the peer acknowledged and
/// what was last sent, per entity slot.
#[derive(Clone, Debug, Default)]
pub struct TrackedSender {
    confirmed: Vec<Tracker>,
    latest: Vec<Tracker>,
}

impl TrackedSender {
    /// A sender that has sent nothing yet.
    pub fn new() -> Self {
        TrackedSender::default()
    }

    /// Writes `snapshot` into `buf`, sending the groups the peer may not
    /// hold; returns the bytes used.
    pub fn write(&mut self, snapshot: &Snapshot, buf: &mut [u8]) -> Result<usize, Error> {
        let count = snapshot.entities.len();
        self.confirmed.resize_with(count, Tracker::default);
        self.latest.resize_with(count, Tracker::default);
        let mut writer = BitWriter::new(buf);
        write_header(snapshot, &mut writer)?;
        for ((entity, confirmed), latest) in
            snapshot.entities.iter().zip(&self.confirmed).zip(&mut self.latest)
        {
            entity.write_changes(&mut writer, confirmed, latest)?;
        }
        writer.finish()
    }

    /// The peer acknowledged everything written so far.
    pub fn acknowledge(&mut self) {
        self.confirmed.clone_from(&self.latest);
    }
}

/// What a receiver holds before the first tracked message: every group is
/// in that message, so these values never survive it.
pub fn blank_snapshot(count: usize) -> Snapshot {
    let blank = Entity {
        id: 0,
        kind: EntityKind::Player,
        position: [0.0; 3],
        velocity: [0.0; 3],
        yaw: 0.0,
        health: 0,
        armor: 0,
        flags: EntityFlags::default(),
        target: None,
    };
    Snapshot { tick: 0, entities: vec![blank; count] }
}

/// Applies a tracked message to what the receiver holds.
pub fn read_tracked(state: &mut Snapshot, bytes: &[u8]) -> Result<(), Error> {
    let mut reader = BitReader::new(bytes);
    state.tick = read_header(&mut reader, state.entities.len())?;
    for entity in &mut state.entities {
        entity.read_changes(&mut reader)?;
    }
    Ok(())
}

/// Writes `snapshot` as a delta against `baseline` into `buf`; returns the
/// bytes used.
pub fn write_delta(snapshot: &Snapshot, baseline: &Snapshot, buf: &mut [u8]) -> Result<usize, Error> {
    let mut writer = BitWriter::new(buf);
    write_header(snapshot, &mut writer)?;
    if snapshot.entities.len() != baseline.entities.len() {
        return Err(Error::new(ErrorKind::OutOfRange, 32));
    }
    for (entity, old) in snapshot.entities.iter().zip(&baseline.entities) {
        entity.write_delta(old, &mut writer)?;
    }
    writer.finish()
}

/// Reads a delta written against `baseline`.
pub fn read_delta(baseline: &Snapshot, bytes: &[u8]) -> Result<Snapshot, Error> {
    let mut reader = BitReader::new(bytes);
    let tick = read_header(&mut reader, baseline.entities.len())?;
    let mut entities = Vec::with_capacity(baseline.entities.len());
    for old in &baseline.entities {
        entities.push(Entity::read_delta(old, &mut reader)?);
    }
    Ok(Snapshot { tick, entities })
}

/// The tracked stream of `snapshots`, every message acknowledged at once.
pub fn tracked_messages(snapshots: &[Snapshot]) -> Result<Vec<Vec<u8>>, Error> {
    let mut sender = TrackedSender::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut messages = Vec::with_capacity(snapshots.len());
    for snapshot in snapshots {
        let used = sender.write(snapshot, &mut buf)?;
        messages.push(buf[..used].to_vec());
        sender.acknowledge();
    }
    Ok(messages)
}

/// The delta stream of `snapshots`: the first whole (the plain `BitPack`
/// bytes), then each against the one before. Comparing bits, a float
/// baseline and the receiver's decoded copy of it send the same groups.
pub fn delta_messages(snapshots: &[Snapshot]) -> Result<Vec<Vec<u8>>, Error> {
    let mut buf = vec![0u8; 1 << 16];
    let mut messages = Vec::with_capacity(snapshots.len());
    let Some(first) = snapshots.first() else { return Ok(messages) };
    messages.push(bitpack::encode(first)?);
    for pair in snapshots.windows(2) {
        let used = write_delta(&pair[1], &pair[0], &mut buf)?;
        messages.push(buf[..used].to_vec());
    }
    Ok(messages)
}
