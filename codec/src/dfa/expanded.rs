//! The expanded decoding table: one row of 256 entries per state, indexed by the
//! unit itself, each entry holding the unit's payload already shifted into place
//! (for digit units, the digit times the weight of the digits after it,
//! `digit × radix^k`).
//!
//! The class-compressed table (the module docs of [`super`]) is small, but a step
//! through it reads the unit's class, then the entry, then shifts the value by the
//! entry's payload count and masks the unit. When every state knows how many
//! payload bits are still to come before its sequence ends (true of every codec
//! whose first unit fixes the length, which is every bounded codec in this
//! project), a unit's payload can be placed at its final position in advance, and
//! a step is one read and one addition:
//!
//! ```text
//! e = EXPANDED[state + unit];   state = e & 0xFFFF;   v += e >> 22
//! ```
//!
//! Entry layout (`u64`):
//! - bits 0–15: the next state's row, `id × 256` (dead = 0, start = 256);
//! - bits 16–21: the bias index added when the entry completes a sequence;
//! - bits 22–63: the unit's payload bits, shifted left by the payload bits that
//!   follow it in its sequence (or multiplied by the radices of the digits that
//!   follow it).
//!
//! The table exists when the automaton has at most 256 states and 64 biases, no
//! loop other than through the start state, the same weight still to come on
//! every path out of each state, and every entry's payload below 2^42. It costs `2 KiB` per state (18 KiB for strict UTF-8). The compiler
//! computes it (generated codecs hold it in a `static`); [`super::Dfa::new`]
//! checks every entry against the class-compressed table.
//!
//! ```
//! use placemat_codec::dfa::expanded;
//! // From state 1 (the start), unit 'A' goes back to the start with payload 0x41.
//! let e = expanded::entry(1, 0, 0x41);
//! assert_eq!(e & expanded::NEXT_MASK, expanded::ROW as u64);
//! assert_eq!(e >> expanded::PAYLOAD_AT, 0x41);
//! ```

/// Width of a row: one entry per unit.
pub const ROW: usize = 256;
/// Mask of the next-row field of an entry.
pub const NEXT_MASK: u64 = 0xFFFF;
/// Shift of the bias-index field of an entry.
pub const BIAS_AT: u32 = 16;
/// Shift of the placed payload of an entry.
pub const PAYLOAD_AT: u32 = 22;
/// Most states an expanded table can hold.
pub const MAX_STATES: usize = 256;
/// Most biases an expanded table can index.
pub const MAX_BIASES: usize = 64;
/// Most payload bits of one sequence.
pub const MAX_PAYLOAD: u32 = 64 - PAYLOAD_AT;

/// The entry of a transition to state `next` (not premultiplied) with bias
/// index `bias` and the unit's payload already shifted to its place.
pub const fn entry(next: usize, bias: u64, placed: u64) -> u64 {
    (next * ROW) as u64 | (bias << BIAS_AT) | (placed << PAYLOAD_AT)
}
