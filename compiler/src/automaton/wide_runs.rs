//! The wide-runs fact ([`WideRuns`]): for an automaton of 16- or 32-bit code
//! units, the (at most two) longest ranges of code units that are each one
//! whole sequence of their own value from the start state.
//!
//! Found in two passes. First the paths of one code unit's bytes from the
//! start back to it, with the bytes grouped by the transition they take (a
//! handful of paths: UTF-32 has three), each keeping only the bytes that are
//! worth themselves at their place: a *box*, one set of bytes per byte of the
//! unit. Then the union of the boxes as ranges of code units, from the most
//! significant byte down, a range of top bytes with the same boxes below
//! taken whole when the boxes below cover everything. Hostile automata are
//! bounded (at most 256 boxes, 256 ranges and 4096 steps of the join): the
//! fact may then miss ranges, never claim a wrong one (and `Dfa::new` checks
//! it).
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! use placemat_codec::AsciiRuns;
//! let d = Description::parse_str(r#"
//!     pub Ucs2 { name: "ucs2", unit: u16be, value: u32, range: 0 ..= 0xFFFF,
//!                exclude: [0xD800 ..= 0xDFFF], forms: { "xxxxxxxxxxxxxxxx" } }
//! "#).unwrap();
//! let runs = Automaton::build(&d.model, BuildOptions::default()).unwrap().facts.wide_runs;
//! assert_eq!(runs.units, AsciiRuns::U16Be);
//! assert_eq!(runs.ranges, [(0, 0xD7FF), (0xE000, 0xFFFF)]);
//! ```

use super::{Automaton, Edge};
use placemat_codec::dfa::PLACE_SHIFT;
use placemat_codec::{AsciiRuns, WideRuns};

/// Most boxes looked for.
const MAX_BOXES: usize = 256;
/// Most ranges kept while the boxes are joined.
const MAX_RANGES: usize = 256;
/// Most calls of [`cover`] for one byte order.
const MAX_COVERS: usize = 4096;

/// A set of bytes: bit `b % 64` of word `b / 64`.
type Bytes = [u64; 4];

fn has(set: &Bytes, b: usize) -> bool {
    set[b / 64] >> (b % 64) & 1 == 1
}

/// The wide runs of `a`: of the byte order whose two longest ranges hold more
/// code units, or none.
pub(super) fn derive(a: &Automaton) -> WideRuns {
    let kinds = match a.unit_bytes {
        2 => [AsciiRuns::U16Le, AsciiRuns::U16Be],
        4 => [AsciiRuns::U32Le, AsciiRuns::U32Be],
        _ => return WideRuns::NONE,
    };
    let found = kinds.map(|units| longest_two(&ranges(a, units)).map(|ranges| WideRuns { units, ranges }));
    let size = |r: &WideRuns| {
        let [(a, b), (c, d)] = r.ranges;
        u64::from(b - a) + if (c, d) == (a, b) { 0 } else { u64::from(d - c) + 2 }
    };
    match found {
        [Some(x), Some(y)] => {
            if size(&y) > size(&x) {
                y
            } else {
                x
            }
        }
        [Some(x), None] | [None, Some(x)] => x,
        [None, None] => WideRuns::NONE,
    }
}

/// The two longest of `ranges`, low first (one range repeated).
fn longest_two(ranges: &[(u64, u64)]) -> Option<[(u32, u32); 2]> {
    let mut by_length: Vec<(u32, u32)> = ranges.iter().map(|&(a, b)| (a as u32, b as u32)).collect();
    by_length.sort_by_key(|&(a, b)| (std::cmp::Reverse(b - a), a));
    let mut two = [*by_length.first()?, *by_length.get(1).unwrap_or(&by_length[0])];
    two.sort();
    Some(two)
}

/// Every range of code units (of width and order `units`) that decode to
/// themselves, as far as the bounds allow.
fn ranges(a: &Automaton, units: AsciiRuns) -> Vec<(u64, u64)> {
    let mut boxes = Vec::new();
    let mut finder = Finder { a, bytes: units.unit_bytes(), big: matches!(units, AsciiRuns::U16Be | AsciiRuns::U32Be) };
    finder.paths(0, 1, &mut Vec::new(), &mut boxes);
    let mut out = Vec::new();
    let all: Vec<&[Bytes; 4]> = boxes.iter().collect();
    let mut budget = MAX_COVERS;
    cover(&all, finder.bytes - 1, &mut out, &mut budget);
    out
}

struct Finder<'a> {
    a: &'a Automaton,
    bytes: usize,
    big: bool,
}

impl Finder<'_> {
    fn sig(&self, pos: usize) -> usize {
        if self.big {
            self.bytes - 1 - pos
        } else {
            pos
        }
    }

    /// Every path of one code unit from `state` at position `pos`, by groups
    /// of bytes that take the same transition; each that ends at the start
    /// adds its box.
    fn paths(&mut self, pos: usize, state: usize, path: &mut Vec<(Edge, Bytes)>, boxes: &mut Vec<[Bytes; 4]>) {
        if boxes.len() >= MAX_BOXES {
            return;
        }
        if pos == self.bytes {
            if let Some(b) = self.worth_themselves(path) {
                boxes.push(b);
            }
            return;
        }
        let mut groups: Vec<(Edge, Bytes)> = Vec::new();
        for u in 0..=255u8 {
            let e = self.a.edge(state, u);
            let last = pos + 1 == self.bytes;
            if (last && e.next != 1) || (!last && (e.next == 0 || self.a.is_boundary(e.next))) {
                continue;
            }
            let at = match groups.iter().position(|(g, _)| *g == e) {
                Some(at) => at,
                None => {
                    groups.push((e, [0; 4]));
                    groups.len() - 1
                }
            };
            groups[at].1[u as usize / 64] |= 1 << (u % 64);
        }
        for group in groups {
            path.push(group);
            self.paths(pos + 1, group.0.next, path, boxes);
            path.pop();
        }
    }

    /// What a transition multiplies the value read so far by, and its own payload by.
    fn weights(&self, e: &Edge) -> (u64, u64) {
        if self.a.placed {
            (1 << ((e.place >> PLACE_SHIFT) & 63), 1 << (e.place & 63))
        } else {
            (self.a.multiplier(e), 1)
        }
    }

    /// The box of a path (byte sets by significance): the bytes worth
    /// themselves at their place, if the sequence adds no bias and every
    /// position keeps some.
    fn worth_themselves(&self, path: &[(Edge, Bytes)]) -> Option<[Bytes; 4]> {
        if path.last()?.0.bias != 0 {
            return None;
        }
        let mut by_sig = [[0u64; 4]; 4];
        for (pos, (e, set)) in path.iter().enumerate() {
            let weight = path[pos + 1..]
                .iter()
                .try_fold(self.weights(e).1, |w, (later, _)| w.checked_mul(self.weights(later).0))?;
            let sig = self.sig(pos);
            for b in (0..256).filter(|&b| has(set, b)) {
                let payload = u64::from(self.a.digits[b]) & ((1u64 << e.payload_bits) - 1);
                if payload.checked_mul(weight) == Some((b as u64) << (8 * sig)) {
                    by_sig[sig][b / 64] |= 1 << (b % 64);
                }
            }
            if by_sig[sig] == [0; 4] {
                return None;
            }
        }
        Some(by_sig)
    }
}

/// Adds to `out` the code units (of `sig + 1` low bytes) in the union of
/// `boxes`, as ranges, merging each with the one before it.
fn cover(boxes: &[&[Bytes; 4]], sig: usize, out: &mut Vec<(u64, u64)>, budget: &mut usize) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let block = 1u64 << (8 * sig);
    let mut t = 0;
    while t < 256 && out.len() < MAX_RANGES {
        // A run of top bytes with the same boxes below them.
        let member = |t: usize| boxes.iter().map(|b| has(&b[sig], t)).collect::<Vec<bool>>();
        let here = member(t);
        let mut end = t;
        while end + 1 < 256 && member(end + 1) == here {
            end += 1;
        }
        let sub: Vec<&[Bytes; 4]> = boxes.iter().zip(&here).filter(|(_, &m)| m).map(|(b, _)| *b).collect();
        if !sub.is_empty() {
            let mut below = Vec::new();
            if sig == 0 {
                below.push((0, 0));
            } else {
                cover(&sub, sig - 1, &mut below, budget);
            }
            if below == [(0, block - 1)] {
                push(out, (t as u64 * block, (end as u64 + 1) * block - 1));
            } else {
                let units = (t..=end)
                    .flat_map(|x| below.iter().map(move |&(lo, hi)| (x as u64 * block + lo, x as u64 * block + hi)));
                for range in units.take(MAX_RANGES) {
                    push(out, range);
                }
            }
        }
        t = end + 1;
    }
}

/// Appends a range, joined to the last one if they touch.
fn push(out: &mut Vec<(u64, u64)>, (lo, hi): (u64, u64)) {
    match out.last_mut() {
        Some(last) if last.1 + 1 == lo => last.1 = hi,
        _ => out.push((lo, hi)),
    }
}
