//! The AVX-512 kernel of [`decode_to_units`](super::decode_to_units):
//! sixty-four units a window, the sequences' starts and ends compressed
//! into lists, sixteen sequences at a time gathered into 32-bit lanes; and,
//! first, the window whose lanes need no lists: into 16-bit units, where
//! every sequence has at most three units (or four, written as a pair), in
//! 16-bit lanes ([`short`](super::short)); into 32-bit units, where every
//! sequence has at most four, a quarter at a time
//! ([`quarters`](super::quarters)).

use core::arch::x86_64::*;

use super::quarters::Quarters;
use super::short::Short;
use super::Pair;
use crate::widen::avx512::widen64;
use crate::{Shape, Units};

/// What the kernel needs of the shape and the target, as vectors.
pub(super) struct Consts {
    /// The first continuation unit in every byte, and the units' span.
    first: __m512i,
    span: __m512i,
    /// The same, for the one unit after the window.
    first_unit: u8,
    span_unit: u8,
    /// `K(1..=4)` in lanes 0–3.
    bias: __m512i,
    /// The two single-unit ranges: low ends and widths.
    single: [(__m512i, __m512i); 2],
    /// The pair's range (low end, width), bias, units, low bits' mask and count.
    pair: Option<PairConsts>,
    /// Whether 64 single-unit values widen as they are (`K(1)` is 0 and
    /// every unit below 256 is a single unit of itself).
    ascii_direct: bool,
    /// Each 16-bit or 32-bit unit's bytes reversed, for big-endian units.
    swap: Option<__m512i>,
    bytes: usize,
    /// The window of the target's width that needs no lists.
    lanes: Lanes,
}

/// The window that decodes at every unit at once, by the target's width.
enum Lanes {
    /// Into 16-bit units.
    Short(Short),
    /// Into 32-bit units.
    Quarters(Quarters),
}

struct PairConsts {
    lo: __m512i,
    width: __m512i,
    bias: __m512i,
    high: __m512i,
    low: __m512i,
    mask: __m512i,
    shift: __m128i,
}

/// The kernel's constants for `shape` into `units` (normalised, a width of
/// 2 or 4) and `pair` (fitting 16 bits, only with a width of 2): made once
/// for a call's runs of the kernel, or once for a [`UnitsDecoder`](super::UnitsDecoder).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
#[inline]
pub(super) fn consts(shape: &Shape, units: &Units, pair: Option<&Pair>) -> Consts {
    let (first, last) = shape.continuation;
    let k = shape.bias();
    let range = |(lo, hi): (u32, u32)| (_mm512_set1_epi32(lo as i32), _mm512_set1_epi32(hi.wrapping_sub(lo) as i32));
    let swap16: [u8; 16] = [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14];
    let swap32: [u8; 16] = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];
    let swap = if units.bytes == 2 { swap16 } else { swap32 };
    // SAFETY: 16 readable bytes.
    let swap = units.big_endian.then(|| _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(swap.as_ptr().cast()) }));
    Consts {
        first: _mm512_set1_epi8(first as i8),
        span: _mm512_set1_epi8((last - first) as i8),
        first_unit: first,
        span_unit: last - first,
        bias: _mm512_setr_epi32(k[0] as i32, k[1] as i32, k[2] as i32, k[3] as i32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        single: units.single.map(range),
        pair: pair.map(|p| PairConsts {
            lo: _mm512_set1_epi32(p.lo as i32),
            width: _mm512_set1_epi32((p.hi - p.lo) as i32),
            bias: _mm512_set1_epi32(p.bias as i32),
            high: _mm512_set1_epi32(p.high as i32),
            low: _mm512_set1_epi32(p.low as i32),
            mask: _mm512_set1_epi32(((1u32 << p.low_bits) - 1) as i32),
            shift: _mm_cvtsi32_si128(i32::from(p.low_bits)),
        }),
        ascii_direct: k[0] == 0 && units.single.iter().any(|&(lo, hi)| lo == 0 && hi >= 0xFF),
        swap,
        bytes: units.bytes,
        lanes: match units.bytes {
            2 => Lanes::Short(Short::new(shape, units, pair, swap)),
            _ => Lanes::Quarters(Quarters::new(shape, units, swap)),
        },
    }
}

/// The kernel over `input`, with `tail` its last units from a padded copy
/// (else up to where its windows reach): units taken and bytes written.
///
/// # Safety
/// The machine must have AVX-512 F/BW/VL/VBMI/VBMI2 and BMI2, `units` be
/// normalised with a width of 2 or 4, `pair` fit in 16 bits and come only
/// with a width of 2, and `out` be valid for writes of `4 * input.len()`
/// bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
pub(super) unsafe fn convert(
    (shape, units, pair): (&Shape, &Units, Option<&Pair>),
    input: &[u8],
    out: *mut u8,
    tail: bool,
) -> (usize, usize) {
    // (Made here, once, and not returned: the constants are kilobytes.)
    let c = consts(shape, units, pair);
    // SAFETY: the caller's guarantee, and `c` is made from them.
    unsafe { convert_with(&c, shape, input, out, tail) }
}

/// [`convert`] with constants made before, by [`consts`] from `shape` and
/// units and a pair as [`convert`] asks them.
///
/// # Safety
/// As [`convert`]'s, and `c` made as said.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
pub(super) unsafe fn convert_with(c: &Consts, shape: &Shape, input: &[u8], out: *mut u8, tail: bool) -> (usize, usize) {
    // SAFETY: the caller's guarantee.
    let (mut taken, mut written) = unsafe { windows::<true>(c, input, out) };
    // The last units, which the kernel's windows do not reach, once more from
    // a copy followed by a sequence too long for the kernel, which stops it.
    let rest = &input[taken..];
    if tail && rest.len() < TAIL {
        let (first, last) = shape.continuation;
        let mut padded = [first; TAIL + 72];
        padded[..rest.len()].copy_from_slice(rest);
        padded[rest.len()] = if last < 0xFF { last + 1 } else { first - 1 };
        // SAFETY: as above; the copy's sequences are the input's, so the
        // kernel writes at most four bytes per unit of `rest` it takes.
        let (t, w) = unsafe { windows::<false>(c, &padded, out.add(written)) };
        (taken, written) = (taken + t.min(rest.len()), written + w);
    }
    (taken, written)
}

#[cfg(all(test, feature = "std"))]
std::thread_local! {
    /// The windows the general path took on this thread, for the tests that
    /// check the windows of [`Lanes`] do the work.
    pub(super) static GENERAL: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

/// The kernel's windows: units taken and bytes written. With `WHOLE`, the
/// fast windows store whole vectors, past the units they write (up to four
/// bytes per unit of the window: within `out` as every window starts 65
/// units before the input's end and `w <= 4 * i`); else only what they
/// write (for the padded copy of the last units, past which `out` ends).
///
/// # Safety
/// The machine must have AVX-512 F/BW/VL/VBMI/VBMI2 and BMI2, `c` be made
/// by [`consts`] from units and a pair as [`convert`] asks them, and `out` be
/// valid for writes of `4 * input.len()` bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
unsafe fn windows<const WHOLE: bool>(c: &Consts, input: &[u8], out: *mut u8) -> (usize, usize) {
    let (mut i, mut w) = (0, 0);
    // Invariant: `w <= 4 * i`. Each window reads 65 units from `i` and
    // writes at most four bytes per unit it takes.
    while i + 65 <= input.len() {
        // SAFETY (both): the caller's guarantees, and the invariant.
        (i, w) = match &c.lanes {
            Lanes::Short(short) => unsafe {
                fast(c, input, (i, w), out, |p, _, leads, next_is_lead, out| {
                    short.window::<WHOLE>(p, leads, next_is_lead, out)
                })
            },
            Lanes::Quarters(quarters) => unsafe {
                fast(c, input, (i, w), out, |_, x, leads, next_is_lead, out| {
                    quarters.window::<WHOLE>(x, leads, next_is_lead, out)
                })
            },
        };
        if i + 65 > input.len() {
            break;
        }
        #[cfg(all(test, feature = "std"))]
        GENERAL.with(|n| n.set(n.get() + 1));
        // SAFETY: `i + 64 <= input.len()`.
        let x = unsafe { _mm512_loadu_si512(input.as_ptr().add(i).cast()) };
        let (leads, next_is_lead) = marks(c, x, input[i + 64]);
        // Bit `j` set where unit `j` is the last of its sequence.
        let ends = leads >> 1 | u64::from(next_is_lead) << 63;
        // SAFETY: 65 units readable from `i`; `w <= 4 * i`, and a window
        // writes at most four bytes per unit it takes.
        let (took, wrote, whole) = unsafe { window(c, x, leads, ends, out.add(w)) };
        (i, w) = (i + took, w + wrote);
        if !whole || took == 0 {
            break;
        }
    }
    (i, w)
}

/// The leads of the 64 units of `x`, and whether the unit after them,
/// `next`, is one.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
#[inline]
fn marks(c: &Consts, x: __m512i, next: u8) -> (u64, bool) {
    let cont = _mm512_cmple_epu8_mask(_mm512_sub_epi8(x, c.first), c.span);
    (!cont, next.wrapping_sub(c.first_unit) > c.span_unit)
}

/// The windows from `i` (written from `w`) that are ASCII or that `window`
/// takes (given the window's address, its units, their leads and whether
/// the unit after them is one, and where to write): where they end.
///
/// # Safety
/// As [`windows`], with `w <= 4 * i`; `window` must read at most 65 units
/// from its address and write within four bytes per unit of its window
/// (which `windows` leaves room for: see its docs).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
#[inline]
unsafe fn fast<F>(
    c: &Consts,
    input: &[u8],
    (mut i, mut w): (usize, usize),
    out: *mut u8,
    mut window: F,
) -> (usize, usize)
where
    F: FnMut(*const u8, __m512i, u64, bool, *mut u8) -> Option<(usize, usize)>,
{
    while i + 65 <= input.len() {
        // SAFETY: `i + 64 <= input.len()`.
        let (p, x) = unsafe { (input.as_ptr().add(i), _mm512_loadu_si512(input.as_ptr().add(i).cast())) };
        let (leads, next_is_lead) = marks(c, x, input[i + 64]);
        if leads == u64::MAX && next_is_lead && c.ascii_direct {
            // SAFETY: 64 units taken, at most `4 * 64` bytes written.
            w += unsafe { widen64(c.bytes, c.swap.is_some(), x, out.add(w)) };
            i += 64;
            continue;
        }
        // SAFETY: the caller's guarantee for `window`: 65 units readable
        // from `p`, and `w <= 4 * i`.
        match window(p, x, leads, next_is_lead, unsafe { out.add(w) }) {
            Some((took, wrote)) => (i, w) = (i + took, w + wrote),
            None => break,
        }
    }
    (i, w)
}

/// Converts the sequences of the window `x` that end in it: units taken,
/// bytes written, and whether every one was written (else the run stops
/// before the first value the target does not write, or a sequence of
/// five units or more).
///
/// # Safety
/// `out` must be valid for writes of four bytes per unit taken.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
#[inline]
unsafe fn window(c: &Consts, x: __m512i, leads: u64, ends: u64, out: *mut u8) -> (usize, usize, bool) {
    let iota = _mm512_set_epi8(
        63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36,
        35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8,
        7, 6, 5, 4, 3, 2, 1, 0,
    );
    let mut starts = _mm512_maskz_compress_epi8(leads, iota);
    let mut lasts = _mm512_maskz_compress_epi8(ends, iota);
    // Sequences in the window: as many as ends, if each has a start (a
    // window of valid input starts with one), and of one to four units.
    // Where the window starts with a lead and holds no four continuation
    // units in a row, that is every end, told by the masks alone (the
    // compressed lists are off the path from one window to the next).
    let cont = !leads;
    let long = cont & cont >> 1 & cont >> 2 & cont >> 3;
    let count = if leads & 1 == 1 && long == 0 {
        ends.count_ones() as usize
    } else {
        let short = _mm512_cmple_epu8_mask(_mm512_sub_epi8(lasts, starts), _mm512_set1_epi8(3));
        (ends.count_ones().min(leads.count_ones()) as usize).min(short.trailing_ones() as usize)
    };
    // Where the `k`-th unit of `mask` is.
    let nth = |mask: u64, k: usize| _pdep_u64(1 << k, mask).trailing_zeros() as usize;
    let (mut done, mut wrote) = (0, 0);
    while done < count {
        let lanes = (count - done).min(16);
        // SAFETY: `done` sequences took at least `done` units (the start of
        // sequence `done`) and wrote at most four bytes each.
        let (n, bytes) = unsafe { sixteen(c, x, starts, lasts, lanes, out.add(wrote)) };
        (done, wrote) = (done + n, wrote + bytes);
        if n < lanes {
            return (nth(leads, done), wrote, false);
        }
        starts = _mm512_alignr_epi32::<4>(_mm512_setzero_si512(), starts);
        lasts = _mm512_alignr_epi32::<4>(_mm512_setzero_si512(), lasts);
    }
    let took = if count == 0 { 0 } else { nth(ends, count - 1) + 1 };
    (took, wrote, count == ends.count_ones() as usize)
}

/// Up to sixteen sequences (the low `lanes` bytes of `starts` and
/// `lasts`): the sequences written and the bytes written, stopping before
/// the first value the target does not write.
///
/// # Safety
/// `out` must be valid for writes of four bytes per sequence written.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
#[inline]
unsafe fn sixteen(
    c: &Consts,
    x: __m512i,
    starts: __m512i,
    lasts: __m512i,
    lanes: usize,
    out: *mut u8,
) -> (usize, usize) {
    let first = _mm512_cvtepu8_epi32(_mm512_castsi512_si128(starts));
    let last = _mm512_cvtepu8_epi32(_mm512_castsi512_si128(lasts));
    // Each lane's byte 0 in all four of its bytes.
    let spread = _mm512_set4_epi32(0x0C0C_0C0C, 0x0808_0808, 0x0404_0404, 0);
    let replicate = |v: __m512i| _mm512_shuffle_epi8(v, spread);
    let minus1 = _mm512_sub_epi32(last, first);
    // Byte `b` of a lane gathers the unit `b` places before the last, if
    // the sequence has more than `b` units.
    let index = _mm512_sub_epi8(replicate(last), _mm512_set1_epi32(0x0302_0100));
    let inside = _mm512_cmple_epu8_mask(_mm512_set1_epi32(0x0302_0100), replicate(minus1));
    let units = _mm512_maskz_permutexvar_epi8(inside, index, x);
    let pairs = _mm512_maddubs_epi16(units, _mm512_set1_epi16(0x4001));
    let raw = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x1000_0001));
    let v = _mm512_sub_epi32(raw, _mm512_permutexvar_epi32(minus1, c.bias));
    let live: u16 = if lanes == 16 { u16::MAX } else { (1 << lanes) - 1 };
    let within = |lo: __m512i, width: __m512i| _mm512_cmple_epu32_mask(_mm512_sub_epi32(v, lo), width);
    let single = within(c.single[0].0, c.single[0].1) | within(c.single[1].0, c.single[1].1);
    let paired = c.pair.as_ref().map_or(0, |p| within(p.lo, p.width) & !single);
    let ok = (single | paired) & live;
    let n = ok.trailing_ones() as usize;
    let keep = if n == 16 { u16::MAX } else { (1u16 << n) - 1 };
    // SAFETY: `n` values, at most four bytes each.
    let bytes = unsafe { store(c, v, paired & keep, keep, out) };
    (n, bytes)
}

/// Writes the lanes `keep` of `v`, those in `paired` as two units: the
/// bytes written.
///
/// # Safety
/// `out` must be valid for writes of four bytes per lane kept.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
#[inline]
unsafe fn store(c: &Consts, v: __m512i, paired: u16, keep: u16, out: *mut u8) -> usize {
    let swap = |v: __m512i| c.swap.map_or(v, |s| _mm512_shuffle_epi8(v, s));
    let n = keep.count_ones() as usize;
    if c.bytes == 4 {
        // SAFETY: `n` lanes of four bytes.
        unsafe { _mm512_mask_storeu_epi32(out.cast(), keep, swap(v)) };
        return 4 * n;
    }
    if paired == 0 {
        let words = _mm512_castsi256_si512(_mm512_cvtepi32_epi16(v));
        // SAFETY: `n` words.
        unsafe { _mm512_mask_storeu_epi16(out.cast(), u32::from(keep), swap(words)) };
        return 2 * n;
    }
    let p = c.pair.as_ref().expect("values are paired only with a pair");
    let w = _mm512_sub_epi32(v, p.bias);
    let high = _mm512_add_epi32(p.high, _mm512_srl_epi32(w, p.shift));
    let low = _mm512_add_epi32(p.low, _mm512_and_si512(w, p.mask));
    let joined = _mm512_mask_mov_epi32(v, paired, _mm512_or_si512(high, _mm512_slli_epi32::<16>(low)));
    // Word `2k` of lane `k` always, word `2k + 1` for a pair.
    let words = _pdep_u32(u32::from(keep), 0x5555_5555) | _pdep_u32(u32::from(paired), 0xAAAA_AAAA);
    let packed = _mm512_maskz_compress_epi16(words, joined);
    let total = words.count_ones();
    let mask = if total == 32 { u32::MAX } else { (1 << total) - 1 };
    // SAFETY: `total <= 2 * n` words: at most four bytes per lane kept.
    unsafe { _mm512_mask_storeu_epi16(out.cast(), mask, swap(packed)) };
    2 * total as usize
}

/// Input shorter than this after the kernel's run goes through it once more,
/// padded (its windows read 65 units).
const TAIL: usize = 136;
