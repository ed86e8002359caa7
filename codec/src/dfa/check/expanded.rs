//! The check of the expanded table ([`crate::dfa::expanded`]) and of its
//! certificate, `remaining`: the weight (modulo 2^64) that the payload read
//! before each state gets by the end of its sequence.
//!
//! A weight of 0 is allowed in two kinds of state, told apart by whether any
//! transition into the state carries payload:
//! - *fresh*: none does, and every transition into it comes from the start or
//!   another fresh state, so nothing has been read there (CESU-8's state after
//!   the literal `ED`); its outgoing paths need not agree on a weight;
//! - *null*: the weight really is 0 modulo 2^64 (Perl's 13-byte form, where the
//!   payload of the units after `FF` would weigh 2^66 and more); its outgoing
//!   transitions agree with 0 like any other state's.
//!
//! Every other state's weight is its outgoing transitions' multiplier times
//! the weight after them, so along any path the weights of the units after the
//! last fresh state are their true weights, and the units before it carry no
//! payload.

use super::super::{expanded, Decoding, Parts, BIAS_SHIFT, BITS_SHIFT, DEAD, STATE_MASK};

/// The expanded table: both arrays one row per state, the certificate one
/// weight per state (1 for dead and start), and every entry the transition's
/// next row and its payload times the weight after it, plus the bias where it
/// completes a sequence.
pub(super) const fn expanded_table(p: &Parts<'_>, stride: usize) -> bool {
    let n = p.table.transitions.len() / stride;
    let (table, rem) = match p.decoding {
        Decoding::Expanded { .. } if p.table.contexts != 1 => return false,
        Decoding::Expanded { rows, remaining } => (rows, remaining),
        _ => return true,
    };
    let len = n * expanded::ROW;
    if n > expanded::MAX_STATES || rem.len() != n || table.next.len() != len || table.values.len() != len {
        return false;
    }
    if rem[0] != 1 || rem[1] != 1 {
        return false;
    }
    let paid = paid(p, stride, n);
    let mut i = 0;
    while i < len {
        match entry(p, stride, rem, &paid, i / expanded::ROW, i % expanded::ROW) {
            Some((next, placed)) if next == table.next[i] && placed == table.values[i] => i += 1,
            _ => return false,
        }
    }
    true
}

/// The states some transition carrying payload leads to.
const fn paid(p: &Parts<'_>, stride: usize, n: usize) -> [bool; expanded::MAX_STATES] {
    let mut paid = [false; expanded::MAX_STATES];
    let mut at = stride;
    while at < n * stride {
        let e = p.table.transitions[at];
        let t = (e & STATE_MASK) as usize / stride;
        if t != DEAD && (e >> BITS_SHIFT) & 0xF != 0 {
            paid[t] = true;
        }
        at += 1;
    }
    paid
}

/// The expanded entry of state `s` and unit `u` under the weights `rem`, or
/// `None` if the weights disagree with the transition.
const fn entry(
    p: &Parts<'_>,
    stride: usize,
    rem: &[u64],
    paid: &[bool; expanded::MAX_STATES],
    s: usize,
    u: usize,
) -> Option<(u32, u64)> {
    let at = s * stride + p.table.classes[u] as usize;
    let e = p.table.transitions[at];
    let t = (e & STATE_MASK) as usize / stride;
    if t == DEAD || s == DEAD {
        return Some((0, 0));
    }
    if fresh(rem, paid, t) && s >= 2 && !fresh(rem, paid, s) {
        return None;
    }
    let (bits, after) = ((e >> BITS_SHIFT) & 0xF, rem[t]);
    if s >= 2 && !fresh(rem, paid, s) && super::multiplier(p, at, e).wrapping_mul(after) != rem[s] {
        return None;
    }
    // A sequence ends at the start state (one context: checked above).
    let bias = match (t, (e >> BIAS_SHIFT) as usize) {
        (1, b) if b < p.table.biases.len() => p.table.biases[b],
        (1, _) => return None,
        _ => 0,
    };
    let payload = p.table.digits[u] as u64 & ((1u64 << bits) - 1);
    Some(((t * expanded::ROW) as u32, payload.wrapping_mul(after).wrapping_add(bias)))
}

/// Whether state `x` is fresh (the module docs).
const fn fresh(rem: &[u64], paid: &[bool; expanded::MAX_STATES], x: usize) -> bool {
    x >= 2 && rem[x] == 0 && !paid[x]
}
