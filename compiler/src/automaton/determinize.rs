//! Subset construction over [`super::paths`]: a state is the set of positions
//! in the paths that the units read so far may be at. Each transition carries
//! its payload width and, when it completes a sequence, the bias; two paths that
//! disagree on those for the same unit are a conflict the validator should have
//! ruled out. Each state also records which concrete forms it may still be in.

use std::collections::{BTreeSet, HashMap, VecDeque};

use super::machine::{Machine, Output};
use super::paths::Path;
use super::BuildError;
use crate::model::UnitSet;

fn set_has(s: &UnitSet, b: u8) -> bool {
    s[(b >> 6) as usize] >> (b & 63) & 1 == 1
}

/// A state of the subset construction: positions `(path, index)`.
type Key = Vec<(u32, u32)>;

/// The determinized machine over the 256 units, with the forms of every state.
pub(super) struct Determinized {
    pub machine: Machine,
    pub forms: Vec<BTreeSet<usize>>,
}

/// Where the positions of `key` go on unit `b`: the next key, the output, and
/// whether some path completes.
fn successor(paths: &[Path], key: &Key, b: u8) -> Result<(Key, Option<Output>, bool), BuildError> {
    let mut next: Key = Vec::new();
    let mut output: Option<Output> = None;
    let mut complete = false;
    for &(p, i) in key {
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
    Ok((next, output, complete))
}

/// Subset construction from the start positions of every path.
pub(super) fn determinize(paths: &[Path]) -> Result<Determinized, BuildError> {
    let start: Key = (0..paths.len() as u32).map(|p| (p, 0)).collect();
    let forms_of = |key: &Key| key.iter().map(|&(p, _)| paths[p as usize].form).collect::<BTreeSet<usize>>();
    let mut ids: HashMap<Key, usize> = HashMap::from([(Vec::new(), 0), (start.clone(), 1)]);
    let mut forms = vec![BTreeSet::new(), forms_of(&start)];
    let mut keys: Vec<Key> = vec![Vec::new(), start];
    let mut machine = Machine::new(256, 2);
    let mut queue = VecDeque::from([1usize]);
    while let Some(s) = queue.pop_front() {
        let key = keys[s].clone();
        for b in 0..=255u8 {
            let (next, output, complete) = successor(paths, &key, b)?;
            let target = if complete {
                1
            } else if next.is_empty() {
                0
            } else if let Some(&id) = ids.get(&next) {
                id
            } else {
                let id = machine.push_state();
                forms.push(forms_of(&next));
                ids.insert(next.clone(), id);
                keys.push(next);
                queue.push_back(id);
                id
            };
            let at = s * 256 + b as usize;
            machine.next[at] = target;
            machine.out[at] = if target == 0 { (0, 0) } else { output.unwrap_or((0, 0)) };
        }
    }
    Ok(Determinized { machine, forms })
}
