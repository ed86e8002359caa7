//! The check of [`crate::WideRuns`]: every code unit of both ranges, walked
//! from the start state, is one whole sequence of its own value.
//!
//! A 32-bit range holds up to 2^32 units, too many to walk one by one in a
//! `const`. The check splits each range into *boxes* (a fixed run of high
//! bytes, one byte in a range, every byte below it free: at most seven per
//! range) and walks each box through the table by groups of bytes that take
//! the same transition (bytes of one class do, and so may several classes).
//! At the end of a path the value is a sum of each byte's payload times a
//! weight fixed by the transitions after it; the check asks that every byte of
//! every group is worth itself at its place in the code unit. Paths are few
//! for real codecs; a table that needs more than [`MAX_PATHS`] is refused, so
//! the check's time is bounded (the compiler's search, which groups bytes the
//! same way and keeps at most 256 paths, stays within it).

use super::super::{Parts, BIAS_SHIFT, BITS_SHIFT, DEAD, PLACE_SHIFT, STATE_MASK};
use crate::AsciiRuns;

/// The most paths through the table the check follows.
const MAX_PATHS: usize = 1 << 12;

/// A set of bytes: bit `b % 64` of word `b / 64`.
type Bytes = [u64; 4];

/// One walk through a box: per unit position, the transition taken and the
/// bytes that take it.
#[derive(Copy, Clone)]
struct Path {
    at: [usize; 4],
    bytes: [Bytes; 4],
}

/// One box: per byte of significance (least significant first), the range of
/// bytes it takes.
type Spans = [(u8, u8); 4];

/// The unit width and byte order, and where the start states lie.
#[derive(Copy, Clone)]
struct Shape {
    bytes: usize,
    big: bool,
    stride: usize,
    contexts: usize,
}

impl Shape {
    /// The significance of the byte at position `pos` of a code unit.
    const fn sig(self, pos: usize) -> usize {
        if self.big {
            self.bytes - 1 - pos
        } else {
            pos
        }
    }
}

/// Whether the wide runs of `p` hold (trivially when there are none).
pub(super) const fn wide_runs(p: &Parts<'_>, stride: usize) -> bool {
    let runs = p.wide_runs;
    if !runs.is_some() {
        return true;
    }
    let bytes = runs.units.unit_bytes();
    if bytes != p.table.unit_bytes as usize {
        return false;
    }
    let big = matches!(runs.units, AsciiRuns::U16Be | AsciiRuns::U32Be);
    let shape = Shape { bytes, big, stride, contexts: p.table.contexts as usize };
    let top = if bytes == 2 { 0xFFFF } else { u32::MAX };
    let mut budget = MAX_PATHS;
    let mut r = 0;
    while r < 2 {
        let (lo, hi) = runs.ranges[r];
        if lo > hi || hi > top || !range(p, shape, lo as u64, hi as u64, &mut budget) {
            return false;
        }
        r += 1;
    }
    true
}

/// Splits `lo..=hi` into boxes and checks each.
const fn range(p: &Parts<'_>, shape: Shape, mut lo: u64, hi: u64, budget: &mut usize) -> bool {
    while lo <= hi {
        // The widest block of whole low bytes that starts at `lo` and fits.
        let mut k = 0;
        while k + 1 < shape.bytes {
            let wider = 1u64 << (8 * (k + 1));
            if !lo.is_multiple_of(wider) || lo + wider - 1 > hi {
                break;
            }
            k += 1;
        }
        let block = 1u64 << (8 * k);
        let first = (lo >> (8 * k)) & 0xFF;
        let count = if (hi - lo + 1) / block < 256 - first { (hi - lo + 1) / block } else { 256 - first };
        let mut spans: Spans = [(0, 0xFF); 4];
        let mut sig = k;
        spans[sig] = (first as u8, (first + count - 1) as u8);
        while sig + 1 < shape.bytes {
            sig += 1;
            let b = (lo >> (8 * sig)) as u8;
            spans[sig] = (b, b);
        }
        let path = Path { at: [0; 4], bytes: [[0; 4]; 4] };
        if !walk(p, shape, &spans, 0, shape.stride, path, budget) {
            return false;
        }
        lo += count * block;
    }
    true
}

/// Walks position `pos` on from `state`, by groups of bytes that take the
/// same transition.
const fn walk(
    p: &Parts<'_>,
    shape: Shape,
    spans: &Spans,
    pos: usize,
    state: usize,
    path: Path,
    budget: &mut usize,
) -> bool {
    if pos == shape.bytes {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        return worth_itself(p, shape, &path);
    }
    let by_class = by_class(p, spans[shape.sig(pos)]);
    let mut taken = [false; 256];
    let mut c = 0;
    while c < shape.stride {
        if taken[c] || is_empty(&by_class[c]) {
            c += 1;
            continue;
        }
        let at = state + c;
        let mut bytes = by_class[c];
        let mut d = c + 1;
        while d < shape.stride {
            if !taken[d] && !is_empty(&by_class[d]) && super::super::read::same_entry(p, at, state + d) {
                let mut w = 0;
                while w < 4 {
                    bytes[w] |= by_class[d][w];
                    w += 1;
                }
                taken[d] = true;
            }
            d += 1;
        }
        let next = (p.table.transitions[at] & STATE_MASK) as usize;
        let at_start = next >= shape.stride && next < shape.stride * (shape.contexts + 1);
        // Only the last byte ends the sequence, at the start of context 0.
        let fits = if pos + 1 == shape.bytes { next == shape.stride } else { next != DEAD && !at_start };
        if !fits {
            return false;
        }
        let mut longer = path;
        longer.at[pos] = at;
        longer.bytes[pos] = bytes;
        if !walk(p, shape, spans, pos + 1, next, longer, budget) {
            return false;
        }
        c += 1;
    }
    true
}

/// The bytes of `lo..=hi`, by class.
const fn by_class(p: &Parts<'_>, (lo, hi): (u8, u8)) -> [Bytes; 256] {
    let mut sets = [[0u64; 4]; 256];
    let mut b = lo as usize;
    while b <= hi as usize {
        sets[p.table.classes[b] as usize][b / 64] |= 1 << (b % 64);
        b += 1;
    }
    sets
}

const fn is_empty(set: &Bytes) -> bool {
    set[0] | set[1] | set[2] | set[3] == 0
}

/// What the transition at `at` multiplies the value read so far by, and its
/// own payload by.
const fn weights(p: &Parts<'_>, at: usize) -> (u64, u64) {
    match p.places() {
        Some(places) => (1u64 << ((places[at] >> PLACE_SHIFT) & 63), 1u64 << (places[at] & 63)),
        None => (super::multiplier(p, at, p.table.transitions[at]), 1),
    }
}

/// Whether every byte of the path is worth itself at its place, and the
/// sequence adds no bias.
const fn worth_itself(p: &Parts<'_>, shape: Shape, path: &Path) -> bool {
    let last = p.table.transitions[path.at[shape.bytes - 1]];
    if p.table.biases[(last >> BIAS_SHIFT) as usize] != 0 {
        return false;
    }
    let mut pos = 0;
    while pos < shape.bytes {
        let mut weight = weights(p, path.at[pos]).1;
        let mut j = pos + 1;
        while j < shape.bytes {
            weight = match weight.checked_mul(weights(p, path.at[j]).0) {
                Some(w) => w,
                None => return false,
            };
            j += 1;
        }
        let bits = (p.table.transitions[path.at[pos]] >> BITS_SHIFT) & 0xF;
        let mut b = 0;
        while b < 256 {
            let payload = p.table.digits[b] as u64 & ((1u64 << bits) - 1);
            let worth = payload.checked_mul(weight);
            let inside = path.bytes[pos][b / 64] >> (b % 64) & 1 == 1;
            if inside && !matches!(worth, Some(v) if v == (b as u64) << (8 * shape.sig(pos))) {
                return false;
            }
            b += 1;
        }
        pos += 1;
    }
    true
}
