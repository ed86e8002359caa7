//! The checks [`super::Dfa`] runs on its [`Parts`]: the table invariants of the
//! module docs, and that every fact the compiler derived agrees with the table.
//! Each check is linear in the size of the tables, so generated codecs run them
//! in a `const` next to their `static`s without re-deriving anything: the
//! compiler hands over certificates (`depth`, `remaining`, the shift offsets)
//! that make agreement a local property of every transition.

use core::fmt;

mod expanded;
mod wide;

use super::direct;
use crate::AsciiRuns;

use super::{Parts, ShiftRows, BIAS_SHIFT, BITS_SHIFT, DEAD, MAX_BIASES, PLACE_SHIFT, STATE_MASK};

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
    /// A fact (the ASCII or wide runs, byte digits, sync or end units, the unit
    /// width) disagrees with the table, placed payloads come with a loop, an expanded
    /// table, a shift or place past 63, or not one per transition, or radices
    /// come with a loop, places, or not one per transition.
    BadFacts,
    /// The automaton is said not to be cyclic, and `depth` does not prove it.
    BadDepth,
    /// The shift rows do not follow the transitions.
    BadShift,
    /// The expanded table or its `remaining` certificate disagrees with the table.
    BadExpanded,
    /// The direct table disagrees with the table, or comes with an expanded
    /// table, radices, loops, or more states or biases than it can hold.
    BadDirect,
    /// The SIMD tables break an invariant of `placemat_simd::Tables::check`, or
    /// come with units wider than a byte.
    BadSimd,
    /// The pending values are not one per state, name a missing context or
    /// bias, sit on the dead state or a start state, or come with a cyclic
    /// automaton, an expanded table, SIMD tables or continuation bits.
    BadPending,
    /// The SIMD decoding kernel's shape comes without SIMD tables, 6-bit
    /// continuation payloads or byte digits, or some lead or continuation
    /// unit is not worth what it says.
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
            TableError::BadDepth => "the depth certificate does not prove the automaton acyclic",
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

/// Runs every check; returns the class count.
pub(crate) const fn check(p: &Parts<'_>) -> Result<usize, TableError> {
    let stride = match format(p) {
        Ok(stride) => stride,
        Err(e) => return Err(e),
    };
    if !facts(p, stride) || !continuation_bits(p, stride) {
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
    if let Some(t) = &p.simd {
        if t.check().is_err() || p.facts.unit_bytes != 1 {
            return Err(TableError::BadSimd);
        }
    }
    if !pending(p, stride) {
        return Err(TableError::BadPending);
    }
    if !super::unchecked::shape_holds(p, stride) {
        return Err(TableError::BadDecodingShape);
    }
    Ok(stride)
}

/// [`Parts::pending`]: empty, or one entry per state, each 0 or naming an
/// existing context and bias, 0 on the dead and start states; and a codec
/// with pending values walks only the step function and the bulk walkers
/// that fall back on it (acyclic, no expanded table, no SIMD tables, no
/// continuation bits).
const fn pending(p: &Parts<'_>, stride: usize) -> bool {
    if p.pending.is_empty() {
        return true;
    }
    let states = p.transitions.len() / stride;
    if p.pending.len() != states
        || p.facts.cyclic
        || p.expanded.is_some()
        || p.simd.is_some()
        || p.facts.continuation_bits != 0
    {
        return false;
    }
    let mut s = 0;
    while s < states {
        let e = p.pending[s];
        if e != 0 {
            if s <= p.facts.contexts as usize || e & 0xFF == 0 {
                return false;
            }
            let (to, bias, _) = super::pending_fields(e);
            if to >= p.facts.contexts as usize || bias >= p.biases.len() {
                return false;
            }
        }
        s += 1;
    }
    true
}

/// `Facts::continuation_bits`, when not 0: every live transition out of a
/// state other than the start carries that many payload bits, none adds a
/// bias, and nothing is placed.
const fn continuation_bits(p: &Parts<'_>, stride: usize) -> bool {
    let bits = p.facts.continuation_bits as u32;
    if bits == 0 {
        return true;
    }
    if p.places.is_some() || p.radices.is_some() || bits > 8 || p.facts.contexts != 1 {
        return false;
    }
    let mut i = 0;
    while i < p.transitions.len() {
        let e = p.transitions[i];
        let live = (e & STATE_MASK) != 0;
        if live && (e >> BIAS_SHIFT != 0 || (i / stride >= 2 && (e >> BITS_SHIFT) & 0xF != bits)) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether unit `u` is in the unit set `set` (bit `u % 64` of word `u / 64`).
pub(super) const fn has(set: &[u64; 4], u: usize) -> bool {
    set[u / 64] >> (u % 64) & 1 == 1
}

/// The next state (not premultiplied) of state `s` on class `c`.
const fn next(p: &Parts<'_>, stride: usize, s: usize, c: usize) -> usize {
    (p.transitions[s * stride + c] & STATE_MASK) as usize / stride
}

/// The number of unit classes: one more than the largest.
pub(super) const fn stride(classes: &[u8; 256]) -> usize {
    let mut max = 0;
    let mut u = 0;
    while u < 256 {
        if classes[u] > max {
            max = classes[u];
        }
        u += 1;
    }
    max as usize + 1
}

/// The table invariants of the module docs.
const fn format(p: &Parts<'_>) -> Result<usize, TableError> {
    let stride = stride(p.classes);
    let len = p.transitions.len();
    if !len.is_multiple_of(stride) || len / stride < 2 || len > STATE_MASK as usize + 1 {
        return Err(TableError::BadShape);
    }
    if p.biases.is_empty() || p.biases[0] != 0 || p.biases.len() > MAX_BIASES {
        return Err(TableError::BadBias);
    }
    let mut i = 0;
    while i < len {
        let e = p.transitions[i];
        let to = (e & STATE_MASK) as usize;
        if !to.is_multiple_of(stride) || to >= len || (i < stride && to != DEAD) {
            return Err(TableError::BadState);
        }
        if (e >> BITS_SHIFT) & 0xF > 8 {
            return Err(TableError::BadPayload);
        }
        if (e >> BIAS_SHIFT) as usize >= p.biases.len() {
            return Err(TableError::BadBias);
        }
        i += 1;
    }
    Ok(stride)
}

/// Whether every code unit the ASCII runs include is a whole sequence of
/// itself from the start state, in code units of the table's width.
const fn ascii_runs(p: &Parts<'_>, stride: usize) -> bool {
    let runs = p.facts.ascii_runs;
    if matches!(runs, AsciiRuns::None) {
        return true;
    }
    if runs.unit_bytes() != p.facts.unit_bytes as usize {
        return false;
    }
    let mut c = 0u8;
    while c < 0x80 {
        if runs.includes(c) && !decodes_to(p, stride, &runs.code_unit(c), runs.unit_bytes(), c as u64) {
            return false;
        }
        c += 1;
    }
    true
}

/// Whether the first `len` of `units`, walked from the start state, are one
/// sequence of value `value` (its bias included: UTF-1's `41` is digit 20 plus
/// 21).
const fn decodes_to(p: &Parts<'_>, stride: usize, units: &[u8; 4], len: usize, value: u64) -> bool {
    let (mut state, mut v, mut i) = (stride, 0u64, 0);
    while i < len {
        let b = units[i] as usize;
        let at = state + p.classes[b] as usize;
        let e = p.transitions[at];
        let n = (e >> BITS_SHIFT) & 0xF;
        let payload = (p.digits[b] as u64) & ((1u64 << n) - 1);
        v = match (p.places, p.radices) {
            (Some(places), _) if at < places.len() => {
                let q = places[at];
                (v << ((q >> PLACE_SHIFT) & 63)) | (payload << (q & 63))
            }
            (_, Some(radices)) if at < radices.len() => v.wrapping_mul(radices[at]).wrapping_add(payload),
            _ => (v << n) | payload,
        };
        state = (e & STATE_MASK) as usize;
        i += 1;
        // Only the last unit may end the sequence; its bias is part of the value.
        if (state == stride) != (i == len) || state == DEAD {
            return false;
        }
        if i == len {
            v = v.wrapping_add(p.biases[(e >> BIAS_SHIFT) as usize]);
        }
    }
    v == value
}

/// The ASCII runs, byte digits, sync units and end units, each recomputed (a
/// few hundred steps) and compared, and the wide runs walked (see `wide`).
const fn facts(p: &Parts<'_>, stride: usize) -> bool {
    let n = p.transitions.len() / stride;
    let mut bytes = true;
    let mut u = 0;
    while u < 256 {
        bytes &= p.digits[u] as usize == u;
        u += 1;
    }
    if bytes != p.facts.byte_digits || !ascii_runs(p, stride) || !wide::wide_runs(p, stride) {
        return false;
    }
    if !matches!(p.facts.unit_bytes, 1 | 2 | 4) || p.facts.contexts == 0 || p.facts.contexts as usize >= n {
        return false;
    }
    // Placed payloads: one entry per transition, each shift and place below 64,
    // on a table without loops (no value outgrows its sequence) and without an
    // expanded table (whose entries are placed most significant first).
    if let Some(places) = p.places {
        if places.len() != p.transitions.len() || p.facts.cyclic || p.expanded.is_some() {
            return false;
        }
        let mut i = 0;
        while i < places.len() {
            if places[i] >> PLACE_SHIFT >= 64 || places[i] & 0xFF >= 64 {
                return false;
            }
            i += 1;
        }
    }
    // Multipliers of digit units: one per transition, on a table without
    // loops and without places.
    if let Some(radices) = p.radices {
        if radices.len() != p.transitions.len() || p.facts.cyclic || p.places.is_some() {
            return false;
        }
    }
    // A class is a sync class when every live state but the start states
    // rejects it and every start state takes it alike, an end class when
    // every live state goes to the start (of context 0) or dies on it.
    let (mut sync, mut end) = ([true; 256], [true; 256]);
    let contexts = p.facts.contexts as usize;
    let mut s = 1;
    while s < n {
        let mut c = 0;
        while c < stride {
            let t = next(p, stride, s, c);
            sync[c] &= if s <= contexts { same_transition(p, stride, s, c) } else { t == DEAD };
            end[c] &= t == DEAD || t == 1;
            c += 1;
        }
        s += 1;
    }
    let mut u = 0;
    while u < 256 {
        let class = p.classes[u] as usize;
        let byte_sync = p.facts.unit_bytes == 1 && has(&p.facts.sync_units, u) != sync[class];
        if byte_sync || has(&p.facts.end_units, u) != end[class] {
            return false;
        }
        u += 1;
    }
    // Sync units of wide code units are bytes at one place of a code unit.
    if p.facts.unit_bytes == 1 {
        p.facts.sync_lane == 0
    } else {
        let f = &p.facts;
        let derived = super::wide_sync_units(p.classes, p.transitions, f.unit_bytes, f.contexts, f.sync_lane);
        let same = derived[0] == f.sync_units[0]
            && derived[1] == f.sync_units[1]
            && derived[2] == f.sync_units[2]
            && derived[3] == f.sync_units[3];
        f.sync_lane < f.unit_bytes && same
    }
}

/// Whether start state `s` takes class `c` as the start of context 0 does:
/// the same entry, and the same place or radix.
const fn same_transition(p: &Parts<'_>, stride: usize, s: usize, c: usize) -> bool {
    let (a, b) = (s * stride + c, stride + c);
    let words_agree = match (p.places, p.radices) {
        (Some(w), _) | (None, Some(w)) => w[a] == w[b],
        (None, None) => true,
    };
    p.transitions[a] == p.transitions[b] && words_agree
}

/// For an automaton said not to be cyclic: `depth` falls strictly along every
/// transition between live states other than the start states, so no path
/// loops but through a start state. (An automaton said to be cyclic needs no proof: the
/// walkers then only give up an assumption.)
const fn depth(p: &Parts<'_>, stride: usize) -> bool {
    let n = p.transitions.len() / stride;
    if p.facts.cyclic {
        return p.depth.is_empty();
    }
    if p.depth.len() != n {
        return false;
    }
    let contexts = p.facts.contexts as usize;
    let mut s = contexts + 1;
    while s < n {
        let mut c = 0;
        while c < stride {
            let t = next(p, stride, s, c);
            if t > contexts && p.depth[t] >= p.depth[s] {
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
    let n = p.transitions.len() / stride;
    let (offsets, width) = match p.shift {
        ShiftRows::None => return true,
        ShiftRows::Narrow { offsets, .. } => (offsets, 6),
        ShiftRows::Wide { offsets, .. } => (offsets, 7),
    };
    if offsets.len() != n || offsets[DEAD] != 0 || offsets[1] == 0 {
        return false;
    }
    let contexts = p.facts.contexts as usize;
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
            if field != offsets[next(p, stride, s, p.classes[u] as usize)] as u32 {
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
    match p.radices {
        Some(radices) => radices[at],
        None => 1u64 << ((e >> BITS_SHIFT) & 0xF),
    }
}

/// The direct table ([`direct`]): only where there is no expanded table, no
/// radices and no loop, within its limits, and every entry (and next row) the
/// one the class-compressed table gives.
const fn direct_table(p: &Parts<'_>, stride: usize) -> bool {
    let Some(table) = p.direct else { return true };
    let n = p.transitions.len() / stride;
    if p.expanded.is_some()
        || p.radices.is_some()
        || p.facts.cyclic
        || n > direct::MAX_STATES
        || p.biases.len() > direct::MAX_BIASES
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
