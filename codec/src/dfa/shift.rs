//! The shift-DFA validator: Per Vognsen's technique, derived from any [`Dfa`].
//!
//! Validation only needs the automaton's *language*, not its outputs, so the
//! states are first merged by acceptance alone (Moore's partition refinement);
//! strict UTF-8 keeps its 9 states. Each remaining state `k` gets a bit offset,
//! and each unit `u` one integer row whose field at a state's offset holds the
//! offset of the state it goes to on `u`. A step is then one load (which depends
//! only on the input) and one shift (the only link in the dependency chain):
//!
//! ```text
//! state = ROWS[unit] >> (state mod 2^w)      (w = 6 in a u64, 7 in a u128)
//! ```
//!
//! The plain layout puts state `k` at `k·w`: a u64 holds 10 states, a u128 18.
//! Fields may also *overlap* where every row agrees on the shared bits (the dead
//! state's field is 0 everywhere, many fields are 0 in most rows), so automata of
//! 11 or 12 states can still use u64 rows: [`solve`] searches such offsets by
//! backtracking (too slow for the compiler's constant evaluator, so the `codec!`
//! macro runs it and passes the offsets on; [`build_solved`] checks them).
//! FSS-UTF of 1992, Ken Thompson's draft and UTF-8 extended to 36 bits get u64
//! rows this way; UTF-8 extended to 42 bits (14 states) keeps u128 rows.
//!
//! Two chains run side by side on the two halves of the input, split at a *sync
//! unit*: one that every state but the start sends to the dead state, so that the
//! first half must end at the start state for the input to be valid, and the
//! second half may be validated from there on its own. Blocks of 32 ASCII units
//! are skipped at once when the codec is ASCII-transparent.
//!
//! # Lineage
//! Per Vognsen, "shift-based DFAs" (2020 gist and notes); overlapping fields
//! follow Dougall Johnson's observation that strict UTF-8's rows fit 32 bits when
//! a solver places the fields. The split at a sync unit is the usual way
//! to parallelize a self-synchronizing code. Moore's algorithm: E. F. Moore,
//! "Gedanken-experiments on sequential machines" (1956).
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
    /// The start state's offset (the dead state's is 0).
    pub start: u32,
    /// Whether the offsets were solved (fields may overlap) rather than `k·width`.
    pub solved: bool,
    /// The offset of every merged state, by merged id (dead 0, start 1).
    pub offsets: [u8; MAX_STATES],
    /// How many merged states there are.
    pub count: usize,
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

/// The automaton merged by acceptance: `block[s]` is the merged id of table state
/// `s` (dead 0, start 1), `rep[k]` a table state of merged state `k`.
#[derive(Clone, Copy)]
struct Merged {
    block: [u8; MAX_INPUT_STATES],
    rep: [usize; MAX_STATES],
    count: usize,
}

/// Merges states by acceptance (Moore), or `None` when the table or the result
/// is too large for shift rows.
const fn merge(trans: &[u32], stride: usize) -> Option<Merged> {
    let n = trans.len() / stride;
    if n > MAX_INPUT_STATES {
        return None;
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
    if count > MAX_STATES {
        return None;
    }
    // A representative state of every block.
    let mut rep = [0usize; MAX_STATES];
    let mut s = n;
    while s > 0 {
        s -= 1;
        rep[block[s] as usize] = s;
    }
    Some(Merged { block, rep, count })
}

/// The merged successor of merged state `k` on class `c`.
const fn merged_succ(m: &Merged, trans: &[u32], stride: usize, k: usize, c: usize) -> usize {
    m.block[succ(trans, stride, m.rep[k], c)] as usize
}

/// Fills the rows for the given offsets, field width `width` (rows of 64 bits
/// when `width` is 6, 128 when 7). `None` if two fields that overlap disagree in
/// some row, or a field runs past the row with bits that are not zero.
const fn fill(
    classes: &[u8; 256],
    trans: &[u32],
    stride: usize,
    m: &Merged,
    offsets: &[u8; MAX_STATES],
    width: u32,
) -> Option<[u128; 256]> {
    let bits = if width == 6 { 64 } else { 128 };
    let mut rows = [0u128; 256];
    let mut u = 0;
    while u < 256 {
        let c = classes[u] as usize;
        let (mut known, mut row) = (0u128, 0u128);
        let mut k = 0;
        while k < m.count {
            let at = offsets[k] as u32;
            let to = offsets[merged_succ(m, trans, stride, k, c)] as u128;
            let field = (1u128 << width) - 1;
            // Bits past the row read as zero.
            if at + width > bits && to >> (bits - at) != 0 {
                return None;
            }
            let (mask, value) = (field << at, to << at);
            let (mask, value) =
                if bits == 64 { (mask & u64::MAX as u128, value & u64::MAX as u128) } else { (mask, value) };
            if (row ^ value) & known & mask != 0 {
                return None;
            }
            known |= mask;
            row |= value;
            k += 1;
        }
        rows[u] = row;
        u += 1;
    }
    Some(rows)
}

/// Builds the shift rows with offsets `k·w` (usable in `const` context): `w` = 6
/// (u64) up to 10 merged states, 7 (u128) up to 18, none beyond.
pub(crate) const fn build(classes: &[u8; 256], trans: &[u32], stride: usize) -> Shift {
    let sync = sync_units(classes, trans, stride);
    let none = Shift { rows: [0; 256], width: 0, start: 0, solved: false, offsets: [0; MAX_STATES], count: 0, sync };
    let m = match merge(trans, stride) {
        Some(m) => m,
        None => return none,
    };
    let width: u32 = if m.count <= 10 { 6 } else { 7 };
    let mut offsets = [0u8; MAX_STATES];
    let mut k = 0;
    while k < m.count {
        offsets[k] = (k as u32 * width) as u8;
        k += 1;
    }
    match fill(classes, trans, stride, &m, &offsets, width) {
        Some(rows) => Shift { rows, width, start: width, solved: false, offsets, count: m.count, sync },
        None => none,
    }
}

/// Builds u64 shift rows from solved offsets (see [`solve`]), checking that they
/// are consistent; `None` if they are not (usable in `const` context).
pub(crate) const fn build_solved(classes: &[u8; 256], trans: &[u32], stride: usize, given: &[u8]) -> Option<Shift> {
    let sync = sync_units(classes, trans, stride);
    let m = match merge(trans, stride) {
        Some(m) => m,
        None => return None,
    };
    if given.len() != m.count || given[0] != 0 {
        return None;
    }
    let mut offsets = [0u8; MAX_STATES];
    let mut k = 0;
    while k < m.count {
        if given[k] >= 64 {
            return None;
        }
        // Offsets must be distinct: a state is known by its offset.
        let mut j = 0;
        while j < k {
            if given[j] == given[k] {
                return None;
            }
            j += 1;
        }
        offsets[k] = given[k];
        k += 1;
    }
    match fill(classes, trans, stride, &m, &offsets, 6) {
        Some(rows) => {
            Some(Shift { rows, width: 6, start: offsets[1] as u32, solved: true, offsets, count: m.count, sync })
        }
        None => None,
    }
}

/// Searches offsets for u64 rows in which fields may overlap, for automata with
/// more than 10 merged states (which `k·6` offsets cannot fit).
///
/// A backtracking search: states take offsets in turn, and each placement adds the
/// fields it completes (its own, for the successors already placed, and those of
/// the placed predecessors) to every row's known bits, failing on a conflict. It
/// gives up after a bounded number of placements, so the answer may be `None`
/// for an automaton that has a layout.
pub(crate) fn solve(trans: &[u32], stride: usize) -> Option<alloc::vec::Vec<u8>> {
    use alloc::vec::Vec;
    /// Placements tried before giving up (about half a second).
    const BUDGET: usize = 12_000_000;
    let m = merge(trans, stride)?;
    if m.count <= 10 {
        return None;
    }
    let n = m.count;
    let succ: Vec<Vec<usize>> =
        (0..n).map(|k| (0..stride).map(|c| merged_succ(&m, trans, stride, k, c)).collect()).collect();
    struct Search {
        succ: Vec<Vec<usize>>,
        offsets: Vec<Option<u8>>,
        tries: usize,
    }
    /// Adds "the field at `at` holds `to`" to a row's known bits.
    fn add(row: &mut (u64, u64), at: u8, to: u8) -> bool {
        let (at, to) = (u32::from(at), u64::from(to));
        if at > 58 && to >> (64 - at) != 0 {
            return false;
        }
        let (mask, value) = (0x3Fu64 << at, to << at);
        if (row.1 ^ value) & row.0 & mask != 0 {
            return false;
        }
        row.0 |= mask;
        row.1 |= value;
        true
    }
    impl Search {
        /// Places state `k` at `at`: adds the fields it completes to `rows`, and
        /// returns false (with `rows` unchanged) on a conflict.
        fn placed(&self, rows: &mut [(u64, u64)], k: usize, at: u8) -> bool {
            let saved = rows.to_vec();
            for (c, row) in rows.iter_mut().enumerate() {
                let t = self.succ[k][c];
                let to = if t == k { Some(at) } else { self.offsets[t] };
                let mut ok = to.is_none_or(|to| add(row, at, to));
                for (j, off) in self.offsets.iter().enumerate() {
                    if let (true, Some(from)) = (ok && j != k && self.succ[j][c] == k, off) {
                        ok = add(row, *from, at);
                    }
                }
                if !ok {
                    rows.copy_from_slice(&saved);
                    return false;
                }
            }
            true
        }
        /// Places the states of `order[i..]`, each at the lowest position that
        /// still fits, backtracking on a dead end.
        fn place(&mut self, order: &[usize], i: usize, rows: &mut [(u64, u64)]) -> bool {
            let Some(&k) = order.get(i) else {
                return true;
            };
            let before = rows.to_vec();
            for at in 1..64u8 {
                if self.tries >= BUDGET {
                    return false;
                }
                if self.offsets.contains(&Some(at)) {
                    continue;
                }
                self.tries += 1;
                if self.placed(rows, k, at) {
                    self.offsets[k] = Some(at);
                    if self.place(order, i + 1, rows) {
                        return true;
                    }
                    self.offsets[k] = None;
                    rows.copy_from_slice(&before);
                }
            }
            false
        }
    }
    let mut search = Search { succ, offsets: alloc::vec![None; n], tries: 0 };
    // The dead state: offset 0, its field 0 in every row.
    let mut rows = alloc::vec![(0u64, 0u64); stride];
    if !search.placed(&mut rows, 0, 0) {
        return None;
    }
    search.offsets[0] = Some(0);
    let order: Vec<usize> = (1..n).collect();
    if search.place(&order, 0, &mut rows) {
        Some(search.offsets.iter().map(|o| o.unwrap_or(0)).collect())
    } else {
        None
    }
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
#[allow(clippy::too_many_arguments)]
fn chain<R: Row>(
    rows: &[u128; 256],
    width: u32,
    start: u32,
    ascii: bool,
    input: &[u8],
    mut state: R,
    base: usize,
    mut last: usize,
) -> (R, usize) {
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
    let start_offset = shift.start;
    let start = R::from_row(u128::from(start_offset));
    let Some(p) = split(&shift.sync, input) else {
        let (s, last) = chain::<R>(rows, width, start_offset, ascii, input, start, 0, 0);
        return if s.offset(width) == start_offset { Ok(()) } else { Err(last) };
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
        if oa == start_offset {
            last_a = i;
        }
        if ob == start_offset {
            last_b = p + i;
        }
        let (ba, bb) = (&a[i..i + BLOCK], &b[i..i + BLOCK]);
        if !(ascii && oa == start_offset && ob == start_offset && is_ascii_block(ba) && is_ascii_block(bb)) {
            for k in 0..BLOCK {
                sa = R::from_row(rows[ba[k] as usize]).step(sa);
                sb = R::from_row(rows[bb[k] as usize]).step(sb);
            }
        }
        i += BLOCK;
    }
    // Finish the first half; it must end at the start state.
    if sa.offset(width) != 0 {
        let (s, l) = chain::<R>(rows, width, start_offset, ascii, &a[i..], sa, i, last_a);
        sa = s;
        last_a = l;
    }
    if sa.offset(width) != start_offset {
        return Err(last_a);
    }
    if sb.offset(width) != 0 {
        let (s, l) = chain::<R>(rows, width, start_offset, ascii, &b[i..], sb, p + i, last_b);
        sb = s;
        last_b = l;
    }
    if sb.offset(width) == start_offset {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// UTF-8's tables as the builder makes them are in the integration tests; here
    /// a small automaton: ASCII, and C0-DF + one continuation (80-BF).
    fn two_byte() -> ([u8; 256], [u32; 4 * 3]) {
        let mut classes = [3u8; 256];
        classes[..0x80].fill(0);
        classes[0x80..0xC0].fill(1);
        classes[0xC0..0xE0].fill(2);
        // States (premultiplied by 4): dead 0, start 4, one more unit 8.
        let trans = [0, 0, 0, 0, 4, 0, 8, 0, 0, 4, 0, 0];
        (classes, trans)
    }

    #[test]
    fn given_offsets_must_be_distinct_and_agree_in_every_row() {
        let (classes, trans) = two_byte();
        let plain = build(&classes, &trans, 4);
        assert_eq!((plain.width, plain.start, plain.count), (6, 6, 3));
        // The k·6 layout, given explicitly, gives the same rows.
        let same = build_solved(&classes, &trans, 4, &[0, 6, 12]).unwrap();
        assert_eq!(same.rows, plain.rows);
        // Layouts whose fields clash somewhere are refused.
        assert!(build_solved(&classes, &trans, 4, &[0, 6, 6]).is_none(), "duplicate offsets");
        assert!(build_solved(&classes, &trans, 4, &[0, 1, 12]).is_none(), "start overlapping dead with nonzero bits");
        assert!(build_solved(&classes, &trans, 4, &[1, 6, 12]).is_none(), "dead must sit at 0");
        assert!(build_solved(&classes, &trans, 4, &[0, 6]).is_none(), "one offset per merged state");
        // Fields that run past bit 63 must hold small values: the pending state's
        // field holds the start's offset (6 = 0b110), which needs 3 bits.
        assert!(build_solved(&classes, &trans, 4, &[0, 6, 61]).is_some());
        assert!(build_solved(&classes, &trans, 4, &[0, 6, 62]).is_none());
        // Small automata need no search.
        assert!(solve(&trans, 4).is_none());
    }
}
