//! The search for shift layouts whose fields overlap (see [`super::shift_layout`]).
//!
//! A field is read as the low 6 bits of `row >> offset`, so two fields may share
//! bits as long as, in every row, both want the same values there; and a field
//! may run past bit 63 if its values have zeros where the row has no bits (a
//! shift brings in zeros). Many fields are 0 in most rows (from the middle of a
//! sequence, every lead unit goes to the dead state), so there is room to share.
//!
//! [`search`] is a backtracking search: it keeps, for every distinct column of
//! the merged automaton, the row bits decided so far; places one state at a
//! time, the one whose field is most decided (fewest successors not yet placed)
//! among those with the fewest offsets left; and after each placement narrows
//! every other state's open offsets to those whose fields still fit (for a
//! successor not yet placed, to values some open offset of it could take).
//! States that trade places without changing the automaton take increasing
//! offsets. The search is bounded (about a tenth of a second at most), so it may
//! give up on a layout that exists.

/// Most merged states a search handles.
pub const MAX_STATES: usize = 18;

/// Row checks (one candidate offset against one row) the search may make before
/// it gives up: about a tenth of a second of work.
pub(super) const BUDGET: u64 = 20_000_000;

/// What the search for overlapping offsets came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Solved {
    /// The offsets, by merged state id (the dead state's is 0).
    Layout(Vec<u8>),
    /// No u64 layout exists: the search ran to its end.
    Impossible,
    /// The budget ran out first.
    GaveUp,
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
    preds: Vec<[u32; MAX_STATES]>,
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
        let mut rows = Vec::from(rows);
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
pub(super) fn search(cols: &[[u8; MAX_STATES]], count: usize, budget: u64) -> Solved {
    if count > MAX_STATES || count > 32 {
        return Solved::Impossible;
    }
    let mut preds = vec![[0u32; MAX_STATES]; cols.len()];
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
    let mut rows = vec![Partial::default(); cols.len()];
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

#[cfg(test)]
mod tests {
    use super::*;
    fn cols(lists: &[Vec<u8>]) -> Vec<[u8; MAX_STATES]> {
        lists
            .iter()
            .map(|l| {
                let mut col = [0u8; MAX_STATES];
                col[..l.len()].copy_from_slice(l);
                col
            })
            .collect()
    }
    #[test]
    fn a_layout_that_cannot_exist_is_refuted_or_given_up_on() {
        // Ten states that all go to the same state on every unit (one unit per
        // target): all ten fields hold the same offset in every row. They fit
        // side by side with 9 such states, and not with 10; the search proves it,
        // placing the interchangeable states in order only.
        let constant = |n: usize| {
            let lists: Vec<_> = (1..n as u8).map(|t| (0..n).map(|k| if k == 0 { 0 } else { t }).collect()).collect();
            cols(&lists)
        };
        assert!(matches!(search(&constant(10), 10, BUDGET), Solved::Layout(_)));
        assert_eq!(search(&constant(11), 11, 1_000_000_000), Solved::Impossible);
        // With a small budget the search gives up instead.
        assert_eq!(search(&constant(11), 11, 1_000_000), Solved::GaveUp);
    }
}
