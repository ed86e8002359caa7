//! Subset construction over [`super::paths`]: a state is the set of positions
//! in the paths that the units read so far may be at. Each transition carries
//! its payload width and, when it completes a sequence, the bias. Paths of two
//! forms that accept the same units, of which one accepts a prefix of the
//! other's, or that disagree on a shared unit's output, *clash*: the clash comes
//! back with the units that lead to it, for the validator to report (after
//! [`super::paths`] has folded what constant payload it can). Each state also
//! records which concrete forms it may still be in.
//!
//! With `overlap: longest` ([`crate::model::Model::longest`]), a unit that
//! completes one path while others go on is no clash: the sequence read so
//! far is a *pending* value, marked in the state's key, which the state
//! carries until a longer path completes (and replaces it) or every path dies
//! (and the decoder takes the pending value, then reads on after it). The
//! machine's transitions follow the longer paths only; each state records its
//! pending value ([`Pending`]).

use std::collections::{BTreeSet, HashMap, VecDeque};

use super::machine::{Machine, Pending};
use super::paths::Path;
use super::BuildError;
use crate::limits;
use crate::model::UnitSet;

/// The units of a set, lowest first.
fn units(s: &UnitSet) -> impl Iterator<Item = u8> + '_ {
    (0..4).flat_map(move |w| {
        let mut bits = s[w];
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                (w * 64 + b as usize) as u8
            })
        })
    })
}

/// A state of the subset construction: positions `(path, index)`, and, last,
/// at most one pending marker `(path, PENDING - back)`.
type Key = Vec<(u32, u32)>;

/// The index of a fresh pending marker; `back` units later it is `PENDING - back`.
const PENDING: u32 = u32::MAX;

/// Whether a key entry is a pending marker: no path is that long.
fn is_marker(index: u32) -> bool {
    index > PENDING / 2
}

/// The pending marker of `key`: the path that completed and the units read since.
fn marker(key: &Key) -> Option<(u32, u32)> {
    key.last().filter(|&&(_, i)| is_marker(i)).map(|&(p, i)| (p, PENDING - i))
}

/// The determinized machine over the 256 units, with the forms of every state.
pub(super) struct Determinized {
    pub machine: Machine,
    pub forms: Vec<BTreeSet<usize>>,
    /// The start states, one per context: states `1..=starts`.
    pub starts: usize,
}

/// Where the positions of one state go on one unit.
#[derive(Clone, Default)]
struct Successor {
    next: Key,
    /// The payload bits and place code, with the path that set them.
    output: Option<((u32, u32), u32)>,
    /// A path the unit completes, with its bias.
    complete: Option<(u32, u64)>,
}

/// Two paths that cannot share a state, found by the subset construction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Clash {
    /// What is wrong.
    pub kind: ConflictKind,
    /// The two paths, each at the position reading the unit.
    pub paths: [(u32, u32); 2],
    /// The units from the start up to and including the one that clashes.
    pub units: Vec<u8>,
}

/// How two forms clash on a unit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ConflictKind {
    /// Both end on it: one sequence, two forms.
    SameUnits,
    /// One ends on it and the other goes on: a sequence is a prefix of another.
    Prefix,
    /// Both read it but take different payload bits (or, ending, different biases).
    Payload,
}

/// Why the subset construction stopped.
pub(super) enum Failure {
    /// Two paths clash.
    Clash(Clash),
    /// A limit of [`crate::limits`] would be passed.
    Build(BuildError),
}

impl From<BuildError> for Failure {
    fn from(e: BuildError) -> Self {
        Failure::Build(e)
    }
}

/// Where the positions of `key` go on every unit, visiting each position's
/// units only (the work is the sum of their sizes, counted into `steps`). A
/// clash comes back with the clashing unit as its only unit.
fn successors(paths: &[Path], key: &Key, longest: bool, steps: &mut u64) -> Result<Vec<Successor>, Failure> {
    let mut out = vec![Successor::default(); 256];
    let clash =
        |kind, a: (u32, u32), b: (u32, u32), unit: u8| Failure::Clash(Clash { kind, paths: [a, b], units: vec![unit] });
    for &(p, i) in key.iter().filter(|&&(_, i)| !is_marker(i)) {
        let path = &paths[p as usize];
        let done = i as usize + 1 == path.sets.len();
        let o = (path.bits[i as usize], path.code(i as usize));
        for b in units(&path.sets[i as usize]) {
            *steps += 1;
            let s = &mut out[b as usize];
            if let Some((q, bias)) = s.complete.filter(|_| done) {
                let other = &paths[q as usize];
                if other.form != path.form || other.to != path.to {
                    return Err(clash(ConflictKind::SameUnits, position(key, q), (p, i), b));
                }
                if bias != path.bias {
                    return Err(clash(ConflictKind::Payload, position(key, q), (p, i), b));
                }
            }
            match s.output {
                Some((x, q)) if x != o => return Err(clash(ConflictKind::Payload, position(key, q), (p, i), b)),
                _ => s.output = Some((o, p)),
            }
            if done {
                s.complete = Some((p, path.bias));
            } else {
                s.next.push((p, i + 1));
            }
            if path.looped == Some(i as usize) {
                s.next.push((p, i));
            }
        }
    }
    if *steps > limits::MAX_STEPS {
        return Err(BuildError::Limit { what: "steps of the subset construction", limit: limits::MAX_STEPS }.into());
    }
    let carried = marker(key);
    for (b, s) in out.iter_mut().enumerate() {
        s.next.sort_unstable();
        s.next.dedup();
        match (s.complete, s.next.first()) {
            (Some((q, _)), Some(&(p, i))) if !longest => {
                return Err(clash(ConflictKind::Prefix, position(key, q), (p, i.saturating_sub(1)), b as u8));
            }
            // A shorter sequence ends where longer ones go on: pending.
            (Some((q, _)), Some(_)) => s.next.push((q, PENDING)),
            (None, Some(_)) => s.next.extend(carried.map(|(q, back)| (q, PENDING - back - 1))),
            _ => {}
        }
    }
    Ok(out)
}

/// Path `p`'s position in `key`.
fn position(key: &Key, p: u32) -> (u32, u32) {
    key.iter().copied().find(|&(q, _)| q == p).unwrap_or((p, 0))
}

/// The units that lead from a start state (one of the first `starts`) to state `s`.
fn units_to(parent: &[(usize, u8)], starts: usize, mut s: usize) -> Vec<u8> {
    let mut units = Vec::new();
    while s > starts {
        let (from, unit) = parent[s];
        units.push(unit);
        s = from;
    }
    units.reverse();
    units
}

/// The pending value a state's key marks, if any.
fn pending_of(paths: &[Path], key: &Key) -> Option<Pending> {
    marker(key).map(|(q, back)| {
        let path = &paths[q as usize];
        Pending { bias: path.bias, to: path.to, back }
    })
}

/// The positions of the first states.
fn start_len(keys: &[Key]) -> u64 {
    keys.iter().map(|k| k.len() as u64).sum()
}

/// The number of contexts the paths go between ([`crate::contexts`]).
pub(super) fn context_count(paths: &[Path]) -> usize {
    paths.iter().map(|p| p.from.max(p.to) + 1).max().unwrap_or(1)
}

/// Subset construction from the start positions of every path, within the
/// limits of [`crate::limits`]: one start state per context (states `1..=k`),
/// each holding the paths that start in it; a path that completes goes to
/// the start state of the context it leaves.
pub(super) fn determinize(paths: &[Path], longest: bool) -> Result<Determinized, Failure> {
    if paths.len() > limits::MAX_PATHS {
        return Err(BuildError::Limit { what: "unit-range paths", limit: limits::MAX_PATHS as u64 }.into());
    }
    let starts = context_count(paths);
    let start_keys: Vec<Key> = (0..starts)
        .map(|c| (0..paths.len() as u32).filter(|&p| paths[p as usize].from == c).map(|p| (p, 0)).collect())
        .collect();
    let forms_of = |key: &Key| {
        key.iter().filter(|&&(_, i)| !is_marker(i)).map(|&(p, _)| paths[p as usize].form).collect::<BTreeSet<usize>>()
    };
    let mut ids: HashMap<Key, usize> = HashMap::from([(Vec::new(), 0)]);
    ids.extend(start_keys.iter().enumerate().map(|(c, k)| (k.clone(), c + 1)));
    let mut forms = vec![BTreeSet::new()];
    forms.extend(start_keys.iter().map(forms_of));
    let mut keys: Vec<Key> = vec![Vec::new()];
    keys.extend(start_keys);
    let mut machine = Machine::new(256, starts + 1);
    let mut queue: VecDeque<usize> = (1..=starts).collect();
    let mut parent: Vec<(usize, u8)> = vec![(0, 0); starts + 1];
    let mut steps = 0u64;
    let mut positions = start_len(&keys);
    while let Some(s) = queue.pop_front() {
        let key = std::mem::take(&mut keys[s]);
        let succs = successors(paths, &key, longest, &mut steps).map_err(|f| match f {
            Failure::Clash(mut c) => {
                c.units.splice(0..0, units_to(&parent, starts, s));
                Failure::Clash(c)
            }
            other => other,
        })?;
        for (b, succ) in succs.into_iter().enumerate() {
            // The bias only where the unit ends every path (else it is pending).
            let bias = match succ.complete {
                Some((_, bias)) if succ.next.is_empty() => bias,
                _ => 0,
            };
            let target = if let (Some((q, _)), true) = (succ.complete, succ.next.is_empty()) {
                1 + paths[q as usize].to
            } else if succ.next.is_empty() {
                0
            } else if let Some(&id) = ids.get(&succ.next) {
                id
            } else {
                if machine.states() >= limits::MAX_STATES {
                    return Err(BuildError::Limit { what: "states", limit: limits::MAX_STATES as u64 }.into());
                }
                positions += succ.next.len() as u64;
                if positions > limits::MAX_POSITIONS {
                    return Err(BuildError::Limit {
                        what: "path positions in its states",
                        limit: limits::MAX_POSITIONS,
                    }
                    .into());
                }
                let id = machine.push_state();
                parent.push((s, b as u8));
                forms.push(forms_of(&succ.next));
                machine.pending[id] = pending_of(paths, &succ.next);
                ids.insert(succ.next.clone(), id);
                keys.push(succ.next);
                queue.push_back(id);
                id
            };
            let at = s * 256 + b;
            machine.next[at] = target;

            machine.out[at] = match succ.output {
                Some(((bits, code), _)) if target != 0 => (bits, code, bias),
                _ => (0, 0, 0),
            };
        }
    }
    Ok(Determinized { machine, forms, starts })
}
