//! The sync units of an automaton of code units wider than a byte
//! (`placemat_codec::dfa::Facts::sync_lane`): bytes at one place of a code
//! unit that mark a code unit every state between code units, but the start,
//! rejects. UTF-16 has no byte that every state but the start rejects (any byte
//! may be a low byte), yet between code units only the start and the state
//! after a high surrogate occur, and the latter rejects every code unit whose
//! high byte is not `DC`–`DF`: those bytes, at the high byte's place, let two
//! walks cut UTF-16 text.
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub Ucs2 { name: "ucs2", unit: u16le, value: u32, range: 0 ..= 0xFFFF,
//!                forms: { "xxxxxxxxxxxxxxxx" } }
//! "#).unwrap();
//! let facts = Automaton::build(&d.model, BuildOptions::default()).unwrap().facts;
//! // Every code unit is a whole sequence: every place of every one is a cut.
//! assert_eq!((facts.sync_units, facts.sync_lane), ([u64::MAX; 4], 0));
//! ```

use super::Automaton;
use placemat_codec::dfa::MAX_UNIT_SYNC_STATES;

/// The states `units` steps of any unit lead the states of `from` to.
fn reach(a: &Automaton, from: &[bool], units: usize) -> Vec<bool> {
    let mut set = from.to_vec();
    for _ in 0..units {
        let mut to = vec![false; set.len()];
        for s in (0..set.len()).filter(|&s| set[s]) {
            for e in &a.edges[s] {
                to[e.next] = true;
            }
        }
        set = to;
    }
    set
}

/// The states a walk can be in between code units of `w` bytes, but the start.
fn between_units(a: &Automaton, w: usize) -> Vec<bool> {
    let mut seen = vec![false; a.state_count()];
    seen[1] = true;
    loop {
        let reached = reach(a, &seen, w);
        let grown: Vec<bool> = seen.iter().zip(&reached).map(|(&x, &y)| x || y).collect();
        if grown == seen {
            break;
        }
        seen = grown;
    }
    seen[1] = false;
    seen
}

/// The states from which every `k` units lead to the dead state.
fn doomed(a: &Automaton, k: usize) -> Vec<bool> {
    let mut dead: Vec<bool> = (0..a.state_count()).map(|s| s == 0).collect();
    for _ in 0..k {
        dead = (0..a.state_count()).map(|s| a.edges[s].iter().all(|e| dead[e.next])).collect();
    }
    dead
}

/// The sync bytes at place `lane` of a code unit of `w` bytes.
fn at_lane(a: &Automaton, between: &[bool], w: usize, lane: usize) -> [u64; 4] {
    let states = reach(a, between, lane);
    let dies = doomed(a, w - 1 - lane);
    let mut sync = [0u64; 4];
    for b in 0..=255u8 {
        if (0..a.state_count()).filter(|&s| states[s]).all(|s| dies[a.edge(s, b).next]) {
            sync[usize::from(b / 64)] |= 1 << (b % 64);
        }
    }
    sync
}

/// The sync units and their place in a code unit, for code units wider than
/// a byte (`None` for byte units): of the place with the most sync bytes, the
/// first of those; none with several contexts or more than
/// [`MAX_UNIT_SYNC_STATES`] states.
pub(super) fn derive(a: &Automaton) -> Option<([u64; 4], u8)> {
    let w = a.unit_bytes as usize;
    if w <= 1 {
        return None;
    }
    if a.contexts > 1 || a.state_count() > MAX_UNIT_SYNC_STATES {
        return Some(([0; 4], 0));
    }
    let between = between_units(a, w);
    let count = |set: &[u64; 4]| set.iter().map(|x| x.count_ones()).sum::<u32>();
    (0..w)
        .map(|lane| (at_lane(a, &between, w, lane), lane as u8))
        .max_by_key(|(set, lane)| (count(set), std::cmp::Reverse(*lane)))
}
