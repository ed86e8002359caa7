//! The AVX2 window of the one-pass kernel into code units (`x86.rs`'s sink)
//! for text of short sequences: sixty-four units whose sequences have one to
//! three units each and values of at most sixteen bits (ASCII, Cyrillic,
//! Greek, CJK, … in the UTF-8 family), decoded sixteen units at a time in
//! the 16-bit lanes of a 32-byte vector, at every unit at once, and packed
//! at the sequences' leads by a byte shuffle per eight lanes. It is the
//! AVX-512 window of `short.rs` for machines without AVX-512 VBMI2, whose
//! compress it does by table, and it spares the 16-byte decoding kernel its
//! steps of four values, each waiting on the table lookup of the one before.
//!
//! At unit `j`, with `a`, `b`, `c` the units `j`, `j + 1`, `j + 2`, the
//! value of a sequence of `n` units that starts there is, by the shape,
//! `(a − lead_base[n]) · 64^(n−1)` plus `b − first` (for `n ≥ 2`) times
//! `64^(n−2)`, plus `c − first` (for `n = 3`). Whether `b` and `c` are
//! continuations picks `n`. The arithmetic is exact only where the lead's
//! share fits (below 256, 1024 and 16 for one, two and three units), and a
//! value is written only where the target writes it as one unit of itself:
//! where a lead fails either, or a sequence has four units or more, the
//! window is left to the decoding kernel's steps.

use core::arch::x86_64::*;

use super::lanes::Target;
use super::marks::Marks;
use super::short::MOST_SHARE;
use crate::shared::ONES;
use crate::Shape;

/// For each set of eight 16-bit lanes (bit `k` for lane `k`), the byte
/// shuffle that packs those lanes' words to the front.
static PACK: [[u8; 16]; 256] = pack();

const fn pack() -> [[u8; 16]; 256] {
    let mut table = [[0x80u8; 16]; 256];
    let mut set = 0;
    while set < 256 {
        let (mut lane, mut at) = (0, 0);
        while lane < 8 {
            if set >> lane & 1 == 1 {
                table[set][at] = 2 * lane as u8;
                table[set][at + 1] = 2 * lane as u8 + 1;
                at += 2;
            }
            lane += 1;
        }
        set += 1;
    }
    table
}

/// A range test in 16-bit lanes: low end and width.
type Range = (__m256i, __m256i);

/// What the window needs of the shape and the target, as vectors.
pub(super) struct ShortAvx2 {
    /// `lead_base[1..=3]`, and the most each length's share may be.
    lead: [__m256i; 3],
    most: [__m256i; 3],
    /// The first continuation unit and the continuation units' span.
    first: __m256i,
    span: __m256i,
    /// The target's single units below 10000, where not every 16-bit value
    /// is one.
    single: Option<[Range; 2]>,
    /// Each code unit's bytes reversed, for a big-endian target.
    swap: Option<__m256i>,
    /// 32-bit units (else 16-bit).
    wide: bool,
    /// Bit `k` of lane `k`.
    bits: __m256i,
}

impl ShortAvx2 {
    /// The window's constants for `shape` into `target`, a width of 2 or 4.
    #[target_feature(enable = "avx2")]
    pub(super) fn new(shape: &Shape, target: &Target) -> ShortAvx2 {
        let set = |x: u32| _mm256_set1_epi16(x as u16 as i16);
        let (first, last) = shape.continuation;
        let range = |(lo, hi): (u32, u32)| (set(lo), set(hi.min(0xFFFF).wrapping_sub(lo)));
        let single = match target.single.map(|(lo, hi)| (lo <= 0xFFFF && lo <= hi).then_some((lo, hi))) {
            _ if target.single.iter().any(|&(lo, hi)| lo == 0 && hi >= 0xFFFF) => None,
            [Some(a), Some(b)] => Some([range(a), range(b)]),
            [Some(r), None] | [None, Some(r)] => Some([range(r); 2]),
            // No 16-bit value is a single unit: every lead fails the test.
            [None, None] => Some([range((1, 0)); 2]),
        };
        let swap: [u8; 32] = core::array::from_fn(|k| (k ^ (target.bytes - 1)) as u8);
        ShortAvx2 {
            lead: [1, 2, 3].map(|n| set(u32::from(shape.lead_base[n]))),
            most: MOST_SHARE.map(set),
            first: set(u32::from(first)),
            span: set(u32::from(last - first)),
            single,
            // SAFETY: 32 readable bytes.
            swap: target.big_endian.then(|| unsafe { _mm256_loadu_si256(swap.as_ptr().cast()) }),
            wide: target.bytes == 4,
            bits: _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, i16::MIN),
        }
    }

    /// Converts the sequences that end in the window of 64 units at `p`
    /// (`leads` its units that are no continuation, `next_is_lead` whether
    /// the unit after it is one), if each has one to three units and a value
    /// that the target writes as one unit of itself: the units taken and the
    /// bytes written; `None` leaves the window to the caller.
    ///
    /// # Safety
    /// The machine must have AVX2; `p .. p + 66` readable; `out` writable
    /// for 2 (16-bit units) or 4 bytes (32-bit) per unit of the window and
    /// 32 more.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn window(
        &self,
        p: *const u8,
        leads: u64,
        next_is_lead: bool,
        out: *mut u8,
    ) -> Option<(usize, usize)> {
        let marks = Marks::of(leads, next_is_lead).filter(|m| !m.longer_than(3))?;
        let mut values = [_mm256_setzero_si256(); 4];
        for (k, v) in values.iter_mut().enumerate() {
            let taken = (marks.taken >> (16 * k)) as u16;
            // SAFETY: `p + 16k + 2 .. + 16` within the 66 units readable.
            *v = unsafe { self.sixteen(p.add(16 * k), taken) }?;
        }
        let mut wrote = 0;
        for (k, v) in values.into_iter().enumerate() {
            let taken = (marks.taken >> (16 * k)) as u16;
            // SAFETY: at most the bytes of one unit per unit of the window
            // before (`wrote`), and 32 past them, within the caller's room.
            wrote += unsafe { self.store(v, taken, out.add(wrote)) };
        }
        Some((marks.took, wrote))
    }

    /// The values of the sixteen units at `p` as leads (each lane's length
    /// picked by whether the units after it are continuations), or `None`
    /// where a lead of `taken` fails the arithmetic or the target.
    ///
    /// # Safety
    /// The machine must have AVX2; `p .. p + 18` readable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn sixteen(&self, p: *const u8, taken: u16) -> Option<__m256i> {
        // SAFETY: 16 units at `p`, `p + 1` and `p + 2`, within the 18.
        let [a, b, c] = [0, 1, 2].map(|k| _mm256_cvtepu8_epi16(unsafe { _mm_loadu_si128(p.add(k).cast()) }));
        let (b, c) = (_mm256_sub_epi16(b, self.first), _mm256_sub_epi16(c, self.first));
        let at_most = |x: __m256i, most: __m256i| _mm256_cmpeq_epi16(_mm256_min_epu16(x, most), x);
        let two = at_most(b, self.span);
        let three = _mm256_and_si256(two, at_most(c, self.span));
        let share = self.lead.map(|base| _mm256_sub_epi16(a, base));
        let pick = |x: [__m256i; 3]| _mm256_blendv_epi8(_mm256_blendv_epi8(x[0], x[1], two), x[2], three);
        let bc = _mm256_add_epi16(_mm256_slli_epi16::<6>(b), c);
        let v = pick([
            share[0],
            _mm256_add_epi16(_mm256_slli_epi16::<6>(share[1]), b),
            _mm256_add_epi16(_mm256_slli_epi16::<12>(share[2]), bc),
        ]);
        let chosen = pick(share);
        let mut good = at_most(chosen, pick(self.most));
        if let Some([r, s]) = self.single {
            let within = |(lo, width): Range| at_most(_mm256_sub_epi16(v, lo), width);
            good = _mm256_and_si256(good, _mm256_or_si256(within(r), within(s)));
        }
        let kept = _mm256_and_si256(_mm256_set1_epi16(taken as i16), self.bits);
        let kept = _mm256_cmpeq_epi16(kept, self.bits);
        // Every kept lane good.
        (_mm256_testc_si256(good, kept) == 1).then_some(v)
    }

    /// Writes the lanes `taken` of `v` as code units: the bytes written.
    ///
    /// # Safety
    /// The machine must have AVX2; `out` writable for the bytes of one code
    /// unit per lane taken, and 32 more (whole vectors are stored).
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn store(&self, v: __m256i, taken: u16, out: *mut u8) -> usize {
        let (lo, hi) = (usize::from(taken as u8), usize::from(taken >> 8));
        // SAFETY: rows of 16 bytes.
        let rows =
            unsafe { _mm256_loadu2_m128i(PACK[hi].as_ptr().cast::<__m128i>(), PACK[lo].as_ptr().cast::<__m128i>()) };
        let packed = _mm256_shuffle_epi8(v, rows);
        let (n_lo, n_hi) = (usize::from(ONES[lo]), usize::from(ONES[hi]));
        let halves = [_mm256_castsi256_si128(packed), _mm256_extracti128_si256::<1>(packed)];
        let unit = if self.wide { 4 } else { 2 };
        let mut at = 0;
        for (half, n) in halves.into_iter().zip([n_lo, n_hi]) {
            // SAFETY: 16 or 32 bytes at `at`, the bytes of the lanes written
            // before: within the caller's room.
            unsafe {
                if self.wide {
                    let units = _mm256_cvtepu16_epi32(half);
                    let units = self.swap.map_or(units, |s| _mm256_shuffle_epi8(units, s));
                    _mm256_storeu_si256(out.add(at).cast(), units);
                } else {
                    let units = self.swap.map_or(half, |s| _mm_shuffle_epi8(half, _mm256_castsi256_si128(s)));
                    _mm_storeu_si128(out.add(at).cast(), units);
                }
            }
            at += unit * n;
        }
        at
    }
}
