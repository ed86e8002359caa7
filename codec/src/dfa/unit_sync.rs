//! The sync units of a codec whose code units are wider than a byte
//! ([`Facts::sync_lane`](super::Facts::sync_lane)): one definition, which the
//! compiler calls to derive the fact and [`super::Dfa::new`] to check it.
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
//! Only automata of one context and at most
//! [`MAX_UNIT_SYNC_STATES`](super::MAX_UNIT_SYNC_STATES) states have such
//! sync units, so that the set, computed from the class-compressed table with
//! sets of states as bitsets, costs at most a few million steps whatever the
//! table.
//!
//! ```
//! use placemat_codec::dfa::wide_sync_units;
//! // UCS-2 as one class of code units in one state (state 0 is the dead state,
//! // state 1 the start, which every unit leads back to; two bytes per unit).
//! let (classes, transitions) = ([0u8; 256], [0, 1]);
//! assert_eq!(wide_sync_units(&classes, &transitions, 2, 1, 0), [u64::MAX; 4]);
//! assert_eq!(wide_sync_units(&classes, &transitions, 2, 1, 2), [0; 4]); // no such place
//! ```

use super::read::{has, stride};
use super::{MAX_UNIT_SYNC_STATES as MAX_STATES, STATE_MASK};

/// Words of a set of states (or of units: both sets are the check's
/// `[u64; 4]`, whose test `has` serves them).
const WORDS: usize = MAX_STATES / 64;

/// A set of states.
type States = [u64; WORDS];

const fn insert(set: &mut States, s: usize) {
    set[s / 64] |= 1 << (s % 64);
}

/// The class-compressed transitions: `n` states of `stride` classes.
#[derive(Copy, Clone)]
struct Table<'a> {
    transitions: &'a [u32],
    stride: usize,
    n: usize,
}

impl Table<'_> {
    /// The next state (not premultiplied) of state `s` on class `c`.
    const fn next(&self, s: usize, c: usize) -> usize {
        (self.transitions[s * self.stride + c] & STATE_MASK) as usize / self.stride
    }

    /// Whether every entry names a state of the table by its premultiplied id.
    const fn well_formed(&self) -> bool {
        let mut i = 0;
        while i < self.transitions.len() {
            let to = (self.transitions[i] & STATE_MASK) as usize;
            if !to.is_multiple_of(self.stride) || to / self.stride >= self.n {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The states one unit (of any class) leads `from` to.
    const fn step(&self, from: &States) -> States {
        let mut to = [0; WORDS];
        let mut s = 0;
        while s < self.n {
            if has(from, s) {
                let mut c = 0;
                while c < self.stride {
                    insert(&mut to, self.next(s, c));
                    c += 1;
                }
            }
            s += 1;
        }
        to
    }

    /// The states a walk can be in at a boundary of `w`-byte code units, but
    /// the start: those `w`-unit steps reach from the start, again and again.
    const fn between_units(&self, w: usize) -> States {
        let mut seen = [0; WORDS];
        insert(&mut seen, 1);
        loop {
            let mut reached = seen;
            let mut k = 0;
            while k < w {
                reached = self.step(&reached);
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
    const fn doomed(&self, k: usize) -> States {
        let mut dead = [0; WORDS];
        insert(&mut dead, 0);
        let mut round = 0;
        while round < k {
            let mut next_dead = [0; WORDS];
            let mut s = 0;
            while s < self.n {
                let mut all = true;
                let mut c = 0;
                while c < self.stride {
                    all &= has(&dead, self.next(s, c));
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

    /// Per class, whether a code unit whose byte at `lane` is of that class
    /// is rejected by every state between code units but the start.
    const fn sync_classes(&self, w: usize, lane: usize) -> [bool; 256] {
        let mut at_lane = self.between_units(w);
        let mut k = 0;
        while k < lane {
            at_lane = self.step(&at_lane);
            k += 1;
        }
        let dies = self.doomed(w - 1 - lane);
        let mut ok = [true; 256];
        let mut s = 0;
        while s < self.n {
            if has(&at_lane, s) {
                let mut c = 0;
                while c < self.stride {
                    ok[c] &= has(&dies, self.next(s, c));
                    c += 1;
                }
            }
            s += 1;
        }
        ok
    }
}

/// The sync units at place `lane` of a code unit of `unit_bytes` bytes (bit
/// `b % 64` of word `b / 64` for byte `b`), of the automaton whose unit
/// classes are `classes` and whose class-compressed transitions (next states
/// premultiplied by the number of classes, in the low bits under
/// [`STATE_MASK`]; state 0 dead, state 1 the start) are `transitions`, as the
/// module docs define them.
///
/// Empty when there are none by definition: for byte units, for a lane past
/// the code unit, for several contexts (`contexts > 1`) or more than
/// [`MAX_UNIT_SYNC_STATES`](super::MAX_UNIT_SYNC_STATES) states; and for tables that are not of that form.
pub const fn wide_sync_units(
    classes: &[u8; 256],
    transitions: &[u32],
    unit_bytes: u8,
    contexts: u8,
    lane: u8,
) -> [u64; 4] {
    let (w, lane) = (unit_bytes as usize, lane as usize);
    let stride = stride(classes);
    let table = Table { transitions, stride, n: transitions.len() / stride };
    let shaped = transitions.len().is_multiple_of(stride) && table.n >= 2 && table.n <= MAX_STATES;
    if w <= 1 || lane >= w || contexts > 1 || !shaped || !table.well_formed() {
        return [0; 4];
    }
    let ok = table.sync_classes(w, lane);
    let mut set = [0; WORDS];
    let mut u = 0;
    while u < 256 {
        if ok[classes[u] as usize] {
            insert(&mut set, u);
        }
        u += 1;
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two-byte code units of two classes: class 0 a whole sequence, class 1
    /// (bytes `80`–`FF` at the high byte's place) a first half that only a
    /// class-0 unit completes, as UTF-16's surrogates in miniature. States:
    /// 0 dead, 1 start, 2 after a low byte, 3 after a first half, 4 after
    /// the low byte of the second half. Premultiplied by the 2 classes.
    fn pairs() -> ([u8; 256], [u32; 10]) {
        let classes = core::array::from_fn(|b| u8::from(b >= 0x80));
        let transitions = [0, 0, 4, 4, 2, 6, 8, 8, 2, 0];
        (classes, transitions)
    }

    #[test]
    fn the_high_place_marks_the_units_a_first_half_rejects() {
        let (classes, transitions) = pairs();
        // Between code units: the start and state 3 (after a first half),
        // which takes any low byte, then only a class-0 high byte.
        assert_eq!(wide_sync_units(&classes, &transitions, 2, 1, 1), [0, 0, u64::MAX, u64::MAX]);
        // At the low byte's place nothing is rejected by state 3.
        assert_eq!(wide_sync_units(&classes, &transitions, 2, 1, 0), [0; 4]);
    }

    #[test]
    fn no_sync_units_where_the_definition_gives_none() {
        let (classes, transitions) = pairs();
        assert_eq!(wide_sync_units(&classes, &transitions, 1, 1, 0), [0; 4], "byte units");
        assert_eq!(wide_sync_units(&classes, &transitions, 2, 1, 2), [0; 4], "a lane past the unit");
        assert_eq!(wide_sync_units(&classes, &transitions, 2, 2, 1), [0; 4], "two contexts");
        let big = [0u32; 2 * (MAX_STATES + 1)];
        assert_eq!(wide_sync_units(&classes, &big, 2, 1, 1), [0; 4], "too many states");
    }

    #[test]
    fn malformed_tables_give_none_without_panicking() {
        let (classes, mut transitions) = pairs();
        transitions[3] = 5; // not a premultiplied id
        assert_eq!(wide_sync_units(&classes, &transitions, 2, 1, 1), [0; 4]);
        transitions[3] = 10; // state 5 of 5
        assert_eq!(wide_sync_units(&classes, &transitions, 2, 1, 1), [0; 4]);
        assert_eq!(wide_sync_units(&classes, &transitions[..9], 2, 1, 1), [0; 4], "a partial row");
        assert_eq!(wide_sync_units(&classes, &[], 2, 1, 1), [0; 4], "no states");
    }
}
