//! The AVX-512 kernel's window into 16-bit units for text of short
//! sequences: sixty-four units whose sequences have one to three units each
//! and values of at most sixteen bits (ASCII, Cyrillic, Greek, CJK, … in
//! UTF-8), decoded in 16-bit lanes at every unit at once and compressed at
//! the sequences' leads. (Into 32-bit units, `quarters.rs` reads sequences
//! of up to four units in 32-bit lanes.)
//!
//! At unit `j`, with `a`, `b`, `c` the units `j`, `j + 1`, `j + 2`, the value
//! of a sequence of `n` units that starts there is, by the shape,
//! `(a − lead_base[n]) · 64^(n−1)` plus `b − first` (for `n ≥ 2`) times
//! `64^(n−2)`, plus `c − first` (for `n = 3`). The three candidates are made
//! for every lane in 16-bit arithmetic; each sequence's length picks one
//! (from the continuation units after its lead), and one compress per half
//! keeps the leads' lanes. The arithmetic is exact only where the lead's
//! share fits (below 256, 1024 and 16 for one, two and three units), and a
//! value is written only where the target writes it as one unit of itself:
//! where a lane fails either, the window is left to the kernel's general path.

use core::arch::x86_64::*;

use super::marks::Marks;
use crate::shared::Range16;
use crate::{Pair, Shape, Units};

/// The most a lead's share (`a − lead_base[n]`) may be for a sequence of
/// one, two and three units, for its value to be exact in 16 bits (the
/// windows that decode in 16-bit lanes: this one, and `short_avx2.rs`).
pub(super) const MOST_SHARE: [u32; 3] = [255, 1023, 15];

/// Byte `k` of the vector is `k`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
fn iota() -> __m512i {
    let bytes: [u8; 64] = core::array::from_fn(|k| k as u8);
    // SAFETY: 64 readable bytes.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// What the window needs of the shape and the target, as vectors.
pub(super) struct Short {
    /// `lead_base[1..=3]` and the first continuation unit, in 16-bit lanes.
    lead: [__m512i; 3],
    first: __m512i,
    /// The target's single units below 10000 (one range repeated where the
    /// other has none there; both `None` where neither has).
    single: Option<[Range16; 2]>,
    /// Whether the target writes every 16-bit value as one unit of itself
    /// (no value needs checking).
    every: bool,
    /// Each code unit's bytes reversed, for big-endian units.
    swap: Option<__m512i>,
    /// Byte `k` of a vector picks byte `k + 1`.
    next: __m512i,
    /// Four-unit sequences as pairs, for a 16-bit target with one.
    quads: Option<Quads>,
}

/// A 16-bit lane's view of one half of the window: its units, the units one
/// and two places on, and the masks of the half's leads by length, with the
/// lanes after the leads of four units (where a pair's second unit goes).
struct Half {
    a: __m512i,
    b: __m512i,
    c: __m512i,
    one: u32,
    two: u32,
    three: u32,
    four: u32,
    seconds: u32,
}

impl Half {
    /// The lanes that write a code unit.
    fn written(&self) -> u32 {
        self.one | self.two | self.three | self.four | self.seconds
    }
}

/// Sequences of four units written as a pair of 16-bit units: the lead's
/// lane writes the first (the value's bits above the pair's `low_bits`, from
/// the units `a`, `b`, `c`), the lane after it the second (the low bits,
/// from its own `b` and `c`, the sequence's last two units).
struct Quads {
    lead: __m512i,
    /// The values' high bits the pair takes, and what each is written as less.
    high: Range16,
    high_base: __m512i,
    low_base: __m512i,
    /// `18 − low_bits`, `12 − low_bits` and `low_bits − 6`.
    shifts: [__m128i; 3],
    /// The bits of the third unit that go to the second code unit.
    mask: __m512i,
    /// The lead's share must be below this for the high bits to fit.
    share: __m512i,
}

impl Short {
    /// The window's constants for `shape` into `units` (normalised, of 2
    /// bytes); `swap` reverses each unit's bytes for a big-endian target.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    pub(super) fn new(shape: &Shape, units: &Units, pair: Option<&Pair>, swap: Option<__m512i>) -> Short {
        let lead = [1, 2, 3].map(|n| _mm512_set1_epi16(i16::from(shape.lead_base[n])));
        Short {
            lead,
            first: _mm512_set1_epi16(i16::from(shape.continuation.0)),
            single: match units.single.map(|(lo, hi)| (lo <= 0xFFFF && lo <= hi).then_some((lo, hi))) {
                [Some(a), Some(b)] => Some([Range16::new(a), Range16::new(b)]),
                [Some(r), None] | [None, Some(r)] => Some([Range16::new(r); 2]),
                [None, None] => None,
            },
            every: units.single.iter().any(|&(lo, hi)| lo == 0 && hi >= 0xFFFF),
            swap,
            next: _mm512_add_epi8(iota(), _mm512_set1_epi8(1)),
            quads: pair.filter(|p| quads_apply(p)).map(|p| Quads::new(shape, p)),
        }
    }

    /// Converts the sequences that end in the window of 64 units at `p`
    /// (`leads` its units that are no continuation, `next_is_lead` whether
    /// the unit after it is one), if each has one to three units and a value
    /// of at most sixteen bits that the target writes as one unit, or four
    /// units and a value it writes as a pair: the units taken and the bytes
    /// written.
    ///
    /// # Safety
    /// The machine must have AVX-512 F/BW/VL/VBMI/VBMI2 and BMI2; `p .. p +
    /// 65` readable; `out` writable for four bytes per unit taken, and with
    /// `WHOLE` (which stores whole vectors) for four bytes per unit of the
    /// window.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    pub(super) unsafe fn window<const WHOLE: bool>(
        &self,
        p: *const u8,
        leads: u64,
        next_is_lead: bool,
        out: *mut u8,
    ) -> Option<(usize, usize)> {
        // The sequences that end in the window, by length.
        let most = if self.quads.is_some() { 4 } else { 3 };
        let marks = Marks::of(leads, next_is_lead).filter(|m| !m.longer_than(most))?;
        let (taken, took) = (marks.taken, marks.took);
        let [on1, on2, on3] = marks.on;
        let four = taken & on1 & on2 & on3;
        let lengths = [taken & !on1, taken & on1 & !on2, taken & on1 & on2 & !on3, four, four << 1];
        // SAFETY: 65 units readable at `p`.
        let (x, y) = unsafe { (_mm512_loadu_si512(p.cast()), _mm512_loadu_si512(p.add(1).cast())) };
        // The units two places on (the last lane's is unit 65: any will do).
        let z = _mm512_permutexvar_epi8(self.next, y);
        let halves = [self.half([x, y, z], lengths, 0), self.half([x, y, z], lengths, 1)];
        let values = [self.values(&halves[0]), self.values(&halves[1])];
        let fits = |(v, bad): (__m512i, u32), h: &Half| {
            bad == 0 && (self.every || (h.one | h.two | h.three) & !self.writes(v) == 0)
        };
        if !fits(values[0], &halves[0]) || !fits(values[1], &halves[1]) {
            return None;
        }
        let mut wrote = 0;
        for (h, (v, _)) in halves.iter().zip(values) {
            // SAFETY: at most four bytes per unit of the half taken (with
            // `WHOLE`, 64 bytes from `wrote <= 64`, within the window's 256).
            wrote += unsafe { self.store::<WHOLE>(v, h.written(), out.add(wrote)) };
        }
        Some((took, wrote))
    }

    /// Half `h` of the window: its units, those one and two places on (of
    /// `units`, the window from its first, second and third unit) and its
    /// leads by length.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    fn half(&self, units: [__m512i; 3], lengths: [u64; 5], h: usize) -> Half {
        let [one, two, three, four, seconds] = lengths.map(|m| (m >> (32 * h)) as u32);
        let wide = |x: __m512i| {
            _mm512_cvtepu8_epi16(if h == 0 { _mm512_castsi512_si256(x) } else { _mm512_extracti64x4_epi64::<1>(x) })
        };
        let [a, b, c] = units.map(wide);
        Half { a, b, c, one, two, three, four, seconds }
    }

    /// Each lead's value in the half, by its length, and the leads whose
    /// share does not fit (the arithmetic is then not exact).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    fn values(&self, h: &Half) -> (__m512i, u32) {
        let share = self.lead.map(|base| _mm512_sub_epi16(h.a, base));
        let (b, c) = (_mm512_sub_epi16(h.b, self.first), _mm512_sub_epi16(h.c, self.first));
        let two = _mm512_add_epi16(_mm512_slli_epi16::<6>(share[1]), b);
        let three = _mm512_add_epi16(_mm512_slli_epi16::<12>(share[2]), _mm512_add_epi16(_mm512_slli_epi16::<6>(b), c));
        let v = _mm512_mask_mov_epi16(share[0], h.two, two);
        let v = _mm512_mask_mov_epi16(v, h.three, three);
        let over = |x: __m512i, most: i16| _mm512_cmpgt_epu16_mask(x, _mm512_set1_epi16(most));
        let most = MOST_SHARE.map(|m| m as i16);
        let bad = over(share[0], most[0]) & h.one | over(share[1], most[1]) & h.two | over(share[2], most[2]) & h.three;
        match &self.quads {
            Some(q) if h.four | h.seconds != 0 => q.pairs(h, v, (b, c), bad),
            _ => (v, bad),
        }
    }

    /// The lanes whose value the target writes as one unit of itself.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    fn writes(&self, v: __m512i) -> u32 {
        self.single.map_or(0, |[a, b]| a.holds(v) | b.holds(v))
    }

    /// Writes the lanes `keep` of `v` as code units: the bytes written. With
    /// `WHOLE`, the whole vector is stored (a masked store costs more), the
    /// bytes past those written left for what comes next to write over.
    ///
    /// # Safety
    /// `out` writable for four bytes per lane kept; with `WHOLE`, for 64
    /// bytes.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    unsafe fn store<const WHOLE: bool>(&self, v: __m512i, keep: u32, out: *mut u8) -> usize {
        let n = keep.count_ones();
        let words = _mm512_maskz_compress_epi16(keep, v);
        let words = self.swap.map_or(words, |s| _mm512_shuffle_epi8(words, s));
        if WHOLE {
            // SAFETY: 64 bytes, the caller's guarantee.
            unsafe { _mm512_storeu_si512(out.cast(), words) };
        } else {
            let mask = if n >= 32 { u32::MAX } else { (1 << n) - 1 };
            // SAFETY: `n` words.
            unsafe { _mm512_mask_storeu_epi16(out.cast(), mask, words) };
        }
        2 * n as usize
    }
}

impl Quads {
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    fn new(shape: &Shape, p: &Pair) -> Quads {
        let bits = u32::from(p.low_bits);
        let set = |x: u32| _mm512_set1_epi16(x as u16 as i16);
        Quads {
            lead: set(u32::from(shape.lead_base[4])),
            high: Range16::new((p.lo >> bits, p.hi >> bits)),
            high_base: set(p.high.wrapping_sub(p.bias >> bits)),
            low_base: set(p.low),
            shifts: [18 - bits, 12 - bits, bits - 6].map(|n| _mm_cvtsi32_si128(n as i32)),
            mask: set((1 << (bits - 6)) - 1),
            share: set(1 << (bits - 2)),
        }
    }

    /// `v` with the lanes of four-unit sequences (`h.four`) and those after
    /// them (`h.seconds`) made, `b` and `c` the units one and two places on
    /// less the first continuation unit; `bad` with the leads whose value
    /// is no pair's, or whose lead's share does not fit.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    fn pairs(&self, h: &Half, v: __m512i, (b, c): (__m512i, __m512i), bad: u32) -> (__m512i, u32) {
        let share = _mm512_sub_epi16(h.a, self.lead);
        let top = _mm512_or_si512(
            _mm512_sll_epi16(share, self.shifts[0]),
            _mm512_or_si512(_mm512_sll_epi16(b, self.shifts[1]), _mm512_srl_epi16(c, self.shifts[2])),
        );
        let low = _mm512_or_si512(_mm512_slli_epi16::<6>(_mm512_and_si512(b, self.mask)), c);
        let v = _mm512_mask_add_epi16(v, h.four, top, self.high_base);
        let v = _mm512_mask_add_epi16(v, h.seconds, low, self.low_base);
        let wide = _mm512_cmpge_epu16_mask(share, self.share) | !self.high.holds(top);
        (v, bad | wide & h.four)
    }
}

/// Whether four-unit sequences may be written as `p`'s pairs by the
/// window: the pair's second unit carries 6 to 12 bits, and the pair's
/// values are whole blocks of them (so a value is the pair's exactly when
/// its high bits are), the bias leaving them alone.
fn quads_apply(p: &Pair) -> bool {
    let bits = u32::from(p.low_bits);
    let mask = (1u32 << bits.min(31)) - 1;
    (6..=12).contains(&bits) && p.bias & mask == 0 && p.lo & mask == 0 && p.hi & mask == mask
}
