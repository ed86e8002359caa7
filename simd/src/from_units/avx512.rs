//! The AVX-512 kernel of [`encode_from_units`](super::encode_from_units):
//! sixteen code units a step in 32-bit lanes, any mix of single units and
//! pairs; and, for 16-bit units, thirty-two a step in 16-bit lanes where all
//! are single units the target writes in at most three bytes.

use core::arch::x86_64::*;

use super::short::Short;
use super::ByteForms;
use crate::{Pair, Units};

/// A range test: low end and width in every lane.
#[derive(Copy, Clone)]
struct Range(__m512i, __m512i);

impl Range {
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    fn new(lo: u32, hi: u32) -> Range {
        Range(_mm512_set1_epi32(lo as i32), _mm512_set1_epi32(hi.wrapping_sub(lo) as i32))
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    fn holds(self, v: __m512i) -> u16 {
        _mm512_cmple_epu32_mask(_mm512_sub_epi32(v, self.0), self.1)
    }
}

/// A pair's units and values, as vectors.
struct PairConsts {
    high: Range,
    low: Range,
    values: Range,
    bias: __m512i,
    high_base: __m512i,
    low_base: __m512i,
    bits: __m128i,
}

/// What the kernel needs of the source and the target, as vectors.
pub(super) struct Consts {
    bytes: usize,
    /// Each unit's bytes reversed, for big-endian sources.
    swap: Option<__m512i>,
    single: [Range; 2],
    /// The pair's high units, low units, values, bias, bases and bits.
    pair: Option<PairConsts>,
    allowed: [Range; 2],
    /// The values the forms write.
    chain: Range,
    /// The greatest value of lengths 1, 2 and 3 (`u32::MAX` past `lengths`).
    last: [__m512i; 3],
    /// Lanes 0–3: each length's lead base; its shift `6(n − 1)`.
    lead: __m512i,
    shift: __m512i,
    continuation: __m512i,
    /// The step of thirty-two 16-bit units without pairs.
    short: Option<Short>,
    /// The unit the kernel stops at ([`stop_unit`]) in the source's byte
    /// order, repeated: the last units are copied over its start; `None`
    /// where no unit stops the kernel.
    padding: Option<[u8; 2 * TAIL * 4]>,
}

/// The kernel's constants for a source of `units` (normalised, a width of 2
/// or 4) and `pair` (fitting 16 bits, only with a width of 2) into usable
/// `forms`: made once for a call's runs of the kernel.
///
/// # Safety
/// The machine must have AVX-512 F/BW/VL/VBMI/VBMI2 and BMI2.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
pub(super) unsafe fn consts(units: &Units, pair: Option<&Pair>, forms: &ByteForms) -> Consts {
    let swap16: [u8; 16] = [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14];
    let swap32: [u8; 16] = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];
    let swap = if units.bytes == 2 { swap16 } else { swap32 };
    let n = usize::from(forms.lengths);
    let last = |k: usize| _mm512_set1_epi32(if k < n { forms.last[k] as i32 } else { -1 });
    let l = forms.lead.map(i32::from);
    Consts {
        bytes: units.bytes,
        // SAFETY: 16 readable bytes.
        swap: units.big_endian.then(|| _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(swap.as_ptr().cast()) })),
        single: units.single.map(|(lo, hi)| Range::new(lo, hi)),
        pair: pair.map(|p| PairConsts {
            high: Range::new(p.high, p.units(p.hi).0),
            low: Range::new(p.low, p.low + ((1 << p.low_bits) - 1)),
            values: Range::new(p.lo, p.hi),
            bias: _mm512_set1_epi32(p.bias as i32),
            high_base: _mm512_set1_epi32(p.high as i32),
            low_base: _mm512_set1_epi32(p.low as i32),
            bits: _mm_cvtsi32_si128(i32::from(p.low_bits)),
        }),
        allowed: forms.allowed.map(|(lo, hi)| Range::new(lo, hi)),
        chain: Range::new(forms.first, forms.last[n - 1]),
        last: [last(0), last(1), last(2)],
        lead: _mm512_setr_epi32(l[0], l[1], l[2], l[3], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        shift: _mm512_setr_epi32(0, 6, 12, 18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        continuation: _mm512_set1_epi32(i32::from(forms.continuation)),
        short: Short::new(units, pair, forms),
        padding: super::stop_unit(units, pair).map(|unit| core::array::from_fn(|k| unit[k & (units.bytes - 1)])),
    }
}

/// The kernel over `input`, its last units from a padded copy followed by
/// units it stops at (where the source has one): bytes of input taken and
/// bytes written.
///
/// # Safety
/// The machine must have AVX-512 F/BW/VL/VBMI/VBMI2 and BMI2; `c` be made
/// by [`consts`] from units normalised with a width of 2 or 4, a pair that
/// fits 16 bits and comes only with a width of 2, and usable forms; `out` be
/// valid for writes of `2 * input.len()` bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
pub(super) unsafe fn convert(c: &Consts, input: &[u8], out: *mut u8) -> (usize, usize) {
    // SAFETY: the caller's guarantee.
    let (mut taken, mut written) = unsafe { steps(c, input, out) };
    // The last units, which the kernel's steps do not reach, once more from a
    // copy followed by units it stops at.
    let b = c.bytes;
    let rest = &input[taken..input.len() / b * b];
    if let (true, Some(padding)) = (rest.len() < TAIL * b, &c.padding) {
        // (`rest` is whole units: the stop units after it start at a unit.)
        let mut padded = *padding;
        padded[..rest.len()].copy_from_slice(rest);
        // SAFETY: as above; the kernel stops before the first stop unit, so it
        // writes at most two bytes per byte of `rest` it takes; a step of
        // `Short` that stores whole vectors takes 31 units of `rest` or more,
        // so `out` has room for the 112 bytes it stores (`2 * 62 - 2` past
        // what the steps before it wrote, at most two per byte taken).
        let (t, w) = unsafe { steps(c, &padded[..rest.len() + TAIL * b], out.add(written)) };
        (taken, written) = (taken + t.min(rest.len()), written + w);
    }
    (taken, written)
}

/// The kernel's steps: bytes of input taken and bytes written.
///
/// # Safety
/// The machine must have AVX-512 F/BW/VL/VBMI/VBMI2 and BMI2; `c` be made
/// by [`consts`] from units, a pair and forms as [`convert`] asks; `out` be
/// valid for writes of two bytes per byte of `input` before its first stop
/// unit (of all of it, where it has none).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
unsafe fn steps(c: &Consts, input: &[u8], out: *mut u8) -> (usize, usize) {
    let b = c.bytes;
    let (mut i, mut w) = (0, 0);
    // Invariant: `w <= 2 * i`. A step reads 34 units from `i` (the
    // ASCII test 32, the pair test 17) and writes at most four bytes per
    // unit it takes, each of `b >= 2` bytes.
    while i + 34 * b <= input.len() {
        if let Some(short) = &c.short {
            // SAFETY: the steps of `short` keep the invariant, reading 32
            // units from `i` while 34 are readable and storing at most 112
            // bytes at `out + w`, within `out`'s `2 * input.len()` bytes as
            // `w + 112 <= 2 * (i + 56)` (or, on the padded copy, in the room
            // of the 31 units of `rest` it takes: see `convert`).
            (i, w) = unsafe { short.run(input, (i, w), out) };
            if i + 34 * b > input.len() {
                break;
            }
        }
        // SAFETY: 34 units readable from `i`.
        let p = unsafe { input.as_ptr().add(i) };
        // SAFETY: 17 units readable at `p`; at most four bytes per unit
        // taken written at `out + w`.
        let (lanes, wrote) = unsafe { sixteen(c, p, out.add(w)) };
        if lanes == 0 {
            break;
        }
        (i, w) = (i + lanes * b, w + wrote);
    }
    (i, w)
}

/// The sixteen units at `p` and the sixteen after each, as 32-bit lanes.
///
/// # Safety
/// Seventeen units readable at `p`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
#[inline]
unsafe fn load(c: &Consts, p: *const u8) -> (__m512i, __m512i) {
    // SAFETY (all four loads): within the seventeen units.
    if c.bytes == 2 {
        let (u, v) = unsafe { (_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.add(2).cast())) };
        let wide = |x: __m256i| _mm512_cvtepu16_epi32(x);
        let (u, v) = (wide(u), wide(v));
        // 32-bit lanes of a 16-bit unit: its two bytes are the lane's low two.
        let swap = |x: __m512i| c.swap.map_or(x, |_| _mm512_srli_epi32::<16>(_mm512_shuffle_epi8(x, swap32())));
        (swap(u), swap(v))
    } else {
        let (u, v) = unsafe { (_mm512_loadu_si512(p.cast()), _mm512_loadu_si512(p.add(4).cast())) };
        let swap = |x: __m512i| c.swap.map_or(x, |s| _mm512_shuffle_epi8(x, s));
        (swap(u), swap(v))
    }
}

/// The byte reversal of every 32-bit lane.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
#[inline]
fn swap32() -> __m512i {
    _mm512_set4_epi32(0x0C0D_0E0F, 0x0809_0A0B, 0x0405_0607, 0x0001_0203)
}

/// Up to sixteen units at `p`: the units taken and the bytes written.
///
/// # Safety
/// Seventeen units readable at `p`; `out` writable for four bytes per
/// unit taken.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
#[inline]
unsafe fn sixteen(c: &Consts, p: *const u8, out: *mut u8) -> (usize, usize) {
    // SAFETY: the caller's guarantee.
    let (u, next) = unsafe { load(c, p) };
    let single = c.single[0].holds(u) | c.single[1].holds(u);
    let (mut values, mut starts) = (u, 0u16);
    if let Some(p) = &c.pair {
        starts = p.high.holds(u) & p.low.holds(next) & !single;
        let joined = _mm512_or_si512(
            _mm512_sll_epi32(_mm512_sub_epi32(u, p.high_base), p.bits),
            _mm512_sub_epi32(next, p.low_base),
        );
        values = _mm512_mask_add_epi32(u, starts, joined, p.bias);
        starts &= p.values.holds(values);
    }
    let seconds = starts << 1;
    // Lanes up to the first that is no single unit nor half of a pair,
    // less a pair whose second unit is past the sixteen.
    let mut lanes = (single | starts | seconds).trailing_ones() as usize;
    if lanes == 16 && starts >> 15 == 1 {
        lanes = 15;
    }
    let firsts = (single | starts) & !seconds;
    let writable = (c.allowed[0].holds(values) | c.allowed[1].holds(values)) & c.chain.holds(values);
    lanes = lanes.min((!(writable | !firsts)).trailing_zeros() as usize);
    let keep: u16 = if lanes == 16 { u16::MAX } else { (1 << lanes) - 1 };
    let firsts = firsts & keep;
    // SAFETY: at most four bytes per lane kept.
    let wrote = unsafe { write(c, values, firsts, out) };
    (lanes, wrote)
}

/// Writes the values in the lanes `firsts` as the forms say: the bytes
/// written.
///
/// # Safety
/// `out` writable for four bytes per lane in `firsts`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
#[inline]
unsafe fn write(c: &Consts, v: __m512i, firsts: u16, out: *mut u8) -> usize {
    let one = _mm512_set1_epi32(1);
    // n − 1: one more for each length's last value the value passes.
    let mut n1 = _mm512_setzero_si512();
    for last in c.last {
        n1 = _mm512_mask_add_epi32(n1, _mm512_cmpgt_epu32_mask(v, last), n1, one);
    }
    let shift = _mm512_permutexvar_epi32(n1, c.shift);
    let lead = _mm512_add_epi32(_mm512_permutexvar_epi32(n1, c.lead), _mm512_srlv_epi32(v, shift));
    let digit = |k: i32| {
        // The digit `k` places after the lead: `v >> (shift − 6k) & 63`
        // (a negative count shifts everything out; such bytes are dropped).
        let count = _mm512_sub_epi32(shift, _mm512_set1_epi32(6 * k));
        _mm512_add_epi32(c.continuation, _mm512_and_si512(_mm512_srlv_epi32(v, count), _mm512_set1_epi32(63)))
    };
    let byte = _mm512_set1_epi32(0xFF);
    let lane = _mm512_or_si512(
        _mm512_or_si512(_mm512_and_si512(lead, byte), _mm512_slli_epi32::<8>(_mm512_and_si512(digit(1), byte))),
        _mm512_or_si512(_mm512_slli_epi32::<16>(_mm512_and_si512(digit(2), byte)), _mm512_slli_epi32::<24>(digit(3))),
    );
    // Byte `b` of a lane is kept if `b <= n − 1`, in the lanes `firsts`.
    let spread = _mm512_set4_epi32(0x0C0C_0C0C, 0x0808_0808, 0x0404_0404, 0);
    let index = _mm512_set1_epi32(0x0302_0100);
    let bytes = _mm512_cmple_epu8_mask(index, _mm512_shuffle_epi8(n1, spread));
    let lanes = _pdep_u64(u64::from(firsts), 0x1111_1111_1111_1111) * 0xF;
    let mask = bytes & lanes;
    let packed = _mm512_maskz_compress_epi8(mask, lane);
    let n = mask.count_ones();
    let store = if n == 64 { u64::MAX } else { (1 << n) - 1 };
    // SAFETY: `n` is at most four bytes per lane in `firsts`.
    unsafe { _mm512_mask_storeu_epi8(out.cast(), store, packed) };
    n as usize
}

/// Code units left after the kernel's run go through it once more, padded
/// (its steps read 34 units).
const TAIL: usize = 34;
