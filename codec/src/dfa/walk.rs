//! The table decoder's bulk loop ([`Dfa::decode_into`]): two walks through the
//! table, side by side.
//!
//! One walk is a chain of dependent loads: the next state is read from a row
//! chosen by the current one, so each unit waits for the previous unit's load,
//! however little else there is to do. Two walks over different parts of the
//! input have no dependency on each other, so the processor overlaps them. The
//! input is cut into *pairs of chunks*: walk A reads one chunk and walk B the next,
//! unit by unit in lockstep; A's values go straight to the output, B's to a buffer
//! appended after them. Each cut is placed at a *sync unit* — one that every state
//! but the start rejects — so that, if the input is valid, a sequence starts there
//! and B may start from the start state. A codec without sync units in some text
//! (X/Open FSS-UTF has none but ASCII) is read by one walk there. If a walk does
//! not end its chunk at the start state, the input is invalid in that chunk, and
//! the exact error is found by stepping from the chunk's start.
//!
//! A step reads the expanded table when the codec has one (one read and one `or`,
//! see [`super::expanded`]), else the class-compressed table. Either way the value
//! is written to a small block buffer at every unit and kept only when the unit
//! completes a sequence, so text of mixed sequence lengths costs no mispredicted
//! branch; the dead state is only looked for at the end of a block (it leads only
//! to itself and completes nothing). Runs of ASCII are copied eight units at a
//! time whenever a walk is at the start state at a block boundary, for
//! ASCII-transparent codecs.
//!
//! [`Dfa::decode_into`]: super::Dfa::decode_into

use alloc::vec::Vec;

use super::{expanded, Dfa, BIAS_SHIFT, BITS_SHIFT, DEAD, STATE_MASK};
use crate::{DecodeError, Value};

/// Units per chunk of a pair. Walk B's values for one chunk (at most this many)
/// are buffered, so the buffer stays in the first-level cache.
const CHUNK: usize = 2048;
/// How far past a chunk's nominal end a sync unit is looked for.
const SYNC_SEARCH: usize = 256;
/// Units between looks for an ASCII run.
const BLOCK: usize = 128;
/// `(1 << n) - 1` for every payload count the entry format can hold.
const MASKS: [u64; 16] = [0, 1, 3, 7, 15, 31, 63, 127, 255, 511, 1023, 2047, 4095, 8191, 16383, 32767];

/// One walk: its state and the value being read.
#[derive(Copy, Clone, Debug)]
struct Walk {
    state: usize,
    v: u64,
}

/// Room for the values of one block of units (at most [`BLOCK`]), written
/// without a branch and appended to the output after the block.
const BLOCK_VALUES: usize = 2 * BLOCK;

/// A walk's values of the current block.
struct Block<V> {
    values: [V; BLOCK_VALUES],
    len: usize,
}

impl<V: Value> Block<V> {
    fn new() -> Self {
        Block { values: [V::default(); BLOCK_VALUES], len: 0 }
    }

    /// Appends the block's values to `out`.
    #[inline(always)]
    fn flush(&mut self, out: &mut Vec<V>) {
        out.extend_from_slice(&self.values[..self.len.min(BLOCK_VALUES)]);
        self.len = 0;
    }
}

/// One step through a table: the class-compressed table or the expanded one.
trait Feed: Copy {
    /// The start state's id in this table.
    fn start(self) -> usize;
    /// Whether ASCII runs may be copied.
    fn ascii(self) -> bool;
    /// One unit through the table. The value is written to the block buffer
    /// whether or not the unit completes a sequence, and kept only if it does, so
    /// that sequences of mixed lengths cost no mispredicted branch.
    fn feed<V: Value>(self, walk: &mut Walk, unit: u8, block: &mut Block<V>);
}

/// Writes the value a step produced; keeps it if the step completed a sequence.
#[inline(always)]
fn emit<V: Value>(walk: &mut Walk, v: u64, bias: u64, done: bool, block: &mut Block<V>) {
    block.values[block.len % BLOCK_VALUES] = V::from_u64_lossy(v.wrapping_add(bias));
    block.len += usize::from(done);
    walk.v = if done { 0 } else { v };
}

/// The class-compressed table (the format of the `dfa` module docs), specialized
/// for byte units (`BYTES`: the digit map is not read) and unbiased tables.
#[derive(Copy, Clone)]
struct Classes<'t, const BYTES: bool, const BIASED: bool> {
    trans: &'t [u32],
    classes: &'t [u8; 256],
    digits: &'t [u8; 256],
    biases: &'t [u64],
    start: usize,
    ascii: bool,
}

impl<const BYTES: bool, const BIASED: bool> Feed for Classes<'_, BYTES, BIASED> {
    #[inline(always)]
    fn start(self) -> usize {
        self.start
    }
    #[inline(always)]
    fn ascii(self) -> bool {
        self.ascii
    }
    #[inline(always)]
    fn feed<V: Value>(self, walk: &mut Walk, unit: u8, block: &mut Block<V>) {
        let e = self.trans[walk.state + self.classes[unit as usize] as usize];
        let n = (e >> BITS_SHIFT) & 0xF;
        let digit = if BYTES { unit } else { self.digits[unit as usize] };
        let v = (walk.v << n) | (u64::from(digit) & MASKS[n as usize]);
        walk.state = (e & STATE_MASK) as usize;
        // Without biases every entry's bias index is 0 (the table invariant).
        let bias = if BIASED { self.biases.get((e >> BIAS_SHIFT) as usize).copied().unwrap_or(0) } else { 0 };
        emit(walk, v, bias, walk.state == self.start, block);
    }
}

/// The expanded table ([`super::expanded`]): one read and one `or` per unit.
#[derive(Copy, Clone)]
struct Expanded<'t, const BIASED: bool> {
    table: &'t [u64],
    biases: &'t [u64],
    ascii: bool,
}

impl<const BIASED: bool> Feed for Expanded<'_, BIASED> {
    #[inline(always)]
    fn start(self) -> usize {
        expanded::ROW
    }
    #[inline(always)]
    fn ascii(self) -> bool {
        self.ascii
    }
    #[inline(always)]
    fn feed<V: Value>(self, walk: &mut Walk, unit: u8, block: &mut Block<V>) {
        let e = self.table[walk.state + unit as usize];
        let v = walk.v | (e >> expanded::PAYLOAD_AT);
        walk.state = (e & expanded::NEXT_MASK) as usize;
        let bias = if BIASED {
            let index = (e >> expanded::BIAS_AT) as usize % expanded::MAX_BIASES;
            self.biases.get(index).copied().unwrap_or(0)
        } else {
            0
        };
        emit(walk, v, bias, walk.state == expanded::ROW, block);
    }
}

/// Copies the ASCII run at `*i` if `walk` is at the start state and the codec
/// is ASCII-transparent.
#[inline(always)]
fn skip_ascii<V: Value, F: Feed>(f: F, walk: &Walk, input: &[u8], i: &mut usize, out: &mut Vec<V>) {
    if f.ascii() && walk.state == f.start() {
        let from = *i;
        while let Some(chunk) = input[*i..].first_chunk::<8>() {
            if u64::from_le_bytes(*chunk) & 0x8080_8080_8080_8080 != 0 {
                break;
            }
            *i += 8;
        }
        if *i > from {
            out.extend(input[from..*i].iter().map(|&u| V::from_u64_lossy(u64::from(u))));
        }
    }
}

/// Walks `input[*i..end]` alone, block by block, until the end or the dead state.
#[inline(always)]
fn run<V: Value, F: Feed>(f: F, walk: &mut Walk, input: &[u8], i: &mut usize, end: usize, out: &mut Vec<V>) {
    while *i < end {
        skip_ascii(f, walk, &input[..end], i, out);
        let stop = end.min(*i + BLOCK);
        let mut block = Block::new();
        for &u in &input[*i..stop] {
            f.feed(walk, u, &mut block);
        }
        block.flush(out);
        *i = stop;
        if walk.state == DEAD {
            return;
        }
    }
}

/// Walks `input[a..mid]` with `wa` and `input[mid..end]` with `wb` in lockstep.
#[inline(always)]
fn run_pair<V: Value, F: Feed>(
    f: F,
    input: &[u8],
    (wa, mut a, mid, out_a): (&mut Walk, usize, usize, &mut Vec<V>),
    (wb, mut b, end, out_b): (&mut Walk, usize, usize, &mut Vec<V>),
) {
    loop {
        skip_ascii(f, wa, &input[..mid], &mut a, out_a);
        skip_ascii(f, wb, &input[..end], &mut b, out_b);
        let m = BLOCK.min(mid - a).min(end - b);
        if m == 0 {
            break;
        }
        let (mut block_a, mut block_b) = (Block::new(), Block::new());
        for (&ua, &ub) in input[a..a + m].iter().zip(&input[b..b + m]) {
            f.feed(wa, ua, &mut block_a);
            f.feed(wb, ub, &mut block_b);
        }
        block_a.flush(out_a);
        block_b.flush(out_b);
        a += m;
        b += m;
        if wa.state == DEAD || wb.state == DEAD {
            break;
        }
    }
    run(f, wa, input, &mut a, mid, out_a);
    // If A failed, B's values are not used: stop, so that the work wasted on an
    // error is no more than what A read before it (a lossy caller that restarts
    // after each error pays for each error about twice its distance).
    if wa.state == f.start() {
        run(f, wb, input, &mut b, end, out_b);
    }
}

impl<T: AsRef<[u32]>, B: AsRef<[u64]>> Dfa<T, B> {
    /// The first sync unit at or after `from`, within [`SYNC_SEARCH`] units.
    fn sync_at(&self, input: &[u8], from: usize) -> Option<usize> {
        let sync = &self.shift.sync;
        let to = input.len().min(from + SYNC_SEARCH);
        input.get(from..to)?.iter().position(|&u| sync[u as usize / 64] >> (u % 64) & 1 == 1).map(|k| from + k)
    }

    /// The error of an input whose walk failed in a part that starts at the
    /// sequence boundary `from`: the first error from there, found step by step.
    fn error_after(&self, input: &[u8], from: usize) -> DecodeError {
        // Stepping meets the same dead end or the same unfinished sequence (one
        // table); the fallback is never taken.
        self.slow_validate(input, from).err().unwrap_or(DecodeError::new(from, None))
    }

    /// The bulk loop over the class-compressed table.
    pub(super) fn decode_units<V: Value, const BYTES: bool, const BIASED: bool>(
        &self,
        input: &[u8],
        out: &mut Vec<V>,
    ) -> Result<(), DecodeError> {
        let f = Classes::<BYTES, BIASED> {
            trans: self.trans.as_ref(),
            classes: &self.classes,
            digits: &self.digits,
            biases: self.biases.as_ref(),
            start: self.stride,
            ascii: self.ascii,
        };
        self.decode_with(f, input, out)
    }

    /// The bulk loop over the expanded table.
    pub(super) fn decode_expanded<V: Value, const BIASED: bool>(
        &self,
        table: &[u64],
        input: &[u8],
        out: &mut Vec<V>,
    ) -> Result<(), DecodeError> {
        let f = Expanded::<BIASED> { table, biases: self.biases.as_ref(), ascii: self.ascii };
        self.decode_with(f, input, out)
    }

    /// The bulk loop; see the module docs.
    #[inline(always)]
    fn decode_with<V: Value, F: Feed>(&self, f: F, input: &[u8], out: &mut Vec<V>) -> Result<(), DecodeError> {
        let start = f.start();
        let mut pos = 0;
        let mut second: Vec<V> = Vec::new();
        // Pairs of chunks while there is room for two.
        while input.len() - pos >= 2 * CHUNK + 2 * SYNC_SEARCH {
            let Some(mid) = self.sync_at(input, pos + CHUNK) else { break };
            let Some(end) = self.sync_at(input, mid + CHUNK) else { break };
            let mut wa = Walk { state: start, v: 0 };
            let mut wb = Walk { state: start, v: 0 };
            second.clear();
            // Values of a failed walk stop before its first error (a dead walk
            // completes nothing), so they may stay in the output.
            run_pair(f, input, (&mut wa, pos, mid, out), (&mut wb, mid, end, &mut second));
            if wa.state != start {
                return Err(self.error_after(input, pos));
            }
            out.extend_from_slice(&second);
            if wb.state != start {
                return Err(self.error_after(input, mid));
            }
            pos = end;
        }
        // The rest, one walk.
        let mut walk = Walk { state: start, v: 0 };
        let mut i = pos;
        run(f, &mut walk, input, &mut i, input.len(), out);
        if walk.state == start {
            Ok(())
        } else {
            Err(self.error_after(input, pos))
        }
    }
}
