//! The leads after which two automata may read the same input apart: outside
//! them, every input the first accepts, the second accepts too, as the same
//! sequences of the same values. Text that holds none of those units then
//! converts from the first codec into the second as a copy, unit for unit
//! ([`crate::ApartLeads`]): CESU-8 into UTF-8 outside `ED` (the lead of its
//! surrogate halves), UTF-8 into CESU-8 outside `F0`–`F4` (its four-unit
//! forms), UTF-8 into modified UTF-8 outside `00` and `F0`–`F4`.
//!
//! The walk goes side by side from the two start states over every unit the
//! first automaton takes. Where two transitions join the unit's payload to
//! the value alike (the same payload bits of the same digit, the same radix,
//! the same bias at a sequence's end), values that were equal stay equal.
//! Where they do not (CESU-8 reads `ED` as no payload and adds D000 at the
//! end, UTF-8 reads it as the payload D), the walk carries the two values
//! read so far, from the sequence's start, where both are 0: the pair of
//! states then stands for those values, and the sequence must end in both at
//! once with equal values. Where the second automaton refuses a unit, ends
//! the sequence elsewhere, reads another value, holds a pending value
//! (`overlap: longest`) or enters another context than the first, the walk
//! blames the lead of the sequence in hand, which goes into the set. A sequence whose lead is not in the set
//! is read alike, whatever follows, and ends with both automata back at their
//! start states. A unit of the set that may continue such a sequence would
//! make a scan for the set's units stop inside a sequence: there is no fact
//! then. Neither is there one for automata of wide units or with placed
//! payload, or past 1024 pairs of states (hostile automata cost bounded time).
//!
//! ```
//! # use placemat_codec::dfa::{Dfa, Parts, Table};
//! // Classes: 00, 01-7F, 80-FF. 7-bit ASCII with and without 00 (a row is
//! // three wide; the start state is 3; an entry is next | payload bits << 16).
//! let table = |zero: u32| {
//!     let classes = core::array::from_fn(|u| if u == 0 { 0 } else { 1 + u8::from(u >= 0x80) });
//!     let digits = core::array::from_fn(|u| u as u8);
//!     let trans = [0, 0, 0, zero, 3 | 7 << 16, 0];
//!     Dfa::new(Parts::new(Table::new(&classes, &digits, &trans, &[0]))).unwrap()
//! };
//! let (with_zero, without) = (table(3 | 7 << 16), table(0));
//! // Into the codec without 00, input read apart only at 00.
//! let apart = with_zero.leads_apart(&without).unwrap();
//! assert!(apart.contains(0x00) && !apart.contains(0x41));
//! assert_eq!(apart.first(b"text\0more"), 4);
//! // The other way round, nothing is read apart.
//! assert!(without.leads_apart(&with_zero).unwrap().is_empty());
//! ```

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use super::{Dfa, Transition, DEAD};
use crate::ApartLeads;

/// The most pairs of states (with their values where they differ) the walk
/// visits.
const MAX_PAIRS: usize = 1024;

/// A pair of states and the values read so far where they may differ.
type Pair = (usize, usize, Option<(u64, u64)>);

/// Where a unit takes the walk from a pair.
enum Edge {
    /// The first automaton refuses the unit: no input takes it.
    None,
    /// The two read it apart.
    Apart,
    /// Back at both start states: a sequence read alike.
    Home,
    /// To another pair inside a sequence.
    To(Pair),
}

/// The pairs met inside sequences: for each, whether a sequence through it
/// may be read apart, and the pairs after it.
#[derive(Default)]
struct Graph {
    index: BTreeMap<Pair, usize>,
    pairs: Vec<Pair>,
    apart: Vec<bool>,
    next: Vec<Vec<usize>>,
}

impl<T: AsRef<[u32]>, B: AsRef<[u64]>> Dfa<T, B> {
    /// The leads after which `other` may read input this automaton accepts
    /// apart from it (see the module docs); `None` where there is no such
    /// fact.
    pub fn leads_apart<T2: AsRef<[u32]>, B2: AsRef<[u64]>>(&self, other: &Dfa<T2, B2>) -> Option<ApartLeads> {
        if self.facts.unit_bytes != 1
            || other.facts.unit_bytes != 1
            || self.places().is_some()
            || other.places().is_some()
        {
            return None;
        }
        let home: Pair = (self.start(), other.start(), None);
        let mut graph = Graph::default();
        let mut leads = [0u64; 4];
        let mut put = |unit: u8| leads[usize::from(unit) / 64] |= 1 << (unit % 64);
        // Units read apart at once, and those that lead inside a sequence.
        let mut inside = Vec::new();
        for unit in 0..=255u8 {
            match self.edge(other, home, unit) {
                Edge::None | Edge::Home => {}
                Edge::Apart => put(unit),
                Edge::To(pair) => inside.push((unit, graph.visit(self, other, pair)?)),
            }
        }
        graph.spread();
        for (unit, at) in inside {
            if graph.apart[at] {
                put(unit);
            }
        }
        let leads = ApartLeads::new(leads);
        // A unit of the set must not continue a sequence read alike.
        let continues =
            |&(a, _, _): &Pair| (0..=255u8).any(|u| leads.contains(u) && self.transition(a, u).next != DEAD);
        let alike = graph.pairs.iter().zip(&graph.apart).filter(|(_, &apart)| !apart);
        (!alike.map(|(pair, _)| pair).any(continues)).then_some(leads)
    }

    /// Where `unit` takes the walk from `pair`.
    fn edge<T2: AsRef<[u32]>, B2: AsRef<[u64]>>(&self, other: &Dfa<T2, B2>, pair: Pair, unit: u8) -> Edge {
        let (x, y) = (self.transition(pair.0, unit), other.transition(pair.1, unit));
        if x.next == DEAD {
            return Edge::None;
        }
        if y.next == DEAD {
            return Edge::Apart;
        }
        match self.joint_step(other, pair, unit, (&x, &y)) {
            None => Edge::Apart,
            Some((a, b, _)) if self.is_boundary(a) => match (a, b) == (self.start(), other.start()) {
                true => Edge::Home,
                false => Edge::Apart,
            },
            Some(next) if self.pending_at(next.0) || other.pending_at(next.1) => Edge::Apart,
            Some(next) => Edge::To(next),
        }
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

impl Graph {
    /// Visits every pair inside sequences reachable from `pair`, marking
    /// those with a unit read apart; returns `pair`'s index (`None` past
    /// [`MAX_PAIRS`]).
    fn visit<T: AsRef<[u32]>, B: AsRef<[u64]>, T2: AsRef<[u32]>, B2: AsRef<[u64]>>(
        &mut self,
        first: &Dfa<T, B>,
        other: &Dfa<T2, B2>,
        pair: Pair,
    ) -> Option<usize> {
        if let Some(&at) = self.index.get(&pair) {
            return Some(at);
        }
        let root = self.add(pair)?;
        let mut todo = Vec::from([root]);
        while let Some(at) = todo.pop() {
            for unit in 0..=255u8 {
                match first.edge(other, self.pairs[at], unit) {
                    Edge::None | Edge::Home => {}
                    Edge::Apart => self.apart[at] = true,
                    Edge::To(next) => {
                        let to = match self.index.get(&next) {
                            Some(&to) => to,
                            None => {
                                let to = self.add(next)?;
                                todo.push(to);
                                to
                            }
                        };
                        self.next[at].push(to);
                    }
                }
            }
            self.next[at].sort_unstable();
            self.next[at].dedup();
        }
        Some(root)
    }

    /// A new pair's index.
    fn add(&mut self, pair: Pair) -> Option<usize> {
        if self.pairs.len() >= MAX_PAIRS {
            return None;
        }
        self.index.insert(pair, self.pairs.len());
        self.pairs.push(pair);
        self.apart.push(false);
        self.next.push(Vec::new());
        Some(self.pairs.len() - 1)
    }

    /// Marks every pair from which a marked one is reachable, once over the
    /// edges reversed (time linear in the graph, however deep).
    fn spread(&mut self) {
        let mut back = vec![Vec::new(); self.pairs.len()];
        for (at, next) in self.next.iter().enumerate() {
            next.iter().for_each(|&to| back[to].push(at));
        }
        let mut todo: Vec<usize> = (0..self.pairs.len()).filter(|&at| self.apart[at]).collect();
        while let Some(at) = todo.pop() {
            for &from in &back[at] {
                if !self.apart[from] {
                    self.apart[from] = true;
                    todo.push(from);
                }
            }
        }
    }
}
