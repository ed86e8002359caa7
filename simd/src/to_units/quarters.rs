//! The AVX-512 kernel's window into 32-bit units (UTF-32, and values):
//! sixty-four units whose sequences have one to four units each, read a
//! quarter at a time with every unit's view of itself and the three units
//! after it in one 32-bit lane, and compressed at the sequences' leads.
//!
//! At unit `j` the lane holds `a`, `b`, `c`, `d` (the units `j` to `j + 3`),
//! the last three less the first continuation unit and cut to six bits; two
//! multiply-adds make `a · 2^18 + b · 2^12 + c · 2^6 + d`, which is the value
//! of a four-unit sequence starting there plus `lead_base[4] · 2^18`. A
//! sequence of `n` units is that number shifted right by `6 · (4 − n)`
//! (which drops the units after it, whatever they are) less
//! `lead_base[n] · 64^(n−1)`. No lane's arithmetic depends on what the
//! window holds, so text that mixes lengths (ASCII with emoji) costs what
//! text of one length does. A value is written only where the target
//! writes it as one unit of itself; where one is not, or a sequence has
//! five units or more, the window is left to the kernel's general path.

use core::arch::x86_64::*;

use super::marks::Marks;
use crate::{Shape, Units};

/// What the window needs of the shape and the target, as vectors.
pub(super) struct Quarters {
    /// Per quarter, the byte permute that puts the units `j + 3`, `j + 2`,
    /// `j + 1` and `j` of the window in the bytes of lane `j`.
    gather: [__m512i; 4],
    /// The first continuation unit in each lane's three low bytes, and the
    /// mask that cuts them to six bits (the lead's byte kept whole).
    first: __m512i,
    six: __m512i,
    /// Per length `n` (1 to 4): the shift right and what is taken off.
    shift: [__m512i; 4],
    base: [__m512i; 4],
    /// The target's single-unit ranges (low ends and widths), `None` where
    /// they hold every 32-bit value.
    single: Option<[(__m512i, __m512i); 2]>,
    /// Each unit's bytes reversed, for big-endian units.
    swap: Option<__m512i>,
}

impl Quarters {
    /// The window's constants for `shape` into `units` (normalised, of 4
    /// bytes); `swap` reverses each unit's bytes for a big-endian target.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    pub(super) fn new(shape: &Shape, units: &Units, swap: Option<__m512i>) -> Quarters {
        let gather = core::array::from_fn(|q| {
            let index: [u8; 64] = core::array::from_fn(|k| ((16 * q + k / 4 + 3 - k % 4) % 64) as u8);
            // SAFETY: 64 readable bytes.
            unsafe { _mm512_loadu_si512(index.as_ptr().cast()) }
        });
        let first = u32::from(shape.continuation.0);
        let every = units.single.iter().any(|&(lo, hi)| lo == 0 && hi == u32::MAX);
        let range =
            |(lo, hi): (u32, u32)| (_mm512_set1_epi32(lo as i32), _mm512_set1_epi32(hi.wrapping_sub(lo) as i32));
        Quarters {
            gather,
            first: _mm512_set1_epi32((first * 0x01_0101) as i32),
            six: _mm512_set1_epi32(0xFF3F_3F3Fu32 as i32),
            shift: [18, 12, 6, 0].map(|n| _mm512_set1_epi32(n)),
            base: core::array::from_fn(|n| _mm512_set1_epi32((u32::from(shape.lead_base[n + 1]) << (6 * n)) as i32)),
            single: (!every).then(|| units.single.map(range)),
            swap,
        }
    }

    /// Converts the sequences that end in the window of 64 units `x` (`leads`
    /// its units that are no continuation, `next_is_lead` whether the unit
    /// after it is one), if each has one to four units and a value the target
    /// writes as one unit: the units taken and the bytes written.
    ///
    /// # Safety
    /// The machine must have AVX-512 F/BW/VL/VBMI/VBMI2 and BMI2; `out`
    /// writable for four bytes per unit taken, and with `WHOLE` (which
    /// stores whole vectors) for four bytes per unit of the window.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    pub(super) unsafe fn window<const WHOLE: bool>(
        &self,
        x: __m512i,
        leads: u64,
        next_is_lead: bool,
        out: *mut u8,
    ) -> Option<(usize, usize)> {
        let marks = Marks::of(leads, next_is_lead).filter(|m| !m.longer_than(4))?;
        let (taken, took) = (marks.taken, marks.took);
        let [on1, on2, on3] = marks.on;
        let lengths = [on1 & !on2, on1 & on2 & !on3, on1 & on2 & on3];
        let values: [__m512i; 4] =
            core::array::from_fn(|q| self.quarter(x, q, lengths.map(|m| (m >> (16 * q)) as u16)));
        let kept = |q: usize| (taken >> (16 * q)) as u16;
        if let Some([r0, r1]) = self.single {
            let within =
                |v: __m512i, (lo, width): (__m512i, __m512i)| _mm512_cmple_epu32_mask(_mm512_sub_epi32(v, lo), width);
            let refused = (0..4).fold(0, |acc, q| acc | kept(q) & !(within(values[q], r0) | within(values[q], r1)));
            if refused != 0 {
                return None;
            }
        }
        let mut wrote = 0;
        for (q, v) in values.into_iter().enumerate() {
            let keep = kept(q);
            let units = _mm512_maskz_compress_epi32(keep, v);
            let units = self.swap.map_or(units, |s| _mm512_shuffle_epi8(units, s));
            let n = keep.count_ones() as usize;
            if WHOLE {
                // SAFETY: 64 bytes from `wrote <= 192`, within the 256 of the
                // caller's guarantee.
                unsafe { _mm512_storeu_si512(out.add(wrote).cast(), units) };
            } else {
                // SAFETY: `n` units of the quarter, four bytes each.
                unsafe { _mm512_mask_storeu_epi32(out.add(wrote).cast(), keep_low(n), units) };
            }
            wrote += 4 * n;
        }
        Some((took, wrote))
    }

    /// Quarter `q` of the window `x`: each lane's value as the lead of a
    /// sequence of the length `lengths` says (two, three, four units; else
    /// one).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    fn quarter(&self, x: __m512i, q: usize, [two, three, four]: [u16; 3]) -> __m512i {
        let lanes = _mm512_permutexvar_epi8(self.gather[q], x);
        let lanes = _mm512_and_si512(_mm512_sub_epi8(lanes, self.first), self.six);
        let pairs = _mm512_maddubs_epi16(lanes, _mm512_set1_epi16(0x4001));
        let raw = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x1000_0001));
        let by_length = |table: &[__m512i; 4]| {
            let v = _mm512_mask_mov_epi32(table[0], two, table[1]);
            let v = _mm512_mask_mov_epi32(v, three, table[2]);
            _mm512_mask_mov_epi32(v, four, table[3])
        };
        _mm512_sub_epi32(_mm512_srlv_epi32(raw, by_length(&self.shift)), by_length(&self.base))
    }
}

/// The mask of the low `n` of sixteen lanes.
fn keep_low(n: usize) -> u16 {
    if n >= 16 {
        u16::MAX
    } else {
        (1 << n) - 1
    }
}
