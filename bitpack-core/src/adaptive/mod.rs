//! Adaptive integers: values without a known range, sent as a short length
//! prefix plus only their significant bits.
//!
//! # Wire format (LSB-first, like every other encoding here)
//!
//! **One value.** An integer type of `W` bits (8, 16, 32, 64 or 128; `usize`
//! and `isize` count as 64) has a length prefix of `P` bits (3, 4, 5, 6 or
//! 7), so that `2^P - 1 == W - 1`. A value goes on the wire as an unsigned
//! magnitude `m` (see *Sign* below) with `n` significant bits:
//!
//! | `n`            | bits, in stream order                         | total       |
//! |----------------|-----------------------------------------------|-------------|
//! | `0` (`m == 0`) | prefix `0`                                    | `P`         |
//! | `1..=W-2`      | prefix `n`, then the low `n - 1` bits of `m`  | `P + n - 1` |
//! | `W-1` or `W`   | prefix `W - 1` (the escape), one bit `n - (W - 1)`, then the low `n - 1` bits of `m` | `P + n` |
//!
//! The leading 1 of `m` is implied by `n` and never sent. The escape is
//! needed because `n` takes `W + 1` values and the prefix holds `W`; it
//! costs one bit, and only for the two longest lengths. Every value of every
//! type has exactly one encoding, `MIN` and `MAX` included.
//!
//! **Sign.** A message whose type holds adaptive signed values (nested ones
//! included) starts with one bit: 1 when any of them is negative. With 0,
//! signed values are sent as their plain (non-negative) value and no sign is
//! spent; with 1, every signed value is zig-zag coded (`0, -1, 1, -2` become
//! `0, 1, 2, 3`). Unsigned values never change. A message whose type holds
//! no adaptive signed value spends no bit. [`Signs`] is that mode; the
//! [`SignScope`] trait passes it down to nested types, and
//! [`write_scope`]/[`read_scope`] are the message entry points.
//!
//! **Shared length.** A group of `k > 0` values of one type (an array, a
//! `Vec`, a 3-vector) starts with one mode bit. With 0, each value follows
//! in the single-value form. With 1, one width `w` (the largest `n` of the
//! group) follows in the single-value prefix form (prefix `w`, or the escape
//! and one bit), then every magnitude in exactly `w` bits. The writer
//! computes both sizes exactly and takes shared width only when strictly
//! shorter. An empty group writes nothing. A `Vec` ([`write_adaptive_vec`])
//! first sends its length as `int(len, 0, max_len)`, as every `Vec` does.
//!
//! **Fixed point.** A float without a range, [`write_fixed`]`(x, res)`, is the
//! `i64` `round(x / res)` (half away from zero) as an adaptive signed value.
//! A NaN or infinite `x` is an `Err` (`NonFiniteFloat`); a quotient outside
//! `i64`, or a result that would read back as infinite, is an `Err`
//! (`OutOfRange`): never a wrap.
//!
//! # Decoding hostile input
//!
//! Readers check that a value's bits, or a group's or `Vec`'s minimum size,
//! fit in the bits that remain before reading or allocating; a length is
//! refused above its declared maximum, and a `Vec` whose `count *
//! size_of::<T>()` (at least 16 bytes) is past the reader's allocation
//! budget (zeros sharing a width of 0 take no bits, so only the budget
//! bounds them). Readers refuse
//! what no writer produces (`NonCanonical`): a message's sign bit set with
//! no negative value, a group sent per value where the shared width is
//! strictly shorter, or with a shared width that is not strictly shorter or
//! not its widest value's. A failed read leaves the reader where it was, and
//! the error names the bit where the read began.
//!
//! ```
//! # extern crate bitpack_core as bitpack;
//! use bitpack::adaptive::{read_adaptive, write_adaptive, Signs};
//! use bitpack::{BitCounter, BitRead, BitReader, BitWrite, BitWriter};
//!
//! let mut counter = BitCounter::new();
//! write_adaptive(&mut counter, 25i32, Signs::NonNegative)?;
//! assert_eq!(counter.bits_written(), 5 + 4); // prefix 5, then 11001 without its top 1
//!
//! let mut buf = [0u8; 2];
//! let mut writer = BitWriter::new(&mut buf);
//! write_adaptive(&mut writer, 25i32, Signs::NonNegative)?;
//! writer.finish()?;
//! let mut reader = BitReader::new(&buf);
//! assert_eq!(read_adaptive::<i32>(&mut reader, Signs::NonNegative)?, 25);
//! # Ok::<(), bitpack::Error>(())
//! ```

mod fixed;
mod group;
mod int;
mod sign_scope;
mod value;

pub use fixed::{
    FIXED_F32_MAX_STEPS, FIXED_MAX_STEPS, fixed_point, fixed_point_is_negative, read_fixed, read_fixed_f32,
    write_fixed, write_fixed_f32,
};
#[cfg(feature = "alloc")]
pub use group::read_adaptive_vec;
pub use group::{
    adaptive_group_bits, adaptive_group_max_bits, adaptive_vec_max_bits, read_adaptive_group,
    write_adaptive_group, write_adaptive_vec,
};
pub use int::{AdaptiveInt, Signs};
pub use sign_scope::{SignScope, any_negative, read_scope, write_scope};
pub use value::{adaptive_bits, read_adaptive, write_adaptive};
