//! A test-side builder of hand-made automata, and a slow reference decoder.
//!
//! A [`Spec`] is a list of edges `(state, unit range, next state, payload
//! bits, bias index, word)` over unpremultiplied states (0 dead, `1..=contexts`
//! the start states). [`Built::of`] derives, the obviously-correct slow way,
//! everything `Parts` can carry: one class per distinct behaviour of a unit
//! across the states, premultiplied transitions, the place or radix words,
//! the depth and `remaining` certificates, the expanded and direct tables and
//! 6-bit (or 7-bit) shift rows. [`reference_decode`] reads the edges
//! themselves, so it does not share the class map or the entry encoding with
//! the runtime it checks.
#![allow(dead_code)]

pub mod codecs;
pub mod reference;

use placemat_codec::dfa::{direct, expanded, Decoding, Parts, Payload, Rows, ShiftRows, Table};
use placemat_codec::WideRuns;

/// How payload joins the value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Join {
    Shifted,
    Placed,
    Radix,
}

/// One edge: from `from`, units `lo..=hi` go to `to` with `bits` payload bits.
#[derive(Copy, Clone, Debug)]
pub struct Edge {
    pub from: usize,
    pub lo: u8,
    pub hi: u8,
    pub to: usize,
    pub bits: u32,
    pub bias: usize,
    /// The place word (`(shift << 8) | place`) or the radix.
    pub word: u64,
}

/// An edge without bias or word.
pub fn edge(from: usize, lo: u8, hi: u8, to: usize, bits: u32) -> Edge {
    Edge { from, lo, hi, to, bits, bias: 0, word: 0 }
}

impl Edge {
    pub fn bias(mut self, bias: usize) -> Edge {
        self.bias = bias;
        self
    }
    pub fn word(mut self, word: u64) -> Edge {
        self.word = word;
        self
    }
}

/// A hand-made automaton.
#[derive(Clone, Debug)]
pub struct Spec {
    pub name: &'static str,
    /// States, the dead one included.
    pub states: usize,
    pub contexts: u8,
    pub unit_bytes: u8,
    pub join: Join,
    pub digits: [u8; 256],
    pub biases: Vec<u64>,
    pub edges: Vec<Edge>,
    pub pending: Vec<u32>,
    pub cyclic: bool,
    pub wide_runs: WideRuns,
    /// The interesting code units the walker tests combine.
    pub alphabet: Vec<&'static [u8]>,
}

impl Spec {
    /// A spec of byte units, byte digits, one context, shifted payload.
    pub fn new(name: &'static str, states: usize, edges: Vec<Edge>) -> Spec {
        Spec {
            name,
            states,
            contexts: 1,
            unit_bytes: 1,
            join: Join::Shifted,
            digits: std::array::from_fn(|u| u as u8),
            biases: vec![0],
            edges,
            pending: Vec::new(),
            cyclic: false,
            wide_runs: WideRuns::NONE,
            alphabet: Vec::new(),
        }
    }

    /// The edge unit `u` takes from state `s`, if any (else it dies).
    pub fn edge(&self, s: usize, u: u8) -> Option<&Edge> {
        self.edges.iter().find(|e| e.from == s && (e.lo..=e.hi).contains(&u))
    }

    /// Whether `s` is a start state.
    pub fn is_boundary(&self, s: usize) -> bool {
        (1..=usize::from(self.contexts)).contains(&s)
    }

    /// What the edge multiplies the value read so far by.
    fn multiplier(&self, e: &Edge) -> u64 {
        match self.join {
            Join::Radix => e.word,
            _ => 1 << e.bits,
        }
    }

    /// The payload of unit `u` on edge `e`.
    pub fn payload(&self, e: &Edge, u: u8) -> u64 {
        u64::from(self.digits[usize::from(u)]) & ((1u64 << e.bits) - 1)
    }

    /// The value after unit `u` on edge `e`, from `v`.
    pub fn join(&self, v: u64, e: &Edge, u: u8) -> u64 {
        let p = self.payload(e, u);
        match self.join {
            Join::Shifted => (v << e.bits) | p,
            Join::Placed => (v << ((e.word >> 8) & 63)) | (p << (e.word & 63)),
            Join::Radix => v.wrapping_mul(e.word).wrapping_add(p),
        }
    }
}

/// Which table the decoder reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dec {
    Classes,
    Expanded,
    Direct,
}

/// A spec and everything derived from it.
pub struct Built {
    pub spec: Spec,
    pub classes: [u8; 256],
    pub stride: usize,
    pub transitions: Vec<u32>,
    pub words: Vec<u64>,
    pub depth: Vec<u8>,
    pub remaining: Option<Vec<u64>>,
    pub expanded: Option<(Vec<u32>, Vec<u64>)>,
    pub direct: Option<(Vec<u32>, Vec<u64>)>,
    pub offsets: Vec<u8>,
    pub narrow: Option<Box<[u64; 256]>>,
    pub wide: Box<[u128; 256]>,
}

/// What a unit does from one state: next state, bits, bias and word.
type Behaviour = (usize, u32, usize, u64);

/// One class per distinct behaviour of a unit across the states, numbered
/// in order of first appearance.
fn classes(spec: &Spec) -> ([u8; 256], usize) {
    let mut seen: Vec<Vec<Option<Behaviour>>> = Vec::new();
    let mut classes = [0u8; 256];
    for u in 0..=255u8 {
        let sig: Vec<_> = (0..spec.states).map(|s| spec.edge(s, u).map(|e| (e.to, e.bits, e.bias, e.word))).collect();
        let c = seen.iter().position(|x| *x == sig).unwrap_or_else(|| {
            seen.push(sig);
            seen.len() - 1
        });
        classes[usize::from(u)] = c as u8;
    }
    (classes, seen.len())
}

/// A representative unit of every class.
fn representatives(classes: &[u8; 256], stride: usize) -> Vec<u8> {
    (0..stride).map(|c| (0..=255u8).find(|&u| usize::from(classes[usize::from(u)]) == c).unwrap()).collect()
}

impl Built {
    pub fn of(spec: Spec) -> Built {
        let (classes, stride) = classes(&spec);
        let reps = representatives(&classes, stride);
        let (mut transitions, mut words) = (Vec::new(), Vec::new());
        for s in 0..spec.states {
            for &u in &reps {
                let e = spec.edge(s, u);
                transitions.push(e.map_or(0, |e| (e.to * stride) as u32 | e.bits << 16 | (e.bias as u32) << 20));
                words.push(e.map_or(0, |e| e.word));
            }
        }
        let depth = if spec.cyclic { vec![0; spec.states] } else { depths(&spec) };
        let remaining = remaining(&spec);
        let mut b = Built {
            expanded: None,
            direct: None,
            offsets: Vec::new(),
            narrow: None,
            wide: Box::new([0; 256]),
            spec,
            classes,
            stride,
            transitions,
            words,
            depth,
            remaining,
        };
        b.expanded = b.remaining.as_ref().map(|rem| b.expanded_rows(rem));
        b.direct = (b.spec.join != Join::Radix && !b.spec.cyclic && b.spec.states <= direct::MAX_STATES)
            .then(|| b.direct_rows());
        b.shift_rows();
        b
    }

    /// The next state (unpremultiplied) of `s` on `u`, 0 if it dies.
    pub fn next(&self, s: usize, u: u8) -> usize {
        self.spec.edge(s, u).map_or(0, |e| e.to)
    }

    fn expanded_rows(&self, rem: &[u64]) -> (Vec<u32>, Vec<u64>) {
        let (mut next, mut values) = (Vec::new(), Vec::new());
        for s in 0..self.spec.states {
            for u in 0..=255u8 {
                let (n, v) = match self.spec.edge(s, u) {
                    Some(e) if e.to != 0 => {
                        let bias = if e.to == 1 { self.spec.biases[e.bias] } else { 0 };
                        (
                            (e.to * expanded::ROW) as u32,
                            self.spec.payload(e, u).wrapping_mul(rem[e.to]).wrapping_add(bias),
                        )
                    }
                    _ => (0, 0),
                };
                next.push(n);
                values.push(v);
            }
        }
        (next, values)
    }

    fn direct_rows(&self) -> (Vec<u32>, Vec<u64>) {
        let (mut next, mut values) = (Vec::new(), Vec::new());
        for s in 0..self.spec.states {
            for u in 0..=255u8 {
                let e = match self.spec.edge(s, u) {
                    None => direct::entry(0, 0, 0, 0, 0),
                    Some(e) => {
                        let (shift, place) = match self.spec.join {
                            Join::Placed => (((e.word >> 8) & 63) as u32, (e.word & 63) as u32),
                            _ => (e.bits, 0),
                        };
                        direct::entry(e.to, e.bias, shift, place, self.spec.payload(e, u) as u8)
                    }
                };
                next.push((e & direct::NEXT_MASK) as u32);
                values.push(e);
            }
        }
        (next, values)
    }

    /// Each live state at its own offset: `6 × state` in `u64` rows where
    /// that fits, else `7 × state` in `u128` rows.
    fn shift_rows(&mut self) {
        let n = self.spec.states;
        let width = if 6 * (n - 1) < 59 { 6 } else { 7 };
        self.offsets = (0..n).map(|s| (width * s) as u8).collect();
        for u in 0..=255u8 {
            let row: u128 = (0..n).map(|s| u128::from(self.offsets[self.next(s, u)]) << self.offsets[s]).sum();
            self.wide[usize::from(u)] = row;
        }
        if width == 6 {
            self.narrow = Some(Box::new(std::array::from_fn(|u| self.wide[u] as u64)));
        }
    }

    /// The table of the spec.
    pub fn table(&self) -> Table<'_> {
        let s = &self.spec;
        Table::new(&self.classes, &s.digits, &self.transitions, &s.biases)
            .with_unit_bytes(s.unit_bytes)
            .with_contexts(s.contexts)
    }

    /// The parts with the class-compressed table as decoder and no shift rows.
    pub fn base(&self) -> Parts<'_> {
        let s = &self.spec;
        let mut p = Parts::new(self.table()).with_wide_runs(s.wide_runs).with_pending(&s.pending);
        p = match s.join {
            Join::Shifted => p,
            Join::Placed => p.with_payload(Payload::Placed(&self.words)),
            Join::Radix => p.with_payload(Payload::Radix(&self.words)),
        };
        if !s.cyclic {
            p = p.with_depth(&self.depth);
        }
        p
    }

    /// The expanded decoding, if the spec has one.
    pub fn expanded(&self) -> Option<Decoding<'_>> {
        let (next, values) = self.expanded.as_ref()?;
        Some(Decoding::Expanded { rows: Rows { next, values }, remaining: self.remaining.as_ref()? })
    }

    /// The direct decoding, if the spec has one.
    pub fn direct(&self) -> Option<Decoding<'_>> {
        let (next, values) = self.direct.as_ref()?;
        Some(Decoding::Direct(Rows { next, values }))
    }

    /// The shift rows: narrow where they fit.
    pub fn shift(&self) -> ShiftRows<'_> {
        match &self.narrow {
            Some(rows) => ShiftRows::Narrow { offsets: &self.offsets, rows },
            None => ShiftRows::Wide { offsets: &self.offsets, rows: &self.wide },
        }
    }

    /// The parts with decoder `dec` (if the spec has it), with or without shift rows.
    pub fn parts(&self, dec: Dec, shift: bool) -> Option<Parts<'_>> {
        let mut p = self.base();
        p = match dec {
            Dec::Classes => p,
            Dec::Expanded => p.with_decoding(self.expanded()?),
            Dec::Direct => p.with_decoding(self.direct()?),
        };
        Some(if shift { p.with_shift(self.shift()) } else { p })
    }

    /// Every combination of decoder and shift rows the spec has.
    pub fn variants(&self) -> Vec<(Dec, bool, Parts<'_>)> {
        let mut out = Vec::new();
        for dec in [Dec::Classes, Dec::Expanded, Dec::Direct] {
            for shift in [false, true] {
                if let Some(p) = self.parts(dec, shift) {
                    out.push((dec, shift, p));
                }
            }
        }
        out
    }
}

/// The depth certificate: the longest path on to a start state (0 for the
/// dead and start states).
fn depths(spec: &Spec) -> Vec<u8> {
    fn depth(spec: &Spec, s: usize) -> u8 {
        if s == 0 || spec.is_boundary(s) {
            return 0;
        }
        let after = spec.edges.iter().filter(|e| e.from == s).map(|e| depth(spec, e.to)).max();
        1 + after.unwrap_or(0)
    }
    (0..spec.states).map(|s| depth(spec, s)).collect()
}

/// The `remaining` certificate, where every path out of every state agrees
/// on the weight still to come (shifted or radix payload, one context, no
/// pending values, no loop).
fn remaining(spec: &Spec) -> Option<Vec<u64>> {
    if spec.join == Join::Placed || spec.contexts != 1 || !spec.pending.is_empty() || spec.cyclic {
        return None;
    }
    fn weight(spec: &Spec, s: usize) -> Option<u64> {
        if s <= 1 {
            return Some(1);
        }
        let mut ws = spec.edges.iter().filter(|e| e.from == s && e.to != 0);
        let w: Vec<u64> = ws.try_fold(Vec::new(), |mut v, e| {
            v.push(spec.multiplier(e).wrapping_mul(weight(spec, e.to)?));
            Some(v)
        })?;
        w.iter().all(|&x| x == w[0]).then(|| w[0])
    }
    (0..spec.states).map(|s| weight(spec, s)).collect()
}
