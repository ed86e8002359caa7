//! The AVX-512 kernel's step for text of short forms: thirty-two code units
//! in 16-bit lanes (32-bit units packed, where all are below 10000), when
//! every one is a single unit that the target writes in at most three bytes
//! (Cyrillic, Greek, Hebrew, Arabic, CJK, … into UTF-8) or, from 16-bit
//! units, half of a pair it writes in four. The lengths come from two
//! comparisons; the lead unit and the continuation units are made for all
//! lanes at once and packed by one byte compress (two for three-byte forms,
//! sixteen lanes each, through a two-table byte permutation that lays each
//! unit's three bytes side by side). Thirty-two ASCII units are narrowed
//! without any of it, and where every unit up to the last value of two
//! bytes is a single unit, a window of nothing above it (Cyrillic, Greek,
//! … with ASCII) is checked by one comparison and written by one compress,
//! without the tests of single units and pairs.
//!
//! The steps run in a loop of their own (`Short::run`) while they take
//! their windows, so the kernel's other steps cost nothing there, and store
//! whole vectors (a masked store costs more on this machine kind): the bytes
//! past those a step writes are written over by the next step, and a step
//! writes only where it takes at least 31 units, room for all it stores.

use core::arch::x86_64::*;

use super::ByteForms;
use crate::shared::Range16;
use crate::{Pair, Units};

/// What the step needs, as vectors.
pub(super) struct Short {
    /// Each unit's bytes reversed, for big-endian sources.
    swap: Option<__m512i>,
    /// 2 or 4: 32-bit units are packed into 16-bit lanes where all fit.
    bytes: usize,
    /// Thirty-two units at most 7F are narrowed as they are.
    ascii: bool,
    /// The units the step takes ([`short_units`]): up to four ranges, the
    /// first repeated in place of those missing; whether there are more than two.
    take: [Range16; 4],
    more: bool,
    /// The greatest value of lengths 1 and 2 (`FFFF` past the forms).
    last: [__m512i; 2],
    /// Whether the step takes every unit up to the greatest value of two
    /// units as a single unit ([`Short::write_two`]).
    up_to_two: bool,
    /// Each length's lead base.
    lead: [__m512i; 3],
    continuation: __m512i,
    /// The byte permutations of the two halves' three-unit layouts ([`TRIPLES`]).
    triples: [__m512i; 2],
    /// The pairs the step takes, where every pair the source reads is a
    /// value the forms write in four units.
    pairs: Option<Halves>,
}

/// A pair's two units written two bytes each: the first unit's lead and
/// first digit from its high bits `h` (the unit less `base`, which also
/// adds the bias), the second unit's two digits from the last `12 −
/// low_bits` bits of `h` and its own `low_bits`.
struct Halves {
    high: Range16,
    low: Range16,
    base: __m512i,
    low_base: __m512i,
    lead: __m512i,
    /// `18 − low_bits`, `12 − low_bits` and `low_bits − 6`.
    shifts: [__m128i; 3],
    /// Each lane's unit comes from the lane before it.
    before: __m512i,
}

impl Short {
    /// The step's constants for a source of 16- or 32-bit `units`
    /// (normalised) and usable `forms`; `None` when no unit qualifies.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    pub(super) fn new(units: &Units, pair: Option<&Pair>, forms: &ByteForms) -> Option<Short> {
        let take = short_units(units, forms);
        // (No unit qualifies without a first range.)
        take[0]?;
        let n = usize::from(forms.lengths);
        let last = |k: usize| _mm512_set1_epi16(if k < n { forms.last[k].min(0xFFFF) as u16 as i16 } else { -1 });
        let covers = |ranges: &[(u32, u32)]| ranges.iter().any(|&(lo, hi)| lo == 0 && hi >= 0x7F);
        let swap: [u8; 16] = match units.bytes {
            2 => [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14],
            _ => [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12],
        };
        Some(Short {
            // SAFETY: 16 readable bytes.
            swap: units.big_endian.then(|| _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(swap.as_ptr().cast()) })),
            bytes: units.bytes,
            ascii: forms.first == 0
                && forms.last[0] >= 0x7F
                && forms.lead[0] == 0
                && covers(&units.single)
                && covers(&forms.allowed),
            take: take.map(|r| Range16::new(r.or(take[0]).unwrap_or_default())),
            more: take[2].is_some(),
            last: [last(0), last(1)],
            up_to_two: n >= 2
                && forms.last[1] <= 0xFFFF
                && take.iter().flatten().any(|&(lo, hi)| lo == 0 && hi >= forms.last[1]),
            lead: [0, 1, 2].map(|k| _mm512_set1_epi16(i16::from(forms.lead[k]))),
            continuation: _mm512_set1_epi16(i16::from(forms.continuation)),
            triples: TRIPLES.map(|t| vector(&t)),
            pairs: pair.filter(|p| units.bytes == 2 && halves_apply(p, forms)).map(|p| Halves::new(p, forms)),
        })
    }

    /// The steps from byte `i` of `input`, written from byte `w` of `out`,
    /// while a step takes units and 34 units remain: where they end.
    ///
    /// A step that writes takes at least 31 of its 32 units and stores whole
    /// vectors: up to 112 bytes from where it writes, past the bytes it
    /// writes (the next step, or the caller, writes over them).
    ///
    /// # Safety
    /// The machine must have AVX-512 F/BW/VL/VBMI/VBMI2 and BMI2; `w <= 2 *
    /// i`; `out` be valid for writes of 112 bytes past `out + w` wherever a
    /// step takes 31 units from `i` (so `2 * input.len()` bytes will do:
    /// `2 * (i + 68) - w >= 136` where a step runs).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    pub(super) unsafe fn run(&self, input: &[u8], (mut i, mut w): (usize, usize), out: *mut u8) -> (usize, usize) {
        let b = self.bytes;
        while i + 34 * b <= input.len() {
            // SAFETY: 32 units readable from `i`; 112 bytes writable at `out
            // + w` where the step writes (the caller's guarantee), and `w`
            // grows by at most three bytes per unit of at least two.
            match unsafe { self.step(input.as_ptr().add(i), out.add(w)) } {
                Some((lanes, wrote)) => (i, w) = (i + lanes * b, w + wrote),
                None => break,
            }
        }
        (i, w)
    }

    /// Thirty-two units at `p`, written at `out` if every one is a unit the
    /// step takes, or half of a pair it takes (the first half of a pair in
    /// the last lane is left): the units taken and the bytes written, at
    /// most three per unit.
    ///
    /// # Safety
    /// The machine must have AVX-512 F/BW/VL/VBMI/VBMI2 and BMI2; 32 units
    /// readable at `p`; `out .. out + 112` writable where the step takes 31
    /// units or more (it writes nothing otherwise).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    unsafe fn step(&self, p: *const u8, out: *mut u8) -> Option<(usize, usize)> {
        // SAFETY: the caller's guarantee.
        let v = unsafe { self.load(p)? };
        if self.ascii && _mm512_cmpgt_epu16_mask(v, _mm512_set1_epi16(0x7F)) == 0 {
            // SAFETY: the caller's guarantee.
            unsafe { _mm256_storeu_si256(out.cast(), _mm512_cvtepi16_epi8(v)) };
            return Some((32, 32));
        }
        if self.up_to_two && _mm512_cmpgt_epu16_mask(v, self.last[1]) == 0 {
            // SAFETY: the caller's guarantee.
            return Some((32, unsafe { self.write_two(v, out) }));
        }
        let mut single = self.take[0].holds(v) | self.take[1].holds(v);
        if self.more {
            single |= self.take[2].holds(v) | self.take[3].holds(v);
        }
        if single == u32::MAX {
            // SAFETY: the caller's guarantee.
            return Some((32, unsafe { self.write(v, u32::MAX, 0, out) }));
        }
        let (lanes, firsts) = self.pairs.as_ref()?.firsts(v, single)?;
        // SAFETY: the caller's guarantee.
        Some((lanes, unsafe { self.write(v, u32::MAX >> (32 - lanes), firsts, out) }))
    }

    /// The 32 units at `p` in 16-bit lanes; `None` for 32-bit units of
    /// which one passes FFFF.
    ///
    /// # Safety
    /// 32 units readable at `p`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    unsafe fn load(&self, p: *const u8) -> Option<__m512i> {
        let swap = |x: __m512i| self.swap.map_or(x, |s| _mm512_shuffle_epi8(x, s));
        // SAFETY (both branches): 64 or 128 bytes readable, the caller's guarantee.
        if self.bytes == 2 {
            return Some(swap(unsafe { _mm512_loadu_si512(p.cast()) }));
        }
        let (lo, hi) = unsafe { (swap(_mm512_loadu_si512(p.cast())), swap(_mm512_loadu_si512(p.add(64).cast()))) };
        let top = _mm512_set1_epi32(0xFFFF);
        if _mm512_cmpgt_epu32_mask(lo, top) | _mm512_cmpgt_epu32_mask(hi, top) != 0 {
            return None;
        }
        Some(_mm512_inserti64x4::<1>(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(lo)), _mm512_cvtepi32_epi16(hi)))
    }

    /// Writes the 32 units of `v`, each a single unit of one or two bytes
    /// (`up_to_two`), at `out`: the bytes written. The one-unit values' last
    /// digit is dropped by the compress.
    ///
    /// # Safety
    /// `out .. out + 64` writable.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    unsafe fn write_two(&self, v: __m512i, out: *mut u8) -> usize {
        let two = _mm512_cmpgt_epu16_mask(v, self.last[0]);
        let lead =
            _mm512_mask_add_epi16(_mm512_add_epi16(self.lead[0], v), two, self.lead[1], _mm512_srli_epi16::<6>(v));
        let pairs = _mm512_or_si512(
            _mm512_and_si512(lead, _mm512_set1_epi16(0xFF)),
            _mm512_slli_epi16::<8>(digit(self.continuation, v)),
        );
        let keep = 0x5555_5555_5555_5555 | _pdep_u64(u64::from(two), 0xAAAA_AAAA_AAAA_AAAA);
        // SAFETY: 64 bytes, the caller's guarantee.
        unsafe { store(out, keep, pairs) }
    }

    /// Writes the lanes `kept` of `v` at `out`, `firsts` the lanes that
    /// start a pair, the others single units: the bytes written.
    ///
    /// # Safety
    /// `out .. out + 112` writable.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    unsafe fn write(&self, v: __m512i, kept: u32, firsts: u32, out: *mut u8) -> usize {
        let paired = firsts | firsts << 1;
        let two = (_mm512_cmpgt_epu16_mask(v, self.last[0]) | paired) & kept;
        let three = _mm512_cmpgt_epu16_mask(v, self.last[1]) & !paired & kept;
        let mut low = digit(self.continuation, v);
        // The lead: each length's base plus the value's top bits.
        let lead = _mm512_add_epi16(self.lead[0], v);
        let lead = _mm512_mask_add_epi16(lead, two, self.lead[1], _mm512_srli_epi16::<6>(v));
        let mut lead = _mm512_mask_add_epi16(lead, three, self.lead[2], _mm512_srli_epi16::<12>(v));
        if let (Some(h), true) = (&self.pairs, firsts != 0) {
            (lead, low) = h.bytes(v, firsts, (lead, low), self.continuation);
        }
        let lead = _mm512_and_si512(lead, _mm512_set1_epi16(0xFF));
        if three == 0 {
            // Lead and last digit side by side; a one-unit value's digit dropped.
            let pairs = _mm512_or_si512(lead, _mm512_slli_epi16::<8>(low));
            let keep =
                _pdep_u64(u64::from(kept), 0x5555_5555_5555_5555) | _pdep_u64(u64::from(two), 0xAAAA_AAAA_AAAA_AAAA);
            // SAFETY: 64 bytes, the caller's guarantee.
            return unsafe { store(out, keep, pairs) };
        }
        // Lead and middle digit (the last one for two-unit values), then
        // the last digit of three-unit values, in sixteen lanes at a time.
        let middle = _mm512_mask_mov_epi16(low, three, digit(self.continuation, _mm512_srli_epi16::<6>(v)));
        let pairs = _mm512_or_si512(lead, _mm512_slli_epi16::<8>(middle));
        let mut wrote = 0;
        for half in 0..2 {
            let part = |m: u32| u64::from((m >> (16 * half)) as u16);
            let bytes = _mm512_permutex2var_epi8(pairs, self.triples[half], low);
            let keep =
                _pdep_u64(part(kept), FIRST) | _pdep_u64(part(two), FIRST << 1) | _pdep_u64(part(three), FIRST << 2);
            // SAFETY: 64 bytes after the `wrote <= 48` before, within 112.
            wrote += unsafe { store(out.add(wrote), keep, bytes) };
        }
        wrote
    }
}

/// The continuation units of the last six bits of each lane of `bits`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
#[inline]
fn digit(continuation: __m512i, bits: __m512i) -> __m512i {
    _mm512_add_epi16(continuation, _mm512_and_si512(bits, _mm512_set1_epi16(63)))
}

impl Halves {
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    fn new(p: &Pair, forms: &ByteForms) -> Halves {
        let bits = i32::from(p.low_bits);
        Halves {
            high: Range16::new(p.high_units()),
            low: Range16::new(p.low_units()),
            base: _mm512_set1_epi16(p.high.wrapping_sub(p.bias >> p.low_bits) as u16 as i16),
            low_base: _mm512_set1_epi16(p.low as u16 as i16),
            lead: _mm512_set1_epi16(i16::from(forms.lead[3])),
            shifts: [18 - bits, 12 - bits, bits - 6].map(|n| _mm_cvtsi32_si128(n)),
            before: vector(&BEFORE),
        }
    }

    /// The lanes that start a pair, with how many lanes the step takes: 32,
    /// or 31 when the last is the first half of a pair; `None` if another
    /// lane is neither a single unit (`single`) nor half of a pair.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    fn firsts(&self, v: __m512i, single: u32) -> Option<(usize, u32)> {
        let (high, low) = (self.high.holds(v) & !single, self.low.holds(v) & !single);
        let firsts = high & low >> 1;
        match single | firsts | firsts << 1 {
            u32::MAX => Some((32, firsts)),
            m if m == u32::MAX >> 1 && high >> 31 == 1 => Some((31, firsts)),
            _ => None,
        }
    }

    /// `lead` and `low` with the pairs' lanes (`firsts` and the lanes after
    /// them) made: each half of a pair writes two of its value's four units.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    fn bytes(&self, v: __m512i, firsts: u32, (lead, low): (__m512i, __m512i), cont: __m512i) -> (__m512i, __m512i) {
        let digit = |x: __m512i| digit(cont, x);
        // The first half: the value's top bits `h`, its lead and first digit.
        let h = _mm512_sub_epi16(v, self.base);
        let lead = _mm512_mask_add_epi16(lead, firsts, self.lead, _mm512_srl_epi16(h, self.shifts[0]));
        let low = _mm512_mask_mov_epi16(low, firsts, digit(_mm512_srl_epi16(h, self.shifts[1])));
        // The second half: the last bits of the first half's `h`, then its own.
        let own = _mm512_sub_epi16(v, self.low_base);
        let before = _mm512_permutexvar_epi16(self.before, h);
        let third = _mm512_or_si512(_mm512_sll_epi16(before, self.shifts[2]), _mm512_srli_epi16::<6>(own));
        let seconds = firsts << 1;
        (_mm512_mask_mov_epi16(lead, seconds, digit(third)), _mm512_mask_mov_epi16(low, seconds, digit(own)))
    }
}

/// Whether the step may take `p`'s pairs into `forms`: every pair of a
/// first and a second unit is a value of the pair, which the forms accept
/// and write in four units; the bias leaves the second unit's bits alone;
/// the second unit carries 6 to 12 bits (its value's last digit and part of
/// the one before, the first unit the rest); the two halves' units differ.
fn halves_apply(p: &Pair, forms: &ByteForms) -> bool {
    let bits = u32::from(p.low_bits);
    if !(6..=12).contains(&bits) || p.bias & ((1 << bits) - 1) != 0 || forms.lengths != 4 {
        return false;
    }
    let (top, _) = p.units(p.hi);
    let low_top = p.low + ((1 << bits) - 1);
    let (least, most) = (p.bias, ((top - p.high) << bits | ((1 << bits) - 1)) + p.bias);
    p.lo <= least
        && most <= p.hi
        && forms.last[2] < least
        && most <= forms.last[3]
        && forms.allowed.iter().any(|&(lo, hi)| lo <= least && most <= hi)
        && (top < p.low || low_top < p.high)
}

/// The bits `3k` for `k` in `0..16`: the first byte of each unit's three.
const FIRST: u64 = {
    let (mut bits, mut k) = (0, 0);
    while k < 16 {
        bits |= 1 << (3 * k);
        k += 1;
    }
    bits
};

/// For the sixteen units from unit `16h` (half `h`) laid out three bytes
/// each, where each byte comes from in a pair of tables: the unit's lead and
/// middle digit from the first (bytes `2k`, `2k + 1`), its last digit from
/// the second (byte `64 + 2k`).
const TRIPLES: [[u8; 64]; 2] = {
    let mut index = [[0u8; 64]; 2];
    let mut j = 0;
    while j < 96 {
        let (half, at) = (j / 48, j % 48);
        let (k, b) = (16 * half + at / 3, at % 3);
        index[half][at] = if b < 2 { (2 * k + b) as u8 } else { (64 + 2 * k) as u8 };
        j += 1;
    }
    index
};

/// Each 16-bit lane's index of the lane before it (lane 0: itself).
const BEFORE: [u16; 32] = {
    let mut index = [0u16; 32];
    let mut k = 1;
    while k < 32 {
        index[k] = k as u16 - 1;
        k += 1;
    }
    index
};

/// The 64 bytes at `bytes` as a vector.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
fn vector<T>(bytes: &[T]) -> __m512i {
    assert_eq!(core::mem::size_of_val(bytes), 64);
    // SAFETY: 64 readable bytes.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// Packs the bytes `keep` of `bytes` at `out`: how many. The whole vector is
/// stored (a masked store costs more), the bytes past those packed left for
/// the next step to write over.
///
/// # Safety
/// `out .. out + 64` writable.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
#[inline]
unsafe fn store(out: *mut u8, keep: u64, bytes: __m512i) -> usize {
    // SAFETY: the caller's guarantee.
    unsafe { _mm512_storeu_si512(out.cast(), _mm512_maskz_compress_epi8(keep, bytes)) };
    keep.count_ones() as usize
}

/// The 16-bit code units that are single units, which `forms` writes in at
/// most three units and accepts: the units the step takes (up to four
/// ranges, inclusive; `None` past the count).
pub(super) fn short_units(units: &Units, forms: &ByteForms) -> [Option<(u32, u32)>; 4] {
    let longest = usize::from(forms.lengths).min(3);
    let top = forms.last[longest - 1].min(0xFFFF);
    let mut found = [None; 4];
    let mut n = 0;
    for s in units.single {
        for a in forms.allowed {
            let range = (s.0.max(a.0).max(forms.first), s.1.min(a.1).min(top));
            if range.0 <= range.1 && !found[..n].contains(&Some(range)) {
                found[n] = Some(range);
                n += 1;
            }
        }
    }
    found
}
