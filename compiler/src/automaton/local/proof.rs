//! The proof that the derived checks accept exactly the codec's valid inputs.
//!
//! The checks (the formula of `placemat_simd`'s docs) are themselves an
//! automaton: its state is the previous unit's table row, level, floor and
//! whether it is a continuation unit, and how many continuations are still
//! owed to leads further back. The product with
//! the codec's automaton, explored from both start states over every unit
//! class, must never reach a state where one side has rejected and the other
//! has not: the checks flag a unit the codec accepts (too strict), or the input
//! ends (two `start` units, or enough to settle every count) where one accepts
//! and the other does not. A witness input comes back if it does.
//!
//! Where the codec's automaton is dead but the checks have not flagged yet, the
//! longest such run bounds how late an error is flagged (`Tables::restart`).

use std::collections::HashMap;

use super::{NotLocal, Tables};
use crate::automaton::Automaton;

/// A state of the product: the checks' state and the codec's (0: dead).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct State {
    row: u8,
    cont: bool,
    floor: u8,
    level: u8,
    owed: u8,
    codec: u16,
}

impl State {
    /// Whether the checks flag `unit` here, and the state after it.
    fn step(self, t: &Tables, unit: u8) -> (bool, State) {
        let bits = self.row & t.col(unit);
        let (errors, two) = match t.continuation_end {
            Some(_) => (bits, self.cont && t.is_continuation(unit)),
            None => (bits & 0x7F, bits & 0x80 != 0),
        };
        let flagged = errors != 0 || two != (self.owed >= 1) || unit < self.floor;
        let owed = self.level.saturating_sub(1).max(self.owed.saturating_sub(1));
        let next = State {
            row: t.row(unit),
            cont: t.is_continuation(unit),
            floor: t.floor_of(unit),
            level: t.level(unit),
            owed,
            codec: self.codec,
        };
        (flagged, next)
    }

    /// Whether the checks accept when the input ends here (`pads` start units).
    fn ends(mut self, t: &Tables, pads: usize) -> bool {
        for _ in 0..pads {
            let (flagged, next) = self.step(t, t.start);
            if flagged {
                return false;
            }
            self = next;
        }
        true
    }
}

/// Proves the checks equal to the codec; returns `Tables::restart`.
pub(super) fn prove(a: &Automaton, t: &Tables) -> Result<u8, NotLocal> {
    let units = representatives(a, t);
    let start = State { row: t.row(t.start), cont: false, floor: t.floor_of(t.start), level: 0, owed: 0, codec: 1 };
    let mut states = vec![start];
    let mut parent: Vec<Option<(usize, u8)>> = vec![None];
    let mut index = HashMap::from([(start, 0usize)]);
    let mut dead_edges: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let s = states[i];
        let valid = s.codec == 1;
        if s.ends(t, 2) != valid || s.ends(t, usize::from(t.need) + 2) != valid {
            let what = if valid { "reject the valid input" } else { "accept the invalid input" };
            return Err(witness(&parent, i, None, what));
        }
        for &u in &units {
            let next_codec = if s.codec == 0 { 0 } else { a.edge(usize::from(s.codec), u).next as u16 };
            let (flagged, mut next) = s.step(t, u);
            if flagged {
                if next_codec != 0 {
                    return Err(witness(&parent, i, Some(u), "flag a unit of the valid input"));
                }
                continue;
            }
            next.codec = next_codec;
            let j = *index.entry(next).or_insert_with(|| {
                states.push(next);
                parent.push(Some((i, u)));
                states.len() - 1
            });
            if s.codec == 0 {
                dead_edges.push((i, j));
            }
        }
        i += 1;
    }
    let longest = longest_dead_run(states.len(), &dead_edges).ok_or_else(|| {
        NotLocal::new("errors flagged late", "after some invalid unit, the checks can go on without flagging it")
    })?;
    u8::try_from(longest + 2)
        .map_err(|_| NotLocal::new("errors flagged late", "the checks flag some errors more than 250 units late"))
}

/// One unit per class of units the product cannot tell apart.
fn representatives(a: &Automaton, t: &Tables) -> Vec<u8> {
    let mut seen = HashMap::new();
    for u in 0..=255u8 {
        let key = (a.classes[u as usize], t.row(u), t.col(u), t.level(u), t.is_continuation(u), t.floor_of(u));
        seen.entry(key).or_insert(u);
    }
    let mut units: Vec<u8> = seen.into_values().collect();
    units.sort_unstable();
    units
}

/// The most unflagged steps in a row after the codec's automaton died, or
/// `None` if they can loop.
fn longest_dead_run(n: usize, edges: &[(usize, usize)]) -> Option<usize> {
    let mut out = vec![Vec::new(); n];
    for &(i, j) in edges {
        out[i].push(j);
    }
    // Iterative longest path with cycle detection (0 unseen, 1 open, 2 done).
    let mut mark = vec![0u8; n];
    let mut longest = vec![0usize; n];
    for root in 0..n {
        if mark[root] != 0 || out[root].is_empty() {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        mark[root] = 1;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if let Some(&w) = out[v].get(*k) {
                *k += 1;
                match mark[w] {
                    0 => {
                        mark[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => return None,
                    _ => longest[v] = longest[v].max(longest[w] + 1),
                }
            } else {
                mark[v] = 2;
                stack.pop();
                if let Some(&(p, _)) = stack.last() {
                    longest[p] = longest[p].max(longest[v] + 1);
                }
            }
        }
    }
    Some(longest.into_iter().max().unwrap_or(0))
}

fn witness(parent: &[Option<(usize, u8)>], mut i: usize, last: Option<u8>, what: &str) -> NotLocal {
    let mut units: Vec<u8> = last.into_iter().collect();
    while let Some((p, u)) = parent[i] {
        units.push(u);
        i = p;
    }
    units.reverse();
    let hex: Vec<String> = units.iter().map(|u| format!("{u:02X}")).collect();
    NotLocal {
        short: "not pair-local".into(),
        reason: format!(
            "checks of single units, adjacent pairs and continuation counts would {what} `{}`",
            hex.join(" ")
        ),
        witness: Some(units),
    }
}
