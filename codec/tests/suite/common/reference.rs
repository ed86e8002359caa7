//! The reference decoder: it walks a [`Spec`]'s edges, not the built tables,
//! following the module docs of `placemat_codec::dfa` (longest match where
//! states have pending values); and the inputs the walker tests feed it.

use super::Spec;

/// The reference's answer for one step: a value and its length and the
/// start state after it, or an error.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RefStep {
    Value { value: u64, len: usize, next: usize },
    Invalid { len: usize },
    Incomplete,
}

/// The maximal subpart ending before the unit at byte `at`, in whole code
/// units of `unit` bytes; a code unit the input ends inside is unfinished.
fn dead_end(at: usize, unit: usize, available: usize) -> RefStep {
    if (at / unit + 1) * unit > available {
        return RefStep::Incomplete;
    }
    let len = at.max(1);
    RefStep::Invalid { len: (len - len % unit).max(unit).min(available) }
}

/// One step from start state `from` (unpremultiplied), walking the edges:
/// longest match where states have pending values.
pub fn reference_step(spec: &Spec, from: usize, input: &[u8]) -> RefStep {
    let (mut state, mut v, mut noted) = (from, 0u64, None);
    for (i, &u) in input.iter().enumerate() {
        let Some(e) = spec.edge(state, u) else {
            return noted.unwrap_or_else(|| dead_end(i, usize::from(spec.unit_bytes), input.len()));
        };
        v = spec.join(v, e, u);
        state = e.to;
        if state == 0 {
            return noted.unwrap_or_else(|| dead_end(i, usize::from(spec.unit_bytes), input.len()));
        }
        if spec.is_boundary(state) {
            return RefStep::Value { value: v.wrapping_add(spec.biases[e.bias]), len: i + 1, next: state };
        }
        if let Some(&p) = spec.pending.get(state).filter(|&&p| p != 0 && p >> 24 == 0) {
            let bias = spec.biases[((p >> 8) & 0xFFF) as usize];
            // The low byte is the context left, plus one: its start state.
            let next = (p & 0xFF) as usize;
            noted = Some(RefStep::Value { value: v.wrapping_add(bias), len: i + 1, next });
        }
    }
    noted.unwrap_or(RefStep::Incomplete)
}

/// Where the first error lies: `(valid_up_to, error_len)`.
pub type Verdict = Result<(), (usize, Option<usize>)>;

/// The values of `input` read step by step from the start of context 0, and
/// the first error as `(valid_up_to, error_len)`.
pub fn reference_decode(spec: &Spec, input: &[u8]) -> (Vec<u64>, Verdict) {
    let (mut pos, mut state, mut out) = (0, 1, Vec::new());
    while pos < input.len() {
        match reference_step(spec, state, &input[pos..]) {
            RefStep::Value { value, len, next } => {
                out.push(value);
                pos += len;
                state = next;
            }
            RefStep::Invalid { len } => return (out, Err((pos, Some(len)))),
            RefStep::Incomplete => return (out, Err((pos, None))),
        }
    }
    (out, Ok(()))
}

/// Every input of at most `max` units over `alphabet` (code units of
/// `unit` bytes each, given as whole code units), the empty one included.
pub fn inputs(alphabet: &[&[u8]], max: usize) -> Vec<Vec<u8>> {
    let mut all = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 0..max {
        last = last.iter().flat_map(|p: &Vec<u8>| alphabet.iter().map(move |a| [p.as_slice(), a].concat())).collect();
        all.extend(last.iter().cloned());
    }
    all
}

/// A deterministic pseudo-random input of `n` code units over `alphabet`.
pub fn long_input(alphabet: &[&[u8]], n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .flat_map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            alphabet[(x % alphabet.len() as u64) as usize].to_vec()
        })
        .collect()
}
