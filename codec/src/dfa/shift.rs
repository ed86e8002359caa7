//! The validators' walks: the shift DFA (Per Vognsen's technique) and the plain
//! table walk, both run by the [`super::lockstep`] driver.
//!
//! Validation only needs the automaton's *language*, not its outputs, so the
//! compiler merges states by acceptance and gives each merged state a bit
//! offset; each unit gets one integer row whose field at a state's offset holds
//! the offset of the state it goes to. A step is then one load (which depends
//! only on the input) and one shift (the only link in the dependency chain):
//!
//! ```text
//! state = ROWS[unit] >> (state mod 2^w)      (w = 6 in a u64, 7 in a u128)
//! ```
//!
//! Fields may overlap where every row agrees, so automata of more than ten
//! merged states still fit `u64` rows; the compiler searches for such layouts
//! and [`super::Dfa::new`] checks every field.
//!
//! # Lineage
//! Per Vognsen, "shift-based DFAs" (2020 gist and notes): one row per unit, a
//! shift per step. Overlapping fields follow Dougall Johnson, who had an SMT
//! solver place strict UTF-8's 9 fields so that they overlap and fit 32-bit rows.

use core::marker::PhantomData;

use super::lockstep::{self, Cuts, Runs, Stop};
use super::{ShiftRows, DEAD, STATE_MASK};

/// A row type: `u64` for 6-bit fields, `u128` for 7-bit ones.
pub(crate) trait Row: Copy {
    /// The row of a unit, from its widened form.
    fn from_row(r: u128) -> Self;
    /// `self >> (state mod the width of the type)`.
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

/// The shift-DFA walk over rows of type `R`.
#[derive(Copy, Clone)]
pub(crate) struct Walker<'t, R> {
    rows: &'t [u128; 256],
    width: u32,
    start: u32,
    boundaries: u128,
    runs: Runs,
    row: PhantomData<R>,
}

impl<'t, R> Walker<'t, R> {
    pub(crate) fn new(shift: &'t Shift, runs: Runs) -> Self {
        let (rows, width, start, boundaries) = (&shift.rows, shift.width, shift.start, shift.boundaries);
        Walker { rows, width, start, boundaries, runs, row: PhantomData }
    }
}

impl<R: Row> lockstep::Walker for Walker<'_, R> {
    type Lane = R;
    type Sink = ();
    const BLOCK: usize = 32;
    #[inline(always)]
    fn start(self) -> R {
        R::from_row(u128::from(self.start))
    }
    #[inline(always)]
    fn at_start(self, lane: &R) -> bool {
        lane.offset(self.width) == self.start
    }
    #[inline(always)]
    fn at_boundary(self, lane: &R) -> bool {
        self.boundaries >> lane.offset(self.width) & 1 == 1
    }
    #[inline(always)]
    fn is_dead(self, lane: &R) -> bool {
        lane.offset(self.width) == 0
    }
    #[inline(always)]
    fn runs(self) -> Runs {
        self.runs
    }
    #[inline(always)]
    fn block(self, lane: &mut R, units: &[u8], _: &mut ()) {
        for &u in units {
            *lane = R::from_row(self.rows[u as usize]).step(*lane);
        }
    }
    #[inline(always)]
    fn pair(self, (a, ua, _): (&mut R, &[u8], &mut ()), (b, ub, _): (&mut R, &[u8], &mut ())) {
        for (&x, &y) in ua.iter().zip(ub) {
            *a = R::from_row(self.rows[x as usize]).step(*a);
            *b = R::from_row(self.rows[y as usize]).step(*b);
        }
    }
}

/// [`lockstep::validate`] with the shift walker of `shift`'s width (6 bits:
/// `u64` rows, 7: `u128`). Not generic, so it is compiled once, in this crate,
/// instead of again in every crate that validates.
pub(crate) fn validate(shift: &Shift, runs: Runs, sync: &Cuts<'_>, input: &[u8]) -> Result<(), Stop> {
    if shift.width == 6 {
        lockstep::validate(Walker::<u64>::new(shift, runs), sync, input)
    } else {
        lockstep::validate(Walker::<u128>::new(shift, runs), sync, input)
    }
}

/// The plain walk through the transition table, tracking only the state.
#[derive(Copy, Clone)]
pub(crate) struct TableWalker<'t> {
    pub(crate) trans: &'t [u32],
    pub(crate) classes: &'t [u8; 256],
    pub(crate) start: usize,
    /// The start states' ids lie in `start..start + span`.
    pub(crate) span: usize,
    pub(crate) runs: Runs,
}

impl TableWalker<'_> {
    /// [`lockstep::validate`] with this walker; compiled once, in this crate,
    /// like [`validate`].
    pub(crate) fn validate(self, sync: &Cuts<'_>, input: &[u8]) -> Result<(), Stop> {
        lockstep::validate(self, sync, input)
    }

    #[inline(always)]
    fn step(self, state: usize, unit: u8) -> usize {
        (self.trans[state + self.classes[unit as usize] as usize] & STATE_MASK) as usize
    }
}

impl lockstep::Walker for TableWalker<'_> {
    type Lane = usize;
    type Sink = ();
    const BLOCK: usize = 64;
    #[inline(always)]
    fn start(self) -> usize {
        self.start
    }
    #[inline(always)]
    fn at_start(self, lane: &usize) -> bool {
        *lane == self.start
    }
    #[inline(always)]
    fn at_boundary(self, lane: &usize) -> bool {
        lane.wrapping_sub(self.start) < self.span
    }
    #[inline(always)]
    fn is_dead(self, lane: &usize) -> bool {
        *lane == DEAD
    }
    #[inline(always)]
    fn runs(self) -> Runs {
        self.runs
    }
    #[inline(always)]
    fn block(self, lane: &mut usize, units: &[u8], _: &mut ()) {
        for &u in units {
            *lane = self.step(*lane, u);
        }
    }
    #[inline(always)]
    fn pair(self, (a, ua, _): (&mut usize, &[u8], &mut ()), (b, ub, _): (&mut usize, &[u8], &mut ())) {
        for (&x, &y) in ua.iter().zip(ub) {
            *a = self.step(*a, x);
            *b = self.step(*b, y);
        }
    }
}

/// The shift rows as the validator holds them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Shift {
    /// `u64` rows are widened; a field is `width` bits.
    rows: [u128; 256],
    /// 6, 7, or 0 (no rows).
    pub(super) width: u32,
    /// The start state's offset.
    start: u32,
    /// Bit `k` is set when offset `k` is a start state's (a boundary).
    boundaries: u128,
}

impl Shift {
    pub(super) const fn of(rows: &ShiftRows<'_>, contexts: u8) -> Shift {
        let mut out = Shift { rows: [0; 256], width: 0, start: 0, boundaries: 0 };
        let offsets = match *rows {
            ShiftRows::None => return out,
            ShiftRows::Narrow { offsets, rows } => {
                let mut u = 0;
                while u < 256 {
                    out.rows[u] = rows[u] as u128;
                    u += 1;
                }
                out.width = 6;
                offsets
            }
            ShiftRows::Wide { offsets, rows } => {
                out.rows = *rows;
                out.width = 7;
                offsets
            }
        };
        out.start = offsets[1] as u32;
        let mut s = 1;
        while s <= contexts as usize {
            out.boundaries |= 1 << offsets[s];
            s += 1;
        }
        out
    }
}
