//! Self-synchronization: dropped into a valid stream at an arbitrary unit, how many
//! units must a decoder read before it knows for certain where a sequence starts?
//!
//! ```
//! use placemat_compiler::analysis::sync::{self_sync, Bound};
//! use placemat_compiler::LoadedCodec;
//! // UTF-8's first three forms: a continuation byte says so (10xxxxxx).
//! let utf8ish = LoadedCodec::from_text(r#"
//!     pub U { name: "u", value: u32, range: 0 ..= 0xFFFF, layout: shortest,
//!             forms: { "0xxxxxxx", "110xxxxx 10xxxxxx", "1110xxxx 10xxxxxx 10xxxxxx" } }
//! "#).unwrap();
//! // Two continuation bytes in a row can only end a three-byte sequence, so after
//! // at most two units the decoder knows where it stands.
//! assert_eq!(self_sync(utf8ish.automaton()).unwrap().bound, Bound::Units(2));
//! // X/Open style: every byte from 80 up may continue a sequence, so a run of them
//! // can be split into characters in more than one way, forever.
//! let xopen = LoadedCodec::from_text(r#"
//!     pub X { name: "x", value: u32, range: 0 ..= 0x207F, layout: biased,
//!             forms: { "0zzzzzzz", "10zzzzzz 1zzzzzzz" } }
//! "#).unwrap();
//! let x = self_sync(xopen.automaton()).unwrap();
//! assert_eq!(x.bound, Bound::Unbounded);
//! assert_eq!(x.witness_text(), "80 [80]…");
//! ```
//!
//! # The exact bound
//! Let the decoder start at an arbitrary unit of a valid stream. It does not know
//! the automaton's state there, so it tracks the set `S` of states the stream can be
//! in: at first every live state, then the images under each unit read (runs that
//! die were not the stream's). A past position `p` is *certainly* a boundary once
//! every run still alive was in the start state at `p`. So beside `S` the decoder
//! keeps, for each position that may be a boundary, the image of the start state
//! and the image of the other states it could have been in then; `p` is settled
//! when the latter dies out while the former lives. The bound is the longest
//! sequence of units, over all valid streams and starting units, read before some
//! position is settled — found by a depth-first search over these configurations,
//! memoized. A reachable cycle of unsettled configurations means some stream keeps
//! the decoder in doubt forever: the bound is then [`Bound::Unbounded`], and the
//! cycle is the witness.
//!
//! A codec whose forms overlap by design (`overlap: longest`) has states
//! where a shorter sequence has ended while a longer one goes on (a pending
//! value): a stream may have a boundary there too. The search reads such a
//! state as also being the start state (an ε-step), so it covers every way
//! of cutting the stream into sequences; with the rules across values that
//! make the longest match the only reading (modified UTF-8's), that is the
//! codec's own set of streams.
//!
//! # The empirical check
//! [`realignment`] restarts the codec's own lossy decoder at random offsets of an
//! encoded corpus and counts the units it consumes before it ends a step exactly
//! where a true sequence ends. This needs no automaton theory at all; for the
//! UTF-8 family it never exceeds the exact bound.

use std::collections::HashMap;
use std::fmt;

use crate::Automaton;
use placemat_codec::dfa::DEAD;
use placemat_codec::{DynCodec, Step, Strategy};

use super::size::Encoded;
use super::Rng;

/// How long resynchronization can take.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// At most this many units.
    Units(usize),
    /// Some valid stream never lets the decoder be sure.
    Unbounded,
}

impl Bound {
    /// The number of units, if finite.
    pub fn units(self) -> Option<usize> {
        match self {
            Bound::Units(n) => Some(n),
            Bound::Unbounded => None,
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::Units(n) => write!(f, "{n}"),
            Bound::Unbounded => f.write_str("∞"),
        }
    }
}

/// The exact self-synchronization bound of an automaton, with a worst case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfSync {
    /// The bound.
    pub bound: Bound,
    /// A worst-case unit sequence: for a finite bound, one that takes that many
    /// units; for an unbounded one, a prefix followed by a cycle that can repeat
    /// forever (from `cycle_start` on).
    pub witness: Vec<u8>,
    /// Where the repeatable part of `witness` starts (unbounded case only).
    pub cycle_start: Option<usize>,
    /// How many configurations the search visited.
    pub configurations: usize,
}

impl SelfSync {
    /// The witness as hex units, the repeatable part in brackets: `80 [80]…`.
    pub fn witness_text(&self) -> String {
        let hex = |u: &[u8]| u.iter().map(|b| format!("{b:02X}")).collect::<Vec<_>>().join(" ");
        match self.cycle_start {
            None => hex(&self.witness),
            Some(0) => format!("[{}]…", hex(&self.witness)),
            Some(c) => format!("{} [{}]…", hex(&self.witness[..c]), hex(&self.witness[c..])),
        }
    }
}

/// Why the exact bound could not be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyncError {
    /// The configuration space exceeded the search's limit.
    TooManyConfigurations(usize),
}

impl fmt::Display for SyncError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyncError::TooManyConfigurations(n) => write!(f, "more than {n} configurations to search"),
        }
    }
}

impl std::error::Error for SyncError {}

/// The search gives up beyond this many configurations.
pub const CONFIGURATION_LIMIT: usize = 1 << 20;

/// A sorted set of state indices (not premultiplied).
type Set = Vec<u16>;

/// What the decoder knows after some units: the states the stream may be in, and
/// for each unsettled candidate boundary the image of the start state there and
/// of the other states it could have been in.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Config {
    states: Set,
    candidates: Vec<(Set, Set)>,
}

enum Outcome {
    /// No valid stream continues with this unit.
    Impossible,
    /// A candidate boundary is now certain.
    Settled,
    /// Still in doubt.
    Doubt(Config),
}

/// The automaton as a small state × class table of state indices.
struct Graph {
    next: Vec<Vec<u16>>,
    reps: Vec<u8>,
    start: u16,
    /// The states where a shorter sequence has just ended while a longer one
    /// goes on: also at the start (a boundary).
    pending: Vec<bool>,
}

impl Graph {
    /// The automaton's graph. With rules across values, every start state is
    /// read as the start of context 0 (the others become unreachable): the
    /// streams are then those of the forms without the rules, a superset, so
    /// the bound found is an upper bound (for WTF-8, UTF-8's 3).
    fn new(a: &Automaton) -> Self {
        let next = a
            .edges
            .iter()
            .map(|row| row.iter().map(|e| if a.is_boundary(e.next) { 1 } else { e.next as u16 }).collect())
            .collect();
        let pending = a.pending.iter().map(|p| p.is_some_and(|p| p.back == 0)).collect();
        Graph { next, reps: a.class_units.clone(), start: 1, pending }
    }

    /// `set` with the start state added if a state of it has a pending value.
    fn closed(&self, mut set: Set) -> Set {
        if set.iter().any(|&s| self.pending[s as usize]) && set.binary_search(&self.start).is_err() {
            set.push(self.start);
            set.sort_unstable();
        }
        set
    }

    /// States reachable from the start state that can get back to it.
    fn live(&self) -> Set {
        let n = self.next.len();
        let mut fwd = vec![false; n];
        let mut stack = vec![self.start];
        fwd[self.start as usize] = true;
        while let Some(s) = stack.pop() {
            for &t in &self.next[s as usize] {
                if t as usize != DEAD && !fwd[t as usize] {
                    fwd[t as usize] = true;
                    stack.push(t);
                }
            }
        }
        let mut back = vec![false; n];
        back[self.start as usize] = true;
        let mut changed = true;
        while changed {
            changed = false;
            for s in 0..n {
                if !back[s] && self.next[s].iter().any(|&t| back[t as usize]) && s != DEAD {
                    back[s] = true;
                    changed = true;
                }
            }
        }
        (0..n as u16).filter(|&s| fwd[s as usize] && back[s as usize]).collect()
    }

    fn image(&self, set: &[u16], class: usize) -> Set {
        let mut out: Set = set.iter().map(|&s| self.next[s as usize][class]).filter(|&t| t as usize != DEAD).collect();
        out.sort_unstable();
        out.dedup();
        self.closed(out)
    }

    /// The configuration at the starting unit: any live state, and the starting
    /// position itself a candidate boundary.
    fn initial(&self) -> Result<Config, ()> {
        let states = self.live();
        let others: Set = states.iter().copied().filter(|&s| s != self.start).collect();
        if others.is_empty() {
            return Err(());
        }
        Ok(Config { states, candidates: vec![(vec![self.start], others)] })
    }

    fn step(&self, config: &Config, class: usize) -> Outcome {
        let states = self.image(&config.states, class);
        if states.is_empty() {
            return Outcome::Impossible;
        }
        let mut candidates: Vec<(Set, Set)> = Vec::new();
        for (s, others) in &config.candidates {
            let s = self.image(s, class);
            if s.is_empty() {
                continue;
            }
            let others = self.image(others, class);
            if others.is_empty() {
                return Outcome::Settled;
            }
            candidates.push((s, others));
        }
        if states.binary_search(&self.start).is_ok() {
            let others: Set = states.iter().copied().filter(|&s| s != self.start).collect();
            if others.is_empty() {
                return Outcome::Settled;
            }
            candidates.push((vec![self.start], others));
        }
        // A candidate whose doubt is a superset of another's with the same start
        // image can never settle first: drop it.
        candidates.sort();
        candidates.dedup();
        let keep: Vec<bool> = candidates
            .iter()
            .enumerate()
            .map(|(i, (s, t))| {
                !candidates.iter().enumerate().any(|(j, (s2, t2))| j != i && s == s2 && t2 != t && is_subset(t2, t))
            })
            .collect();
        let candidates = candidates.into_iter().zip(keep).filter(|(_, k)| *k).map(|(c, _)| c).collect();
        Outcome::Doubt(Config { states, candidates })
    }
}

fn is_subset(small: &[u16], big: &[u16]) -> bool {
    small.iter().all(|x| big.binary_search(x).is_ok())
}

#[derive(Copy, Clone)]
enum Status {
    OnStack,
    /// Longest run of units from here until settled, and the class that achieves it.
    Done(usize, usize),
}

/// Computes the exact self-synchronization bound of `dfa` (see the module docs).
pub fn self_sync(a: &Automaton) -> Result<SelfSync, SyncError> {
    let g = Graph::new(a);
    let Ok(root) = g.initial() else {
        return Ok(SelfSync { bound: Bound::Units(0), witness: Vec::new(), cycle_start: None, configurations: 1 });
    };
    let classes = g.reps.len();
    let mut ids: HashMap<Config, usize> = HashMap::new();
    let mut configs: Vec<Config> = Vec::new();
    let mut status: Vec<Status> = Vec::new();
    // (configuration, next class to try, best length so far, its class, class taken to the child)
    let mut stack: Vec<(usize, usize, usize, usize, usize)> = Vec::new();
    ids.insert(root.clone(), 0);
    configs.push(root);
    status.push(Status::OnStack);
    stack.push((0, 0, 0, 0, 0));
    while let Some(top) = stack.last_mut() {
        let (id, class) = (top.0, top.1);
        if class == classes {
            let (best, best_class) = (top.2, top.3);
            status[id] = Status::Done(best, best_class);
            stack.pop();
            if let Some(parent) = stack.last_mut() {
                if 1 + best > parent.2 {
                    parent.2 = 1 + best;
                    parent.3 = parent.4;
                }
            }
            continue;
        }
        top.1 += 1;
        match g.step(&configs[id], class) {
            Outcome::Impossible => {}
            Outcome::Settled => {
                if top.2 < 1 {
                    top.2 = 1;
                    top.3 = class;
                }
            }
            Outcome::Doubt(next) => {
                let child = match ids.get(&next) {
                    Some(&c) => c,
                    None => {
                        if configs.len() >= CONFIGURATION_LIMIT {
                            return Err(SyncError::TooManyConfigurations(CONFIGURATION_LIMIT));
                        }
                        let c = configs.len();
                        ids.insert(next.clone(), c);
                        configs.push(next);
                        status.push(Status::OnStack);
                        top.4 = class;
                        stack.push((c, 0, 0, 0, 0));
                        continue;
                    }
                };
                match status[child] {
                    Status::Done(len, _) => {
                        if 1 + len > top.2 {
                            top.2 = 1 + len;
                            top.3 = class;
                        }
                    }
                    Status::OnStack => {
                        // A cycle of doubt: the path on the stack to `child`, then
                        // around the cycle back to it.
                        let mut witness: Vec<u8> = stack.iter().map(|f| g.reps[f.4]).collect();
                        *witness.last_mut().expect("the stack is not empty") = g.reps[class];
                        let cycle_start = stack.iter().position(|f| f.0 == child).expect("on the stack");
                        return Ok(SelfSync {
                            bound: Bound::Unbounded,
                            witness,
                            cycle_start: Some(cycle_start),
                            configurations: configs.len(),
                        });
                    }
                }
            }
        }
    }
    // Follow the best classes from the root for the worst-case witness.
    let Status::Done(bound, _) = status[0] else { unreachable!("the root is finished") };
    let mut witness = Vec::new();
    let mut config = configs[0].clone();
    loop {
        let Status::Done(_, class) = status[ids[&config]] else { unreachable!("every visited configuration is done") };
        witness.push(g.reps[class]);
        match g.step(&config, class) {
            Outcome::Doubt(next) => config = next,
            _ => break,
        }
    }
    Ok(SelfSync { bound: Bound::Units(bound), witness, cycle_start: None, configurations: configs.len() })
}

/// Restarts `codec`'s lossy decoder at `samples` random offsets of `encoded` and
/// returns, for each, how many units it consumed before ending a step on a true
/// sequence boundary (0 if it started on one). A decoder still misaligned after
/// `cap` units is counted as `cap`.
pub fn realignment(codec: &dyn DynCodec, encoded: &Encoded, samples: usize, cap: usize, rng: &mut Rng) -> Vec<u32> {
    let n = encoded.units.len();
    if n == 0 {
        return Vec::new();
    }
    // Sequences of a codec with several-byte code units are whole units long:
    // restarted off the original units' grid, it never realigns (the cap).
    let unit = usize::from(codec.dfa().facts().unit_bytes);
    (0..samples)
        .map(|_| {
            let from = rng.below(n);
            if !from.is_multiple_of(unit) {
                // Realigned only by the end of the text (a truncated sequence).
                return (n - from).min(cap) as u32;
            }
            // Restarted decoders know no value before: context 0.
            let (mut pos, mut context) = (from, 0);
            while !encoded.is_boundary(pos) && pos - from < cap {
                pos += match codec.step_in(Strategy::Table, context, &encoded.units[pos..]) {
                    Step::Value { len, value } => {
                        context = codec.context_after(value);
                        len
                    }
                    Step::Invalid { len } => {
                        context = 0;
                        len
                    }
                    Step::Incomplete => n - pos,
                };
            }
            (pos - from).min(cap) as u32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::LoadedCodec;
    use placemat_codec::Decoder;

    fn codec(forms: &str, layout: &str, max: u32) -> LoadedCodec {
        LoadedCodec::from_text(&format!(
            "pub T {{ name: \"t\", value: u32, range: 0 ..= {max}, layout: {layout}, forms: {{ {forms} }} }}"
        ))
        .unwrap()
    }

    /// Every codeword of a small codec, by brute force over short unit strings.
    fn codewords(c: &LoadedCodec, max_len: usize) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut frontier: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..max_len {
            let mut next = Vec::new();
            for w in &frontier {
                for u in 0..=255u8 {
                    let mut x = w.clone();
                    x.push(u);
                    match Decoder::step(c, &x) {
                        Step::Value { len, .. } if len == x.len() => out.push(x),
                        Step::Incomplete => next.push(x),
                        _ => {}
                    }
                }
            }
            frontier = next;
        }
        out
    }

    /// The bound by definition: over every stream of `total` units and every offset
    /// well inside it, the fewest units after which some position is a boundary in
    /// every stream that shows the same units at some offset. `None` if some window
    /// of `limit` units settles nothing.
    fn brute_force(c: &LoadedCodec, total: usize, limit: usize) -> Option<usize> {
        let words = codewords(c, 3);
        let mut streams: Vec<(Vec<u8>, Vec<bool>)> = vec![(Vec::new(), vec![true])];
        let mut done = Vec::new();
        while let Some((s, b)) = streams.pop() {
            if s.len() == total {
                done.push((s, b));
                continue;
            }
            for w in &words {
                if s.len() + w.len() <= total {
                    let mut s2 = s.clone();
                    s2.extend_from_slice(w);
                    let mut b2 = b.clone();
                    b2.extend(std::iter::repeat_n(false, w.len() - 1));
                    b2.push(true);
                    streams.push((s2, b2));
                }
            }
        }
        let margin = 3;
        let offsets = margin..total - margin - limit;
        let mut worst = 0;
        for k in 1..=limit {
            // Window → for each position p ≤ k, whether it is a boundary in all its occurrences.
            let mut settled: HashMap<&[u8], Vec<bool>> = HashMap::new();
            for (s, b) in &done {
                for o in offsets.clone() {
                    let e = settled.entry(&s[o..o + k]).or_insert_with(|| vec![true; k + 1]);
                    for p in 0..=k {
                        e[p] &= b[o + p];
                    }
                }
            }
            let unsettled = done
                .iter()
                .flat_map(|(s, _)| offsets.clone().map(move |o| &s[o..o + k]))
                .filter(|w| settled[w].iter().all(|&x| !x))
                .count();
            if unsettled == 0 {
                return Some(worst.max(k));
            }
            worst = k;
        }
        None
    }

    #[test]
    fn exact_bound_matches_the_definition() {
        // UTF-8-like: continuation bytes 80–81 are marked apart from the leads.
        let marked = codec(r#""0000000x", "1100000x 1000000x", "1110000x 1000000x 1000000x""#, "shortest", 4);
        let s = self_sync(marked.automaton()).unwrap();
        // Two continuation bytes in a row can only end a three-byte sequence.
        assert_eq!(s.bound, Bound::Units(2));
        assert_eq!(brute_force(&marked, 13, 4), Some(2));
        assert_eq!((s.witness.len(), s.witness[0]), (2, 0x80));
        // Only two forms: one continuation byte is the end of a sequence.
        let short = codec(r#""0000000x", "1100000x 1000000x""#, "shortest", 3);
        assert_eq!(self_sync(short.automaton()).unwrap().bound, Bound::Units(1));
        assert_eq!(brute_force(&short, 12, 4), Some(1));
        // X/Open-like: a lead (80–81) is also a continuation.
        let loose = codec(r#""0000000x", "1000000x 1000000x""#, "biased", 3);
        let s = self_sync(loose.automaton()).unwrap();
        assert_eq!(s.bound, Bound::Unbounded);
        assert_eq!(brute_force(&loose, 13, 4), None);
        // The witness's cycle really is ambiguous: repeated, it never settles.
        assert!(s.cycle_start.is_some());
    }

    #[test]
    fn a_codec_whose_every_unit_is_a_value_needs_no_units() {
        let ascii = codec(r#""0xxxxxxx""#, "shortest", 0x7F);
        assert_eq!(self_sync(ascii.automaton()).unwrap().bound, Bound::Units(0));
    }

    #[test]
    fn end_marked_units_settle_at_the_final_unit() {
        // Continuation-bit scheme over an alphabet: high bit = more units follow.
        let alphabet = " abcdefghijklmnopqrstuvwxyz;,-.?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\\\]^_";
        let c = LoadedCodec::from_text(&format!(
            "pub P {{ name: \"p\", unit: alphabet(\"{alphabet}\"), value: u32, range: 0 ..= 0x7FFF, layout: shortest,
                      forms: {{ \"1xxxxx* 0xxxxx\" }} }}"
        ))
        .unwrap();
        // Three units at most (15 bits): two non-final units in a row start a
        // sequence, and any final unit ends one.
        let s = self_sync(c.automaton()).unwrap();
        assert_eq!(s.bound, Bound::Units(2));
        // The worst case opens with a non-final unit (high bit set: `@`–`_`).
        assert!((b'@'..=b'_').contains(&s.witness[0]), "{}", s.witness_text());
    }

    #[test]
    fn realignment_is_measured_from_the_true_boundaries() {
        let marked = codec(r#""0000000x", "1100000x 1000000x""#, "shortest", 3);
        let e = Encoded::new(&marked, &[2, 3, 2, 0, 3]);
        let samples = realignment(&marked, &e, 200, 100, &mut Rng::new(5));
        // Starting on a continuation byte costs one unit; anywhere else none.
        assert!(samples.iter().all(|&s| s <= 1));
        assert!(samples.contains(&1) && samples.contains(&0));
    }
}
