//! The table decoder's bulk loop ([`Dfa::decode_into`]): two walks through the
//! transition table, side by side.
//!
//! One walk is a chain of dependent loads: the next state is read from a row
//! chosen by the current one, so each unit waits for the previous unit's load,
//! however little else there is to do. Two walks over different parts of the
//! input have no dependency on each other, so the processor overlaps them. The
//! input is cut into *pairs of chunks*: walk A reads one chunk and walk B the next,
//! unit by unit in lockstep; A's values go straight to the output, B's to a small
//! buffer appended after them. Each cut is placed at a *sync unit* — one that every
//! state but the start rejects — so that, if the input is valid, a sequence starts
//! there, and B may start from the start state. If either walk does not end its
//! chunk at the start state, the input is invalid there, and the exact error is
//! found by stepping from that walk's last sequence boundary.
//!
//! Within a walk, the dead state is only looked for at the end of a chunk: it leads
//! only to itself and completes nothing, so nothing is emitted after it. Runs of
//! ASCII are copied eight units at a time whenever a walk is at the start state at
//! a block boundary, for ASCII-transparent codecs; byte units skip the digit map.
//!
//! [`Dfa::decode_into`]: super::Dfa::decode_into

use alloc::vec::Vec;

use super::{Dfa, BIAS_SHIFT, BITS_SHIFT, DEAD, STATE_MASK};
use crate::{DecodeError, Value};

/// Units per chunk of a pair. Walk B's values for one chunk (at most this many)
/// are buffered, so the buffer stays in the first-level cache.
const CHUNK: usize = 2048;
/// How far past a chunk's nominal end a sync unit is looked for.
const SYNC_SEARCH: usize = 256;
/// Units between looks for an ASCII run.
const BLOCK: usize = 32;
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

/// The tables one walk reads, as plain slices (so the loop keeps them in
/// registers rather than reloading them through `&Dfa`).
#[derive(Copy, Clone)]
struct Tables<'t> {
    trans: &'t [u32],
    classes: &'t [u8; 256],
    digits: &'t [u8; 256],
    biases: &'t [u64],
    start: usize,
    ascii: bool,
}

impl Tables<'_> {
    /// One unit through the table. The value is written to the block buffer
    /// whether or not the unit completes a sequence, and kept only if it does, so
    /// that sequences of mixed lengths cost no mispredicted branch.
    #[inline(always)]
    fn feed<V: Value, const BYTES: bool, const BIASED: bool>(self, walk: &mut Walk, unit: u8, block: &mut Block<V>) {
        let e = self.trans[walk.state + self.classes[unit as usize] as usize];
        let n = (e >> BITS_SHIFT) & 0xF;
        let digit = if BYTES { unit } else { self.digits[unit as usize] };
        let v = (walk.v << n) | (u64::from(digit) & MASKS[n as usize]);
        walk.state = (e & STATE_MASK) as usize;
        // Without biases every entry's bias index is 0 (the table invariant).
        let bias = if BIASED { self.biases.get((e >> BIAS_SHIFT) as usize).copied().unwrap_or(0) } else { 0 };
        let done = walk.state == self.start;
        block.values[block.len % BLOCK_VALUES] = V::from_u64_lossy(v.wrapping_add(bias));
        block.len += usize::from(done);
        walk.v = if done { 0 } else { v };
    }

    /// Copies the ASCII run at `*i` if `walk` is at the start state and the codec
    /// is ASCII-transparent.
    #[inline(always)]
    fn skip_ascii<V: Value>(self, walk: &Walk, input: &[u8], i: &mut usize, out: &mut Vec<V>) {
        if self.ascii && walk.state == self.start {
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
    fn run<V: Value, const BYTES: bool, const BIASED: bool>(
        self,
        walk: &mut Walk,
        input: &[u8],
        i: &mut usize,
        end: usize,
        out: &mut Vec<V>,
    ) {
        while *i < end {
            self.skip_ascii(walk, &input[..end], i, out);
            let stop = end.min(*i + BLOCK);
            let mut block = Block::new();
            for &u in &input[*i..stop] {
                self.feed::<V, BYTES, BIASED>(walk, u, &mut block);
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
    fn run_pair<V: Value, const BYTES: bool, const BIASED: bool>(
        self,
        input: &[u8],
        (wa, mut a, mid, out_a): (&mut Walk, usize, usize, &mut Vec<V>),
        (wb, mut b, end, out_b): (&mut Walk, usize, usize, &mut Vec<V>),
    ) {
        loop {
            self.skip_ascii(wa, &input[..mid], &mut a, out_a);
            self.skip_ascii(wb, &input[..end], &mut b, out_b);
            let m = BLOCK.min(mid - a).min(end - b);
            if m == 0 {
                break;
            }
            let (mut block_a, mut block_b) = (Block::new(), Block::new());
            for (&ua, &ub) in input[a..a + m].iter().zip(&input[b..b + m]) {
                self.feed::<V, BYTES, BIASED>(wa, ua, &mut block_a);
                self.feed::<V, BYTES, BIASED>(wb, ub, &mut block_b);
            }
            block_a.flush(out_a);
            block_b.flush(out_b);
            a += m;
            b += m;
            if wa.state == DEAD || wb.state == DEAD {
                break;
            }
        }
        self.run::<V, BYTES, BIASED>(wa, input, &mut a, mid, out_a);
        self.run::<V, BYTES, BIASED>(wb, input, &mut b, end, out_b);
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

    /// The bulk loop; see the module docs.
    pub(super) fn decode_units<V: Value, const BYTES: bool, const BIASED: bool>(
        &self,
        input: &[u8],
        out: &mut Vec<V>,
    ) -> Result<(), DecodeError> {
        let t = Tables {
            trans: self.trans.as_ref(),
            classes: &self.classes,
            digits: &self.digits,
            biases: self.biases.as_ref(),
            start: self.stride,
            ascii: self.ascii,
        };
        let start = self.stride;
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
            t.run_pair::<V, BYTES, BIASED>(input, (&mut wa, pos, mid, out), (&mut wb, mid, end, &mut second));
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
        t.run::<V, BYTES, BIASED>(&mut walk, input, &mut i, input.len(), out);
        if walk.state == start {
            Ok(())
        } else {
            Err(self.error_after(input, pos))
        }
    }
}
