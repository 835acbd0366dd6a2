//! Protobuf messages for the dataset, derived by hand with `prost::Message`
//! (no protoc), in both shapes: floats as `float` fields, and the integer
//! twin with `sint32` for signed steps. The `.proto` each mirrors is in the
//! comment above it. Conversion happens before timing: a protobuf user
//! holds these types.

use crate::dataset::{Entity, PlayerInput, Snapshot};
use crate::quantized::{EntityQ, PlayerInputQ, SnapshotQ};

/// `message Entity { uint32 id = 1; uint32 kind = 2; float px = 3; ... optional uint32 target = 18; }`
#[derive(Clone, PartialEq, prost::Message)]
pub struct PbEntity {
    #[prost(uint32, tag = "1")]
    pub id: u32,
    #[prost(uint32, tag = "2")]
    pub kind: u32,
    #[prost(float, tag = "3")]
    pub px: f32,
    #[prost(float, tag = "4")]
    pub py: f32,
    #[prost(float, tag = "5")]
    pub pz: f32,
    #[prost(float, tag = "6")]
    pub vx: f32,
    #[prost(float, tag = "7")]
    pub vy: f32,
    #[prost(float, tag = "8")]
    pub vz: f32,
    #[prost(float, tag = "9")]
    pub yaw: f32,
    #[prost(uint32, tag = "10")]
    pub health: u32,
    #[prost(uint32, tag = "11")]
    pub armor: u32,
    #[prost(bool, tag = "12")]
    pub on_ground: bool,
    #[prost(bool, tag = "13")]
    pub crouching: bool,
    #[prost(bool, tag = "14")]
    pub firing: bool,
    #[prost(bool, tag = "15")]
    pub reloading: bool,
    #[prost(bool, tag = "16")]
    pub invisible: bool,
    #[prost(uint32, optional, tag = "17")]
    pub target: Option<u32>,
}

/// `message Snapshot { uint32 tick = 1; repeated Entity entities = 2; }`
#[derive(Clone, PartialEq, prost::Message)]
pub struct PbSnapshot {
    #[prost(uint32, tag = "1")]
    pub tick: u32,
    #[prost(message, repeated, tag = "2")]
    pub entities: Vec<PbEntity>,
}

/// The integer twin: `sint32` steps, flags in one `uint32`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct PbEntityQ {
    #[prost(uint32, tag = "1")]
    pub id: u32,
    #[prost(uint32, tag = "2")]
    pub kind: u32,
    #[prost(sint32, tag = "3")]
    pub px: i32,
    #[prost(sint32, tag = "4")]
    pub py: i32,
    #[prost(sint32, tag = "5")]
    pub pz: i32,
    #[prost(sint32, tag = "6")]
    pub vx: i32,
    #[prost(sint32, tag = "7")]
    pub vy: i32,
    #[prost(sint32, tag = "8")]
    pub vz: i32,
    #[prost(uint32, tag = "9")]
    pub yaw: u32,
    #[prost(uint32, tag = "10")]
    pub health: u32,
    #[prost(uint32, tag = "11")]
    pub armor: u32,
    #[prost(uint32, tag = "12")]
    pub flags: u32,
    #[prost(uint32, optional, tag = "13")]
    pub target: Option<u32>,
}

/// `message SnapshotQ { uint32 tick = 1; repeated EntityQ entities = 2; }`
#[derive(Clone, PartialEq, prost::Message)]
pub struct PbSnapshotQ {
    #[prost(uint32, tag = "1")]
    pub tick: u32,
    #[prost(message, repeated, tag = "2")]
    pub entities: Vec<PbEntityQ>,
}

/// `message PlayerInput { uint32 tick = 1; uint32 buttons = 2; float move_x = 3; ... }`
#[derive(Clone, PartialEq, prost::Message)]
pub struct PbInput {
    #[prost(uint32, tag = "1")]
    pub tick: u32,
    #[prost(uint32, tag = "2")]
    pub buttons: u32,
    #[prost(float, tag = "3")]
    pub move_x: f32,
    #[prost(float, tag = "4")]
    pub move_y: f32,
    #[prost(float, tag = "5")]
    pub aim_yaw: f32,
    #[prost(float, tag = "6")]
    pub aim_pitch: f32,
    #[prost(uint32, tag = "7")]
    pub weapon: u32,
    #[prost(uint32, tag = "8")]
    pub sequence: u32,
}

/// The integer twin of [`PbInput`].
#[derive(Clone, PartialEq, prost::Message)]
pub struct PbInputQ {
    #[prost(uint32, tag = "1")]
    pub tick: u32,
    #[prost(uint32, tag = "2")]
    pub buttons: u32,
    #[prost(sint32, tag = "3")]
    pub move_x: i32,
    #[prost(sint32, tag = "4")]
    pub move_y: i32,
    #[prost(sint32, tag = "5")]
    pub aim_yaw: i32,
    #[prost(sint32, tag = "6")]
    pub aim_pitch: i32,
    #[prost(uint32, tag = "7")]
    pub weapon: u32,
    #[prost(uint32, tag = "8")]
    pub sequence: u32,
}

impl From<&Entity> for PbEntity {
    fn from(e: &Entity) -> Self {
        PbEntity {
            id: u32::from(e.id),
            kind: u32::from(e.kind.index()),
            px: e.position[0],
            py: e.position[1],
            pz: e.position[2],
            vx: e.velocity[0],
            vy: e.velocity[1],
            vz: e.velocity[2],
            yaw: e.yaw,
            health: u32::from(e.health),
            armor: u32::from(e.armor),
            on_ground: e.flags.on_ground,
            crouching: e.flags.crouching,
            firing: e.flags.firing,
            reloading: e.flags.reloading,
            invisible: e.flags.invisible,
            target: e.target.map(u32::from),
        }
    }
}

impl From<&Snapshot> for PbSnapshot {
    fn from(s: &Snapshot) -> Self {
        PbSnapshot { tick: s.tick, entities: s.entities.iter().map(PbEntity::from).collect() }
    }
}

impl From<&EntityQ> for PbEntityQ {
    fn from(e: &EntityQ) -> Self {
        PbEntityQ {
            id: u32::from(e.id),
            kind: u32::from(e.kind),
            px: e.position[0],
            py: e.position[1],
            pz: e.position[2],
            vx: i32::from(e.velocity[0]),
            vy: i32::from(e.velocity[1]),
            vz: i32::from(e.velocity[2]),
            yaw: u32::from(e.yaw),
            health: u32::from(e.health),
            armor: u32::from(e.armor),
            flags: u32::from(e.flags),
            target: e.target.map(u32::from),
        }
    }
}

impl From<&SnapshotQ> for PbSnapshotQ {
    fn from(s: &SnapshotQ) -> Self {
        PbSnapshotQ { tick: s.tick, entities: s.entities.iter().map(PbEntityQ::from).collect() }
    }
}

impl From<&PlayerInput> for PbInput {
    fn from(i: &PlayerInput) -> Self {
        PbInput {
            tick: i.tick,
            buttons: u32::from(i.buttons),
            move_x: i.move_x,
            move_y: i.move_y,
            aim_yaw: i.aim_yaw,
            aim_pitch: i.aim_pitch,
            weapon: u32::from(i.weapon),
            sequence: u32::from(i.sequence),
        }
    }
}

impl From<&PlayerInputQ> for PbInputQ {
    fn from(i: &PlayerInputQ) -> Self {
        PbInputQ {
            tick: i.tick,
            buttons: u32::from(i.buttons),
            move_x: i32::from(i.move_x),
            move_y: i32::from(i.move_y),
            aim_yaw: i32::from(i.aim_yaw),
            aim_pitch: i32::from(i.aim_pitch),
            weapon: u32::from(i.weapon),
            sequence: u32::from(i.sequence),
        }
    }
}
