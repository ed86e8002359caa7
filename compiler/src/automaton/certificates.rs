//! What the compiler finds by a search of the automaton and hands on with a
//! proof the runtime checks (`placemat_codec::dfa`'s `check` pass): that no
//! path loops but through the start states (a depth per state that falls
//! along every transition, or every transition but a state's payload-free
//! loop on itself), and the weight of the payload still to come in
//! each state (the expanded table's certificate); and whether every loop is a
//! state looping on itself (what the branching decoder can follow). The facts
//! the runtime derives from its tables (sync and end units, ASCII runs, …)
//! are not here: the automaton holds the runtime's own
//! ([`Automaton::facts`], from `placemat_codec::dfa::Facts::of`).
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let a = Automaton::build(&d.model, BuildOptions::default()).unwrap();
//! assert_eq!(a.certificates.depth.as_deref(), Some(&[0, 0, 1][..]));
//! assert_eq!(a.certificates.remaining.as_deref(), Some(&[1, 1, 64][..])); // a continuation's 6 bits
//! assert!(a.facts.is_sync(b'A') && a.facts.is_sync(0xC3) && !a.facts.is_sync(0x80));
//! ```

use super::Automaton;

/// The compiler's searches of an automaton, with their certificates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Certificates {
    /// For an automaton that is not cyclic, the most units still to come from
    /// every state (0 for dead and the start states): it falls along every transition
    /// between other states, which proves there is no loop. `None` when some
    /// path loops other than through the start states.
    pub depth: Option<Vec<u8>>,
    /// For an automaton whose only loops are states looping on themselves on
    /// units that carry no payload (padding without a limit), the same
    /// certificate: it falls along every transition but those loops.
    pub padding_depth: Option<Vec<u8>>,
    /// Every loop other than through the start state is one state looping on
    /// itself (a repeated unit): what the branching decoder's state functions,
    /// which inline into each other, can follow.
    pub loops_on_one_state: bool,
    /// When every path out of each state multiplies the value read so far by
    /// the same number modulo 2^64 before its sequence ends (2 to the payload
    /// bits still to come, or the product of the digit radices), that weight
    /// per state (1 for dead and start; 0 for a state that only units without
    /// payload reach, where nothing has been read that a weight could apply to,
    /// and for one whose weight is 0 modulo 2^64), for the expanded table
    /// (never in an automaton whose transitions place their payload, nor in one
    /// with several contexts or pending values).
    pub remaining: Option<Vec<u64>>,
}

/// Searches for every certificate of the module docs.
pub(super) fn derive(a: &Automaton) -> Certificates {
    let self_loops: Vec<&super::Edge> =
        (a.contexts + 1..a.state_count()).flat_map(|s| a.edges[s].iter().filter(move |e| e.next == s)).collect();
    let free = self_loops.iter().all(|e| e.payload_bits == 0 && e.place == 0);
    let depth = depth(a);
    Certificates {
        loops_on_one_state: depth.is_some(),
        padding_depth: if !self_loops.is_empty() && free && !a.radix { depth.clone() } else { None },
        depth: if self_loops.is_empty() { depth } else { None },
        remaining: if a.placed || a.contexts > 1 || a.has_pending() { None } else { remaining(a) },
    }
}

/// The successors of `s` other than dead, the start states and `s` itself.
fn inner(a: &Automaton, s: usize) -> impl Iterator<Item = usize> + '_ {
    a.edges[s].iter().map(|e| e.next).filter(move |&t| t > a.contexts && t != s)
}

/// The longest path from each state to the start, not counting a state's
/// loops on itself, or `None` if some path loops through several states
/// without passing the start (depth-first, iteratively).
fn depth(a: &Automaton) -> Option<Vec<u8>> {
    let n = a.state_count();
    // 0 unvisited, 1 on the stack, 2 done.
    let mut mark = vec![0u8; n];
    let mut depth = vec![0usize; n];
    for root in a.contexts + 1..n {
        if mark[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        mark[root] = 1;
        while let Some(&mut (s, ref mut i)) = stack.last_mut() {
            let succ: Vec<usize> = inner(a, s).collect();
            if let Some(&t) = succ.get(*i) {
                *i += 1;
                match mark[t] {
                    1 => return None,
                    0 => {
                        mark[t] = 1;
                        stack.push((t, 0));
                    }
                    _ => {}
                }
            } else {
                depth[s] = 1 + succ.iter().map(|&t| depth[t]).max().unwrap_or(0);
                mark[s] = 2;
                stack.pop();
            }
        }
    }
    depth.iter().map(|&d| u8::try_from(d).ok()).collect()
}

/// The weight of the payload still to come per state (the product of the
/// multipliers up to the sequence's end, modulo 2^64), when every path agrees
/// and the automaton is not cyclic. A state only reached by units without
/// payload ([`unweighted`]) has read nothing a weight could apply to, so its
/// paths need not agree: its weight is 0 (the runtime's checks call it
/// fresh; `placemat_codec::dfa::expanded`).
fn remaining(a: &Automaton) -> Option<Vec<u64>> {
    let n = a.state_count();
    let free = unweighted(a);
    let mut rem: Vec<Option<u64>> = vec![None; n];
    rem[0] = Some(1);
    rem[1] = Some(1);
    // Relax until nothing changes: without loops, n passes settle every state.
    for _ in 0..=n {
        let mut changed = false;
        for s in (2..n).filter(|&s| !free[s]) {
            for e in a.edges[s].iter().filter(|e| e.next != 0) {
                let Some(after) = rem[e.next] else { continue };
                let here = a.multiplier(e).wrapping_mul(after);
                match rem[s] {
                    None => {
                        rem[s] = Some(here);
                        changed = true;
                    }
                    Some(r) if r != here => return None,
                    Some(_) => {}
                }
            }
        }
        if !changed {
            break;
        }
    }
    for s in (2..n).filter(|&s| free[s]) {
        rem[s] = Some(0);
    }
    let rem: Vec<u64> = rem.into_iter().collect::<Option<_>>()?;
    let mut paid = vec![false; n];
    for (s, row) in a.edges.iter().enumerate().skip(1) {
        for e in row.iter().filter(|e| e.next != 0) {
            paid[e.next] |= e.payload_bits != 0;
            if s >= 2 && !free[s] && rem[s] != a.multiplier(e).wrapping_mul(rem[e.next]) {
                return None;
            }
        }
    }
    // A weight of 0 where payload was read is a weight 0 modulo 2^64; where
    // none was, the state must be one the checks take for fresh.
    (2..n).all(|s| free[s] || rem[s] != 0 || paid[s]).then_some(rem)
}

/// The states other than the start states that only units without payload
/// reach, each from the start or from another such state (CESU-8's state
/// after `ED`, a literal unit that begins both a three-unit and a six-unit
/// form): the value read there is 0 whatever comes next.
fn unweighted(a: &Automaton) -> Vec<bool> {
    let n = a.state_count();
    let mut free: Vec<bool> = (0..n).map(|s| s >= 2).collect();
    // Only ever cleared; without loops, n passes settle every state.
    for _ in 0..=n {
        let mut changed = false;
        for (s, row) in a.edges.iter().enumerate().skip(1) {
            for e in row.iter().filter(|e| e.next >= 2) {
                let weighs = (s >= 2 && !free[s]) || e.payload_bits != 0;
                if free[e.next] && weighs {
                    free[e.next] = false;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    free
}
