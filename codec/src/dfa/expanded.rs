//! The expanded decoding table: one row of 256 entries per state, indexed by the
//! unit itself, each entry holding the unit's payload already shifted into place
//! (for digit units, the digit times the weight of the digits after it,
//! `digit × radix^k`).
//!
//! The class-compressed table (the module docs of [`super`]) is small, but a step
//! through it reads the unit's class, then the entry, then shifts the value by the
//! entry's payload count and masks the unit. When every state knows how many
//! payload bits are still to come before its sequence ends (true of every codec
//! whose first unit fixes the length), or has read no payload yet (CESU-8's
//! state after the literal `ED` that begins both a three-unit sequence and a
//! surrogate pair: its `remaining` weight is 0), a unit's payload can be placed at its final position in advance, and
//! a step is one read and one addition:
//!
//! ```text
//! e = EXPANDED[state + unit];   state = e & 0xFFFF;   v += (e as i64 >> 16) as u64
//! ```
//!
//! Entry layout (`u64`):
//! - bits 0–15: the next state's row, `id × 256` (dead = 0, start = 256);
//! - bits 16–63, a signed number: the unit's payload bits, shifted left by the
//!   payload bits that follow it in its sequence (or multiplied by the radices
//!   of the digits that follow it), plus, where the entry completes a sequence,
//!   the sequence's bias (which may be negative: UTF-1's forms subtract what
//!   their leads add), so the walk adds no bias of its own. Values are
//!   computed modulo 2^64.
//!
//! The table exists when the automaton has at most 256 states, no loop other
//! than through the start state, the same weight still to come on every path
//! out of each state that has read payload, and every entry's placed payload
//! (with its bias) within the field: below 2^47, or a negative number above
//! −2^47. It costs `2 KiB` per state (18 KiB for strict UTF-8). The compiler
//! computes it (generated codecs hold it in a `static`); [`super::Dfa::new`]
//! checks every entry against the class-compressed table.
//!
//! ```
//! use placemat_codec::dfa::expanded;
//! // From state 1 (the start), unit 'A' goes back to the start with payload 0x41.
//! let e = expanded::entry(1, 0x41);
//! assert_eq!(e & expanded::NEXT_MASK, expanded::ROW as u64);
//! assert_eq!(expanded::placed(e), 0x41);
//! // A bias of −0x100 on a completing unit is stored as a negative number.
//! let e = expanded::entry(1, 0x41u64.wrapping_sub(0x100));
//! assert_eq!(expanded::placed(e).wrapping_add(0x100), 0x41);
//! assert!(!expanded::fits(1 << 47) && expanded::fits(0u64.wrapping_sub(1 << 47)));
//! ```

/// Width of a row: one entry per unit.
pub const ROW: usize = 256;
/// Mask of the next-row field of an entry.
pub const NEXT_MASK: u64 = 0xFFFF;
/// Shift of the placed payload of an entry.
pub const PAYLOAD_AT: u32 = 16;
/// Most states an expanded table can hold.
pub const MAX_STATES: usize = 256;
/// Most payload bits of one sequence: the field is signed.
pub const MAX_PAYLOAD: u32 = 63 - PAYLOAD_AT;

/// The entry of a transition to state `next` (not premultiplied) with the
/// unit's payload already shifted to its place (and, if the transition
/// completes a sequence, the bias added, modulo 2^64), which must [`fits`].
pub const fn entry(next: usize, placed: u64) -> u64 {
    (next * ROW) as u64 | (placed << PAYLOAD_AT)
}

/// Whether `value`, read as a signed number, fits an entry's field.
pub const fn fits(value: u64) -> bool {
    placed(value << PAYLOAD_AT) == value
}

/// The placed payload of entry `e`, to be added modulo 2^64.
#[inline(always)]
pub const fn placed(e: u64) -> u64 {
    ((e as i64) >> PAYLOAD_AT) as u64
}
