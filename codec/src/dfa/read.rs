//! Reading the packed table: unit sets, the class count, next states and
//! the sameness of two transitions, shared by the derivation of the facts
//! (`facts`), the checks (`check`), the sync units of wide code units
//! (`unit_sync`) and the walkers' cuts (`lockstep`).

use super::{Parts, STATE_MASK};

/// Whether unit `u` is in the unit set `set` (bit `u % 64` of word `u / 64`).
pub(super) const fn has(set: &[u64; 4], u: usize) -> bool {
    set[u / 64] >> (u % 64) & 1 == 1
}

/// The next state (not premultiplied) of state `s` on class `c`.
pub(super) const fn next(p: &Parts<'_>, stride: usize, s: usize, c: usize) -> usize {
    (p.table.transitions[s * stride + c] & STATE_MASK) as usize / stride
}

/// The number of unit classes: one more than the largest.
pub(super) const fn stride(classes: &[u8; 256]) -> usize {
    let mut max = 0;
    let mut u = 0;
    while u < 256 {
        if classes[u] > max {
            max = classes[u];
        }
        u += 1;
    }
    max as usize + 1
}

/// Whether start state `s` takes class `c` as the start of context 0 does:
/// the same entry, and the same place or radix.
pub(super) const fn same_transition(p: &Parts<'_>, stride: usize, s: usize, c: usize) -> bool {
    same_entry(p, s * stride + c, stride + c)
}

/// Whether the transitions at `a` and `b` are one: entry, and place or radix.
pub(super) const fn same_entry(p: &Parts<'_>, a: usize, b: usize) -> bool {
    let words_agree = match p.words() {
        Some(w) => w[a] == w[b],
        None => true,
    };
    p.table.transitions[a] == p.table.transitions[b] && words_agree
}
