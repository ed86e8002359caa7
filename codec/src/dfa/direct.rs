//! The direct decoding table: one row of 256 entries per state, indexed by the
//! unit itself, for automata that have no expanded table ([`super::expanded`]).
//!
//! The expanded table places every payload at its final position in advance,
//! which needs each state to know how many payload bits are still to come.
//! Many codecs' states do not: a continuation bit (the varints), payload
//! groups least significant first (LEB128, little-endian UTF-16), several
//! start states (WTF-8, modified UTF-8). Their walk through the
//! class-compressed table reads the unit's class, then the entry, then the
//! transition's place word, before it can shift. The direct table folds all of
//! that into one entry per state and unit, so a step is one read and two
//! shifts (one where no transition places its payload):
//!
//! ```text
//! e = DIRECT[state + unit];   state = NEXT[state + unit];
//! v = (v << shift(e)) | (payload(e) << place(e))
//! ```
//!
//! The table is a [`super::Rows`] whose `values` are the entries; the next
//! state also has an array of its own there, but the walk reads the next row
//! from the entry (its low 16 bits): one load and one bounds check a unit
//! instead of two of each, which with two walks in lockstep and too few
//! registers for both tables' bases and lengths measured faster than the
//! shorter chain (HPACK's 5-bit prefix, printable6 and WTF-8 into wide
//! units, 5-17 %), though the chain from one unit to the next is then a
//! load, a mask and an addition. Entry layout (`u64`):
//! - bits 0–15: the next state's row, `id × 256` (dead = 0, start = 256);
//! - bits 16–21: the bias index added when the entry completes a sequence;
//! - bits 22–27: how far the value read so far moves up (the unit's payload
//!   bits, or the place word's shift, [`super::PLACE_SHIFT`]);
//! - bits 28–33: where the unit's payload goes (0, or the place word's place);
//! - bits 34–41: the unit's payload (its digit, masked to the payload bits).
//!
//! The compiler builds it for automata without an expanded table, digit
//! radices or loops, with at most [`MAX_STATES`] states (3 KiB each: 1 KiB of next rows, 2 KiB of entries) and
//! [`MAX_BIASES`] biases; [`super::Dfa::new`] checks every entry against the
//! class-compressed table ([`entry_of`]).
//!
//! ```
//! use placemat_codec::dfa::direct;
//! // From the start state (row 256), a unit with 6 payload bits 0x2A that
//! // leads to state 3 and places nothing.
//! let e = direct::entry(3, 0, 6, 0, 0x2A);
//! assert_eq!(e & direct::NEXT_MASK, 3 * 256);
//! assert_eq!(direct::join(0b1, e), 0b1_101010);
//! ```

use super::{Parts, BIAS_SHIFT, BITS_SHIFT, PLACE_SHIFT, STATE_MASK};

/// Width of a row: one entry per unit.
pub const ROW: usize = 256;
/// Mask of the next-row field of an entry.
pub const NEXT_MASK: u64 = 0xFFFF;
/// Shift of the bias-index field.
pub const BIAS_AT: u32 = 16;
/// Shift of the field saying how far the value read so far moves up.
pub const SHIFT_AT: u32 = 22;
/// Shift of the field saying where the unit's payload goes.
pub const PLACE_AT: u32 = 28;
/// Shift of the unit's payload.
pub const PAYLOAD_AT: u32 = 34;
/// Most states a direct table holds (96 KiB).
pub const MAX_STATES: usize = 32;
/// Most biases a direct table can index.
pub const MAX_BIASES: usize = 64;

/// The entry of a transition to state `next` (not premultiplied) with bias
/// index `bias`, moving the value read so far up by `shift` bits and adding
/// `payload` at bit `place`.
pub const fn entry(next: usize, bias: usize, shift: u32, place: u32, payload: u8) -> u64 {
    (next * ROW) as u64
        | (bias as u64) << BIAS_AT
        | ((shift & 63) as u64) << SHIFT_AT
        | ((place & 63) as u64) << PLACE_AT
        | (payload as u64) << PAYLOAD_AT
}

/// The value after a unit whose entry is `e`, from the value `v` read before.
#[inline(always)]
pub const fn join(v: u64, e: u64) -> u64 {
    (v << ((e >> SHIFT_AT) & 63)) | ((e >> PAYLOAD_AT) & 0xFF) << ((e >> PLACE_AT) & 63)
}

/// The entry for state `s` (not premultiplied) and unit `u`, from the
/// class-compressed table of `p` (rows of `stride` entries).
pub const fn entry_of(p: &Parts<'_>, stride: usize, s: usize, u: usize) -> u64 {
    let at = s * stride + p.table.classes[u] as usize;
    let e = p.table.transitions[at];
    let bits = (e >> BITS_SHIFT) & 0xF;
    let payload = (p.table.digits[u] as u32 & ((1u32 << bits) - 1)) as u8;
    let (shift, place) = match p.places() {
        Some(places) => (((places[at] >> PLACE_SHIFT) & 63) as u32, (places[at] & 63) as u32),
        None => (bits, 0),
    };
    entry((e & STATE_MASK) as usize / stride, (e >> BIAS_SHIFT) as usize, shift, place, payload)
}
