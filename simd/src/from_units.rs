//! Converting 16- or 32-bit code units (UTF-16, UTF-32) straight into the
//! units of a codec whose encoder writes values as UTF-8 does, in one pass
//! that also checks the source: the conversion engine's fast path from the
//! wide-unit codecs to the UTF-8 family.
//!
//! The source is described by its [`Units`] (the code units that are values
//! of themselves) and its [`Pair`] (two units that make one value: UTF-16's
//! surrogates); the target by its [`ByteForms`]: for sequences of one to
//! four units, the values each length writes (consecutive ranges, shortest
//! first), the lead unit `lead[n] + (v >> 6(n−1))` and the continuation units
//! `continuation + 6 bits`, which the compiler derives from the target's
//! description and proves bit by bit against its encoder.
//!
//! The AVX-512 kernel reads sixteen code units at a time as 32-bit lanes,
//! with the sixteen after each one (for the second unit of a pair). It keeps
//! the lanes up to the first unit that is neither a single unit nor half of a
//! whole pair, and up to the first value the target does not write as one of
//! the forms (which the caller converts, or reports). Each value's length
//! comes from three comparisons; its units are made with variable shifts and
//! one lookup of the lead's base by length, laid out four bytes to a lane,
//! and one byte compress (VBMI2) packs the lanes' first `n` bytes. Thirty-two
//! ASCII units in a row are narrowed without any of it.
//!
//! Input that is not valid stops the kernel before the first unit it cannot
//! read; the kernel never reads or writes out of bounds: it writes at most
//! four bytes per code unit taken.
//!
//! ```
//! use placemat_simd::{encode_from_units, ByteForms, Isa, Pair, Units};
//! let utf16le = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
//! let pair = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
//! let utf8 = ByteForms {
//!     lengths: 4,
//!     first: 0,
//!     last: [0x7F, 0x7FF, 0xFFFF, 0x10_FFFF],
//!     lead: [0, 0xC0, 0xE0, 0xF0],
//!     continuation: 0x80,
//!     allowed: [(0, 0xD7FF), (0xE000, 0x10_FFFF)],
//! };
//! let text = "Ünïcödé, 漢字 and 🎉 ".repeat(20);
//! let units: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
//! let mut out = Vec::new();
//! let taken = Isa::detect().map_or(0, |isa| encode_from_units(isa, &utf16le, Some(&pair), &utf8, &units, &mut out));
//! // A prefix at a value boundary (none without AVX-512), as UTF-8.
//! let prefix: Vec<u16> = units[..taken].chunks(2).map(|u| u16::from_le_bytes([u[0], u[1]])).collect();
//! assert_eq!(out, String::from_utf16(&prefix).unwrap().as_bytes());
//! ```

use alloc::vec::Vec;

use crate::{Isa, Pair, Units};

/// How a target writes values as sequences of one to four units, as UTF-8
/// does: a value of `n` units (`n` in `1..=lengths`) lies in
/// `first..=last[0]` for `n = 1`, `last[n − 2] + 1 ..= last[n − 1]` for the
/// others; its lead unit is `lead[n − 1] + (v >> 6(n − 1))` and its `k`-th
/// continuation unit `continuation + (v >> 6(n − 1 − k) & 63)`. Values
/// outside `allowed` (two ranges, one repeated when there is one) are not
/// written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ByteForms {
    /// How many lengths the forms cover, 1 to 4.
    pub lengths: u8,
    /// The least value of the one-unit form.
    pub first: u32,
    /// The greatest value of each length.
    pub last: [u32; 4],
    /// What each length's lead unit is worth more than the value's top bits.
    pub lead: [u8; 4],
    /// The continuation units' base: its low six bits are zero.
    pub continuation: u8,
    /// The values the target accepts (two inclusive ranges, or one repeated).
    pub allowed: [(u32, u32); 2],
}

impl ByteForms {
    /// The units `v` is written as (`None` when the forms do not write it):
    /// the definition the kernel is tested against.
    pub fn units(&self, v: u32) -> Option<Vec<u8>> {
        let in_allowed = self.allowed.iter().any(|&(lo, hi)| lo <= v && v <= hi);
        let n = (0..usize::from(self.lengths)).find(|&n| v <= self.last[n])? + 1;
        if !in_allowed || v < self.first {
            return None;
        }
        let mut out = alloc::vec![self.lead[n - 1].wrapping_add((v >> (6 * (n - 1))) as u8)];
        out.extend((1..n).map(|k| self.continuation + (v >> (6 * (n - 1 - k)) & 63) as u8));
        Some(out)
    }

    /// Whether the kernel can run on these forms: 1 to 4 lengths whose
    /// ranges rise, a continuation base with its low six bits clear.
    const fn usable(&self) -> bool {
        let n = self.lengths as usize;
        if n == 0 || n > 4 || self.continuation & 63 != 0 || self.first > self.last[0] {
            return false;
        }
        let mut k = 1;
        while k < n {
            if self.last[k] <= self.last[k - 1] {
                return false;
            }
            k += 1;
        }
        true
    }
}

/// Converts a prefix of `input`, code units as `units` and `pair` read them,
/// into the units `forms` writes, appending them to `out`; returns the bytes
/// of `input` taken: at a value boundary, before the first unit that is no
/// single unit nor half of a whole pair and before the first value `forms`
/// does not write (for a source all of whose units are single units, the
/// last 34 units or so are left to the caller). Takes nothing without
/// AVX-512 ([`Isa::Avx512`]), for a width other than 2 and 4 or forms the
/// kernel cannot run ([`ByteForms`]), and ignores a pair with 4-byte units.
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn encode_from_units(
    isa: Isa,
    units: &Units,
    pair: Option<&Pair>,
    forms: &ByteForms,
    input: &[u8],
    out: &mut Vec<u8>,
) -> usize {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    let Some(units) = units.normalised() else { return 0 };
    if !forms.usable() {
        return 0;
    }
    let pair = pair.filter(|p| units.bytes == 2 && p.fits_16_bits());
    run(isa, &units, pair, forms, input, out)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run(isa: Isa, units: &Units, pair: Option<&Pair>, forms: &ByteForms, input: &[u8], out: &mut Vec<u8>) -> usize {
    if isa != Isa::Avx512 {
        return 0;
    }
    // At most four bytes per code unit taken, each two bytes or more.
    out.reserve(2 * input.len());
    let start = out.len();
    // SAFETY: `encode_from_units` checked that the machine has AVX-512 (with
    // BMI2) and that `units` has a width of 2 or 4 (with a pair only for 2,
    // fitting 16 bits); `out` has room for `2 * input.len()` more bytes.
    let (mut taken, mut written) = unsafe { avx512::convert(units, pair, forms, input, out.as_mut_ptr().add(start)) };
    // The last units, which the kernel's steps do not reach, once more from a
    // copy followed by units it stops at.
    let b = units.bytes;
    let rest = &input[taken..input.len() / b * b];
    if let (true, Some(stop)) = (rest.len() < TAIL * b, stop_unit(units, pair)) {
        let mut padded = [0u8; 2 * TAIL * 4];
        padded[..rest.len()].copy_from_slice(rest);
        for slot in padded[rest.len()..].chunks_exact_mut(b) {
            let bytes = if units.big_endian { stop.to_be_bytes() } else { stop.to_le_bytes() };
            slot.copy_from_slice(if units.big_endian { &bytes[4 - b..] } else { &bytes[..b] });
        }
        let padded = &padded[..rest.len() + TAIL * b];
        // SAFETY: as above; the kernel stops before the first stop unit, so it
        // writes at most two bytes per byte of `rest` it takes.
        let (t, w) = unsafe { avx512::convert(units, pair, forms, padded, out.as_mut_ptr().add(start + written)) };
        (taken, written) = (taken + t.min(rest.len()), written + w);
    }
    // SAFETY: the kernel initialised `written <= 2 * taken` bytes after
    // `start`, within the capacity reserved.
    unsafe { out.set_len(start + written) };
    taken
}

/// Code units left after the kernel's run go through it once more, padded
/// (its steps read 34 units).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
const TAIL: usize = 34;

/// A code unit the kernel stops at, however many follow it: no single unit
/// and no pair's second unit (so it completes no pair, and a pair's first
/// unit followed by it starts none).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn stop_unit(units: &Units, pair: Option<&Pair>) -> Option<u32> {
    let top = if units.bytes == 2 { 0xFFFF } else { u32::MAX };
    let taken = |u: u32| {
        units.single.iter().any(|&(lo, hi)| lo <= u && u <= hi)
            || pair.is_some_and(|p| p.low <= u && u - p.low < 1 << p.low_bits)
    };
    let high = pair.map_or(top, |p| p.high);
    [top, top - 1, high, 0].into_iter().find(|&u| !taken(u))
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn run(_: Isa, _: &Units, _: Option<&Pair>, _: &ByteForms, _: &[u8], _: &mut Vec<u8>) -> usize {
    0
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx512 {
    use core::arch::x86_64::*;

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
    struct Consts {
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
        /// 32 ASCII units narrow as they are.
        ascii: bool,
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    fn consts(units: &Units, pair: Option<&Pair>, forms: &ByteForms) -> Consts {
        let swap16: [u8; 16] = [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14];
        let swap32: [u8; 16] = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];
        let swap = if units.bytes == 2 { swap16 } else { swap32 };
        let n = usize::from(forms.lengths);
        let last = |k: usize| _mm512_set1_epi32(if k < n { forms.last[k] as i32 } else { -1 });
        let l = forms.lead.map(i32::from);
        let covers = |ranges: &[(u32, u32)]| ranges.iter().any(|&(lo, hi)| lo == 0 && hi >= 0x7F);
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
            ascii: units.bytes == 2
                && forms.first == 0
                && forms.last[0] >= 0x7F
                && forms.lead[0] == 0
                && covers(&units.single)
                && covers(&forms.allowed),
        }
    }

    /// The kernel: bytes of input taken and bytes written.
    ///
    /// # Safety
    /// The machine must have AVX-512 F/BW/VL/VBMI/VBMI2 and BMI2; `units` be
    /// normalised with a width of 2 or 4, `pair` fit 16 bits and come only
    /// with a width of 2, `forms` be usable; `out` be valid for writes of
    /// `2 * input.len()` bytes.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    pub(super) unsafe fn convert(
        units: &Units,
        pair: Option<&Pair>,
        forms: &ByteForms,
        input: &[u8],
        out: *mut u8,
    ) -> (usize, usize) {
        let c = consts(units, pair, forms);
        let b = c.bytes;
        let (mut i, mut w) = (0, 0);
        // Invariant: `w <= 2 * i`. A step reads 34 units from `i` (the
        // ASCII test 32, the pair test 17) and writes at most four bytes per
        // unit it takes, each of `b >= 2` bytes.
        while i + 34 * b <= input.len() {
            // SAFETY: 34 units readable from `i`.
            let p = unsafe { input.as_ptr().add(i) };
            if c.ascii {
                // SAFETY: 64 bytes readable at `p`; 32 writable at `out + w`
                // for 64 bytes taken.
                if unsafe { ascii32(&c, p, out.add(w)) } {
                    (i, w) = (i + 64, w + 32);
                    continue;
                }
            }
            // SAFETY: 17 units readable at `p`; at most four bytes per unit
            // taken written at `out + w`.
            let (lanes, wrote) = unsafe { sixteen(&c, p, out.add(w)) };
            if lanes == 0 {
                break;
            }
            (i, w) = (i + lanes * b, w + wrote);
        }
        (i, w)
    }

    /// Thirty-two 16-bit units at `p`, written as bytes if all are ASCII.
    ///
    /// # Safety
    /// `p .. p + 64` readable, `out .. out + 32` writable.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    unsafe fn ascii32(c: &Consts, p: *const u8, out: *mut u8) -> bool {
        // SAFETY: the caller's guarantee.
        let x = unsafe { _mm512_loadu_si512(p.cast()) };
        let x = c.swap.map_or(x, |s| _mm512_shuffle_epi8(x, s));
        if _mm512_cmpgt_epu16_mask(x, _mm512_set1_epi16(0x7F)) != 0 {
            return false;
        }
        // SAFETY: the caller's guarantee.
        unsafe { _mm256_storeu_si256(out.cast(), _mm512_cvtepi16_epi8(x)) };
        true
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
            _mm512_or_si512(
                _mm512_slli_epi32::<16>(_mm512_and_si512(digit(2), byte)),
                _mm512_slli_epi32::<24>(digit(3)),
            ),
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
}

#[cfg(test)]
mod tests {
    use super::*;

    const UTF16: Pair = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };

    fn utf8_like(lengths: u8, first: u32, allowed: [(u32, u32); 2]) -> ByteForms {
        let last = [0x7F, 0x7FF, 0xFFFF, 0x10_FFFF];
        ByteForms { lengths, first, last, lead: [0, 0xC0, 0xE0, 0xF0], continuation: 0x80, allowed }
    }

    /// The definition: units read one by one (a single unit, or a high unit
    /// and a low one), each value written by `forms.units`, up to the first
    /// that fails; the bytes of input converted and the output.
    fn reference(units: &Units, pair: Option<&Pair>, forms: &ByteForms, input: &[u8]) -> (usize, Vec<u8>) {
        let b = units.bytes;
        let read = |at: usize| {
            let bytes = input.get(at * b..at * b + b)?;
            let v = bytes.iter().fold(0u32, |v, &x| v << 8 | u32::from(x));
            Some(if units.big_endian { v } else { v.swap_bytes() >> (32 - 8 * b) })
        };
        let top = if b == 2 { 0xFFFF } else { u32::MAX };
        let single = |u: u32| units.single.iter().any(|&(lo, hi)| lo <= u && u <= hi.min(top));
        let (mut at, mut out) = (0, Vec::new());
        while let Some(u) = read(at) {
            let (v, len) = if single(u) {
                (u, 1)
            } else {
                let joined = pair.filter(|_| b == 2).and_then(|p| {
                    let (top, _) = p.units(p.hi);
                    let l = read(at + 1)?;
                    let ok = (p.high..=top).contains(&u) && (p.low..p.low + (1 << p.low_bits)).contains(&l);
                    let v = ok.then(|| ((u - p.high) << p.low_bits | (l - p.low)) + p.bias)?;
                    (p.lo..=p.hi).contains(&v).then_some(v)
                });
                match joined {
                    Some(v) => (v, 2),
                    None => break,
                }
            };
            let Some(bytes) = forms.units(v) else { break };
            out.extend(bytes);
            at += len;
        }
        (at * b, out)
    }

    /// Random values, mostly of the given bit widths, now and then a lone
    /// surrogate or a value past U+10FFFF, as code units.
    fn text(seed: u64, widths: &[u32], units: &Units, count: usize) -> Vec<u8> {
        let mut x = seed;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut out = Vec::new();
        let put = |u: u32, out: &mut Vec<u8>| match (units.bytes, units.big_endian) {
            (2, false) => out.extend((u as u16).to_le_bytes()),
            (2, true) => out.extend((u as u16).to_be_bytes()),
            (_, false) => out.extend(u.to_le_bytes()),
            (_, true) => out.extend(u.to_be_bytes()),
        };
        for _ in 0..count {
            let r = next();
            let v = match r % 500 {
                0 => 0xD800 + (r >> 20) as u32 % 0x800,
                1 => 0x11_0000 + (r >> 20) as u32 % 0x100,
                _ => {
                    let w = widths[(r >> 9) as usize % widths.len()];
                    (r >> 24) as u32 & ((1 << w) - 1)
                }
            };
            match char::from_u32(v).filter(|_| units.bytes == 2) {
                Some(c) => c.encode_utf16(&mut [0; 2]).iter().for_each(|&u| put(u32::from(u), &mut out)),
                None => put(v, &mut out),
            }
        }
        out
    }

    #[test]
    fn the_kernel_agrees_with_the_definition_for_every_source_and_target() {
        let Some(isa) = Isa::detect() else { return };
        let scalar = [(0, 0xD7FF), (0xE000, 0x10_FFFF)];
        let bmp = [(0, 0xD7FF), (0xE000, 0xFFFF)];
        let targets = [
            utf8_like(4, 0, scalar),
            utf8_like(3, 0, bmp),
            utf8_like(4, 1, scalar),
            utf8_like(2, 0x20, [(0, u32::MAX); 2]),
            ByteForms {
                lengths: 1,
                first: 0,
                last: [0xFF, 0, 0, 0],
                lead: [0; 4],
                continuation: 0,
                allowed: [(0, 0xFF); 2],
            },
        ];
        let mixes: [&[u32]; 5] = [&[7], &[11], &[16], &[21], &[7, 7, 7, 11, 16, 21]];
        for (t, forms) in targets.iter().enumerate() {
            for (bytes, single) in [(2, bmp), (4, scalar)] {
                for big_endian in [false, true] {
                    let units = Units { bytes, big_endian, single };
                    for (m, widths) in mixes.iter().enumerate() {
                        let input = text(m as u64 + 3, widths, &units, 2000);
                        for skip in [0, 1, 3] {
                            let input = &input[skip * bytes..];
                            let mut out = vec![5];
                            let taken = encode_from_units(isa, &units, Some(&UTF16), forms, input, &mut out);
                            // It stops exactly at the first unit it cannot
                            // convert (a pair's first unit there), or at the end.
                            let (stop, _) = reference(&units, Some(&UTF16), forms, input);
                            let prefix = reference(&units, Some(&UTF16), forms, &input[..taken]);
                            let case = format!("target {t}, {bytes} bytes, big {big_endian}, mix {m}, skip {skip}");
                            crate::shared::check_run(isa, taken, &out, prefix, stop, &case);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_pair_cut_by_the_end_of_the_input_is_left() {
        let Some(isa) = Isa::detect() else { return };
        let forms = utf8_like(4, 0, [(0, 0xD7FF), (0xE000, 0x10_FFFF)]);
        let units = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
        for len in 1..80 {
            // `len` letters, then the first half of a pair.
            let mut input: Vec<u8> = "é".repeat(len).encode_utf16().flat_map(u16::to_le_bytes).collect();
            input.extend(0xD83Du16.to_le_bytes());
            let mut out = Vec::new();
            let taken = encode_from_units(isa, &units, Some(&UTF16), &forms, &input, &mut out);
            let want = if isa == Isa::Avx512 { 2 * len } else { 0 };
            assert_eq!((taken, out.len()), (want, want), "{len} letters");
        }
    }

    #[test]
    fn any_input_is_converted_within_bounds() {
        let Some(isa) = Isa::detect() else { return };
        let forms = utf8_like(4, 0, [(0, 0xD7FF), (0xE000, 0x10_FFFF)]);
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut bytes: Vec<u8> = (0..5000).map(|_| 0x20).collect();
        for round in 0..300 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let at = (x >> 33) as usize % bytes.len();
            bytes[at] = (x >> 20) as u8;
            for (width, single) in [(2, [(0, 0xD7FF), (0xE000, 0xFFFF)]), (4, [(0, 0xD7FF), (0xE000, 0x10_FFFF)])] {
                let units = Units { bytes: width, big_endian: round % 2 == 0, single };
                let mut out = Vec::new();
                let taken = encode_from_units(isa, &units, Some(&UTF16), &forms, &bytes, &mut out);
                assert!(taken <= bytes.len() && out.len() <= 2 * taken, "round {round}");
            }
        }
    }
}
