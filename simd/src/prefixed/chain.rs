//! What every length-prefix kernel shares, for the targets with a kernel
//! (x86-64, aarch64 with NEON): the tags' per-tag tables, the loop over
//! blocks of 64 units ([`blocks`]), the chain of starts ([`chain_starts`],
//! over [`CHAIN`]) and the values read one load each
//! ([`PerTag::values`]).

use core::mem::MaybeUninit;

use super::{Tags, CHAIN, PREFIXED_TAIL};
use crate::flagged::Slot;

/// What the kernels read of the tags.
impl Tags {
    /// The tags in use: `2^(8 − shift)`.
    pub(crate) fn count(&self) -> usize {
        1 << (8 - self.shift)
    }

    /// The payload bits of a value of tag `tag` (0 where no value has it).
    pub(super) fn payload_mask(&self, tag: usize) -> u64 {
        match u32::from(self.lengths[tag]) {
            0 => 0,
            n => u64::MAX >> (64 - 8 * (n - 1) - u32::from(self.shift)),
        }
    }

    /// Whether every tag has values, and every payload of each is a value
    /// of itself: the kernel then checks no range.
    pub(super) fn whole(&self) -> bool {
        (0..self.count())
            .all(|t| self.lengths[t] != 0 && self.lo[t] == 0 && self.bias[t] == 0 && self.hi[t] == self.payload_mask(t))
    }
}

/// What a kernel makes of one block: the values written, where the first
/// not written starts if it stopped in the block (out of room, or a value
/// the tags do not decode), and the units after the block's 64 that its
/// last value takes.
pub(super) type Block = (usize, Option<usize>, usize);

/// The loop of every kernel: blocks of 64 units, each starting where a
/// value does, decoded by `block` into the slots left; each value it stops
/// at read by `other` (then the next block starts after that value), or
/// the end: the values written and the units they took.
#[inline(always)]
pub(super) fn blocks<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    input: &[u8],
    out: &mut [MaybeUninit<T>],
    other: &mut F,
    mut block: impl FnMut(&[u8; PREFIXED_TAIL], &mut [MaybeUninit<T>]) -> Block,
) -> (usize, usize) {
    let (mut pos, mut written) = (0usize, 0usize);
    while written < out.len() {
        let Some(units) = input[pos..].first_chunk::<PREFIXED_TAIL>() else { break };
        let (wrote, stop, taken) = block(units, &mut out[written..]);
        written += wrote;
        let Some(at) = stop else {
            pos += 64 + taken;
            continue;
        };
        if written == out.len() {
            return (written, pos + at);
        }
        match other(&input[pos + at..]) {
            Some((value, len)) if len > 0 => {
                out[written].write(value);
                (written, pos) = (written + 1, pos + at + len);
            }
            _ => return (written, pos + at),
        }
    }
    (written, pos)
}

/// Where values start among a block's 64 units, from each pair's lengths
/// (`index`, as `(a − 1) + 8 (b − 1)`): a mask, and the units after the 64
/// that the last value takes. The chain is one table read and one shift a
/// pair; each pair's byte is kept, and its two start bits (6 and 7) are
/// gathered in order, eight pairs at a time, by `starts` (`pext` with the
/// mask `0xC0C0…`, or [`top_bits`]).
#[inline(always)]
pub(super) fn chain_starts(index: &[u8; 32], starts: impl Fn(u64) -> u64) -> (u64, usize) {
    let mut bytes = [0u8; 32];
    // Bits 0–5: eight times the units of the pair taken by a value before it.
    let mut x = 0u64;
    for (byte, &pair) in bytes.iter_mut().zip(index) {
        x = CHAIN[usize::from(pair & 63)].wrapping_shr(x as u32);
        *byte = x as u8;
    }
    let mut mask = 0;
    for (k, eight) in bytes.chunks_exact(8).enumerate() {
        mask |= starts(u64::from_le_bytes(eight.try_into().unwrap_or_default())) << (16 * k);
    }
    (mask, (x as usize & 0x38) >> 3)
}

/// Bits 6 and 7 of each byte of `word`, packed in order (byte `i`'s at bits
/// `2i` and `2i + 1`): what `pext` with the mask `0xC0C0…` gives, for
/// machines without it. Three rounds each join neighbouring fields.
#[cfg_attr(not(all(target_arch = "aarch64", target_feature = "neon")), allow(dead_code))]
#[inline(always)]
pub(super) const fn top_bits(word: u64) -> u64 {
    let x = word >> 6 & 0x0303_0303_0303_0303;
    let x = (x | x >> 6) & 0x000F_000F_000F_000F;
    let x = (x | x >> 12) & 0x0000_00FF_0000_00FF;
    (x | x >> 24) & 0xFFFF
}

/// The tags' tables for values read one by one: for each tag, its
/// length's shift (from a big-endian word of eight units to the value's
/// units), payload mask, bias and range; a tag without values has a range
/// no value is in.
pub(super) struct PerTag {
    top: u32,
    right: [u32; 16],
    mask: [u64; 16],
    bias: [u64; 16],
    lo: [u64; 16],
    hi: [u64; 16],
}

impl PerTag {
    pub(super) fn new(t: &Tags) -> PerTag {
        let valid = |tag: usize| tag < t.count() && t.lengths[tag] != 0;
        PerTag {
            top: 56 + u32::from(t.shift),
            right: core::array::from_fn(|tag| 64 - 8 * u32::from(t.lengths[tag].max(1))),
            mask: core::array::from_fn(|tag| if tag < t.count() { t.payload_mask(tag) } else { 0 }),
            bias: core::array::from_fn(|tag| if valid(tag) { t.bias[tag] } else { 0 }),
            lo: core::array::from_fn(|tag| if valid(tag) { t.lo[tag] } else { u64::MAX }),
            hi: core::array::from_fn(|tag| if valid(tag) { t.hi[tag] } else { 0 }),
        }
    }

    /// Writes the values starting at `starts` in `units` into `out`, one by
    /// one: how many, and where the first not written starts, if `out`
    /// filled or a value is not the tags' to decode. `WHOLE` is
    /// [`Tags::whole`].
    #[inline(always)]
    pub(super) fn values<T: Slot, const WHOLE: bool>(
        &self,
        units: &[u8; PREFIXED_TAIL],
        mut starts: u64,
        out: &mut [MaybeUninit<T>],
    ) -> (usize, Option<usize>) {
        let mut done = 0;
        while starts != 0 {
            let at = starts.trailing_zeros() as usize;
            let (Some(slot), Some(&word)) = (out.get_mut(done), units[at..].first_chunk::<8>()) else {
                return (done, Some(at));
            };
            let word = u64::from_be_bytes(word);
            let tag = (word >> self.top) as usize & 15;
            let mut v = (word >> self.right[tag]) & self.mask[tag];
            if !WHOLE {
                let bias = self.bias[tag];
                v = v.wrapping_add(bias);
                if v < bias || v < self.lo[tag] || v > self.hi[tag] {
                    return (done, Some(at));
                }
            }
            slot.write(T::narrow(v));
            done += 1;
            starts &= starts - 1;
        }
        (done, None)
    }
}
