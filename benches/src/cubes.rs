//! Issue 12's proof on Glenn Fiedler's snapshot-compression scene: 901
//! cubes at 60 Hz, each sent as a rotation, a position and an at-rest flag.
//!
//! - [`CubeState`]: the uncompressed cube, every field raw: 321 bits.
//! - [`Cube`]: the cube, derived: smallest three at 9 bits, the
//!   position bounded per axis at 1/512 m, the flag: 80 bits. Its fields are
//!   one change group, the rotation and position coded relative to the
//!   baseline, so in a delta a cube that did not change costs one bit.
//! - [`simulate`]: a deterministic scene of our own, 10 s at 60 Hz: every
//!   cube dropped from up to 8 m, falling, bouncing and settling flat on
//!   the ground; the player's cube rolling in circles; now and then a cube
//!   kicked up and spinning, settling again.
//! - [`delta_stream`]: each frame as a delta against the frame before (what
//!   the receiver decoded of it), checked to decode to what the frame's
//!   snapshot decodes to.

use bitpack::{BitPack, BitReader, BitWrite, BitWriter, ChangeGroups, Error};
use glam::{Quat, Vec3};

use crate::rng::SplitMix64;

/// Cubes in the scene: a 30 x 30 grid and the player's.
pub const CUBES: usize = 901;
/// Snapshots a second.
pub const HZ: usize = 60;
/// Ten seconds.
pub const FRAMES: usize = 10 * HZ;
/// IPv4 (20 bytes) and UDP (8 bytes) headers per packet, as the published
/// Mbps count them.
pub const HEADER_BYTES: usize = 28;

pub const RES: f32 = 1.0 / 512.0;
pub const Z_MAX: f32 = 32.0 - RES;

/// The demo's cube state as sent uncompressed: every field raw.
#[derive(BitPack, Debug, Clone, PartialEq)]
pub struct CubeState {
    pub interacting: bool,
    pub position: Vec3,
    pub linear_velocity: Vec3,
    pub orientation: Quat,
}

/// The cube, its fields one change group coded against the
/// baseline in deltas: whole, it is the same 80 bits.
#[derive(BitPack, Debug, Clone, PartialEq)]
pub struct Cube {
    #[change_group(moved)]
    #[bitpack(relative)]
    #[quantize(bits = 9)]
    pub orientation: Quat,
    #[change_group(moved)]
    #[bitpack(relative)]
    #[quantize(min = [-256.0, -256.0, 0.0], max = [255.0, 255.0, Z_MAX], res = RES)]
    pub position: Vec3,
    #[change_group(moved)]
    pub at_rest: bool,
}

/// A cube's physical state.
#[derive(Debug, Clone)]
struct Body {
    position: Vec3,
    velocity: Vec3,
    orientation: Quat,
    /// Angular velocity, radians a second about each axis.
    spin: Vec3,
    at_rest: bool,
}

const GRAVITY: f32 = 9.81;
/// Half a cube's side: the height of its centre at rest.
const HALF: f32 = 0.5;
const RESTITUTION: f32 = 0.45;
/// Kept of the horizontal speed and the spin per frame on the ground.
const FRICTION: f32 = 0.85;
const SPIN_KEPT: f32 = 0.8;
/// Slower than this on the ground, a cube comes to rest.
const REST_SPEED: f32 = 0.3;
const REST_SPIN: f32 = 0.5;
/// One cube in this many is kicked each frame, on average.
const KICK_ODDS: u64 = 3000;
/// The player's cube rolls in a circle of this radius, this fast.
const PLAYER_RADIUS: f32 = 24.0;
const PLAYER_SPEED: f32 = 6.0;

impl Body {
    fn cube(&self) -> Cube {
        Cube { orientation: self.orientation, position: self.position, at_rest: self.at_rest }
    }

    fn state(&self) -> CubeState {
        CubeState {
            interacting: !self.at_rest,
            position: self.position,
            linear_velocity: self.velocity,
            orientation: self.orientation,
        }
    }

    fn kick(&mut self, rng: &mut SplitMix64) {
        self.velocity +=
            Vec3::new(rng.range_f32(-4.0, 4.0), rng.range_f32(-4.0, 4.0), rng.range_f32(3.0, 8.0));
        self.spin += Vec3::new(rng.range_f32(-8.0, 8.0), rng.range_f32(-8.0, 8.0), rng.range_f32(-4.0, 4.0));
        self.at_rest = false;
    }

    fn step(&mut self, dt: f32) {
        if self.at_rest {
            return;
        }
        self.velocity.z -= GRAVITY * dt;
        self.position += self.velocity * dt;
        self.orientation = (Quat::from_scaled_axis(self.spin * dt) * self.orientation).normalize();
        // Walls inside the quantized box, and a ceiling under 32 m.
        for (axis, (low, high)) in [(0, (-250.0, 250.0)), (1, (-250.0, 250.0))] {
            if self.position[axis] < low || self.position[axis] > high {
                self.position[axis] = self.position[axis].clamp(low, high);
                self.velocity[axis] = -self.velocity[axis] * RESTITUTION;
            }
        }
        self.position.z = self.position.z.min(30.0);
        if self.position.z > HALF {
            return;
        }
        self.position.z = HALF;
        if self.velocity.z < 0.0 {
            self.velocity.z = -self.velocity.z * RESTITUTION;
        }
        self.velocity.x *= FRICTION;
        self.velocity.y *= FRICTION;
        self.spin *= SPIN_KEPT;
        if self.velocity.length() < REST_SPEED && self.spin.length() < REST_SPIN {
            // Flat on a face, keeping its heading.
            let forward = self.orientation * Vec3::X;
            self.orientation = Quat::from_rotation_z(forward.y.atan2(forward.x));
            self.velocity = Vec3::ZERO;
            self.spin = Vec3::ZERO;
            self.at_rest = true;
        }
    }
}

/// The scene, frame by frame: [`FRAMES`] + 1 frames (the first is the drop),
/// each the state of every body.
fn scene(seed: u64) -> Vec<Vec<Body>> {
    let mut rng = SplitMix64::new(seed);
    let mut bodies: Vec<Body> = (0..CUBES)
        .map(|index| {
            let (row, column) = ((index % 900 / 30) as f32, (index % 30) as f32);
            Body {
                position: Vec3::new(column * 3.0 - 45.0, row * 3.0 - 45.0, rng.range_f32(HALF, 8.0)),
                velocity: Vec3::ZERO,
                orientation: Quat::from_euler(
                    glam::EulerRot::XYZ,
                    rng.range_f32(-3.0, 3.0),
                    rng.range_f32(-3.0, 3.0),
                    rng.range_f32(-3.0, 3.0),
                ),
                spin: Vec3::new(rng.range_f32(-2.0, 2.0), rng.range_f32(-2.0, 2.0), 0.0),
                at_rest: false,
            }
        })
        .collect();
    let dt = 1.0 / HZ as f32;
    let mut frames = vec![bodies.clone()];
    for frame in 1..=FRAMES {
        let time = frame as f32 * dt;
        // The player's cube: rolling along its circle, never at rest.
        let angle = time * PLAYER_SPEED / PLAYER_RADIUS;
        let player = &mut bodies[CUBES - 1];
        player.position = Vec3::new(PLAYER_RADIUS * angle.cos(), PLAYER_RADIUS * angle.sin(), HALF);
        player.orientation = Quat::from_rotation_z(angle) * Quat::from_rotation_x(time * PLAYER_SPEED / HALF);
        player.at_rest = false;
        for body in &mut bodies[..CUBES - 1] {
            if rng.below(KICK_ODDS) == 0 {
                body.kick(&mut rng);
            }
            body.step(dt);
        }
        frames.push(bodies.clone());
    }
    frames
}

/// The scene as the cubes, frame by frame.
pub fn simulate(seed: u64) -> Vec<Vec<Cube>> {
    scene(seed).iter().map(|bodies| bodies.iter().map(Body::cube).collect()).collect()
}

/// The scene as uncompressed cube states, frame by frame.
pub fn simulate_states(seed: u64) -> Vec<Vec<CubeState>> {
    scene(seed).iter().map(|bodies| bodies.iter().map(Body::state).collect()).collect()
}

/// Bytes of one packet of `bits` of payload.
pub fn packet_bytes(bits: usize) -> usize {
    bits.div_ceil(8)
}

/// Megabits a second for packets of `bytes` at 60 Hz, the IPv4 and UDP
/// headers included.
pub fn mbps(bytes: f64) -> f64 {
    (bytes + HEADER_BYTES as f64) * 8.0 * HZ as f64 / 1e6
}

/// A frame's snapshot: every cube whole, one after the other.
pub fn write_snapshot<T: BitPack>(cubes: &[T], buf: &mut [u8]) -> Result<usize, Error> {
    let mut writer = BitWriter::new(buf);
    for cube in cubes {
        cube.write_to(&mut writer)?;
    }
    writer.finish()
}

/// Reads a snapshot of `count` cubes.
pub fn read_snapshot(bytes: &[u8], count: usize) -> Result<Vec<Cube>, Error> {
    let mut reader = BitReader::new(bytes);
    (0..count).map(|_| Cube::read_from(&mut reader)).collect()
}

/// A frame as a delta against `baseline`: every cube's `write_delta`. The
/// bits written, and the bytes used.
pub fn write_delta(cubes: &[Cube], baseline: &[Cube], buf: &mut [u8]) -> Result<(usize, usize), Error> {
    let mut writer = BitWriter::new(buf);
    for (cube, then) in cubes.iter().zip(baseline) {
        cube.write_delta(then, &mut writer)?;
    }
    let bits = writer.bits_written();
    Ok((bits, writer.finish()?))
}

/// Reads a delta against `baseline`.
pub fn read_delta(bytes: &[u8], baseline: &[Cube]) -> Result<Vec<Cube>, Error> {
    let mut reader = BitReader::new(bytes);
    baseline.iter().map(|then| Cube::read_delta(then, &mut reader)).collect()
}

/// One frame of the delta stream.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeltaFrame {
    /// Payload bits of the delta.
    pub bits: usize,
    /// Cubes whose group was sent (changed against the baseline).
    pub changed: usize,
    /// Cubes at rest.
    pub at_rest: usize,
}

/// Every frame after the first as a delta against the frame before as the
/// receiver decoded it; each checked to decode to what that frame's whole
/// snapshot decodes to.
pub fn delta_stream(frames: &[Vec<Cube>]) -> Result<Vec<DeltaFrame>, Error> {
    let mut buf = vec![0u8; CUBES * Cube::MAX_BITS.div_ceil(8) + 16];
    let used = write_snapshot(&frames[0], &mut buf)?;
    let mut baseline = read_snapshot(&buf[..used], CUBES)?;
    let mut stream = Vec::with_capacity(frames.len());
    let mut whole = vec![0u8; buf.len()];
    for cubes in &frames[1..] {
        let (bits, used) = write_delta(cubes, &baseline, &mut buf)?;
        let decoded = read_delta(&buf[..used], &baseline)?;
        let whole_used = write_snapshot(cubes, &mut whole)?;
        if decoded != read_snapshot(&whole[..whole_used], CUBES)? {
            return Err(Error::new(bitpack::ErrorKind::InvalidDeclaration, 0));
        }
        let changed = decoded.iter().zip(&baseline).filter(|(now, then)| now != then).count();
        let at_rest = cubes.iter().filter(|cube| cube.at_rest).count();
        stream.push(DeltaFrame { bits, changed, at_rest });
        baseline = decoded;
    }
    Ok(stream)
}

/// Mean payload bits per cube over `frames`.
pub fn bits_per_cube(frames: &[DeltaFrame]) -> f64 {
    frames.iter().map(|frame| frame.bits).sum::<usize>() as f64 / (frames.len() * CUBES) as f64
}

/// Mean bytes per packet over `frames`.
pub fn bytes_per_packet(frames: &[DeltaFrame]) -> f64 {
    frames.iter().map(|frame| packet_bytes(frame.bits)).sum::<usize>() as f64 / frames.len() as f64
}
