//! The loop every flagged-stream kernel shares ([`blocks`]) and the checks
//! of a value's payload against its length's range, for the targets with a
//! kernel (x86-64, aarch64 with NEON).

use core::mem::MaybeUninit;

use super::{Marks, Slot, FLAGGED_TAIL};

impl Marks {
    /// The value of `payload` (the groups of `n` units joined), if it is one
    /// of the values of `n` units; `SIGNED` is [`Marks::signed`].
    #[inline(always)]
    fn value<const SIGNED: bool>(&self, payload: u64, n: usize) -> Option<u64> {
        let k = n - 1;
        if SIGNED {
            let unused = 64 - 7 * n as u32;
            let v = ((payload << unused) as i64) >> unused;
            return (self.lo[k] as i64 <= v && v <= self.hi[k] as i64).then_some(v as u64);
        }
        let v = payload.wrapping_add(self.bias[k]);
        (self.lo[k] <= v && v <= self.hi[k]).then_some(v)
    }

    /// The value of `low` (the groups of a value's first eight units
    /// joined) and `high` (those of its other units, one or two), if it is
    /// one of the values of `n` units (nine or ten; the groups least
    /// significant first). Ten units are 70 bits of payload: a value only
    /// where those above 64 are zero (a signed fact stops at nine units).
    #[inline(always)]
    fn long_value<const SIGNED: bool>(&self, low: u64, high: u64, n: usize) -> Option<u64> {
        let payload = low | high << 56;
        if n == 9 {
            let v = self.value::<SIGNED>(payload, n)?;
            // The bias added without wrapping.
            return (SIGNED || v >= payload).then_some(v);
        }
        if SIGNED || high >> 8 != 0 {
            return None;
        }
        let v = payload.checked_add(self.bias[9])?;
        (self.lo[9] <= v && v <= self.hi[9]).then_some(v)
    }
}

/// The loop of every kernel, with [`Marks::lsb_first`] as `LSB` and
/// [`Marks::signed`] as `SIGNED`, and what differs between instruction
/// sets as two functions: `flags`, the flag bits (bit 7) of 64 units as a
/// mask, `gather`, the bits of a word that a mask selects, packed
/// (`pext`), and `sixteen`, which reads sixteen short values from the
/// start of 64 units given their ends and returns the units they took
/// (`None` where it reads none: on all but AVX-512,
/// `super::sixteen::Sixteen::decode`). Each value the marks do not cover
/// is read by `other`.
///
/// Inlined into each kernel's `#[target_feature]` function, so that both
/// functions are compiled with its instruction set.
#[inline(always)]
pub(super) fn blocks<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>, const LSB: bool, const SIGNED: bool>(
    marks: &Marks,
    input: &[u8],
    out: &mut [MaybeUninit<T>],
    other: &mut F,
    flags: impl Fn(&[u8; 64]) -> u64,
    gather: impl Fn(u64, u64) -> u64,
    sixteen: impl Fn(&[u8; 64], u64, &mut [MaybeUninit<T>]) -> Option<usize>,
) -> (usize, usize) {
    // A unit ends a value where its flag differs from the continuing one.
    let flip = if marks.continues_when_set { u64::MAX } else { 0 };
    let lengths = u32::from(marks.lengths);
    // One-unit values that are their payload: a block of them is widened.
    let widen = !marks.signed && marks.lo[0] == 0 && marks.bias[0] == 0 && marks.hi[0] == 0x7F;
    let (mut pos, mut written) = (0usize, 0usize);
    'blocks: while written < out.len() {
        let Some(units) = input[pos..].first_chunk::<FLAGGED_TAIL>() else { break };
        let mut ends = flags(units.first_chunk::<64>().unwrap_or(&[0; 64])) ^ flip;
        if ends == u64::MAX && widen {
            if let Some(slots) = out.get_mut(written..written + 64) {
                for (slot, &unit) in slots.iter_mut().zip(units) {
                    slot.write(T::narrow(u64::from(unit & 0x7F)));
                }
                (pos, written) = (pos + 64, written + 64);
                continue;
            }
        }
        if let Some(taken) = sixteen(units.first_chunk::<64>().unwrap_or(&[0; 64]), ends, &mut out[written..]) {
            (pos, written) = (pos + taken, written + 16);
            continue;
        }
        // The units of the block already read.
        let mut start = 0usize;
        while ends != 0 && written < out.len() {
            let end = ends.trailing_zeros() as usize;
            let n = end + 1 - start;
            if n as u32 <= lengths {
                // `start <= end < 64` (the mask is `start & 63`, for the
                // compiler): the eight units at the value's start are in the
                // block's 72.
                let word = u64::from_le_bytes(*units[start & 63..].first_chunk::<8>().unwrap_or(&[0; 8]));
                let value = if n <= 8 {
                    let units = if LSB { word } else { word.swap_bytes() >> (64 - 8 * n) };
                    marks.value::<SIGNED>(gather(units, 0x7F7F_7F7F_7F7F_7F7F >> (64 - 8 * n)), n)
                } else {
                    // Nine or ten units, least significant first (`is_read`):
                    // the last ones end at `end < 64`, two units read after
                    // the first eight.
                    let after = u64::from(u16::from_le_bytes([units[(start + 8) & 63], units[(start + 9) & 63]]));
                    let high = gather(after, 0x7F7F >> (8 * (10 - n)));
                    marks.long_value::<SIGNED>(gather(word, 0x7F7F_7F7F_7F7F_7F7F), high, n)
                };
                if let Some(value) = value {
                    out[written].write(T::narrow(value));
                    written += 1;
                    start = end + 1;
                    ends &= ends - 1;
                    continue;
                }
            }
            // Longer than the marks describe, or out of its length's range.
            match other(&input[pos + start..]) {
                Some((value, len)) if len > 0 => {
                    out[written].write(value);
                    written += 1;
                    start += len;
                }
                _ => return (written, pos + start),
            }
            if start >= 64 {
                pos += start;
                continue 'blocks;
            }
            ends &= u64::MAX << start;
        }
        if start == 0 && written < out.len() {
            // No value ends in 64 units: one longer than any the marks
            // describe, for `other`.
            match other(&input[pos..]) {
                Some((value, len)) if len > 0 => {
                    out[written].write(value);
                    (pos, written) = (pos + len, written + 1);
                    continue;
                }
                _ => break,
            }
        }
        pos += start;
    }
    (written, pos)
}
