//! The arena: players walking, turning, jumping, firing, chatting, taking damage, dying and
//! respawning; projectiles flying and expiring; NPCs wandering, dying and being replaced.
//! Every random choice comes from one seeded [`Rng`], so a seed always gives the same ticks.

use std::collections::BTreeMap;
use std::f32::consts::{PI, TAU};

use glam::{EulerRot, Quat, Vec3};

use crate::rng::Rng;
use crate::world::{Action, MAX_HEALTH, Mob, MobKind, Player, World};

/// Ticks per second.
pub const TICK_RATE: u32 = 30;
const DT: f32 = 1.0 / TICK_RATE as f32;
/// Players and mobs stay within this distance of the centre on x and z.
const WALL: f32 = 500.0;
/// Dead players come back after this many ticks.
const RESPAWN_TICKS: i32 = 90;
const GRAVITY: f32 = -15.0;
const PROJECTILE_SPEED: f32 = 25.0;

const CHAT_LINES: [&str; 10] = [
    "gg",
    "behind you!",
    "need healing at the east gate",
    "who keeps camping the bridge?",
    "push mid on three",
    "nice shot",
    "lag?",
    "regroup at spawn",
    "one left, low health",
    "that NPC hits hard",
];

/// How big the arena is.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Players in the arena (at most [`crate::world::MAX_PLAYERS`]).
    pub players: u32,
    /// Projectiles and NPCs together (a quarter may be projectiles).
    pub mobs: u32,
    /// The seed of every random choice.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config { players: 64, mobs: 256, seed: 1 }
    }
}

/// What the server knows of a player beyond what it sends.
#[derive(Clone, Debug)]
struct PlayerBrain {
    yaw: f32,
    pitch: f32,
    turn_rate: f32,
    speed: f32,
    vertical_speed: f32,
    action_ticks: u32,
    respawn_at: Option<i32>,
}

/// What the server knows of a mob beyond what it sends.
#[derive(Clone, Debug)]
struct MobBrain {
    velocity: Vec3,
    turn_rate: f32,
    walking: bool,
    until: i32,
}

/// The server's simulation.
#[derive(Clone, Debug)]
pub struct Arena {
    config: Config,
    rng: Rng,
    world: World,
    players: BTreeMap<u32, PlayerBrain>,
    mobs: BTreeMap<u32, MobBrain>,
    next_mob_id: u32,
}

fn wrap_angle(angle: f32) -> f32 {
    let wrapped = angle - TAU * (angle / TAU).round();
    wrapped.clamp(-PI, PI)
}

fn heading(yaw: f32) -> Vec3 {
    Quat::from_rotation_y(yaw) * Vec3::NEG_Z
}

fn orientation(yaw: f32, pitch: f32) -> Quat {
    Quat::from_euler(EulerRot::YXZ, yaw, pitch, 0.0)
}

impl Arena {
    /// The arena at tick 0: every player spawned, three quarters of the mobs as NPCs.
    pub fn new(config: Config) -> Self {
        let mut arena = Arena {
            config,
            rng: Rng::new(config.seed),
            world: World::default(),
            players: BTreeMap::new(),
            mobs: BTreeMap::new(),
            next_mob_id: 0,
        };
        for id in 0..config.players {
            let yaw = arena.rng.range(-PI, PI);
            let brain = PlayerBrain {
                yaw,
                pitch: 0.0,
                turn_rate: 0.0,
                speed: 5.0,
                vertical_speed: 0.0,
                action_ticks: 0,
                respawn_at: None,
            };
            arena.players.insert(id, brain);
            arena.spawn_player(id);
        }
        for _ in 0..arena.npc_target() {
            arena.spawn_npc();
        }
        arena
    }

    /// The state the server replicates.
    pub fn world(&self) -> &World {
        &self.world
    }

    fn npc_target(&self) -> u32 {
        self.config.mobs - self.config.mobs / 4
    }

    fn random_ground(&mut self) -> Vec3 {
        Vec3::new(self.rng.range(-WALL, WALL), 0.0, self.rng.range(-WALL, WALL))
    }

    fn spawn_player(&mut self, id: u32) {
        let position = self.random_ground();
        let brain = self.players.get_mut(&id).expect("every player has a brain");
        brain.respawn_at = None;
        brain.vertical_speed = 0.0;
        brain.action_ticks = 0;
        let player = Player {
            position,
            orientation: orientation(brain.yaw, brain.pitch),
            health: MAX_HEALTH,
            action: Action::Idle,
        };
        self.world.players.insert(id, player);
    }

    fn spawn_npc(&mut self) {
        let id = self.next_mob_id;
        self.next_mob_id += 1;
        let position = self.random_ground();
        let yaw = self.rng.range(-PI, PI);
        let health = 40 + self.rng.below(u32::from(MAX_HEALTH) - 39) as u8;
        let mob = Mob { kind: MobKind::Npc, position, yaw, health };
        let until = self.world.tick + 30 + self.rng.below(150) as i32;
        let brain = MobBrain { velocity: Vec3::ZERO, turn_rate: 0.0, walking: false, until };
        self.world.mobs.insert(id, mob);
        self.mobs.insert(id, brain);
    }

    fn fire(&mut self, from: Vec3, yaw: f32) {
        let id = self.next_mob_id;
        self.next_mob_id += 1;
        let position = from + Vec3::Y * 1.5;
        let velocity = heading(yaw) * PROJECTILE_SPEED;
        let until = self.world.tick + 30 + self.rng.below(30) as i32;
        let mob = Mob { kind: MobKind::Projectile, position, yaw: wrap_angle(yaw), health: 1 };
        let brain = MobBrain { velocity, turn_rate: 0.0, walking: true, until };
        self.world.mobs.insert(id, mob);
        self.mobs.insert(id, brain);
    }

    /// One tick of the game.
    pub fn step(&mut self) {
        self.world.tick += 1;
        let tick = self.world.tick;
        let ids: Vec<u32> = self.players.keys().copied().collect();
        for id in ids {
            self.step_player(id, tick);
        }
        self.step_mobs(tick);
        if self.rng.chance(1.0 / 40.0) {
            self.chat();
        }
    }

    fn step_player(&mut self, id: u32, tick: i32) {
        let brain = self.players.get_mut(&id).expect("every player has a brain");
        if let Some(at) = brain.respawn_at {
            if at <= tick {
                self.spawn_player(id);
            }
            return;
        }
        let rng = &mut self.rng;
        let player = self.world.players.get_mut(&id).expect("a live player is in the world");
        // Walk, stop now and then, turn and look up and down smoothly.
        if rng.chance(1.0 / 60.0) {
            brain.speed = if brain.speed > 0.0 { 0.0 } else { rng.range(3.0, 7.0) };
        }
        if brain.speed > 0.0 {
            brain.turn_rate = (brain.turn_rate + rng.range(-0.4, 0.4)).clamp(-2.0, 2.0);
            brain.yaw = wrap_angle(brain.yaw + brain.turn_rate * DT);
            brain.pitch = (brain.pitch + rng.range(-0.02, 0.02)).clamp(-0.5, 0.5);
            let mut position = player.position + heading(brain.yaw) * brain.speed * DT;
            if position.x.abs() > WALL {
                position.x = position.x.clamp(-WALL, WALL);
                brain.yaw = wrap_angle(-brain.yaw);
            }
            if position.z.abs() > WALL {
                position.z = position.z.clamp(-WALL, WALL);
                brain.yaw = wrap_angle(PI - brain.yaw);
            }
            player.position = position;
            player.orientation = orientation(brain.yaw, brain.pitch);
        }
        // Jump.
        if player.position.y == 0.0 && rng.chance(1.0 / 90.0) {
            brain.vertical_speed = 5.0;
        }
        if brain.vertical_speed != 0.0 || player.position.y > 0.0 {
            brain.vertical_speed += GRAVITY * DT;
            player.position.y += brain.vertical_speed * DT;
            if player.position.y <= 0.0 {
                player.position.y = 0.0;
                brain.vertical_speed = 0.0;
            }
        }
        // Fire, chat (see `chat`) and go back to idle.
        if brain.action_ticks > 0 {
            brain.action_ticks -= 1;
            if brain.action_ticks == 0 {
                player.action = Action::Idle;
            }
        }
        let fired = player.action == Action::Idle && rng.chance(1.0 / 25.0);
        if fired {
            player.action = Action::Firing;
            brain.action_ticks = 6;
        }
        // Hits and healing.
        if rng.chance(1.0 / 40.0) {
            player.health = player.health.saturating_sub(5 + rng.below(26) as u8);
        } else if tick % 15 == 0 && player.health < MAX_HEALTH {
            player.health += 1;
        }
        let (position, yaw, dead) = (player.position, brain.yaw, player.health == 0);
        if dead {
            brain.respawn_at = Some(tick + RESPAWN_TICKS);
            self.world.players.remove(&id);
        } else if fired && self.projectiles() < self.config.mobs - self.npc_target() {
            self.fire(position, yaw);
        }
    }

    fn projectiles(&self) -> u32 {
        self.world.mobs.values().filter(|mob| mob.kind == MobKind::Projectile).count() as u32
    }

    fn step_mobs(&mut self, tick: i32) {
        let mut gone = Vec::new();
        for (&id, brain) in self.mobs.iter_mut() {
            let mob = self.world.mobs.get_mut(&id).expect("every brain has its mob");
            let rng = &mut self.rng;
            match mob.kind {
                MobKind::Projectile => {
                    let position = mob.position + brain.velocity * DT;
                    mob.position = position;
                    if tick >= brain.until || position.x.abs() > WALL || position.z.abs() > WALL {
                        gone.push(id);
                    }
                }
                MobKind::Npc => {
                    if tick >= brain.until {
                        brain.walking = !brain.walking;
                        brain.until = tick + 30 + rng.below(150) as i32;
                    }
                    if brain.walking {
                        brain.turn_rate = (brain.turn_rate + rng.range(-0.3, 0.3)).clamp(-1.0, 1.0);
                        mob.yaw = wrap_angle(mob.yaw + brain.turn_rate * DT);
                        let step = heading(mob.yaw) * 1.5 * DT;
                        mob.position = (mob.position + step).clamp(Vec3::splat(-WALL), Vec3::splat(WALL));
                    }
                    if rng.chance(1.0 / 300.0) {
                        mob.health = mob.health.saturating_sub(10 + rng.below(41) as u8);
                        if mob.health == 0 {
                            gone.push(id);
                        }
                    }
                }
            }
        }
        for id in gone {
            self.world.mobs.remove(&id);
            self.mobs.remove(&id);
        }
        let npcs = self.world.mobs.len() as u32 - self.projectiles();
        for _ in npcs..self.npc_target() {
            self.spawn_npc();
        }
    }

    fn chat(&mut self) {
        let alive: Vec<u32> = self.world.players.keys().copied().collect();
        if alive.is_empty() {
            return;
        }
        let id = alive[self.rng.below(alive.len() as u32) as usize];
        let line = CHAT_LINES[self.rng.below(CHAT_LINES.len() as u32) as usize];
        let brain = self.players.get_mut(&id).expect("every player has a brain");
        brain.action_ticks = 60;
        let player = self.world.players.get_mut(&id).expect("an alive player is in the world");
        player.action = Action::Chat { text: line.to_owned() };
    }
}
