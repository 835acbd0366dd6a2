//! `#[quantize(bits = N)]` on a quaternion: what the derive calls beside
//! [`crate::smallest_three`]'s `write`/`read` (and `write_relative`/
//! `read_relative` for `#[bitpack(relative)]` in deltas): the compile-time
//! check, the fingerprint, and the leaves of a fused run.

use super::message::Message;
use super::schema;
use crate::smallest_three::{self, Code, Component, MAX_COMPONENT_BITS, MIN_COMPONENT_BITS, Quaternion};

/// Why `#[quantize(bits = N)]` is refused, if it is (checked at compile time).
pub const fn smallest_three_problem(component_bits: u32) -> Option<Message> {
    if component_bits >= MIN_COMPONENT_BITS && component_bits <= MAX_COMPONENT_BITS {
        return None;
    }
    Some(
        Message::new()
            .text("quantize: a quaternion takes `bits` from ")
            .unsigned(MIN_COMPONENT_BITS as u128)
            .text(" to ")
            .unsigned(MAX_COMPONENT_BITS as u128)
            .text(" per component, not ")
            .unsigned(component_bits as u128),
    )
}

/// The fingerprint of a quaternion `Q` at `component_bits`: an `f32` and an
/// `f64` one differ (their readers accept different bits), glam's and
/// mint's and an array's of one component type are the same.
pub const fn smallest_three_schema<Q: Quaternion>(component_bits: u32) -> u64 {
    schema::node(schema::SMALLEST_THREE, &[<Q::Scalar as Component>::KIND, component_bits as u64])
}

/// The widths of a quaternion's leaves in a fused run: the largest's index,
/// then the three components.
pub const fn smallest_three_widths(component_bits: u32) -> [u32; 4] {
    [2, component_bits, component_bits, component_bits]
}

/// What `smallest_three::write` puts on the wire for `value`, as the four
/// leaves of [`smallest_three_widths`]; clears `valid` when it would refuse
/// the value.
#[inline(always)]
pub fn smallest_three_run_bits<Q: Quaternion>(value: &Q, component_bits: u32, valid: &mut bool) -> [u64; 4] {
    match smallest_three::code_of(value, component_bits, 0) {
        Ok(Code { largest, parts }) => {
            [u64::from(largest), u64::from(parts[0]), u64::from(parts[1]), u64::from(parts[2])]
        }
        Err(_) => {
            *valid = false;
            [0; 4]
        }
    }
}

/// The quaternion of a fused run's four leaves; clears `valid` when
/// `smallest_three::read` would refuse the same bits.
#[inline(always)]
pub fn smallest_three_run_value<Q: Quaternion>(leaves: [u64; 4], component_bits: u32, valid: &mut bool) -> Q {
    let narrow = |leaf: u64| u32::try_from(leaf).unwrap_or(u32::MAX);
    let code =
        Code { largest: narrow(leaves[0]), parts: [narrow(leaves[1]), narrow(leaves[2]), narrow(leaves[3])] };
    match smallest_three::value_of(code, component_bits, 0) {
        Ok(value) => value,
        _ => {
            *valid = false;
            Q::from_xyzw([<Q::Scalar as Component>::from_f64(0.0); 4])
        }
    }
}
