//! The expanded decoding table: one row of 256 entries per state, indexed by the
//! unit itself, each entry holding the unit's payload already shifted into place.
//!
//! The class-compressed table (the module docs of [`super`]) is small, but a step
//! through it reads the unit's class, then the entry, then shifts the value by the
//! entry's payload count and masks the unit. When every state knows how many
//! payload bits are still to come before its sequence ends (true of every codec
//! whose first unit fixes the length, which is every bounded codec in this
//! project), a unit's payload can be placed at its final position in advance, and
//! a step is one read and one `or`:
//!
//! ```text
//! e = EXPANDED[state + unit];   state = e & 0xFFFF;   v |= e >> 22
//! ```
//!
//! Entry layout (`u64`):
//! - bits 0–15: the next state's row, `id × 256` (dead = 0, start = 256);
//! - bits 16–21: the bias index added when the entry completes a sequence;
//! - bits 22–63: the unit's payload bits, shifted left by the payload bits that
//!   follow it in its sequence.
//!
//! The table exists when the automaton has at most 256 states and 64 biases, no
//! loop other than through the start state, the same number of payload bits still
//! to come on every path out of each state, and at most 42 payload bits per
//! sequence. It costs `2 KiB` per state (18 KiB for strict UTF-8), so generated
//! codecs compute it at compile time into a `static`, and only the table decoder
//! reads it.
//!
//! ```
//! use placemat_codec::dfa::expanded;
//! use placemat_codec::dfa::Dfa;
//! // The two-state ASCII automaton of the `dfa` module docs.
//! let mut classes = [1u8; 256];
//! classes[..0x80].fill(0);
//! let digits = core::array::from_fn(|b| b as u8);
//! let trans = [0, 0, 2 | (7 << 16), 0];
//! let table = expanded::table_vec(&classes, &digits, &trans).unwrap();
//! assert_eq!(table.len(), 2 * 256);
//! assert_eq!(table[256 + 0x41], 256 | (0x41 << 22)); // 'A': back to start, value 0x41
//! assert_eq!(table[256 + 0x80], 0); // dead
//! ```

use alloc::vec::Vec;

use super::{BIAS_SHIFT, BITS_SHIFT, STATE_MASK};

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

/// The stride (class count) of a class map.
const fn stride_of(classes: &[u8; 256]) -> usize {
    let mut stride = 0;
    let mut u = 0;
    while u < 256 {
        if classes[u] as usize + 1 > stride {
            stride = classes[u] as usize + 1;
        }
        u += 1;
    }
    stride
}

/// For every state, the payload bits still to come before the sequence ends
/// (`rem[start] = 0`), or `None` when the table has no expanded form (see the
/// module docs). `trans` must satisfy the invariants of [`super::check_tables`].
pub const fn remaining_bits(classes: &[u8; 256], trans: &[u32]) -> Option<[u8; MAX_STATES]> {
    let stride = stride_of(classes);
    let n = trans.len() / stride;
    if n > MAX_STATES || n < 2 {
        return None;
    }
    const UNKNOWN: u16 = u16::MAX;
    let mut rem = [UNKNOWN; MAX_STATES];
    rem[0] = 0;
    rem[1] = 0;
    // Relax until nothing changes: without loops, n passes settle every state.
    let mut pass = 0;
    let mut changed = true;
    while changed && pass <= n {
        changed = false;
        let mut s = 2;
        while s < n {
            let mut c = 0;
            while c < stride {
                let e = trans[s * stride + c];
                let next = (e & STATE_MASK) as usize / stride;
                let bits = ((e >> BITS_SHIFT) & 0xF) as u16;
                let after = if next == 1 { 0 } else { rem[next] };
                if next != 0 && after != UNKNOWN {
                    let total = bits + after;
                    if rem[s] == UNKNOWN {
                        rem[s] = total;
                        changed = true;
                    } else if rem[s] != total {
                        return None;
                    }
                }
                c += 1;
            }
            s += 1;
        }
        pass += 1;
    }
    // Every state settled, every path agrees, and no sequence is too long.
    let mut out = [0u8; MAX_STATES];
    let mut s = 0;
    while s < n {
        if rem[s] == UNKNOWN || rem[s] as u32 > MAX_PAYLOAD {
            return None;
        }
        let mut c = 0;
        while c < stride {
            let e = trans[s * stride + c];
            let next = (e & STATE_MASK) as usize / stride;
            let bits = ((e >> BITS_SHIFT) & 0xF) as u16;
            if next != 0 {
                let after = if next == 1 { 0 } else { rem[next] };
                if after == UNKNOWN || (bits + after) as u32 > MAX_PAYLOAD || (s > 1 && rem[s] != bits + after) {
                    return None;
                }
            }
            c += 1;
        }
        out[s] = rem[s] as u8;
        s += 1;
    }
    Some(out)
}

/// The expanded entry of state `s` (not premultiplied) and unit `u`.
const fn entry(
    classes: &[u8; 256],
    digits: &[u8; 256],
    trans: &[u32],
    rem: &[u8; MAX_STATES],
    s: usize,
    u: usize,
) -> u64 {
    let stride = stride_of(classes);
    let e = trans[s * stride + classes[u] as usize];
    let next = (e & STATE_MASK) as usize / stride;
    if next == 0 {
        return 0;
    }
    let bits = (e >> BITS_SHIFT) & 0xF;
    let bias = (e >> BIAS_SHIFT) as u64;
    let payload = digits[u] as u64 & ((1u64 << bits) - 1);
    let after = if next == 1 { 0 } else { rem[next] as u32 };
    (next * ROW) as u64 | (bias << BIAS_AT) | ((payload << after) << PAYLOAD_AT)
}

/// The expanded table, computed at compile time into a `static` by generated
/// codecs (`N` = states × 256). Panics (a compile error in a `const`) if the
/// tables have no expanded form.
pub const fn table<const N: usize>(classes: &[u8; 256], digits: &[u8; 256], trans: &[u32]) -> [u64; N] {
    let rem = match remaining_bits(classes, trans) {
        Some(r) => r,
        None => panic!("these tables have no expanded form"),
    };
    assert!(N == trans.len() / stride_of(classes) * ROW, "wrong expanded table length");
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = entry(classes, digits, trans, &rem, i / ROW, i % ROW);
        i += 1;
    }
    out
}

/// The expanded table in owned storage, or `None` when the tables have none.
pub fn table_vec(classes: &[u8; 256], digits: &[u8; 256], trans: &[u32]) -> Option<Vec<u64>> {
    let rem = remaining_bits(classes, trans)?;
    let n = trans.len() / stride_of(classes);
    Some((0..n * ROW).map(|i| entry(classes, digits, trans, &rem, i / ROW, i % ROW)).collect())
}

/// Whether `table` is the expanded form of the tables (usable in `const`).
pub const fn matches(classes: &[u8; 256], digits: &[u8; 256], trans: &[u32], table: &[u64]) -> bool {
    let rem = match remaining_bits(classes, trans) {
        Some(r) => r,
        None => return false,
    };
    if table.len() != trans.len() / stride_of(classes) * ROW {
        return false;
    }
    let mut i = 0;
    while i < table.len() {
        if table[i] != entry(classes, digits, trans, &rem, i / ROW, i % ROW) {
            return false;
        }
        i += 1;
    }
    true
}
