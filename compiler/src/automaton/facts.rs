//! Facts derived from the automaton's transitions, once, for every output:
//! whether it loops other than through the start (and, if not, a depth for each
//! state that proves it), whether ASCII (and which wide code units) pass
//! through unchanged, whether digits
//! are the units themselves, which units synchronize, and how many payload bits
//! are still to come in each state (as the weight of the next payload).
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let facts = Automaton::build(&d.model, BuildOptions::default()).unwrap().facts;
//! assert_eq!(facts.depth.as_deref(), Some(&[0, 0, 1][..]));
//! assert_eq!(facts.remaining.as_deref(), Some(&[1, 1, 64][..])); // a continuation's 6 bits
//! assert!(facts.is_sync(b'A') && facts.is_sync(0xC3) && !facts.is_sync(0x80));
//! ```

use super::Automaton;
use placemat_codec::{AsciiRuns, WideRuns};

/// What the outputs need to know about an automaton.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// Some path loops other than through the start states: sequences have
    /// no length limit. (An automaton with rules across values has a start
    /// state per context, [`Automaton::contexts`]; "the start states" are
    /// all of them, "the start" the one of context 0.)
    pub cyclic: bool,
    /// For an automaton that is not cyclic, the most units still to come from
    /// every state (0 for dead and the start states): it falls along every transition
    /// between other states, which proves there is no loop.
    pub depth: Option<Vec<u8>>,
    /// Every loop other than through the start state is one state looping on
    /// itself (a repeated unit): what the branching decoder's state functions,
    /// which inline into each other, can follow.
    pub loops_on_one_state: bool,
    /// The ASCII code units (of the codec's width and byte order) that are
    /// whole sequences of themselves from the start state: what the table
    /// walkers and validators copy or skip in runs.
    pub ascii_runs: AsciiRuns,
    /// The code units wider than a byte that are whole sequences of
    /// themselves from the start state, as the two longest ranges
    /// ([`super::wide_runs`]).
    pub wide_runs: WideRuns,
    /// Every unit's digit is the unit itself.
    pub byte_digits: bool,
    /// The units every state but the start states rejects, and that every
    /// start state takes alike (bit `u % 64` of word `u / 64`).
    pub sync_units: [u64; 4],
    /// For code units wider than a byte, which byte of a code unit the sync
    /// units are ([`super::unit_sync`]); 0 for byte units.
    pub sync_lane: u8,
    /// The units every live state goes to the start or dies on: a sequence
    /// ends at each of them (`placemat_codec::dfa::Facts::end_units`).
    pub end_units: [u64; 4],
    /// When every path out of each state multiplies the value read so far by
    /// the same number modulo 2^64 before its sequence ends (2 to the payload
    /// bits still to come, or the product of the digit radices), that weight
    /// per state (1 for dead and start; 0 for a state that only units without
    /// payload reach, where nothing has been read that a weight could apply to,
    /// and for one whose weight is 0 modulo 2^64), for the expanded table
    /// (never in an automaton whose transitions place their payload, nor in one
    /// with several contexts or pending values).
    pub remaining: Option<Vec<u64>>,
    /// Every transition out of a state other than the start carries this many
    /// payload bits, and none adds a bias or places its payload (0 if not so):
    /// a valid sequence then decodes without the table, from its lead's digit
    /// and its continuation units' digits.
    pub continuation_bits: u8,
}

impl Facts {
    /// Whether units 00–7F are single-unit values of themselves from the start
    /// state (byte ASCII runs).
    pub fn is_ascii_transparent(&self) -> bool {
        self.ascii_runs == AsciiRuns::Bytes
    }

    /// Whether `unit` is a sync unit.
    pub fn is_sync(&self, unit: u8) -> bool {
        self.sync_units[unit as usize / 64] >> (unit % 64) & 1 == 1
    }
}

/// Derives every fact of the module docs.
pub(super) fn derive(a: &Automaton) -> Facts {
    let self_loops = (a.contexts + 1..a.state_count()).any(|s| a.edges[s].iter().any(|e| e.next == s));
    let depth = depth(a);
    let sync = super::unit_sync::derive(a).unwrap_or_else(|| (sync_units(a), 0));
    Facts {
        cyclic: self_loops || depth.is_none(),
        loops_on_one_state: depth.is_some(),
        depth: if self_loops { None } else { depth },
        ascii_runs: ascii_runs(a),
        wide_runs: super::wide_runs::derive(a),
        byte_digits: a.digits.iter().enumerate().all(|(u, &d)| usize::from(d) == u),
        sync_units: sync.0,
        sync_lane: sync.1,
        end_units: end_units(a),
        remaining: if a.placed || a.contexts > 1 || a.has_pending() { None } else { remaining(a) },
        continuation_bits: continuation_bits(a),
    }
}

/// The payload bits every transition out of a state other than the start
/// carries, if they agree and no transition adds a bias or places its payload.
fn continuation_bits(a: &Automaton) -> u8 {
    if a.placed
        || a.radix
        || a.contexts > 1
        || a.has_pending()
        || a.edges.iter().flatten().any(|e| e.next != 0 && e.bias != 0)
    {
        return 0;
    }
    let mut bits = (2..a.state_count()).flat_map(|s| a.edges[s].iter()).filter(|e| e.next != 0).map(|e| e.payload_bits);
    match bits.next() {
        Some(first) if bits.all(|b| b == first) => first as u8,
        _ => 0,
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

/// The widest kind of ASCII run of the automaton's unit width that decodes to
/// itself ([`AsciiRuns`]; all of `00`–`7F` before `01`–`7F`).
fn ascii_runs(a: &Automaton) -> AsciiRuns {
    let holds = |runs: AsciiRuns| {
        runs.unit_bytes() == a.unit_bytes as usize
            && (0..0x80u8).filter(|&c| runs.includes(c)).all(|c| {
                let units = runs.code_unit(c);
                decodes_to_itself(a, &units[..runs.unit_bytes()], c)
            })
    };
    AsciiRuns::ALL.into_iter().skip(1).find(|&runs| holds(runs)).unwrap_or(AsciiRuns::None)
}

/// Whether `units`, walked from the start, are one sequence of value `c`
/// (the bias of the last transition included).
fn decodes_to_itself(a: &Automaton, units: &[u8], c: u8) -> bool {
    let (mut state, mut v) = (1, 0u64);
    for (i, &u) in units.iter().enumerate() {
        let e = a.edge(state, u);
        let payload = u64::from(a.digits[u as usize]) & ((1u64 << e.payload_bits) - 1);
        v = if a.placed {
            let shift = e.place >> placemat_codec::dfa::PLACE_SHIFT;
            (v << shift) | (payload << (e.place & 0xFF))
        } else {
            v.wrapping_mul(a.multiplier(&e)).wrapping_add(payload)
        };
        state = e.next;
        let last = i + 1 == units.len();
        if state == 0 || (state == 1) != last {
            return false;
        }
        if last {
            v = v.wrapping_add(e.bias);
        }
    }
    v == u64::from(c)
}

fn end_units(a: &Automaton) -> [u64; 4] {
    let mut end = [0u64; 4];
    for u in 0..=255u8 {
        if (1..a.state_count()).all(|s| a.edge(s, u).next <= 1) {
            end[u as usize / 64] |= 1 << (u % 64);
        }
    }
    end
}

fn sync_units(a: &Automaton) -> [u64; 4] {
    let mut sync = [0u64; 4];
    for u in 0..=255u8 {
        let alike = (2..=a.contexts).all(|s| a.edge(s, u) == a.edge(1, u));
        if alike && (a.contexts + 1..a.state_count()).all(|s| a.edge(s, u).next == 0) {
            sync[u as usize / 64] |= 1 << (u % 64);
        }
    }
    sync
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
