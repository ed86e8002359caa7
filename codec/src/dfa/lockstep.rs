//! The one driver behind the table decoder and both validators: two walks
//! through the automaton, side by side.
//!
//! One walk is a chain of dependent steps: the next state is read from a row
//! chosen by the current one, so each unit waits for the previous unit's step,
//! however little else there is to do. Two walks over different parts of the
//! input have no dependency on each other, so the processor overlaps them. The
//! input is cut into *pairs of chunks*: walk A reads one chunk and walk B the
//! next, block by block in lockstep; A's output goes straight to the sink, B's
//! to a second sink appended after it. Each cut is placed at a *sync unit* — one
//! that every state but the start rejects — or after an *end unit* — one that
//! leads every state to the start (or the dead state) — so that, if the input
//! is valid, a sequence starts there and B may start from the start state. A
//! codec with neither in some text (X/Open FSS-UTF has none but ASCII) is read
//! by one walk there. For code units wider than a byte, cuts are looked for
//! only between code units, where a sync unit is a byte at one place of a
//! code unit (UTF-16's high byte, unless it is a low surrogate's); the walks
//! start between code units, so the boundaries are counted from the start of
//! the input. When decoding, a run of code units that are values of
//! themselves at the start of a pair goes straight to the output, without a
//! pair of walks: over text that is all one run, B's values would only be
//! copied once more.
//!
//! A walk looks for the dead state only at the end of a block (the dead state
//! leads only to itself and completes nothing), and whenever it is at the start
//! state at a block boundary it skips (or copies) the run of code units that
//! are values of themselves there: ASCII ones, or in UTF-16 and UTF-32 every
//! unit but the surrogates ([`crate::WideRuns`]). If a walk does not end its
//! chunk at a boundary (a start state of any context), the input is invalid
//! there: the driver returns the last block boundary at which that walk was at
//! the start state of context 0, with the number of values the sink held there
//! ([`Stop`]), from which the caller finds the exact error step by step (or,
//! for a codec with pending values, the value the walks do not know about).
//! (Sync units act alike in every context and end units lead to context 0, so
//! a second walk may start at the start of context 0.)

use alloc::vec::Vec;

use super::read::has;
use super::Facts;
use crate::{AsciiRuns, Value, WideRuns};

/// How far past a chunk's nominal end a sync unit is looked for.
const SYNC_SEARCH: usize = 256;
/// Units per chunk of a pair when decoding: walk B's values for one chunk are
/// buffered, so the buffer stays in the first-level cache.
const DECODE_CHUNK: usize = 2048;
/// Bytes per block for codecs with wide runs (see [`block_len`]).
const WIDE_BLOCK: usize = 32;
/// The shortest input the validator splits in two.
const MIN_SPLIT: usize = 128;

/// One kind of walk: how a step is taken and what it writes.
pub(crate) trait Walker: Copy {
    /// A walk's state.
    type Lane: Copy;
    /// Where a walk's output goes.
    type Sink: Sink;
    /// Units between looks for the dead state and for runs.
    const BLOCK: usize;
    /// A walk at the start state.
    fn start(self) -> Self::Lane;
    /// Whether the walk is at the start state (of context 0).
    fn at_start(self, lane: &Self::Lane) -> bool;
    /// Whether the walk is at a sequence boundary: a start state of any
    /// context (the start state alone, without rules across values).
    fn at_boundary(self, lane: &Self::Lane) -> bool;
    /// Whether the walk is in the dead state.
    fn is_dead(self, lane: &Self::Lane) -> bool;
    /// Which runs may be skipped at the start state.
    fn runs(self) -> Runs;
    /// One block of units through one walk.
    fn block(self, lane: &mut Self::Lane, units: &[u8], sink: &mut Self::Sink);
    /// Two blocks of the same length through two walks, unit by unit in turn.
    fn pair(self, a: (&mut Self::Lane, &[u8], &mut Self::Sink), b: (&mut Self::Lane, &[u8], &mut Self::Sink));
}

/// Where the walks stopped on invalid input (or, for a codec with pending
/// values, on input only the step function reads): a sequence boundary in
/// context 0 at or before the first error, and how many values the sink held
/// there (0 when validating).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    /// The boundary.
    pub at: usize,
    /// Values before it.
    pub values: usize,
}

/// The runs of code units that are values of themselves, which a walk at the
/// start state copies (or skips) without walking: wide code units where the
/// codec has them, else ASCII ones.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Runs {
    ascii: AsciiRuns,
    wide: WideRuns,
}

impl Runs {
    /// The runs of a table's facts.
    pub(crate) fn of(facts: &Facts) -> Self {
        Runs { ascii: facts.ascii_runs, wide: facts.wide_runs }
    }

    /// Whether there are runs to look for.
    #[inline(always)]
    fn any(self) -> bool {
        self.ascii != AsciiRuns::None || self.wide.is_some()
    }

    /// The length in bytes of the run at the start of `units`.
    #[inline(always)]
    fn prefix(self, units: &[u8]) -> usize {
        if self.wide.is_some() {
            self.wide.prefix(units)
        } else {
            self.ascii.prefix(units)
        }
    }
}

/// The output of a walk: nothing (validation) or values (decoding).
pub(crate) trait Sink {
    /// Values held.
    fn len(&self) -> usize;
    /// Takes a run [`Runs::prefix`] found, each code unit its own value.
    fn run(&mut self, units: &[u8], runs: Runs);
    /// Forgets what it holds.
    fn clear(&mut self);
    /// Moves what `other` holds to the end.
    fn append(&mut self, other: &mut Self);
    /// Makes room for the values of `units` more bytes of input (one at most
    /// for each).
    fn reserve(&mut self, units: usize);
}

impl Sink for () {
    #[inline(always)]
    fn len(&self) -> usize {
        0
    }
    #[inline(always)]
    fn run(&mut self, _: &[u8], _: Runs) {}
    #[inline(always)]
    fn clear(&mut self) {}
    #[inline(always)]
    fn append(&mut self, _: &mut Self) {}
    #[inline(always)]
    fn reserve(&mut self, _: usize) {}
}

impl<V: Value> Sink for Vec<V> {
    #[inline(always)]
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[inline(always)]
    fn run(&mut self, units: &[u8], runs: Runs) {
        if runs.wide.is_some() {
            runs.wide.extend(units, self);
        } else if runs.ascii.unit_bytes() == 1 {
            self.extend(units.iter().map(|&u| V::from_u64_lossy(u64::from(u))));
        } else {
            self.extend(runs.ascii.values(units).map(|u| V::from_u64_lossy(u64::from(u))));
        }
    }
    #[inline(always)]
    fn clear(&mut self) {
        Vec::clear(self)
    }
    #[inline(always)]
    fn append(&mut self, other: &mut Self) {
        Vec::append(self, other)
    }
    #[inline(always)]
    fn reserve(&mut self, units: usize) {
        Vec::reserve(self, units)
    }
}

/// Bytes per block between looks for runs: fewer where the runs are of wide
/// code units, which break off at every surrogate pair and resume after it.
#[inline(always)]
fn block_len<W: Walker>(w: W) -> usize {
    if w.runs().wide.is_some() {
        WIDE_BLOCK.min(W::BLOCK)
    } else {
        W::BLOCK
    }
}

/// One walk's progress through its part of the input.
struct Part<'s, W: Walker> {
    lane: W::Lane,
    at: usize,
    end: usize,
    /// The last block boundary at which the walk was at the start state,
    /// with the values the sink held there.
    boundary: Stop,
    sink: &'s mut W::Sink,
}

impl<'s, W: Walker> Part<'s, W> {
    fn new(w: W, at: usize, end: usize, sink: &'s mut W::Sink) -> Self {
        let boundary = Stop { at, values: sink.len() };
        Part { lane: w.start(), at, end, boundary, sink }
    }

    /// At a block boundary: notes it if the walk (in state `lane`) is at the
    /// start state, and skips the run there.
    #[inline(always)]
    fn settle(&mut self, w: W, input: &[u8], lane: &W::Lane) {
        if w.at_start(lane) {
            let runs = w.runs();
            if runs.any() {
                let n = runs.prefix(&input[self.at..self.end]);
                if n > 0 {
                    self.sink.run(&input[self.at..self.at + n], runs);
                    self.at += n;
                }
            }
            self.boundary = Stop { at: self.at, values: self.sink.len() };
        }
    }

    /// Walks the rest of the part alone, until its end or the dead state.
    #[inline(always)]
    fn finish(&mut self, w: W, input: &[u8]) -> Result<(), Stop> {
        // The walk's state in a local, so that it stays in a register.
        let mut lane = self.lane;
        while self.at < self.end {
            self.settle(w, input, &lane);
            let stop = self.end.min(self.at + block_len(w));
            w.block(&mut lane, &input[self.at..stop], self.sink);
            self.at = stop;
            if w.is_dead(&lane) {
                break;
            }
        }
        self.lane = lane;
        if w.at_boundary(&lane) {
            Ok(())
        } else {
            Err(self.boundary)
        }
    }
}

/// Walks two parts in lockstep, then finishes each; B only if A succeeded.
/// Returns A's verdict, then B's.
#[inline(always)]
fn pair<W: Walker>(w: W, input: &[u8], a: &mut Part<'_, W>, b: &mut Part<'_, W>) -> [Result<(), Stop>; 2] {
    // The walks' states in locals, so that they stay in registers.
    let (mut la, mut lb) = (a.lane, b.lane);
    loop {
        a.settle(w, input, &la);
        b.settle(w, input, &lb);
        let m = block_len(w).min(a.end - a.at).min(b.end - b.at);
        if m == 0 {
            break;
        }
        w.pair((&mut la, &input[a.at..a.at + m], a.sink), (&mut lb, &input[b.at..b.at + m], b.sink));
        a.at += m;
        b.at += m;
        if w.is_dead(&la) || w.is_dead(&lb) {
            break;
        }
    }
    (a.lane, b.lane) = (la, lb);
    // If A failed, B's output is not used: stop, so that the work wasted on an
    // error is no more than what A read before it.
    match a.finish(w, input) {
        Ok(()) => [Ok(()), b.finish(w, input)],
        failed => [failed, Ok(())],
    }
}

/// Where a second walk may start: at a sync unit, or after an end unit (see
/// `Facts::sync_units` and `Facts::end_units`). In valid input a sequence
/// starts at either. For code units of several bytes, a sync unit is a byte
/// at place `lane` of a code unit, and only code-unit boundaries (counted from
/// the start of the input, where the walks start) are cuts.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Cuts<'f> {
    /// Units a sequence starts at.
    pub before: &'f [u64; 4],
    /// Units a sequence ends at.
    pub after: &'f [u64; 4],
    /// Bytes per code unit.
    pub unit_bytes: usize,
    /// The byte of a code unit that `before` is about.
    pub lane: usize,
}

/// The first cut at or after `from > 0`, within [`SYNC_SEARCH`] units.
fn sync_at(cuts: &Cuts<'_>, input: &[u8], from: usize) -> Option<usize> {
    let to = input.len().min(from + SYNC_SEARCH);
    if cuts.unit_bytes > 1 {
        let from = from.next_multiple_of(cuts.unit_bytes);
        return (from..to.saturating_sub(cuts.lane))
            .step_by(cuts.unit_bytes)
            .find(|&k| has(cuts.before, input[k + cuts.lane].into()) || has(cuts.after, input[k - 1].into()));
    }
    (from..to).find(|&k| has(cuts.before, input[k].into()) || has(cuts.after, input[k - 1].into()))
}

/// The last cut in `input` (a position after 0, at most its length) within
/// [`SYNC_SEARCH`] units of its end: the end of `input` itself when its last
/// unit is an end unit.
pub(crate) fn last_cut(cuts: &Cuts<'_>, input: &[u8]) -> Option<usize> {
    if *cuts.before == [0; 4] && *cuts.after == [0; 4] {
        // Neither sync units nor end units: no cut to look for.
        return None;
    }
    let (len, w) = (input.len(), cuts.unit_bytes);
    let low = len.saturating_sub(SYNC_SEARCH).max(w);
    let mut k = len - len % w;
    while k >= low {
        let before = k + cuts.lane < len && has(cuts.before, input[k + cuts.lane].into());
        if before || has(cuts.after, input[k - 1].into()) {
            return Some(k);
        }
        k -= w;
    }
    None
}

/// Moves the run at the start of `units` to `sink`; returns its length. A
/// function of its own (measured: inlined into the driver, the loops that find
/// and copy UTF-16BE's runs lost their constants to the stack and took a
/// quarter longer).
#[inline(never)]
fn take_run<S: Sink>(runs: Runs, units: &[u8], sink: &mut S) -> usize {
    let n = runs.prefix(units);
    if n > 0 {
        sink.run(&units[..n], runs);
    }
    n
}

/// How long the chunks of a pair are, given the units left.
#[derive(Copy, Clone, Debug)]
enum Chunks {
    /// Of this many units (decoding: B's values are buffered), or half of
    /// what is left where that is less and still worth a split (so that a
    /// block of 4 KiB, a stream's push, still takes two walks).
    Fixed(usize),
    /// Half of what is left (validating: one pair), if that is worth a split.
    Halves,
}

impl Chunks {
    /// The chunk length for `rest` units left (0: no pair).
    fn len(self, rest: usize) -> usize {
        let half = Some(rest.saturating_sub(2 * SYNC_SEARCH) / 2).filter(|&n| n >= MIN_SPLIT).unwrap_or(0);
        match self {
            Chunks::Fixed(n) => n.min(half),
            Chunks::Halves => half,
        }
    }
}

/// Walks `input` in pairs of chunks (see the module docs); `Err(stop)`:
/// invalid, or (with pending values) read by steps from `stop` on.
#[inline(always)]
fn drive<W: Walker>(
    w: W,
    sync: &Cuts<'_>,
    input: &[u8],
    chunks: Chunks,
    out: &mut W::Sink,
    second: &mut W::Sink,
) -> Result<(), Stop> {
    let mut pos = 0;
    loop {
        let chunk = chunks.len(input.len() - pos);
        if chunk == 0 || input.len() - pos < 2 * chunk + 2 * SYNC_SEARCH {
            break;
        }
        // When decoding, a run at the start of a pair goes straight to the
        // output: over text that is one run (English in UTF-16), a pair of
        // walks would only copy walk B's values once more. (Validation copies
        // nothing; measured, the same skip there cost its walks 5-7 % on
        // Korean and mixed text.)
        if let Chunks::Fixed(_) = chunks {
            let run = take_run(w.runs(), &input[pos..], out);
            if run > 0 {
                pos += run;
                continue;
            }
        }
        let Some(mid) = sync_at(sync, input, pos + chunk) else { break };
        let Some(end) = sync_at(sync, input, mid + chunk) else { break };
        second.clear();
        // (Room for B's values at once: one per unit at most.)
        second.reserve(end - mid);
        let [first, next] = pair(w, input, &mut Part::new(w, pos, mid, out), &mut Part::new(w, mid, end, second));
        // Output of a failed walk stops before its first error (a dead walk
        // completes nothing), so it may stay.
        first?;
        let before = out.len();
        out.append(second);
        next.map_err(|stop| Stop { values: before + stop.values, ..stop })?;
        pos = end;
    }
    Part::new(w, pos, input.len(), out).finish(w, input)
}

/// Validates `input` with two walks over its two halves.
pub(crate) fn validate<W: Walker<Sink = ()>>(w: W, sync: &Cuts<'_>, input: &[u8]) -> Result<(), Stop> {
    drive(w, sync, input, Chunks::Halves, &mut (), &mut ())
}

/// Decodes `input` into `out` with two walks over pairs of chunks.
pub(crate) fn decode<V: Value, W: Walker<Sink = Vec<V>>>(
    w: W,
    sync: &Cuts<'_>,
    input: &[u8],
    out: &mut Vec<V>,
) -> Result<(), Stop> {
    let mut second = Vec::new();
    drive(w, sync, input, Chunks::Fixed(DECODE_CHUNK), out, &mut second)
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::cell::Cell;

    /// A two-byte toy code (bytes 00-7F alone, C0-FF then 80-BF) whose walker
    /// counts the units its pairs of walks read.
    #[derive(Copy, Clone)]
    struct Toy<'c> {
        paired: &'c Cell<usize>,
    }

    /// States: 0 dead, 1 start, 2 after a lead.
    fn step(s: usize, u: u8) -> usize {
        match (s, u) {
            (1, 0..=0x7F) | (2, 0x80..=0xBF) => 1,
            (1, 0xC0..) => 2,
            _ => 0,
        }
    }

    impl Walker for Toy<'_> {
        type Lane = usize;
        type Sink = ();
        const BLOCK: usize = 64;
        fn start(self) -> usize {
            1
        }
        fn at_start(self, s: &usize) -> bool {
            *s == 1
        }
        fn at_boundary(self, s: &usize) -> bool {
            *s == 1
        }
        fn is_dead(self, s: &usize) -> bool {
            *s == 0
        }
        fn runs(self) -> Runs {
            Runs { ascii: AsciiRuns::Bytes, wide: WideRuns::NONE }
        }
        fn block(self, s: &mut usize, units: &[u8], _: &mut ()) {
            *s = units.iter().fold(*s, |s, &u| step(s, u));
        }
        fn pair(self, (a, ua, _): (&mut usize, &[u8], &mut ()), (b, ub, _): (&mut usize, &[u8], &mut ())) {
            self.paired.set(self.paired.get() + ua.len() + ub.len());
            self.block(a, ua, &mut ());
            self.block(b, ub, &mut ());
        }
    }

    /// Validation of a run and then sequences splits the input in two walks,
    /// and of a run alone walks no pair.
    #[test]
    fn validation_after_a_leading_run_is_still_split_in_two_walks() {
        let mut sync = [u64::MAX; 4];
        sync[2] = 0; // 80-BF only continue
        let cuts = Cuts { before: &sync, after: &[0; 4], unit_bytes: 1, lane: 0 };
        let mut input = b"a leading run of ASCII, longer than one block of sixteen".to_vec();
        input.extend(b"\xC3\xA9".repeat(4000));
        let paired = Cell::new(0);
        assert_eq!(validate(Toy { paired: &paired }, &cuts, &input), Ok(()));
        assert!(paired.get() > input.len() / 2, "{} of {} units in pairs", paired.get(), input.len());
        // An error in the second half is still found (by the walk over it).
        let last = input.len() - 1;
        input[last] = b'x';
        assert!(validate(Toy { paired: &paired }, &cuts, &input).is_err());
        // In a whole run, each walk skips its part but for a tail shorter than
        // a 16-unit block.
        paired.set(0);
        let run = vec![b'a'; 5000];
        assert_eq!(validate(Toy { paired: &paired }, &cuts, &run), Ok(()));
        assert!(paired.get() < 32, "{} units in pairs", paired.get());
    }

    /// Wide code units: cuts only between code units, at the sync lane.
    #[test]
    fn wide_cuts_fall_between_code_units() {
        let mut sync = [u64::MAX; 4];
        sync[3] &= !(0xF << (0xDC % 64)); // DC-DF: a low surrogate continues
        let cuts = Cuts { before: &sync, after: &[0; 4], unit_bytes: 2, lane: 1 };
        // UTF-16LE of pairs D83D DE00: only every other code unit is a cut.
        let text: Vec<u8> = [0x3D, 0xD8, 0x00, 0xDE].repeat(200);
        for from in 1..300 {
            let k = sync_at(&cuts, &text, from).unwrap();
            assert!(k >= from && k.is_multiple_of(4) && k - from < 4, "from {from}: {k}");
        }
    }
}
