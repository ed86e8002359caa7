//! The check of the sync units of a codec whose code units are wider than a
//! byte ([`crate::dfa::Facts::sync_lane`]).
//!
//! A walk over UTF-16 reads bytes, and any byte may be the low byte of some
//! code unit, so no byte is rejected by every state but the start: by the
//! byte-unit rule UTF-16 has no sync unit, and its text would be read by one
//! walk. But the walks start at a code-unit boundary, so a cut is only ever
//! looked for at one, and there only the states a walk can be in between code
//! units matter: the start, and the state after a high surrogate, which
//! rejects every code unit but a low surrogate. So for a codec of `w`-byte
//! units the sync units are bytes at one place of a code unit, its *lane*: byte
//! `b` is one when every code unit whose byte at the lane is `b` is rejected by
//! every state, other than the start, that a walk can be in at a code-unit
//! boundary. (UTF-16LE: the bytes other than `DC`–`DF` at lane 1; UTF-32,
//! where every code unit is a whole sequence: every byte.)
//!
//! Only automata of at most [`MAX_STATES`] states have such sync units (the
//! compiler derives none for larger ones), so that the check, which
//! recomputes the set at the claimed lane from the class-compressed table
//! with sets of states as bitsets, costs at most a few million steps whatever
//! the table.

use super::{has, next, Parts};

use crate::dfa::MAX_UNIT_SYNC_STATES as MAX_STATES;

/// Words of a set of states.
const WORDS: usize = MAX_STATES / 64;

/// A set of states.
type States = [u64; WORDS];

const fn contains(set: &States, s: usize) -> bool {
    set[s / 64] >> (s % 64) & 1 == 1
}

const fn insert(set: &mut States, s: usize) {
    set[s / 64] |= 1 << (s % 64);
}

/// The states one unit (of any class) leads `from` to.
const fn step(p: &Parts<'_>, stride: usize, n: usize, from: &States) -> States {
    let mut to = [0; WORDS];
    let mut s = 0;
    while s < n {
        if contains(from, s) {
            let mut c = 0;
            while c < stride {
                insert(&mut to, next(p, stride, s, c));
                c += 1;
            }
        }
        s += 1;
    }
    to
}

/// The states a walk can be in at a code-unit boundary, but the start:
/// those `w`-unit steps reach from the start, again and again.
const fn between_units(p: &Parts<'_>, stride: usize, n: usize, w: usize) -> States {
    let mut seen = [0; WORDS];
    insert(&mut seen, 1);
    loop {
        let mut reached = seen;
        let mut k = 0;
        while k < w {
            reached = step(p, stride, n, &reached);
            k += 1;
        }
        let mut grew = false;
        let mut i = 0;
        while i < WORDS {
            grew |= reached[i] & !seen[i] != 0;
            seen[i] |= reached[i];
            i += 1;
        }
        if !grew {
            break;
        }
    }
    seen[0] &= !(1 << 1);
    seen
}

/// The states from which every `k` units lead to the dead state.
const fn doomed(p: &Parts<'_>, stride: usize, n: usize, k: usize) -> States {
    let mut dead = [0; WORDS];
    insert(&mut dead, 0);
    let mut round = 0;
    while round < k {
        let mut next_dead = [0; WORDS];
        let mut s = 0;
        while s < n {
            let mut all = true;
            let mut c = 0;
            while c < stride {
                all &= contains(&dead, next(p, stride, s, c));
                c += 1;
            }
            if all {
                insert(&mut next_dead, s);
            }
            s += 1;
        }
        dead = next_dead;
        round += 1;
    }
    dead
}

/// Whether the sync units and lane of a codec of units wider than a byte are
/// exactly those of the module docs (none with several contexts, whose start
/// states would have to agree on every code unit, nor with more than
/// [`MAX_STATES`] states).
pub(super) const fn holds(p: &Parts<'_>, stride: usize) -> bool {
    let (w, lane) = (p.facts.unit_bytes as usize, p.facts.sync_lane as usize);
    if lane >= w {
        return false;
    }
    let n = p.transitions.len() / stride;
    let mut ok = [true; 256];
    if p.facts.contexts > 1 || n > MAX_STATES {
        ok = [false; 256];
    } else {
        let mut at_lane = between_units(p, stride, n, w);
        let mut k = 0;
        while k < lane {
            at_lane = step(p, stride, n, &at_lane);
            k += 1;
        }
        let dies = doomed(p, stride, n, w - 1 - lane);
        let mut s = 0;
        while s < n {
            if contains(&at_lane, s) {
                let mut c = 0;
                while c < stride {
                    ok[c] &= contains(&dies, next(p, stride, s, c));
                    c += 1;
                }
            }
            s += 1;
        }
    }
    let mut u = 0;
    while u < 256 {
        if has(&p.facts.sync_units, u) != ok[p.classes[u] as usize] {
            return false;
        }
        u += 1;
    }
    true
}
