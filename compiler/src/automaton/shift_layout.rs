//! The shift-DFA validator's layout: states merged by acceptance, a bit offset
//! for each, and one row per unit (the runtime's `dfa` module docs describe how
//! the validator steps through them).
//!
//! Validation only needs the automaton's language, so the states are first
//! merged by acceptance (the `minimize` pass with outputs erased); strict UTF-8
//! keeps its 9 states. Up to 10 merged states get offsets `k·6` in `u64` rows.
//! Beyond, the `shift_search` looks for offsets whose 6-bit fields
//! overlap where every row agrees, so that the rows still fit a `u64`; failing
//! that, up to 18 merged states get `k·7` in `u128` rows, and larger automata
//! get none (the validator then walks the table). All the built-in codecs get
//! `u64` rows: FSS-UTF of 1992 and Ken Thompson's draft (11 states), UTF-8
//! extended to 36 bits (12) and to 42 bits (14) by overlapping fields.
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let shift = Automaton::build(&d.model, BuildOptions::default()).unwrap().shift;
//! assert_eq!((shift.width, shift.merged), (6, 3));
//! assert_eq!(shift.offsets, [0, 6, 12]); // dead, start, one to go
//! // From the start, C3 goes to "one to go" (offset 12); from there, to dead.
//! assert_eq!((shift.rows[0xC3] >> 6) & 63, 12);
//! assert_eq!((shift.rows[0xC3] >> 12) & 63, 0);
//! ```
//!
//! # Lineage
//! Per Vognsen, "shift-based DFAs" (2020): one row per unit, a shift per step.
//! Overlapping fields follow Dougall Johnson, who had an SMT solver place strict
//! UTF-8's 9 fields in 32-bit rows; here a small search of our own does the
//! placing, for `u64` rows.

use std::collections::HashMap;

use super::machine::Machine;
use super::minimize::minimize;
use super::shift_search::{search, Solved, BUDGET, MAX_STATES};
use super::Automaton;

/// The validator's layout.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShiftLayout {
    /// Bits per field: 6 (`u64` rows), 7 (`u128` rows), or 0 (no rows).
    pub width: u32,
    /// How many states remain after merging by acceptance.
    pub merged: usize,
    /// Whether the offsets came from the search (fields overlap).
    pub solved: bool,
    /// The offset of every automaton state (merged states share one); empty
    /// without rows.
    pub offsets: Vec<u8>,
    /// The row of every unit (`u64` rows widened); empty without rows.
    pub rows: Vec<u128>,
}

/// The automaton merged by acceptance: the merged id of every state (dead 0,
/// start 1, the rest in order of first appearance) and the merged columns.
struct Merged {
    id: Vec<usize>,
    count: usize,
    /// `cols[c][k]`: the successor of merged state `k` on class `c`.
    cols: Vec<[u8; MAX_STATES]>,
}

fn merge(a: &Automaton) -> Option<Merged> {
    let width = a.class_count();
    let mut m = Machine::new(width, a.state_count());
    for (s, row) in a.edges.iter().enumerate() {
        for (c, e) in row.iter().enumerate() {
            m.next[s * width + c] = e.next;
        }
    }
    let block = minimize(&m, a.contexts);
    let mut ids: HashMap<usize, usize> = HashMap::new();
    let id: Vec<usize> = block
        .iter()
        .map(|&b| {
            let next = ids.len();
            *ids.entry(b).or_insert(next)
        })
        .collect();
    let count = ids.len();
    if count > MAX_STATES {
        return None;
    }
    let mut rep = vec![0; count];
    for s in (0..a.state_count()).rev() {
        rep[id[s]] = s;
    }
    let cols = (0..width)
        .map(|c| {
            let mut col = [0u8; MAX_STATES];
            for (k, &s) in rep.iter().enumerate() {
                col[k] = id[a.edges[s][c].next] as u8;
            }
            col
        })
        .collect();
    Some(Merged { id, count, cols })
}

/// The layout of an automaton (see the module docs).
pub fn layout(a: &Automaton) -> ShiftLayout {
    let Some(m) = merge(a) else { return ShiftLayout::default() };
    let plain = |width: u32| (0..m.count).map(|k| (k as u32 * width) as u8).collect::<Vec<u8>>();
    let (width, solved, merged_offsets) = if m.count <= 10 {
        (6, false, plain(6))
    } else {
        // Units whose columns are equal get equal rows: the search looks at each
        // column once, in class order.
        let mut distinct: Vec<[u8; MAX_STATES]> = Vec::new();
        for col in &m.cols {
            if !distinct.contains(col) {
                distinct.push(*col);
            }
        }
        match search(&distinct, m.count, BUDGET) {
            Solved::Layout(offsets) => (6, true, offsets),
            Solved::Impossible | Solved::GaveUp => (7, false, plain(7)),
        }
    };
    let rows = (0..256)
        .map(|u| {
            let col = &m.cols[a.classes[u] as usize];
            let row = (0..m.count)
                .fold(0u128, |row, k| row | u128::from(merged_offsets[col[k] as usize]) << merged_offsets[k]);
            if width == 6 {
                row & u128::from(u64::MAX)
            } else {
                row
            }
        })
        .collect();
    let offsets = m.id.iter().map(|&k| merged_offsets[k]).collect();
    ShiftLayout { width, merged: m.count, solved, offsets, rows }
}
