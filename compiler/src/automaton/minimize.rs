//! Hopcroft's partition refinement on a Mealy machine: the coarsest partition
//! that keeps each start state (one per context, states `1..=starts`) apart,
//! separates different outputs and different pending values, and is stable under transitions. The automaton builder runs it with outputs (two states
//! that accept the same sequences but compute different values are never
//! merged); the shift-layout pass runs it on outputs erased (validation needs
//! only the language).
//!
//! # Lineage
//! J. Hopcroft, "An n log n algorithm for minimizing states in a finite
//! automaton" (1971), in the worklist form of regex-automata's `dfa/minimize.rs`,
//! extended to Mealy outputs.

use std::collections::{BTreeMap, BTreeSet};

use super::machine::{Machine, Output, Pending};

/// The block of every state; states `1..=starts` are each a block of their own.
pub(crate) fn minimize(m: &Machine, starts: usize) -> Vec<usize> {
    let n = m.states();
    // Symbols with identical columns behave alike; refine over one of each.
    let mut columns: BTreeMap<Vec<(usize, Output)>, usize> = BTreeMap::new();
    for b in 0..m.width {
        let col: Vec<(usize, Output)> = (0..n).map(|s| (m.next(s, b), m.out(s, b))).collect();
        columns.entry(col).or_insert(b);
    }
    let symbols: Vec<usize> = columns.values().copied().collect();

    // Initial partition by signature.
    let mut by_sig: BTreeMap<(usize, Option<Pending>, Vec<Output>), Vec<usize>> = BTreeMap::new();
    for s in 0..n {
        let start = if (1..=starts).contains(&s) { s } else { 0 };
        let sig = (start, m.pending[s], symbols.iter().map(|&b| m.out(s, b)).collect());
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
            preds[k][m.next(s, b)].push(s);
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
