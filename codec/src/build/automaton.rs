//! Pass 4: model → unit-range sequences → DFA (subset construction) → minimal DFA
//! (Hopcroft) → unit classes → tables in the [`crate::dfa`] format.
//!
//! ```
//! use placemat_codec::build::{build_dfa, BuildOptions, Description};
//! let d = Description::parse_str(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let built = build_dfa(&d.model, BuildOptions::default()).unwrap();
//! // Classes: 00–7F, 80–BF, C0–C1 (overlong leads) with F8.., C2–DF, E0–FF.
//! assert_eq!(built.dfa.class_count(), 4);
//! // States: dead, start, "one continuation to go".
//! assert_eq!(built.dfa.state_count(), 3);
//! ```
//!
//! The automaton is a transducer, not just a recognizer: each transition says how
//! many payload bits the unit contributes and which bias a completing transition
//! adds. Minimization treats those outputs as part of a transition's label, so two
//! states that accept the same unit sequences but compute different values (as in
//! X/Open FSS-UTF, whose forms have different biases) are never merged.
//!
//! # Lineage
//! Subset construction and Hopcroft's partition refinement (Hopcroft 1971, in the
//! worklist form of regex-automata's `dfa/minimize.rs`), extended to Mealy outputs;
//! the result for strict UTF-8 is Höhrmann's 12-class, 9-state automaton, derived
//! rather than transcribed.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt;

use num_traits::ToPrimitive;

use super::model::{ConcreteForm, Model, UnitSet};
use super::sequences::split_range;
use crate::dfa::{entry, Dfa, DEAD, MAX_BIASES};

/// Switches for the automaton builder. The defaults build the production tables;
/// the others exist to test that minimization and classes change nothing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Run Hopcroft minimization.
    pub minimize: bool,
    /// Group units into classes (otherwise every byte is its own class).
    pub classes: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions { minimize: true, classes: true }
    }
}

/// Why tables could not be built from a (valid) model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// The model has values of any size, but its longer lengths do not settle into
    /// a loop the automaton can follow.
    Unbounded,
    /// Two forms share a unit prefix but place payload differently.
    PayloadConflict,
    /// More states or biases than the table format can index.
    TooLarge,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BuildError::Unbounded => "the lengths of this unbounded description do not settle into a repeating pattern",
            BuildError::PayloadConflict => "two forms share a unit prefix but place payload differently",
            BuildError::TooLarge => "the automaton is too large for the table format",
        })
    }
}

impl std::error::Error for BuildError {}

/// What the builder produced.
#[derive(Clone, Debug)]
pub struct Built {
    /// The tables.
    pub dfa: Dfa<Vec<u32>, Vec<u64>>,
}

fn set_has(s: &UnitSet, b: u8) -> bool {
    s[(b >> 6) as usize] >> (b & 63) & 1 == 1
}

/// One path through the automaton: a unit set and payload width per position. A
/// path of an unbounded codec may let one position repeat (`looped`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Path {
    sets: Vec<UnitSet>,
    bits: Vec<u32>,
    bias: u64,
    looped: Option<usize>,
}

impl Path {
    /// The same path with position `at` written twice.
    fn with_copy_of(&self, at: usize) -> Path {
        let mut p = self.clone();
        p.sets.insert(at, p.sets[at]);
        p.bits.insert(at, p.bits[at]);
        p
    }
}

/// The output of one transition: payload bits, and the bias if it completes.
type Output = (u32, u64);

/// A DFA before table layout: state 0 dead, state 1 start.
struct RawDfa {
    /// `next[s][b]` and `out[s][b]`.
    next: Vec<[usize; 256]>,
    out: Vec<[Output; 256]>,
}

/// The paths of one concrete form: its valid values, split into digit ranges.
fn form_paths(model: &Model, form: &ConcreteForm) -> Result<Vec<Path>, BuildError> {
    let mut out = Vec::new();
    let bias = form.bias.to_u64().ok_or(BuildError::TooLarge)?;
    let widths: Vec<u32> = form.units.iter().map(|u| u.payload_bits).collect();
    for (lo, hi) in model.valid_ranges(form) {
        let lo = (&lo - &form.bias).to_u128().ok_or(BuildError::TooLarge)?;
        let hi = (&hi - &form.bias).to_u128().ok_or(BuildError::TooLarge)?;
        for seq in split_range(lo, hi, &widths) {
            let sets = seq.iter().zip(&form.units).map(|(&(dlo, dhi), pat)| model.unit_set(pat, dlo, dhi)).collect();
            out.push(Path { sets, bits: widths.clone(), bias, looped: None });
        }
    }
    Ok(out)
}

fn paths(model: &Model) -> Result<Vec<Path>, BuildError> {
    if model.is_bounded() {
        let mut out = Vec::new();
        for form in model.concrete_forms() {
            out.extend(form_paths(model, &form)?);
        }
        return Ok(out);
    }
    unbounded_paths(model)
}

/// Paths of a model with values of any size (validated: shortest layout, the last
/// form repeats). Short lengths are listed one by one; from the first length whose
/// values lie above every number the description mentions, each longer length only
/// adds one more unconstrained repeated unit, so one looping path per shape covers
/// them all. That step is checked, not assumed: lengths r, r+1 and r+2 must differ
/// exactly by copies of the looped unit.
fn unbounded_paths(model: &Model) -> Result<Vec<Path>, BuildError> {
    let last = model.forms.len() - 1;
    let repeat = model.forms[last].repeat.ok_or(BuildError::Unbounded)?;
    let ceiling = model
        .excluded
        .iter()
        .map(|(_, hi)| hi.clone())
        .chain([model.min.clone(), num_bigint::BigUint::from(model.premap.as_ref().map_or(0, Vec::len))])
        .max()
        .unwrap_or_default();
    let base_len = model.forms.iter().map(|f| f.units.len()).max().unwrap_or(1);
    // Grow the length limit until the repeated form's newest length starts above
    // the ceiling.
    let mut limit = base_len;
    let forms = loop {
        let forms = model.concrete_forms_upto(Some(limit));
        if forms.last().is_some_and(|f| f.form == last && f.lo > ceiling) {
            break forms;
        }
        limit += 1;
        if limit > base_len + 200 {
            return Err(BuildError::Unbounded);
        }
    };
    let mut out = Vec::new();
    for f in &forms {
        out.extend(form_paths(model, f)?);
    }
    let tail = model.concrete_forms_upto(Some(limit + 3));
    let shape = |reps: usize| -> Result<Vec<Path>, BuildError> {
        let f = tail.iter().find(|f| f.form == last && f.reps == reps).ok_or(BuildError::Unbounded)?;
        form_paths(model, f)
    };
    let r = forms.last().map_or(0, |f| f.reps) + 1;
    let (p1, p2, p3) = (shape(r)?, shape(r + 1)?, shape(r + 2)?);
    // The looped position: the last copy of the repeated unit.
    let at = repeat + r - 1;
    let twice: Vec<Path> = p1.iter().map(|p| p.with_copy_of(at)).collect();
    let thrice: Vec<Path> = twice.iter().map(|p| p.with_copy_of(at)).collect();
    if twice != p2 || thrice != p3 {
        return Err(BuildError::Unbounded);
    }
    out.extend(p1.into_iter().map(|p| Path { looped: Some(at), ..p }));
    Ok(out)
}

fn determinize(paths: &[Path]) -> Result<RawDfa, BuildError> {
    type Key = Vec<(u32, u32)>;
    let start: Key = (0..paths.len() as u32).map(|p| (p, 0)).collect();
    let mut ids: HashMap<Key, usize> = HashMap::new();
    let mut keys: Vec<Key> = vec![Vec::new(), start.clone()];
    ids.insert(Vec::new(), DEAD);
    ids.insert(start, 1);
    let mut raw = RawDfa { next: vec![[DEAD; 256]; 2], out: vec![[(0, 0); 256]; 2] };
    let mut queue = VecDeque::from([1usize]);
    while let Some(s) = queue.pop_front() {
        let key = keys[s].clone();
        for b in 0..=255u8 {
            let mut next: Key = Vec::new();
            let mut output: Option<Output> = None;
            let mut complete = false;
            for &(p, i) in &key {
                let path = &paths[p as usize];
                if !set_has(&path.sets[i as usize], b) {
                    continue;
                }
                let done = i as usize + 1 == path.sets.len();
                let o = (path.bits[i as usize], if done { path.bias } else { 0 });
                if output.is_some_and(|x| x != o) {
                    return Err(BuildError::PayloadConflict);
                }
                output = Some(o);
                complete |= done;
                if !done {
                    next.push((p, i + 1));
                }
                if path.looped == Some(i as usize) {
                    next.push((p, i));
                }
            }
            next.sort_unstable();
            next.dedup();
            // Validation made the forms prefix-free, so a completing unit completes
            // every path it continues.
            if complete && !next.is_empty() {
                return Err(BuildError::PayloadConflict);
            }
            let target = if complete {
                1
            } else if next.is_empty() {
                DEAD
            } else {
                *ids.entry(next.clone()).or_insert_with(|| {
                    keys.push(next);
                    raw.next.push([DEAD; 256]);
                    raw.out.push([(0, 0); 256]);
                    queue.push_back(keys.len() - 1);
                    keys.len() - 1
                })
            };
            raw.next[s][b as usize] = target;
            raw.out[s][b as usize] = if target == DEAD { (0, 0) } else { output.unwrap_or((0, 0)) };
        }
    }
    Ok(raw)
}

/// Hopcroft's algorithm on a Mealy machine: the coarsest partition that separates
/// the start state, separates different outputs, and is stable under transitions.
/// Returns the block of every state.
fn minimize(raw: &RawDfa) -> Vec<usize> {
    let n = raw.next.len();
    // Symbols: bytes with identical columns behave alike; refine over those.
    let mut columns: BTreeMap<Vec<(usize, Output)>, u8> = BTreeMap::new();
    for b in 0..=255u8 {
        let col: Vec<(usize, Output)> = (0..n).map(|s| (raw.next[s][b as usize], raw.out[s][b as usize])).collect();
        columns.entry(col).or_insert(b);
    }
    let symbols: Vec<u8> = columns.values().copied().collect();

    // Initial partition by signature.
    let mut by_sig: BTreeMap<(bool, Vec<Output>), Vec<usize>> = BTreeMap::new();
    for s in 0..n {
        let sig = (s == 1, symbols.iter().map(|&b| raw.out[s][b as usize]).collect());
        by_sig.entry(sig).or_default().push(s);
    }
    let mut blocks: Vec<Vec<usize>> = by_sig.into_values().collect();
    let mut block_of = vec![0usize; n];
    for (i, blk) in blocks.iter().enumerate() {
        for &s in blk {
            block_of[s] = i;
        }
    }
    // Predecessors per symbol.
    let mut preds: Vec<Vec<Vec<usize>>> = vec![vec![Vec::new(); n]; symbols.len()];
    for (k, &b) in symbols.iter().enumerate() {
        for s in 0..n {
            preds[k][raw.next[s][b as usize]].push(s);
        }
    }
    let mut work: BTreeSet<usize> = (0..blocks.len()).collect();
    while let Some(a) = work.pop_first() {
        let splitter = blocks[a].clone();
        for pk in &preds {
            let x: BTreeSet<usize> = splitter.iter().flat_map(|&t| pk[t].iter().copied()).collect();
            if x.is_empty() {
                continue;
            }
            let touched: BTreeSet<usize> = x.iter().map(|&s| block_of[s]).collect();
            for y in touched {
                let (inside, outside): (Vec<usize>, Vec<usize>) = blocks[y].iter().partition(|s| x.contains(s));
                if outside.is_empty() {
                    continue;
                }
                let new = blocks.len();
                for &s in &outside {
                    block_of[s] = new;
                }
                let smaller_is_inside = inside.len() <= outside.len();
                blocks[y] = inside;
                blocks.push(outside);
                if work.contains(&y) || !smaller_is_inside {
                    work.insert(new);
                }
                if !work.contains(&y) && smaller_is_inside {
                    work.insert(y);
                }
            }
        }
    }
    block_of
}

/// Builds the tables of a bounded model.
pub fn build_dfa(model: &Model, options: BuildOptions) -> Result<Built, BuildError> {
    let paths = paths(model)?;
    let raw = determinize(&paths)?;
    let block_of: Vec<usize> = if options.minimize { minimize(&raw) } else { (0..raw.next.len()).collect() };

    // Number blocks: dead 0, start 1, the rest in breadth-first order from start.
    let mut number: HashMap<usize, usize> = HashMap::new();
    number.insert(block_of[DEAD], 0);
    number.insert(block_of[1], 1);
    let mut order = vec![DEAD, 1];
    let mut queue = VecDeque::from([1usize]);
    while let Some(s) = queue.pop_front() {
        for b in 0..256 {
            let t = raw.next[s][b];
            if let std::collections::hash_map::Entry::Vacant(e) = number.entry(block_of[t]) {
                e.insert(order.len());
                order.push(t);
                queue.push_back(t);
            }
        }
    }
    let states = order.len();

    // Classes: bytes with identical columns over the final states.
    let mut classes = [0u8; 256];
    let mut class_reps: Vec<usize> = Vec::new();
    if options.classes {
        let mut seen: HashMap<Vec<(usize, Output)>, u8> = HashMap::new();
        for b in 0..256 {
            let col: Vec<(usize, Output)> =
                order.iter().map(|&s| (number[&block_of[raw.next[s][b]]], raw.out[s][b])).collect();
            let next_id = seen.len();
            let id = *seen.entry(col).or_insert_with(|| {
                class_reps.push(b);
                next_id as u8
            });
            classes[b] = id;
        }
    } else {
        for (b, c) in classes.iter_mut().enumerate() {
            *c = b as u8;
        }
        class_reps = (0..256).collect();
    }
    let stride = class_reps.len();
    if states * stride > 0xFFFF {
        return Err(BuildError::TooLarge);
    }

    let mut biases: Vec<u64> = vec![0];
    for p in &paths {
        if !biases.contains(&p.bias) {
            biases.push(p.bias);
        }
    }
    biases[1..].sort_unstable();
    if biases.len() > MAX_BIASES {
        return Err(BuildError::TooLarge);
    }
    let mut trans = vec![0u32; states * stride];
    for (i, &s) in order.iter().enumerate() {
        for (c, &b) in class_reps.iter().enumerate() {
            let t = number[&block_of[raw.next[s][b]]];
            let (bits, bias) = raw.out[s][b];
            let bias_index = biases.iter().position(|&x| x == bias).unwrap_or(0);
            trans[i * stride + c] = entry(t * stride, bits, bias_index);
        }
    }
    let digits: [u8; 256] = std::array::from_fn(|b| model.digit_of(b as u8).unwrap_or(0));
    let dfa = Dfa::new(classes, digits, trans, biases).map_err(|_| BuildError::TooLarge)?.with_expanded_table();
    Ok(Built { dfa })
}
