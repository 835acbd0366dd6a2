//! Whether a client's world is the server's within the resolutions the world declares.

use crate::world::{ARENA, MAX_YAW, MOBS, Mob, PLAYERS, POSITION_RES, Player, ROTATION_BITS, World, YAW_RES};
use bitpack::smallest_three;
use bitpack::sync::Entry;

/// How far a decoded coordinate may be from the server's: half a step, plus f32 rounding at
/// the arena's edge.
fn position_tolerance() -> f32 {
    POSITION_RES / 2.0 + ARENA * f32::EPSILON * 2.0
}

fn yaw_tolerance() -> f32 {
    YAW_RES / 2.0 + MAX_YAW * f32::EPSILON * 2.0
}

/// The worst rotation (radians) the smallest-three coding of [`ROTATION_BITS`] promises, plus
/// f32 rounding.
fn rotation_tolerance() -> f64 {
    smallest_three::max_angle_error(ROTATION_BITS) + 1e-5
}

fn close(client: glam::Vec3, server: glam::Vec3) -> bool {
    (client - server).abs().max_element() <= position_tolerance()
}

/// The angle (radians) between two rotations.
pub fn angle_between(a: glam::Quat, b: glam::Quat) -> f64 {
    let dot = a.as_dquat().dot(b.as_dquat()).abs().min(1.0);
    2.0 * dot.acos()
}

fn player_mismatch(client: &Player, server: &Player) -> Option<&'static str> {
    if !close(client.position, server.position) {
        Some("position")
    } else if angle_between(client.orientation, server.orientation) > rotation_tolerance() {
        Some("orientation")
    } else if client.health != server.health {
        Some("health")
    } else if client.action != server.action {
        Some("action")
    } else {
        None
    }
}

fn mob_mismatch(client: &Mob, server: &Mob) -> Option<&'static str> {
    if client.kind != server.kind {
        Some("kind")
    } else if !close(client.position, server.position) {
        Some("position")
    } else if (client.yaw - server.yaw).abs() > yaw_tolerance() {
        Some("yaw")
    } else if client.health != server.health {
        Some("health")
    } else {
        None
    }
}

/// `Ok` if `client` holds the same tick, the same players and mobs by id, each field within
/// its declared resolution of `server`'s (exact where nothing is quantized); else what differs.
pub fn check(client: &World, server: &World) -> Result<(), String> {
    if client.tick != server.tick {
        return Err(format!("tick {} for {}", client.tick, server.tick));
    }
    if !client.players.keys().eq(server.players.keys()) {
        return Err(format!("tick {}: other players", server.tick));
    }
    if !client.mobs.keys().eq(server.mobs.keys()) {
        return Err(format!("tick {}: other mobs", server.tick));
    }
    for ((id, c), s) in client.players.iter().zip(server.players.values()) {
        if let Some(field) = player_mismatch(c, s) {
            return Err(format!("tick {}: player {id}'s {field}", server.tick));
        }
    }
    for ((id, c), s) in client.mobs.iter().zip(server.mobs.values()) {
        if let Some(field) = mob_mismatch(c, s) {
            return Err(format!("tick {}: mob {id}'s {field}", server.tick));
        }
    }
    Ok(())
}

/// `Ok` if `client`'s `entry` (a player or a mob) is `server`'s within the declared
/// resolutions; else what differs, or which world does not hold it.
pub fn check_entity(client: &World, server: &World, entry: Entry) -> Result<(), String> {
    let key = u32::try_from(entry.key).map_err(|_| format!("{entry:?} is not a u32 key"))?;
    let tick = server.tick;
    let missing = |whose: &str, what: &str| format!("tick {tick}: {whose} holds no {what} {key}");
    let field = match entry.collection {
        PLAYERS => {
            let c = client.players.get(&key).ok_or_else(|| missing("the client", "player"))?;
            let s = server.players.get(&key).ok_or_else(|| missing("the server", "player"))?;
            player_mismatch(c, s).map(|field| format!("player {key}'s {field}"))
        }
        MOBS => {
            let c = client.mobs.get(&key).ok_or_else(|| missing("the client", "mob"))?;
            let s = server.mobs.get(&key).ok_or_else(|| missing("the server", "mob"))?;
            mob_mismatch(c, s).map(|field| format!("mob {key}'s {field}"))
        }
        other => return Err(format!("no collection {other}")),
    };
    field.map_or(Ok(()), |field| Err(format!("tick {tick}: {field}")))
}
