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
//! # Layout
//! The plain layout puts state `k` at `k·w`: a u64 holds 10 states, a u128 18.
//! Nothing requires the fields to be disjoint, though. A field is read as the
//! low `w` bits of `row >> offset`, so two fields may share bits as long as, in
//! every row, both want the same values there; and a field may run past bit 63
//! if its values have zeros where the row has no bits (a shift brings in
//! zeros). Many fields are 0 in most rows (from the middle of a sequence, every
//! lead unit goes to the dead state), so there is room to share. The conditions,
//! for u64 rows:
//!
//! - the offsets are distinct (a state is known by its offset), the dead
//!   state's is 0 and its field is 0 in every row, so it stays dead;
//! - for every unit, one row holds at each state's offset the offset of the
//!   state it goes to, the shared bits of overlapping fields agreeing.
//!
//! [`solve`] finds such offsets for automata of more than 10 merged states by a
//! backtracking search ([`search`]): it keeps, for every distinct column of the
//! automaton, the row bits decided so far; places one state at a time, the one
//! whose field is most decided (fewest successors not yet placed) among those
//! with the fewest offsets left; and after each placement narrows every other
//! state's open offsets to those whose fields still fit (for a successor not yet
//! placed, to values some open offset of it could take). States that trade
//! places without changing the automaton take increasing offsets. The search is
//! bounded (about a tenth of a second at most), so it may give up on a layout
//! that exists; then the u128 rows stay. It needs a heap and more steps than the
//! compiler's constant evaluator allows, so the `codec!` macro runs it and passes
//! the offsets on, and [`build_solved`] checks them in `const` context. All the
//! built-in codecs get u64 rows: FSS-UTF of 1992, Ken Thompson's draft (11
//! states), UTF-8 extended to 36 bits (12) and to 42 bits (14) by overlapping
//! fields, in a few milliseconds each.
//!
//! Two chains run side by side on the two halves of the input, split at a *sync
//! unit*: one that every state but the start sends to the dead state, so that the
//! first half must end at the start state for the input to be valid, and the
//! second half may be validated from there on its own. Blocks of 32 ASCII units
//! are skipped at once when the codec is ASCII-transparent.
//!
//! # Lineage
//! Per Vognsen, "shift-based DFAs" (2020 gist and notes): one row per unit, a
//! shift per step. Overlapping fields follow Dougall Johnson, who had an SMT
//! solver place strict UTF-8's 9 fields so that they overlap and fit 32-bit
//! rows; here a small search of our own does the placing, for u64 rows. The
//! split at a sync unit is the usual way to parallelize a self-synchronizing
//! code. Moore's algorithm: E. F. Moore,
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

/// Row checks (one candidate offset against one row) the search may make before
/// it gives up: about a tenth of a second of work.
const BUDGET: u64 = 20_000_000;

/// What the search for overlapping offsets came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Solved {
    /// The offsets, by merged state id (the dead state's is 0).
    Layout(alloc::vec::Vec<u8>),
    /// No u64 layout exists: the search ran to its end.
    Impossible,
    /// The budget ran out first.
    GaveUp,
}

/// Searches offsets for u64 rows in which fields may overlap, for automata with
/// more than 10 states merged by acceptance (which `k·6` offsets cannot fit);
/// `None` for smaller ones, or when no layout was found. See [`search`].
pub(crate) fn solve(trans: &[u32], stride: usize) -> Option<alloc::vec::Vec<u8>> {
    let m = merge(trans, stride)?;
    if m.count <= 10 {
        return None;
    }
    match search(&columns(&m, trans, stride), m.count, BUDGET) {
        Solved::Layout(offsets) => Some(offsets),
        Solved::Impossible | Solved::GaveUp => None,
    }
}

/// The distinct columns of the merged automaton: `cols[c][k]` is the successor
/// of merged state `k` on the `c`-th kind of unit. Units whose columns are equal
/// get equal rows, so the search looks at each column once.
fn columns(m: &Merged, trans: &[u32], stride: usize) -> alloc::vec::Vec<[u8; MAX_STATES]> {
    let mut cols = alloc::vec::Vec::new();
    for c in 0..stride {
        let mut col = [0u8; MAX_STATES];
        for (k, to) in col.iter_mut().enumerate().take(m.count) {
            *to = merged_succ(m, trans, stride, k, c) as u8;
        }
        if !cols.contains(&col) {
            cols.push(col);
        }
    }
    cols
}

/// `PICK[i]`: the numbers 0..64 whose bit `i` is set, as a bit set.
const PICK: [u64; 6] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];

/// A row being laid out: which bits are decided so far, and their values.
#[derive(Clone, Copy, Debug, Default)]
struct Partial {
    known: u64,
    value: u64,
}

impl Partial {
    /// Decides "the field at bit `at` holds `to`"; false (and `self` is then not
    /// to be used) when that clashes with bits already decided, or when `to` has
    /// bits past bit 63, which a shift reads as zero.
    fn set(&mut self, at: u32, to: u32) -> bool {
        let to = u64::from(to);
        if at > 58 && to >> (64 - at) != 0 {
            return false;
        }
        let (mask, value) = (0x3F << at, to << at);
        if (self.value ^ value) & self.known & mask != 0 {
            return false;
        }
        self.known |= mask;
        self.value |= value;
        true
    }

    /// The values 0..64 the field at bit `at` may still take, as a bit set.
    fn allows(&self, at: u32) -> u64 {
        let beyond = if at > 58 { 0x3F & !((1u64 << (64 - at)) - 1) } else { 0 };
        let known = (self.known >> at) & 0x3F | beyond;
        let value = (self.value >> at) & 0x3F;
        let mut set = u64::MAX;
        for (i, pick) in PICK.iter().enumerate() {
            if known >> i & 1 == 1 {
                set &= if value >> i & 1 == 1 { *pick } else { !*pick };
            }
        }
        set
    }
}

/// The bits set in `set`, lowest first.
fn bits(mut set: u64) -> impl Iterator<Item = u32> {
    core::iter::from_fn(move || {
        let i = set.trailing_zeros();
        set &= set.wrapping_sub(1);
        (i < 64).then_some(i)
    })
}

/// The backtracking search for overlapping offsets (see [`search`]).
struct Search<'a> {
    cols: &'a [[u8; MAX_STATES]],
    /// `preds[c][k]`: the states other than `k` that go to `k` in column `c`.
    preds: alloc::vec::Vec<[u32; MAX_STATES]>,
    /// States in the order they are reached from the start (ties go to the first).
    /// `succs[k]`: the states other than `k` that `k` goes to.
    succs: [u32; MAX_STATES],
    rank: [usize; MAX_STATES],
    /// `twins[k]`: the states that may trade places with `k` (swapping the two
    /// in every column gives the same columns); of two twins, the lower takes
    /// the lower offset.
    twins: [u32; MAX_STATES],
    count: usize,
    offsets: [u8; MAX_STATES],
    /// Bit sets of the states placed and of the offsets they took.
    placed: u32,
    used: u64,
    work: u64,
    budget: u64,
}

impl Search<'_> {
    /// Whether state `k` may sit at `at` given the rows so far (`rows`) and the
    /// offsets still open to the states not placed (`open`): in every row, its own
    /// field must fit when its successor is placed (or allow some open offset of
    /// that successor when not), and so must the fields of the placed states that
    /// go to `k`. With `commit`, also writes those fields into `rows`.
    fn fits(&self, rows: &mut [Partial], open: &[u64; MAX_STATES], k: usize, at: u32, commit: bool) -> bool {
        for (c, row) in rows.iter_mut().enumerate() {
            let mut r = *row;
            let t = self.cols[c][k] as usize;
            let own = if t == k { Some(at) } else { (self.placed >> t & 1 == 1).then(|| u32::from(self.offsets[t])) };
            if own.is_some_and(|to| !r.set(at, to)) {
                return false;
            }
            for j in bits(u64::from(self.preds[c][k] & self.placed)) {
                if !r.set(u32::from(self.offsets[j as usize]), at) {
                    return false;
                }
            }
            if t != k && self.placed >> t & 1 == 0 && r.allows(at) & open[t] & !(1 << at) == 0 {
                return false;
            }
            if commit {
                *row = r;
            }
        }
        true
    }

    /// Places the remaining states: narrows every open set to the offsets that
    /// still fit, fails if one is empty, and tries the offsets of the state with
    /// the fewest. `None` when the budget ran out.
    fn run(&mut self, rows: &[Partial], open: &[u64; MAX_STATES]) -> Option<bool> {
        let mut rows = alloc::vec::Vec::from(rows);
        let mut next = *open;
        let mut best: Option<((bool, u32, usize), usize)> = None;
        for k in 0..self.count {
            if self.placed >> k & 1 == 1 {
                continue;
            }
            let mut set = open[k] & !self.used;
            // Interchangeable states take increasing offsets.
            for j in bits(u64::from(self.twins[k] & self.placed)) {
                let at = u32::from(self.offsets[j as usize]);
                set &= if (j as usize) < k { !1 << at } else { (1 << at) - 1 };
            }
            for at in bits(set) {
                self.work += self.cols.len() as u64;
                if !self.fits(&mut rows, open, k, at, false) {
                    set &= !(1 << at);
                }
            }
            if self.work > self.budget {
                return None;
            }
            if set == 0 {
                return Some(false);
            }
            // A state with one offset left goes first; then the one whose field
            // is most decided (fewest successors not placed), then the one with
            // the fewest offsets, then the one nearest the start.
            let open_succs = (self.succs[k] & !self.placed).count_ones();
            let key = (set.count_ones() > 1, open_succs * 64 + set.count_ones(), self.rank[k]);
            next[k] = set;
            if best.is_none_or(|b| key < b.0) {
                best = Some((key, k));
            }
        }
        let Some((_, k)) = best else {
            return Some(true);
        };
        let saved = rows.clone();
        for at in bits(next[k]) {
            if !self.fits(&mut rows, &next, k, at, true) {
                // Narrower open sets than the ones `at` was checked against.
                rows.copy_from_slice(&saved);
                continue;
            }
            self.offsets[k] = at as u8;
            self.placed |= 1 << k;
            self.used |= 1 << at;
            let mut deeper = next;
            deeper[k] = 1 << at;
            let found = self.run(&rows, &deeper);
            if found != Some(false) {
                return found;
            }
            self.placed &= !(1 << k);
            self.used &= !(1 << at);
            rows.copy_from_slice(&saved);
        }
        Some(false)
    }
}

/// Searches distinct offsets 0..64 for `count` states (dead first, at 0) such
/// that every column has a u64 row holding each state's successor's offset at
/// the state's offset, fields overlapping where their bits agree.
///
/// A backtracking search with forward checking: each step narrows every unplaced
/// state's open offsets to those that still fit the rows so far, and places the
/// state with the fewest (ties to the one nearest the start), trying its offsets
/// lowest first. `budget` bounds the row checks.
fn search(cols: &[[u8; MAX_STATES]], count: usize, budget: u64) -> Solved {
    if count > MAX_STATES || count > 32 {
        return Solved::Impossible;
    }
    let mut preds = alloc::vec![[0u32; MAX_STATES]; cols.len()];
    for (c, col) in cols.iter().enumerate() {
        for (j, &k) in col.iter().enumerate().take(count) {
            let k = k as usize;
            if k != j {
                preds[c][k] |= 1 << j;
            }
        }
    }
    // Breadth first from the start (state 1), for ties.
    let mut rank = [usize::MAX; MAX_STATES];
    let mut queue = [0usize; MAX_STATES];
    let (mut head, mut tail) = (0, 0);
    if count > 1 {
        rank[1] = 0;
        queue[0] = 1;
        tail = 1;
    }
    while head < tail {
        let s = queue[head];
        head += 1;
        for col in cols {
            let t = col[s] as usize;
            if rank[t] == usize::MAX {
                rank[t] = tail;
                queue[tail] = t;
                tail += 1;
            }
        }
    }
    // The successors of every state (other than itself).
    let mut succs = [0u32; MAX_STATES];
    for col in cols {
        for (k, set) in succs.iter_mut().enumerate().take(count) {
            if col[k] as usize != k {
                *set |= 1 << col[k];
            }
        }
    }
    let mut twins = [0u32; MAX_STATES];
    let swap = |x: u8, j: usize, k: usize| {
        if x as usize == j {
            k as u8
        } else if x as usize == k {
            j as u8
        } else {
            x
        }
    };
    for j in 1..count {
        for k in j + 1..count {
            let same = cols.iter().all(|col| {
                let mut image = [0u8; MAX_STATES];
                for (i, to) in image.iter_mut().enumerate().take(count) {
                    *to = swap(col[swap(i as u8, j, k) as usize], j, k);
                }
                cols.contains(&image)
            });
            if same {
                twins[j] |= 1 << k;
                twins[k] |= 1 << j;
            }
        }
    }
    let mut s = Search {
        cols,
        preds,
        succs,
        rank,
        twins,
        count,
        offsets: [0; MAX_STATES],
        placed: 1,
        used: 1,
        work: 0,
        budget,
    };
    // The dead state: at 0, and its field 0 in every row.
    let mut rows = alloc::vec![Partial::default(); cols.len()];
    for row in &mut rows {
        row.set(0, 0);
    }
    let mut open = [!1u64; MAX_STATES];
    open[0] = 1;
    match s.run(&rows, &open) {
        Some(true) => Solved::Layout(s.offsets[..count].to_vec()),
        Some(false) => Solved::Impossible,
        None => Solved::GaveUp,
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
        if ascii && oa == start_offset && ob == start_offset {
            // Both at a boundary: skip the blocks that are ASCII in both halves in
            // a loop of its own, with no state to look at.
            while i < n && is_ascii_block(&a[i..i + BLOCK]) && is_ascii_block(&b[i..i + BLOCK]) {
                i += BLOCK;
            }
            if i == n {
                last_a = i;
                last_b = p + i;
                break;
            }
        }
        if oa == start_offset {
            last_a = i;
        }
        if ob == start_offset {
            last_b = p + i;
        }
        let (ba, bb) = (&a[i..i + BLOCK], &b[i..i + BLOCK]);
        for k in 0..BLOCK {
            sa = R::from_row(rows[ba[k] as usize]).step(sa);
            sb = R::from_row(rows[bb[k] as usize]).step(sb);
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

    /// Columns from lists (state `k` goes to `col[k]`), as the search takes them.
    fn cols(lists: &[alloc::vec::Vec<u8>]) -> alloc::vec::Vec<[u8; MAX_STATES]> {
        lists
            .iter()
            .map(|l| {
                let mut col = [0u8; MAX_STATES];
                col[..l.len()].copy_from_slice(l);
                col
            })
            .collect()
    }

    /// UTF-8's scheme stretched: lead units 0xC0 + k start a sequence of `k`
    /// continuation units (80-BF), for `k` in 1..=`longest`; ASCII stands alone.
    /// States: dead 0, start 1, and `k` more units to go `k + 1`.
    fn chain(longest: usize) -> ([u8; 256], alloc::vec::Vec<u32>, usize) {
        let stride = longest + 3;
        let (ascii, cont, other) = (0, longest + 1, longest + 2);
        let mut classes = [other as u8; 256];
        classes[..0x80].fill(ascii as u8);
        classes[0x80..0xC0].fill(cont as u8);
        for k in 1..=longest {
            classes[0xC0 + k] = k as u8;
        }
        let n = longest + 2;
        let mut trans = alloc::vec![0u32; n * stride];
        let at = |s: usize| (s * stride) as u32;
        trans[stride + ascii] = at(1);
        for k in 1..=longest {
            trans[stride + k] = at(k + 1);
            // One unit to go: back to the start; else one fewer to go.
            trans[(k + 1) * stride + cont] = at(k);
        }
        (classes, trans, stride)
    }

    /// Reads every transition back through the rows: the field at each state's
    /// offset must hold the offset of the state it goes to, for all 256 units.
    fn check_rows(shift: &Shift, classes: &[u8; 256], trans: &[u32], stride: usize) {
        let n = trans.len() / stride;
        assert_eq!(shift.count, n, "these automata are minimal");
        let bits = if shift.width == 6 { 64 } else { 128 };
        for (u, (&row, &class)) in shift.rows.iter().zip(classes).enumerate() {
            assert!(bits == 128 || row >> 64 == 0);
            for s in 0..n {
                let at = u32::from(shift.offsets[s]);
                let to = succ(trans, stride, s, class as usize);
                let field = (row >> at) as u32 & ((1 << shift.width) - 1);
                assert_eq!(field, u32::from(shift.offsets[to]), "unit {u:#x}, state {s}");
            }
        }
    }

    #[test]
    fn chains_of_up_to_eighteen_states_fit_u64_rows_by_overlapping() {
        for longest in [9, 12, 16] {
            let (classes, trans, stride) = chain(longest);
            let n = longest + 2;
            let plain = build(&classes, &trans, stride);
            assert_eq!((plain.width, plain.count), (7, n), "more than 10 states: u128 rows side by side");
            check_rows(&plain, &classes, &trans, stride);
            let offsets = solve(&trans, stride).expect("a layout");
            let solved = build_solved(&classes, &trans, stride, &offsets).unwrap();
            assert_eq!((solved.width, solved.solved, solved.start), (6, true, u32::from(offsets[1])));
            check_rows(&solved, &classes, &trans, stride);
            // Some fields overlap (11 or more six-bit fields do not fit 64 bits
            // side by side), and the offsets are distinct with the dead state at 0.
            let mut sorted = offsets.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!((sorted.len(), sorted[0]), (n, 0), "{offsets:?}");
            assert!(sorted.windows(2).any(|w| w[1] - w[0] < 6), "{offsets:?}");
            // Both layouts validate alike on sequences cut and broken anywhere.
            let mut text = alloc::vec::Vec::new();
            for i in 0..300 {
                let k = i % (longest + 1);
                if k == 0 {
                    text.push(b'a');
                } else {
                    text.push(0xC0 + k as u8);
                    text.extend(core::iter::repeat_n(0x80 + (i % 64) as u8, k));
                }
            }
            assert_eq!(validate(&solved, true, &text), Ok(()));
            for cut in 0..text.len().min(200) {
                for input in [&text[..text.len() - cut], &text[cut..]] {
                    let ok = validate(&plain, true, input).is_ok();
                    assert_eq!(validate(&solved, true, input).is_ok(), ok, "longest {longest}, cut {cut}");
                }
            }
        }
    }

    #[test]
    fn a_layout_that_cannot_exist_is_refuted_or_given_up_on() {
        // Ten states that all go to the same state on every unit (one unit per
        // target): all ten fields hold the same offset in every row. They fit
        // side by side with 9 such states, and not with 10; the search proves it,
        // placing the interchangeable states in order only.
        let constant = |n: usize| {
            let lists: alloc::vec::Vec<_> =
                (1..n as u8).map(|t| (0..n).map(|k| if k == 0 { 0 } else { t }).collect()).collect();
            cols(&lists)
        };
        assert!(matches!(search(&constant(10), 10, BUDGET), Solved::Layout(_)));
        assert_eq!(search(&constant(11), 11, 1_000_000_000), Solved::Impossible);
        // With a small budget the search gives up instead.
        assert_eq!(search(&constant(11), 11, 1_000_000), Solved::GaveUp);
    }
}
