//! The shift-DFA validator: Per Vognsen's technique, derived from any [`Dfa`].
//!
//! Validation only needs the automaton's *language*, not its outputs, so the
//! states are first merged by acceptance alone (Moore's partition refinement);
//! strict UTF-8 keeps its 9 states. Each remaining state `k` gets a bit offset
//! `k·w`, and each unit `u` one integer row whose field at offset `k·w` holds the
//! offset of the state `k` goes to on `u`. A step is then one load (which depends
//! only on the input) and one shift (the only link in the dependency chain):
//!
//! ```text
//! state = ROWS[unit] >> (state mod 2^w)      (w = 6 in a u64 up to 10 states,
//!                                              w = 7 in a u128 up to 18)
//! ```
//!
//! Two chains run side by side on the two halves of the input, split at a *sync
//! unit*: one that every state but the start sends to the dead state, so that the
//! first half must end at the start state for the input to be valid, and the
//! second half may be validated from there on its own. Blocks of 32 ASCII units
//! are skipped at once when the codec is ASCII-transparent.
//!
//! # Lineage
//! Per Vognsen, "shift-based DFAs" (2020 gist and notes); the split at a sync
//! unit is the usual way to parallelize a self-synchronizing code. Moore's
//! algorithm: E. F. Moore, "Gedanken-experiments on sequential machines" (1956).
//!
//! [`Dfa`]: super::Dfa

use super::STATE_MASK;

/// Most states (after merging by acceptance) a 7-bit-field u128 row can hold.
pub const MAX_STATES: usize = 18;
/// States considered by the merging pass; larger tables get no shift rows.
const MAX_INPUT_STATES: usize = 64;
/// Units per block: the chains check for the dead state and skip ASCII per block.
const BLOCK: usize = 32;

/// The shift rows of a table, with the field width (0: none, the table is too big).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Shift {
    /// `rows[u]`: the next-state fields of unit `u`.
    pub rows: [u128; 256],
    /// Field width in bits: 6 (rows fit a u64), 7 (u128) or 0 (no rows).
    pub width: u32,
    /// Bit set of the sync units (see the module docs).
    pub sync: [u64; 4],
}

const fn succ(trans: &[u32], stride: usize, state: usize, class: usize) -> usize {
    (trans[state * stride + class] & STATE_MASK) as usize / stride
}

/// Units that every state other than the start sends to the dead state.
const fn sync_units(classes: &[u8; 256], trans: &[u32], stride: usize) -> [u64; 4] {
    let n = trans.len() / stride;
    let mut sync = [0u64; 4];
    let mut u = 0;
    while u < 256 {
        let c = classes[u] as usize;
        let mut ok = true;
        let mut s = 2;
        while s < n {
            if succ(trans, stride, s, c) != 0 {
                ok = false;
                break;
            }
            s += 1;
        }
        if ok {
            sync[u / 64] |= 1 << (u % 64);
        }
        u += 1;
    }
    sync
}

/// Whether states `a` and `b` are in the same block and go to the same blocks.
const fn same(block: &[u8; MAX_INPUT_STATES], trans: &[u32], stride: usize, a: usize, b: usize) -> bool {
    if block[a] != block[b] {
        return false;
    }
    let mut c = 0;
    while c < stride {
        if block[succ(trans, stride, a, c)] != block[succ(trans, stride, b, c)] {
            return false;
        }
        c += 1;
    }
    true
}

/// Builds the shift rows (usable in `const` context).
pub(crate) const fn build(classes: &[u8; 256], trans: &[u32], stride: usize) -> Shift {
    let sync = sync_units(classes, trans, stride);
    let n = trans.len() / stride;
    let none = Shift { rows: [0; 256], width: 0, sync };
    if n > MAX_INPUT_STATES {
        return none;
    }
    // Blocks by acceptance, dead and start apart from the rest; then refine until
    // stable. Ids are given in order of first appearance, so dead = 0, start = 1.
    let mut block = [0u8; MAX_INPUT_STATES];
    let mut s = 2;
    while s < n {
        block[s] = 2;
        s += 1;
    }
    block[1] = 1;
    let mut count = if n > 2 { 3 } else { 2 };
    loop {
        let mut next = [0u8; MAX_INPUT_STATES];
        let mut fresh = 0u8;
        let mut s = 0;
        while s < n {
            let mut t = 0;
            let mut found = n;
            while t < s {
                if same(&block, trans, stride, t, s) {
                    found = t;
                    break;
                }
                t += 1;
            }
            if found < n {
                next[s] = next[found];
            } else {
                next[s] = fresh;
                fresh += 1;
            }
            s += 1;
        }
        block = next;
        if fresh as usize == count {
            break;
        }
        count = fresh as usize;
    }
    let width: u32 = if count <= 10 {
        6
    } else if count <= MAX_STATES {
        7
    } else {
        return none;
    };
    // A representative state of every block.
    let mut rep = [0usize; MAX_STATES];
    let mut s = n;
    while s > 0 {
        s -= 1;
        rep[block[s] as usize] = s;
    }
    let mut rows = [0u128; 256];
    let mut u = 0;
    while u < 256 {
        let c = classes[u] as usize;
        let mut row = 0u128;
        let mut k = 0;
        while k < count {
            let to = block[succ(trans, stride, rep[k], c)] as u128;
            row |= (to * width as u128) << (k as u32 * width);
            k += 1;
        }
        rows[u] = row;
        u += 1;
    }
    Shift { rows, width, sync }
}

/// A row type: u64 for 6-bit fields, u128 for 7-bit ones.
trait Row: Copy {
    fn from_row(r: u128) -> Self;
    /// `self >> (state mod width of the type)`.
    fn step(self, state: Self) -> Self;
    /// The current state's offset.
    fn offset(self, width: u32) -> u32;
}

impl Row for u64 {
    #[inline(always)]
    fn from_row(r: u128) -> Self {
        r as u64
    }
    #[inline(always)]
    fn step(self, state: Self) -> Self {
        self.wrapping_shr(state as u32)
    }
    #[inline(always)]
    fn offset(self, width: u32) -> u32 {
        (self as u32) & ((1 << width) - 1)
    }
}

impl Row for u128 {
    #[inline(always)]
    fn from_row(r: u128) -> Self {
        r
    }
    #[inline(always)]
    fn step(self, state: Self) -> Self {
        self.wrapping_shr(state as u32)
    }
    #[inline(always)]
    fn offset(self, width: u32) -> u32 {
        (self as u32) & ((1 << width) - 1)
    }
}

fn is_ascii_block(block: &[u8]) -> bool {
    let mut acc = 0u64;
    for w in block.chunks_exact(8) {
        acc |= u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
    }
    acc & 0x8080_8080_8080_8080 == 0
}

/// One chain over `input` (which starts at offset `base`), starting in `state`;
/// returns the final state and the last block start at which the chain was in the
/// start state (`last` if it never was).
#[inline(always)]
fn chain<R: Row>(
    rows: &[u128; 256],
    width: u32,
    ascii: bool,
    input: &[u8],
    mut state: R,
    base: usize,
    mut last: usize,
) -> (R, usize) {
    let start = width;
    let mut chunks = input.chunks_exact(BLOCK);
    let mut pos = base;
    for block in &mut chunks {
        let off = state.offset(width);
        if off == start {
            last = pos;
            if ascii && is_ascii_block(block) {
                pos += BLOCK;
                continue;
            }
        } else if off == 0 {
            return (state, last);
        }
        for &b in block {
            state = R::from_row(rows[b as usize]).step(state);
        }
        pos += BLOCK;
    }
    if state.offset(width) == start {
        last = pos;
    }
    for &b in chunks.remainder() {
        state = R::from_row(rows[b as usize]).step(state);
    }
    (state, last)
}

/// Where to split `input` for two chains: the first sync unit at or after the
/// middle, if one is near.
fn split(sync: &[u64; 4], input: &[u8]) -> Option<usize> {
    if input.len() < 4 * BLOCK {
        return None;
    }
    let mid = input.len() / 2;
    (mid..input.len().min(mid + 64)).find(|&i| {
        let u = input[i] as usize;
        sync[u / 64] >> (u % 64) & 1 == 1
    })
}

#[inline(always)]
fn validate_rows<R: Row>(shift: &Shift, ascii: bool, input: &[u8]) -> Result<(), usize> {
    let width = shift.width;
    let rows = &shift.rows;
    let start = R::from_row(u128::from(width));
    let Some(p) = split(&shift.sync, input) else {
        let (s, last) = chain::<R>(rows, width, ascii, input, start, 0, 0);
        return if s.offset(width) == width { Ok(()) } else { Err(last) };
    };
    let (a, b) = input.split_at(p);
    // Both halves in lockstep, block by block, so the two dependency chains overlap.
    let (mut sa, mut sb) = (start, start);
    let (mut last_a, mut last_b) = (0usize, p);
    let mut i = 0;
    let n = a.len().min(b.len()) / BLOCK * BLOCK;
    while i < n {
        let (oa, ob) = (sa.offset(width), sb.offset(width));
        if oa == 0 || ob == 0 {
            break;
        }
        if oa == width {
            last_a = i;
        }
        if ob == width {
            last_b = p + i;
        }
        let (ba, bb) = (&a[i..i + BLOCK], &b[i..i + BLOCK]);
        if !(ascii && oa == width && ob == width && is_ascii_block(ba) && is_ascii_block(bb)) {
            for k in 0..BLOCK {
                sa = R::from_row(rows[ba[k] as usize]).step(sa);
                sb = R::from_row(rows[bb[k] as usize]).step(sb);
            }
        }
        i += BLOCK;
    }
    // Finish the first half; it must end at the start state.
    if sa.offset(width) != 0 {
        let (s, l) = chain::<R>(rows, width, ascii, &a[i..], sa, i, last_a);
        sa = s;
        last_a = l;
    }
    if sa.offset(width) != width {
        return Err(last_a);
    }
    if sb.offset(width) != 0 {
        let (s, l) = chain::<R>(rows, width, ascii, &b[i..], sb, p + i, last_b);
        sb = s;
        last_b = l;
    }
    if sb.offset(width) == width {
        Ok(())
    } else {
        Err(last_b)
    }
}

/// Validates `input` with shift rows. `Err(at)`: invalid, and `at` is a unit
/// boundary at or before the first error, from which to find it step by step.
pub(crate) fn validate(shift: &Shift, ascii: bool, input: &[u8]) -> Result<(), usize> {
    match shift.width {
        6 => validate_rows::<u64>(shift, ascii, input),
        _ => validate_rows::<u128>(shift, ascii, input),
    }
}
