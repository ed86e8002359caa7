//! Whether two automata read every input they both accept alike: the same
//! sequences, the same values. Then text valid in both converts from one to
//! the other as a copy, and the conversion engine's callers may borrow
//! instead (`placemat_variants::text::to_str`: modified UTF-8 that is also
//! valid UTF-8 is that very text).
//!
//! The check walks the two automata side by side from their start states
//! over every unit both take. Where two transitions join the unit's payload
//! to the value alike (the same payload bits of the same digit, the same
//! radix, the same bias at a sequence's end), values that were equal stay
//! equal. Where they do not (CESU-8 reads `ED` as no payload and adds D000 at
//! the end, UTF-8 reads it as the payload D), the walk carries the two values
//! read so far, from the sequence's start, where both are 0: the pair of
//! states then stands for those values, and the sequence must end in both at
//! once with equal values. A state with a pending value (`overlap: longest`)
//! in either, or placed payload, ends the check with "no". The walk visits at
//! most 4096 (`MAX_PAIRS`) pairs: a hostile pair of automata costs bounded time,
//! and a pair that needs more is answered "no".
//!
//! ```
//! # use placemat_codec::dfa::{Dfa, Parts, Table};
//! // 7-bit ASCII (classes 01-7F, 80-FF and 00; a row is three wide, so the
//! // start state's id is 3; an entry is the next state | payload bits << 16).
//! let table = |ascii: u32, zero: u32| {
//!     let classes = core::array::from_fn(|u| if u == 0 { 2 } else { u8::from(u >= 0x80) });
//!     let digits = core::array::from_fn(|u| u as u8);
//!     let trans = [0, 0, 0, ascii, 0, zero];
//!     Dfa::new(Parts::new(Table::new(&classes, &digits, &trans, &[0]))).unwrap()
//! };
//! let with_zero = table(3 | 7 << 16, 3 | 7 << 16);
//! // The same with 00 refused: alike wherever both accept.
//! assert!(with_zero.agrees_with(&table(3 | 7 << 16, 0)));
//! // 01-7F read with six payload bits: 7F would be 3F.
//! assert!(!with_zero.agrees_with(&table(3 | 6 << 16, 3 | 7 << 16)));
//! ```

use alloc::collections::BTreeSet;
use alloc::vec::Vec;

use super::{Dfa, Transition, DEAD};

/// The most pairs of states (with their values where they differ) the walk
/// visits.
const MAX_PAIRS: usize = 4096;

/// Where the walk is: a state of each automaton, and the values read so far
/// if they may differ (`None`: equal; at a boundary both are 0).
type Pair = (usize, usize, Option<(u64, u64)>);

impl<T: AsRef<[u32]>, B: AsRef<[u64]>> Dfa<T, B> {
    /// Whether this automaton and `other` read every input both accept as
    /// the same sequences of the same values (see the module docs): `false`
    /// also when they differ in unit width, or the walk would pass
    /// 4096 (`MAX_PAIRS`) pairs of states.
    pub fn agrees_with<T2: AsRef<[u32]>, B2: AsRef<[u64]>>(&self, other: &Dfa<T2, B2>) -> bool {
        if self.facts.unit_bytes != other.facts.unit_bytes || self.places().is_some() || other.places().is_some() {
            return false;
        }
        let start: Pair = (self.start(), other.start(), None);
        let (mut seen, mut todo) = (BTreeSet::from([start]), Vec::from([start]));
        while let Some((a, b, values)) = todo.pop() {
            if self.pending_at(a) || other.pending_at(b) {
                return false;
            }
            for unit in 0..=255u8 {
                let (x, y) = (self.transition(a, unit), other.transition(b, unit));
                if x.next == DEAD || y.next == DEAD {
                    continue;
                }
                let Some(next) = self.joint_step(other, (a, b, values), unit, (&x, &y)) else { return false };
                if seen.insert(next) {
                    if seen.len() > MAX_PAIRS {
                        return false;
                    }
                    todo.push(next);
                }
            }
        }
        true
    }

    /// The pair after `unit`, which takes transitions `x` and `y` from
    /// `pair`; `None` where the two may disagree: a sequence that ends in one
    /// and not the other, values that end unequal, or arithmetic that differs
    /// on values known only to be equal.
    fn joint_step<T2: AsRef<[u32]>, B2: AsRef<[u64]>>(
        &self,
        other: &Dfa<T2, B2>,
        (a, b, values): Pair,
        unit: u8,
        (x, y): (&Transition, &Transition),
    ) -> Option<Pair> {
        let ends = self.is_boundary(x.next);
        if ends != other.is_boundary(y.next) {
            return None;
        }
        let digit = |d: &[u8; 256], t: &Transition| u64::from(d[usize::from(unit)]) & ((1u64 << t.payload_bits) - 1);
        let (da, db) = (digit(self.digits(), x), digit(other.digits(), y));
        let alike = (x.payload_bits, x.radix, da) == (y.payload_bits, y.radix, db) && (!ends || x.bias == y.bias);
        // Values equal and read alike stay equal; at a boundary both are 0.
        let known = match values {
            None if alike => return Some((x.next, y.next, None)),
            None if self.is_boundary(a) && other.is_boundary(b) => (0, 0),
            None => return None,
            Some(v) => v,
        };
        let (va, vb) = (self.join(known.0, x, da, ends), other.join(known.1, y, db, ends));
        match (ends, va == vb) {
            (true, true) => Some((x.next, y.next, None)),
            (true, false) => None,
            (false, _) => Some((x.next, y.next, Some((va, vb)))),
        }
    }

    /// The value read so far after a unit of digit `digit` taking `t`.
    fn join(&self, value: u64, t: &Transition, digit: u64, ends: bool) -> u64 {
        let joined = match t.radix {
            Some(radix) => value.wrapping_mul(radix).wrapping_add(digit),
            None => value.wrapping_shl(t.payload_bits) | digit,
        };
        if ends {
            joined.wrapping_add(t.bias)
        } else {
            joined
        }
    }

    /// Whether `state` holds a pending value.
    fn pending_at(&self, state: usize) -> bool {
        self.pending().get(state / self.stride).is_some_and(|&p| p != 0)
    }
}
