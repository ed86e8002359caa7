//! Subset construction over [`super::paths`]: a state is the set of positions
//! in the paths that the units read so far may be at. Each transition carries
//! its payload width and, when it completes a sequence, the bias; two paths that
//! disagree on those for the same unit are a conflict the validator should have
//! ruled out. Each state also records which concrete forms it may still be in.

use std::collections::{BTreeSet, HashMap, VecDeque};

use super::machine::{Machine, Output};
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

/// A state of the subset construction: positions `(path, index)`.
type Key = Vec<(u32, u32)>;

/// The determinized machine over the 256 units, with the forms of every state.
pub(super) struct Determinized {
    pub machine: Machine,
    pub forms: Vec<BTreeSet<usize>>,
}

/// Where the positions of one state go on one unit.
#[derive(Clone, Default)]
struct Successor {
    next: Key,
    output: Option<Output>,
    complete: bool,
}

/// Where the positions of `key` go on every unit, visiting each position's
/// units only (the work is the sum of their sizes, counted into `steps`).
fn successors(paths: &[Path], key: &Key, steps: &mut u64) -> Result<Vec<Successor>, BuildError> {
    let mut out = vec![Successor::default(); 256];
    for &(p, i) in key {
        let path = &paths[p as usize];
        let done = i as usize + 1 == path.sets.len();
        let o = (path.bits[i as usize], if done { path.bias } else { 0 });
        for b in units(&path.sets[i as usize]) {
            *steps += 1;
            let s = &mut out[b as usize];
            if s.output.is_some_and(|x| x != o) {
                return Err(BuildError::PayloadConflict);
            }
            s.output = Some(o);
            s.complete |= done;
            if !done {
                s.next.push((p, i + 1));
            }
            if path.looped == Some(i as usize) {
                s.next.push((p, i));
            }
        }
    }
    if *steps > limits::MAX_STEPS {
        return Err(BuildError::Limit { what: "steps of the subset construction", limit: limits::MAX_STEPS });
    }
    for s in &mut out {
        s.next.sort_unstable();
        s.next.dedup();
        // Validation made the forms prefix-free, so a completing unit completes
        // every path it continues.
        if s.complete && !s.next.is_empty() {
            return Err(BuildError::PayloadConflict);
        }
    }
    Ok(out)
}

/// The positions of the first states.
fn start_len(keys: &[Key]) -> u64 {
    keys.iter().map(|k| k.len() as u64).sum()
}

/// Subset construction from the start positions of every path, within the
/// limits of [`crate::limits`].
pub(super) fn determinize(paths: &[Path]) -> Result<Determinized, BuildError> {
    if paths.len() > limits::MAX_PATHS {
        return Err(BuildError::Limit { what: "unit-range paths", limit: limits::MAX_PATHS as u64 });
    }
    let start: Key = (0..paths.len() as u32).map(|p| (p, 0)).collect();
    let forms_of = |key: &Key| key.iter().map(|&(p, _)| paths[p as usize].form).collect::<BTreeSet<usize>>();
    let mut ids: HashMap<Key, usize> = HashMap::from([(Vec::new(), 0), (start.clone(), 1)]);
    let mut forms = vec![BTreeSet::new(), forms_of(&start)];
    let mut keys: Vec<Key> = vec![Vec::new(), start];
    let mut machine = Machine::new(256, 2);
    let mut queue = VecDeque::from([1usize]);
    let mut steps = 0u64;
    let mut positions = start_len(&keys);
    while let Some(s) = queue.pop_front() {
        let key = std::mem::take(&mut keys[s]);
        for (b, succ) in successors(paths, &key, &mut steps)?.into_iter().enumerate() {
            let target = if succ.complete {
                1
            } else if succ.next.is_empty() {
                0
            } else if let Some(&id) = ids.get(&succ.next) {
                id
            } else {
                if machine.states() >= limits::MAX_STATES {
                    return Err(BuildError::Limit { what: "states", limit: limits::MAX_STATES as u64 });
                }
                positions += succ.next.len() as u64;
                if positions > limits::MAX_POSITIONS {
                    return Err(BuildError::Limit {
                        what: "path positions in its states",
                        limit: limits::MAX_POSITIONS,
                    });
                }
                let id = machine.push_state();
                forms.push(forms_of(&succ.next));
                ids.insert(succ.next.clone(), id);
                keys.push(succ.next);
                queue.push_back(id);
                id
            };
            let at = s * 256 + b;
            machine.next[at] = target;
            machine.out[at] = if target == 0 { (0, 0) } else { succ.output.unwrap_or((0, 0)) };
        }
    }
    Ok(Determinized { machine, forms })
}
