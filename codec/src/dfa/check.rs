//! The checks [`super::Dfa`] runs on its [`Parts`]: the table invariants of the
//! module docs, and that every claim the compiler made agrees with the table.
//! The facts need no check: they are derived here ([`super::Facts::of`]).
//! What the compiler found by a search — that there is no loop, the weight
//! of the payload still to come, the shift layout, the wide runs, the SIMD
//! tables — comes with a certificate (`depth`, `remaining`, the shift
//! offsets) that makes agreement a local property of every transition, so
//! each check is linear in the size of the tables and generated codecs run
//! them in a `const` next to their `static`s.

use core::fmt;

mod expanded;
mod wide;

use super::direct;
use super::read::{next, stride};
use super::{Facts, Loops, Parts, ShiftRows, BIAS_SHIFT, BITS_SHIFT, DEAD, MAX_BIASES, PLACE_SHIFT, STATE_MASK};

/// Why [`super::Dfa::new`] refused its parts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TableError {
    /// The table is empty, has fewer than two states, is not a whole number of
    /// rows, or has more entries than 16-bit state ids can address.
    BadShape,
    /// An entry names a state that does not exist or is not premultiplied, or
    /// the dead state's row leaves it.
    BadState,
    /// An entry names a bias that does not exist, bias 0 is not 0, or there are
    /// too many biases.
    BadBias,
    /// An entry takes more than 8 payload bits.
    BadPayload,
    /// The unit width is not 1, 2 or 4, the contexts are none or not fewer
    /// than the states, the wide runs claimed are not whole sequences of
    /// themselves, placed payloads come with a loop, an expanded table, a
    /// shift or place past 63, or not one per transition, or radices come
    /// with a loop or not one per transition.
    BadFacts,
    /// The automaton is said not to be cyclic, and `depth` does not prove it.
    BadDepth,
    /// The shift rows do not follow the transitions.
    BadShift,
    /// The expanded table or its `remaining` certificate disagrees with the table.
    BadExpanded,
    /// The direct table disagrees with the table, or comes with radices,
    /// loops, or more states or biases than it can hold.
    BadDirect,
    /// The SIMD tables break an invariant of `placemat_simd::Tables::check`, or
    /// come with units wider than a byte.
    BadSimd,
    /// The pending values are not one per state, name a missing context or
    /// bias, sit on the dead state or a start state, or come with a cyclic
    /// automaton, an expanded table, SIMD tables or continuation bits.
    BadPending,
    /// The SIMD decoding kernel's shape comes without 6-bit continuation
    /// payloads or byte digits, or some lead or continuation unit is not
    /// worth what it says.
    BadDecodingShape,
}

impl TableError {
    /// The error's text (usable in `const`, for generated tables).
    pub const fn message(self) -> &'static str {
        match self {
            TableError::BadShape => "the transition table is not states x classes",
            TableError::BadState => "a transition names a missing state",
            TableError::BadBias => "a transition names a missing bias",
            TableError::BadPayload => "a transition takes more than 8 payload bits",
            TableError::BadFacts => "the facts disagree with the table",
            TableError::BadDepth => {
                "the depth certificate does not prove the automaton acyclic (or looping only on padding)"
            }
            TableError::BadShift => "the shift rows do not follow the transitions",
            TableError::BadExpanded => "the expanded table disagrees with the table",
            TableError::BadDirect => "the direct table disagrees with the table",
            TableError::BadSimd => "the SIMD tables break the kernel's invariants",
            TableError::BadPending => "the pending values disagree with the table",
            TableError::BadDecodingShape => "the SIMD decoding kernel's shape disagrees with the table",
        }
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for TableError {}

impl Facts {
    /// The facts of `parts`, after the table invariants of the module docs
    /// hold (else the error [`super::Dfa::new`] would give). The wide runs
    /// are the ones claimed; the checks hold them to the table.
    pub const fn of(parts: &Parts<'_>) -> Result<Facts, TableError> {
        match format(parts) {
            Ok(stride) => Ok(super::facts::derive(parts, stride)),
            Err(e) => Err(e),
        }
    }
}

/// Runs every check; returns the class count and the facts.
pub(crate) const fn check(p: &Parts<'_>) -> Result<(usize, Facts), TableError> {
    let stride = match format(p) {
        Ok(stride) => stride,
        Err(e) => return Err(e),
    };
    let facts = super::facts::derive(p, stride);
    if !claims(p, stride) {
        return Err(TableError::BadFacts);
    }
    if !depth(p, stride) {
        return Err(TableError::BadDepth);
    }
    if !shift(p, stride) {
        return Err(TableError::BadShift);
    }
    if !expanded::expanded_table(p, stride) {
        return Err(TableError::BadExpanded);
    }
    if !direct_table(p, stride) {
        return Err(TableError::BadDirect);
    }
    if let Some(simd) = &p.simd {
        if simd.tables.check().is_err() || p.table.unit_bytes != 1 {
            return Err(TableError::BadSimd);
        }
    }
    if !pending(p, stride) {
        return Err(TableError::BadPending);
    }
    if !super::unchecked::shape_holds(p, &facts, stride) {
        return Err(TableError::BadDecodingShape);
    }
    Ok((stride, facts))
}

/// [`Parts::pending`]: empty, or one entry per state, each 0 or naming an
/// existing context and bias, 0 on the dead and start states; and a codec
/// with pending values walks only the step function and the bulk walkers
/// that fall back on it (acyclic, no expanded table, no SIMD tables).
const fn pending(p: &Parts<'_>, stride: usize) -> bool {
    if p.pending.is_empty() {
        return true;
    }
    let states = p.table.transitions.len() / stride;
    if p.pending.len() != states || p.is_cyclic() || p.expanded().is_some() || p.simd.is_some() {
        return false;
    }
    let mut s = 0;
    while s < states {
        let e = p.pending[s];
        if e != 0 {
            if s <= p.table.contexts as usize || e & 0xFF == 0 {
                return false;
            }
            let (to, bias, _) = super::pending_fields(e);
            if to >= p.table.contexts as usize || bias >= p.table.biases.len() {
                return false;
            }
        }
        s += 1;
    }
    true
}

/// The table invariants of the module docs; the class count.
const fn format(p: &Parts<'_>) -> Result<usize, TableError> {
    let t = &p.table;
    let stride = stride(t.classes);
    let len = t.transitions.len();
    if !len.is_multiple_of(stride) || len / stride < 2 || len > STATE_MASK as usize + 1 {
        return Err(TableError::BadShape);
    }
    if t.biases.is_empty() || t.biases[0] != 0 || t.biases.len() > MAX_BIASES {
        return Err(TableError::BadBias);
    }
    let mut i = 0;
    while i < len {
        let e = t.transitions[i];
        let to = (e & STATE_MASK) as usize;
        if !to.is_multiple_of(stride) || to >= len || (i < stride && to != DEAD) {
            return Err(TableError::BadState);
        }
        if (e >> BITS_SHIFT) & 0xF > 8 {
            return Err(TableError::BadPayload);
        }
        if (e >> BIAS_SHIFT) as usize >= t.biases.len() {
            return Err(TableError::BadBias);
        }
        i += 1;
    }
    if !matches!(t.unit_bytes, 1 | 2 | 4) || t.contexts == 0 || t.contexts as usize >= len / stride {
        return Err(TableError::BadFacts);
    }
    if !words(p) {
        return Err(TableError::BadFacts);
    }
    Ok(stride)
}

/// Placed payloads: one entry per transition, each shift and place below 64,
/// on a table without loops (no value outgrows its sequence) and without an
/// expanded table (whose entries are placed most significant first).
/// Multipliers of digit units: one per transition, on a table without loops.
const fn words(p: &Parts<'_>) -> bool {
    let Some(words) = p.words() else { return true };
    // Placed payload may loop only without payload (a digit unit's loop
    // would still multiply).
    if words.len() != p.table.transitions.len() || p.values_outgrow() || (p.is_cyclic() && p.radices().is_some()) {
        return false;
    }
    let Some(places) = p.places() else { return true };
    if p.expanded().is_some() {
        return false;
    }
    let mut i = 0;
    while i < places.len() {
        if places[i] >> PLACE_SHIFT >= 64 || places[i] & 0xFF >= 64 {
            return false;
        }
        i += 1;
    }
    true
}

/// The claims found by the compiler's searches that are not certificates of
/// their own: the wide runs, walked (see `wide`).
const fn claims(p: &Parts<'_>, stride: usize) -> bool {
    wide::wide_runs(p, stride)
}

/// Whether transition `at` carries no payload: no payload bits, and no
/// shift of the value read so far.
const fn payload_free(p: &Parts<'_>, at: usize) -> bool {
    let e = p.table.transitions[at];
    let placed = match p.places() {
        Some(places) => places[at] == 0,
        None => true,
    };
    (e >> BITS_SHIFT) & 0xF == 0 && placed
}

/// For an automaton said not to be cyclic, or to loop only on padding:
/// `depth` falls strictly along every transition between live states other
/// than the start states (but, for padding, a state's payload-free loop on
/// itself), so no path loops but through a start state or on such a loop.
/// (An automaton said to be cyclic needs no proof: the walkers then only give
/// up an assumption.)
const fn depth(p: &Parts<'_>, stride: usize) -> bool {
    let n = p.table.transitions.len() / stride;
    let (depth, padding) = match p.loops {
        Loops::Cyclic => return true,
        Loops::Acyclic { depth } => (depth, false),
        Loops::Padding { depth } => (depth, true),
    };
    if depth.len() != n {
        return false;
    }
    let contexts = p.table.contexts as usize;
    let mut s = contexts + 1;
    while s < n {
        let mut c = 0;
        while c < stride {
            let t = next(p, stride, s, c);
            let free_loop = padding && t == s && payload_free(p, s * stride + c);
            if t > contexts && depth[t] >= depth[s] && !free_loop {
                return false;
            }
            c += 1;
        }
        s += 1;
    }
    true
}

/// The shift rows follow the transitions: for every unit and state, the field
/// at the state's offset holds the offset of the state it goes to. The dead
/// state sits at 0, no state but the start shares the start's offset, and no
/// state but a start state shares a start state's offset, so the validator
/// accepts exactly when the automaton does.
const fn shift(p: &Parts<'_>, stride: usize) -> bool {
    let n = p.table.transitions.len() / stride;
    let (offsets, width) = match p.shift {
        ShiftRows::None => return true,
        ShiftRows::Narrow { offsets, .. } => (offsets, 6),
        ShiftRows::Wide { offsets, .. } => (offsets, 7),
    };
    if offsets.len() != n || offsets[DEAD] != 0 || offsets[1] == 0 {
        return false;
    }
    let contexts = p.table.contexts as usize;
    let mut s = 0;
    while s < n {
        if offsets[s] as u32 >= 1 << width || (s != 1 && offsets[s] == offsets[1]) {
            return false;
        }
        let mut b = 2;
        while s > contexts && b <= contexts {
            if offsets[s] == offsets[b] {
                return false;
            }
            b += 1;
        }
        s += 1;
    }
    let mut u = 0;
    while u < 256 {
        let row = match p.shift {
            ShiftRows::Narrow { rows, .. } => rows[u] as u128,
            ShiftRows::Wide { rows, .. } => rows[u],
            ShiftRows::None => 0,
        };
        let mut s = 0;
        while s < n {
            let field = (row >> offsets[s]) as u32 & ((1 << width) - 1);
            if field != offsets[next(p, stride, s, p.table.classes[u] as usize)] as u32 {
                return false;
            }
            s += 1;
        }
        u += 1;
    }
    true
}

/// What the transition entry `e` at `at` multiplies the value read so far
/// by: its radix, or 2 to its payload bits.
pub(super) const fn multiplier(p: &Parts<'_>, at: usize, e: u32) -> u64 {
    match p.radices() {
        Some(radices) => radices[at],
        None => 1u64 << ((e >> BITS_SHIFT) & 0xF),
    }
}

/// The direct table ([`direct`]): only where there are no radices and no
/// loop, within its limits, and every entry (and next row) the one the
/// class-compressed table gives.
const fn direct_table(p: &Parts<'_>, stride: usize) -> bool {
    let Some(table) = p.direct() else { return true };
    let n = p.table.transitions.len() / stride;
    if p.radices().is_some()
        || p.is_cyclic()
        || n > direct::MAX_STATES
        || p.table.biases.len() > direct::MAX_BIASES
        || table.values.len() != n * direct::ROW
        || table.next.len() != n * direct::ROW
    {
        return false;
    }
    let mut i = 0;
    while i < table.values.len() {
        let e = direct::entry_of(p, stride, i / direct::ROW, i % direct::ROW);
        if table.values[i] != e || table.next[i] as u64 != e & direct::NEXT_MASK {
            return false;
        }
        i += 1;
    }
    true
}
