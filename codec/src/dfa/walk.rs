//! The table decoder's walks ([`super::Dfa::decode_table_into`]), run by the
//! [`super::lockstep`] driver.
//!
//! A step reads the expanded table when the codec has one (two reads and one
//! addition, see [`super::expanded`]), else the direct table (two reads and two
//! shifts, see [`super::direct`]), else the class-compressed table, specialized
//! for byte units and for tables without biases. Either way the value is written
//! to a small block buffer at every unit and kept only when the unit completes a
//! sequence, so text of mixed sequence lengths costs no mispredicted branch.

use alloc::vec::Vec;

use super::accumulate::{Join, Multiply, Place, Shift, MASKS};
use super::lockstep::{self, Runs, Stop};
use super::{direct, expanded, Dfa, Facts, Rows, BIAS_SHIFT, BITS_SHIFT, DEAD, STATE_MASK};
use crate::{DecodeError, Value};

/// Units per block: between looks for the dead state and for ASCII runs.
const BLOCK: usize = 128;

/// One walk: its state and the value being read.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Walk {
    state: usize,
    v: u64,
}

/// A walk's values of the current block, written without a branch and appended
/// to the output after the block. Room for one value per unit and as many again,
/// so the index never needs a check that the compiler cannot remove.
struct Block<V> {
    values: [V; 2 * BLOCK],
    len: usize,
}

impl<V: Value> Block<V> {
    #[inline(always)]
    fn new() -> Self {
        Block { values: [V::default(); 2 * BLOCK], len: 0 }
    }

    /// Writes the value a step produced; keeps it if the step completed a sequence.
    #[inline(always)]
    fn emit(&mut self, walk: &mut Walk, v: u64, bias: u64, done: bool) {
        self.values[self.len % (2 * BLOCK)] = V::from_u64_lossy(v.wrapping_add(bias));
        self.len += usize::from(done);
        walk.v = if done { 0 } else { v };
    }

    #[inline(always)]
    fn flush(&self, out: &mut Vec<V>) {
        out.extend_from_slice(&self.values[..self.len.min(2 * BLOCK)]);
    }
}

/// One step through a table: the class-compressed table or the expanded one.
trait Feed: Copy {
    /// The start state's id in this table.
    fn start(self) -> usize;
    /// Whether `state` is a boundary (a start state of any context).
    fn at_boundary(self, state: usize) -> bool;
    /// One unit through the table, its value written to `block`.
    fn feed<V: Value>(self, walk: &mut Walk, unit: u8, block: &mut Block<V>);
}

/// The class-compressed table, specialized for byte units (`BYTES`: the digit
/// map is not read), biased tables, how payload joins the value (`J`:
/// shifted in, or with each transition's word from `words`, the places or
/// the radices) and tables with one start state (`ONE`: a sequence ends at
/// the start state; else at any of the contexts' start states).
#[derive(Copy, Clone)]
struct Classes<'t, const BYTES: bool, const BIASED: bool, J, const ONE: bool> {
    trans: &'t [u32],
    words: &'t [u64],
    classes: &'t [u8; 256],
    digits: &'t [u8; 256],
    biases: &'t [u64],
    start: usize,
    /// The start states' ids lie in `start..start + span`.
    span: usize,
    join: core::marker::PhantomData<J>,
}

impl<const BYTES: bool, const BIASED: bool, J: Join, const ONE: bool> Feed for Classes<'_, BYTES, BIASED, J, ONE> {
    #[inline(always)]
    fn start(self) -> usize {
        self.start
    }
    #[inline(always)]
    fn at_boundary(self, state: usize) -> bool {
        if ONE {
            state == self.start
        } else {
            state.wrapping_sub(self.start) < self.span
        }
    }
    #[inline(always)]
    fn feed<V: Value>(self, walk: &mut Walk, unit: u8, block: &mut Block<V>) {
        let at = walk.state + self.classes[unit as usize] as usize;
        let e = self.trans[at];
        let n = (e >> BITS_SHIFT) & 0xF;
        let digit = if BYTES { unit } else { self.digits[unit as usize] };
        let payload = u64::from(digit) & MASKS[n as usize];
        let word = if J::READS_WORD { self.words.get(at).copied().unwrap_or(0) } else { 0 };
        let v = J::join(walk.v, n, payload, word);
        walk.state = (e & STATE_MASK) as usize;
        // Without biases every entry's bias index is 0 (the table invariant).
        let bias = if BIASED { self.biases.get((e >> BIAS_SHIFT) as usize).copied().unwrap_or(0) } else { 0 };
        block.emit(walk, v, bias, self.at_boundary(walk.state));
    }
}

/// The expanded table: two reads and one addition per unit, the next state a
/// load away from the last; the entry that completes a sequence holds its
/// bias.
#[derive(Copy, Clone)]
struct Expanded<'t> {
    table: Rows<'t>,
}

impl Feed for Expanded<'_> {
    #[inline(always)]
    fn start(self) -> usize {
        expanded::ROW
    }
    #[inline(always)]
    fn at_boundary(self, state: usize) -> bool {
        // An expanded table has one context (a table invariant).
        state == expanded::ROW
    }
    #[inline(always)]
    fn feed<V: Value>(self, walk: &mut Walk, unit: u8, block: &mut Block<V>) {
        let (next, placed) = self.table.step(walk.state, unit);
        let v = walk.v.wrapping_add(placed);
        walk.state = next;
        block.emit(walk, v, 0, walk.state == expanded::ROW);
    }
}

/// The direct table: two reads and two shifts per unit (one where no
/// transition places its payload: `PLACED` false); a sequence ends at the
/// start state (`ONE`) or at any start state.
#[derive(Copy, Clone)]
struct Direct<'t, const BIASED: bool, const ONE: bool, const PLACED: bool> {
    table: Rows<'t>,
    /// The biases, padded to every index an entry can hold, so that a step
    /// reads its bias without a bounds check.
    biases: &'t [u64; direct::MAX_BIASES],
    /// The start states' rows lie in `ROW..ROW + span`.
    span: usize,
}

impl<const BIASED: bool, const ONE: bool, const PLACED: bool> Feed for Direct<'_, BIASED, ONE, PLACED> {
    #[inline(always)]
    fn start(self) -> usize {
        direct::ROW
    }
    #[inline(always)]
    fn at_boundary(self, state: usize) -> bool {
        if ONE {
            state == direct::ROW
        } else {
            state.wrapping_sub(direct::ROW) < self.span
        }
    }
    #[inline(always)]
    fn feed<V: Value>(self, walk: &mut Walk, unit: u8, block: &mut Block<V>) {
        // One array: the entry holds the next row too (its low bits), so a
        // step is one load and one bounds check.
        let e = self.table.values[walk.state + usize::from(unit)];
        let next = (e & direct::NEXT_MASK) as usize;
        // Without places every entry's place is 0 and nothing lies above its
        // payload (the table invariant): the payload is the entry's top bits.
        let v = if PLACED {
            direct::join(walk.v, e)
        } else {
            walk.v << ((e >> direct::SHIFT_AT) & 63) | e >> direct::PAYLOAD_AT
        };
        walk.state = next;
        let bias = if BIASED { self.biases[(e >> direct::BIAS_AT) as usize % direct::MAX_BIASES] } else { 0 };
        block.emit(walk, v, bias, self.at_boundary(walk.state));
    }
}

/// The decoding walk over a [`Feed`], writing values of type `V`.
#[derive(Copy, Clone)]
struct Decoding<F, V> {
    feed: F,
    runs: Runs,
    value: core::marker::PhantomData<V>,
}

impl<F: Feed, V: Value> lockstep::Walker for Decoding<F, V> {
    type Lane = Walk;
    type Sink = Vec<V>;
    const BLOCK: usize = BLOCK;
    #[inline(always)]
    fn start(self) -> Walk {
        Walk { state: self.feed.start(), v: 0 }
    }
    #[inline(always)]
    fn at_start(self, lane: &Walk) -> bool {
        lane.state == self.feed.start()
    }
    #[inline(always)]
    fn at_boundary(self, lane: &Walk) -> bool {
        self.feed.at_boundary(lane.state)
    }
    #[inline(always)]
    fn is_dead(self, lane: &Walk) -> bool {
        lane.state == DEAD
    }
    #[inline(always)]
    fn runs(self) -> Runs {
        self.runs
    }
    #[inline(always)]
    fn block(self, lane: &mut Walk, units: &[u8], out: &mut Vec<V>) {
        let mut block = Block::new();
        for &u in units {
            self.feed.feed(lane, u, &mut block);
        }
        block.flush(out);
    }
    #[inline(always)]
    fn pair(self, (a, ua, out_a): (&mut Walk, &[u8], &mut Vec<V>), (b, ub, out_b): (&mut Walk, &[u8], &mut Vec<V>)) {
        let (mut block_a, mut block_b) = (Block::new(), Block::new());
        for (&x, &y) in ua.iter().zip(ub) {
            self.feed.feed(a, x, &mut block_a);
            self.feed.feed(b, y, &mut block_b);
        }
        block_a.flush(out_a);
        block_b.flush(out_b);
    }
}

/// [`Dfa::decode_table_into`]: picks the feed and runs the driver; where it stops,
/// [`Dfa::rescued`] reads on step by step (to the exact error, or past the
/// pending value the walks do not know about).
pub(crate) fn decode_into<T: AsRef<[u32]>, B: AsRef<[u64]>, V: Value>(
    dfa: &Dfa<T, B>,
    input: &[u8],
    out: &mut Vec<V>,
) -> Result<(), DecodeError> {
    dfa.rescued(input, Some(out), |rest, out| match out {
        Some(out) => V::walk_table(Tables::of(dfa), rest, out),
        None => Ok(()),
    })
}

/// What the walks read of a table, borrowed whatever its storage: the walks
/// take this, not a [`Dfa`], so that they are compiled once per value type,
/// in this crate ([`Value::walk_table`]), not again in every crate that
/// decodes with a table.
#[derive(Copy, Clone, Debug)]
pub struct Tables<'a> {
    trans: &'a [u32],
    biases: &'a [u64],
    expanded: Option<Rows<'a>>,
    direct: Option<Rows<'a>>,
    places: Option<&'a [u64]>,
    radices: Option<&'a [u64]>,
    classes: &'a [u8; 256],
    digits: &'a [u8; 256],
    stride: usize,
    facts: &'a Facts,
}

impl<'a> Tables<'a> {
    /// Borrows what the walks read of `dfa`.
    pub(crate) fn of<T: AsRef<[u32]>, B: AsRef<[u64]>>(dfa: &'a Dfa<T, B>) -> Self {
        Tables {
            trans: dfa.trans.as_ref(),
            biases: dfa.biases(),
            expanded: dfa.expanded(),
            direct: dfa.direct(),
            places: dfa.places(),
            radices: dfa.radices(),
            classes: &dfa.classes,
            digits: &dfa.digits,
            stride: dfa.stride,
            facts: &dfa.facts,
        }
    }

    fn contexts(&self) -> usize {
        usize::from(self.facts.contexts)
    }
}

/// The bulk walks over `input` with the feed that suits the table
/// ([`Value::walk_table`] for `u32` and `u64`).
pub(crate) fn walks<V: Value>(t: Tables<'_>, input: &[u8], out: &mut Vec<V>) -> Result<(), Stop> {
    let biased = t.biases.len() > 1;
    if let Some(table) = t.direct {
        return match (biased, t.contexts() == 1) {
            (false, true) => direct_walks::<_, false, true>(&t, table, input, out),
            (true, true) => direct_walks::<_, true, true>(&t, table, input, out),
            (false, false) => direct_walks::<_, false, false>(&t, table, input, out),
            (true, false) => direct_walks::<_, true, false>(&t, table, input, out),
        };
    }
    match (t.expanded, biased) {
        // Several start states (rules across values): no expanded table; the
        // byte-unit, unbiased walker (WTF-8's) or a general one.
        (None, _) if t.contexts() > 1 && t.places.is_some() => {
            run(&t, classes::<false, true, Place, false>(&t), input, out)
        }
        (None, false) if t.contexts() > 1 && t.facts.byte_digits => {
            run(&t, classes::<true, false, Shift, false>(&t), input, out)
        }
        (None, _) if t.contexts() > 1 => run(&t, classes::<false, true, Shift, false>(&t), input, out),
        (Some(table), _) => run(&t, Expanded { table }, input, out),
        (None, _) if t.places.is_some() => run(&t, classes::<false, true, Place, true>(&t), input, out),
        (None, _) if t.radices.is_some() => run(&t, classes::<false, true, Multiply, true>(&t), input, out),
        (None, _) => match (t.facts.byte_digits, biased) {
            (true, false) => run(&t, classes::<true, false, Shift, true>(&t), input, out),
            (true, true) => run(&t, classes::<true, true, Shift, true>(&t), input, out),
            (false, false) => run(&t, classes::<false, false, Shift, true>(&t), input, out),
            (false, true) => run(&t, classes::<false, true, Shift, true>(&t), input, out),
        },
    }
}

/// The direct table's walks, with or without places.
fn direct_walks<V: Value, const BIASED: bool, const ONE: bool>(
    t: &Tables<'_>,
    table: Rows<'_>,
    input: &[u8],
    out: &mut Vec<V>,
) -> Result<(), Stop> {
    let span = t.contexts() * direct::ROW;
    // Measured: without the bounds check, git-ofs's walks took a tenth less.
    let mut padded = [0; direct::MAX_BIASES];
    if BIASED {
        for (to, &bias) in padded.iter_mut().zip(t.biases) {
            *to = bias;
        }
    }
    let biases = &padded;
    if t.places.is_some() {
        run(t, Direct::<BIASED, ONE, true> { table, biases, span }, input, out)
    } else {
        run(t, Direct::<BIASED, ONE, false> { table, biases, span }, input, out)
    }
}

fn classes<'a, const BYTES: bool, const BIASED: bool, J: Join, const ONE: bool>(
    t: &Tables<'a>,
) -> Classes<'a, BYTES, BIASED, J, ONE> {
    Classes {
        trans: t.trans,
        words: t.places.or(t.radices).unwrap_or(&[]),
        classes: t.classes,
        digits: t.digits,
        biases: t.biases,
        start: t.stride,
        span: t.contexts() * t.stride,
        join: core::marker::PhantomData,
    }
}

/// One feed's walks: a function of its own, so that its loops' code does not
/// depend on how many other feeds there are (measured: inlined into one
/// dispatch, a new feed slowed utf8's ASCII copying by a fifth).
#[inline(never)]
fn run<F: Feed, V: Value>(t: &Tables<'_>, feed: F, input: &[u8], out: &mut Vec<V>) -> Result<(), Stop> {
    let walker = Decoding { feed, runs: Runs::of(t.facts), value: core::marker::PhantomData };
    lockstep::decode(walker, &t.facts.cuts(), input, out)
}
