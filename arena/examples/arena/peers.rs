//! The world as other serializers see it: plain structs of the same fields, full-precision
//! floats, with serde's and bitcode's derives; and as `#[repr(C)]` structs sent byte for byte.

use std::mem::{offset_of, size_of};

use bitpack_arena::world::{Action, MAX_CHAT, MobKind, World};
use serde::{Deserialize, Serialize};

/// A player, as a serde or bitcode user would declare it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode)]
pub struct PeerPlayer {
    pub id: u32,
    pub position: [f32; 3],
    pub orientation: [f32; 4],
    pub health: u8,
    pub action: PeerAction,
}

/// A player's action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode)]
pub enum PeerAction {
    Idle,
    Firing,
    Chat(String),
}

/// A projectile or NPC.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode)]
pub struct PeerMob {
    pub id: u32,
    pub npc: bool,
    pub position: [f32; 3],
    pub yaw: f32,
    pub health: u8,
}

/// The world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode)]
pub struct PeerWorld {
    pub tick: i32,
    pub players: Vec<PeerPlayer>,
    pub mobs: Vec<PeerMob>,
}

impl From<&World> for PeerWorld {
    fn from(world: &World) -> Self {
        let players = world.players.iter().map(|(&id, p)| PeerPlayer {
            id,
            position: p.position.to_array(),
            orientation: p.orientation.to_array(),
            health: p.health,
            action: match &p.action {
                Action::Idle => PeerAction::Idle,
                Action::Firing => PeerAction::Firing,
                Action::Chat { text } => PeerAction::Chat(text.clone()),
            },
        });
        let mobs = world.mobs.iter().map(|(&id, m)| PeerMob {
            id,
            npc: m.kind == MobKind::Npc,
            position: m.position.to_array(),
            yaw: m.yaw,
            health: m.health,
        });
        PeerWorld { tick: world.tick, players: players.collect(), mobs: mobs.collect() }
    }
}

/// A player as a C struct: the chat line in a fixed buffer.
#[repr(C)]
pub struct RawPlayer {
    pub id: u32,
    pub position: [f32; 3],
    pub orientation: [f32; 4],
    pub health: u8,
    pub action: u8,
    pub chat_len: u8,
    pub chat: [u8; MAX_CHAT],
}

/// A mob as a C struct.
#[repr(C)]
pub struct RawMob {
    pub id: u32,
    pub position: [f32; 3],
    pub yaw: f32,
    pub npc: u8,
    pub health: u8,
}

/// The world's header as a C struct; the players and mobs follow as arrays.
#[repr(C)]
pub struct RawHeader {
    pub tick: i32,
    pub players: u32,
    pub mobs: u32,
}

// The fields below are written in declaration order with no gaps, then padding to the
// struct's size: exactly the structs' bytes on a little-endian machine.
const _: () = {
    assert!(offset_of!(RawPlayer, chat) + MAX_CHAT <= size_of::<RawPlayer>());
    assert!(offset_of!(RawPlayer, chat) == 4 + 12 + 16 + 3);
    assert!(offset_of!(RawMob, health) == 4 + 12 + 4 + 1);
};

fn put_f32s(out: &mut Vec<u8>, values: &[f32]) {
    for value in values {
        out.extend_from_slice(&value.to_le_bytes());
    }
}

fn pad_to(out: &mut Vec<u8>, start: usize, size: usize) {
    out.resize(start + size, 0);
}

/// Writes `world` as a `RawHeader`, then `[RawPlayer]`, then `[RawMob]`, byte for byte.
pub fn write_raw(world: &PeerWorld, out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(&world.tick.to_le_bytes());
    out.extend_from_slice(&(world.players.len() as u32).to_le_bytes());
    out.extend_from_slice(&(world.mobs.len() as u32).to_le_bytes());
    pad_to(out, 0, size_of::<RawHeader>());
    for player in &world.players {
        let start = out.len();
        out.extend_from_slice(&player.id.to_le_bytes());
        put_f32s(out, &player.position);
        put_f32s(out, &player.orientation);
        let (action, chat) = match &player.action {
            PeerAction::Idle => (0, ""),
            PeerAction::Firing => (1, ""),
            PeerAction::Chat(text) => (2, text.as_str()),
        };
        out.extend_from_slice(&[player.health, action, chat.len() as u8]);
        out.extend_from_slice(chat.as_bytes());
        pad_to(out, start, size_of::<RawPlayer>());
    }
    for mob in &world.mobs {
        let start = out.len();
        out.extend_from_slice(&mob.id.to_le_bytes());
        put_f32s(out, &mob.position);
        put_f32s(out, &[mob.yaw]);
        out.extend_from_slice(&[u8::from(mob.npc), mob.health]);
        pad_to(out, start, size_of::<RawMob>());
    }
}

struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_first_chunk::<N>()?;
        self.0 = rest;
        Some(*head)
    }

    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }

    fn f32s<const N: usize>(&mut self) -> Option<[f32; N]> {
        let mut values = [0.0; N];
        for value in &mut values {
            *value = self.take().map(f32::from_le_bytes)?;
        }
        Some(values)
    }

    fn skip_to(&mut self, start: usize, consumed_from: &[u8], size: usize) -> Option<()> {
        let used = consumed_from.len() - self.0.len() - start;
        self.0 = self.0.get(size - used..)?;
        Some(())
    }
}

/// Reads what [`write_raw`] wrote; `None` for bytes it could not have written.
pub fn read_raw(bytes: &[u8]) -> Option<PeerWorld> {
    let mut cursor = Cursor(bytes);
    let tick = cursor.take().map(i32::from_le_bytes)?;
    let (players, mobs) = (cursor.u32()?, cursor.u32()?);
    cursor.skip_to(0, bytes, size_of::<RawHeader>())?;
    let mut world = PeerWorld { tick, players: Vec::new(), mobs: Vec::new() };
    for _ in 0..players {
        let start = bytes.len() - cursor.0.len();
        let id = cursor.u32()?;
        let position = cursor.f32s()?;
        let orientation = cursor.f32s()?;
        let [health, action, chat_len] = cursor.take()?;
        let chat: [u8; MAX_CHAT] = cursor.take()?;
        let action = match action {
            0 => PeerAction::Idle,
            1 => PeerAction::Firing,
            2 => PeerAction::Chat(String::from_utf8(chat.get(..usize::from(chat_len))?.to_vec()).ok()?),
            _ => return None,
        };
        cursor.skip_to(start, bytes, size_of::<RawPlayer>())?;
        world.players.push(PeerPlayer { id, position, orientation, health, action });
    }
    for _ in 0..mobs {
        let start = bytes.len() - cursor.0.len();
        let id = cursor.u32()?;
        let position = cursor.f32s()?;
        let [yaw] = cursor.f32s()?;
        let [npc, health] = cursor.take()?;
        cursor.skip_to(start, bytes, size_of::<RawMob>())?;
        world.mobs.push(PeerMob { id, npc: npc == 1, position, yaw, health });
    }
    cursor.0.is_empty().then_some(world)
}
