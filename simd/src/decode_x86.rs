//! The decoding kernel of `decode.rs` for x86-64 with SSSE3 and SSE4.1.

use core::arch::x86_64::*;

use crate::decode::steps::{step_index, Step, BY_MARKS, STEPS};
use crate::decode::{Shape, Word};

/// Units the kernel needs beyond a 64-unit window to load its last step.
const MARGIN: usize = 16;

/// Decodes while a 64-unit window and [`MARGIN`] more remain; returns the
/// units taken and the words written.
///
/// # Safety
/// The machine must have SSSE3 and SSE4.1, and `out` must be valid for writes
/// of `input.len()` words.
#[target_feature(enable = "ssse3,sse4.1")]
pub(crate) unsafe fn decode<W: Word>(shape: &Shape, input: &[u8], out: *mut W) -> (usize, usize) {
    let (first, last) = shape.continuation;
    let k = shape.bias();
    let c = Consts {
        first: _mm_set1_epi8(first as i8),
        span: _mm_set1_epi8((last - first) as i8),
        // SAFETY: `k` is 16 readable bytes.
        bias: unsafe { _mm_loadu_si128(k.as_ptr().cast()) },
        ascii: _mm_set1_epi32(k[0] as i32),
    };
    let (mut i, mut w) = (0, 0);
    // Invariant: `w <= i`; every step writes at most 16 words from `w` and
    // runs with `i + 16 <= input.len()`, so it writes within `out`.
    while i + 64 + MARGIN <= input.len() {
        // SAFETY: `i + 64 <= input.len()`.
        let marks = unsafe { leads(&c, input.as_ptr().add(i)) };
        if marks == u64::MAX && input[i + 64].wrapping_sub(first) > last - first {
            // 64 single-unit values (the unit after them is a lead).
            for k in 0..4 {
                // SAFETY: `i + 16 * k + 16 <= i + 64` and `w + 16 * k <= i + 16 * k`.
                unsafe {
                    store16::<W>(&c, _mm_loadu_si128(input.as_ptr().add(i + 16 * k).cast()), out.add(w + 16 * k))
                };
            }
            (i, w) = (i + 64, w + 64);
            continue;
        }
        let mut at = 0;
        // Steps look at the 12 marks after `at` (units up to 63 of the window).
        while at <= 51 {
            let rest = marks >> at;
            // SAFETY (each step below): `i + at + 16 <= i + 67 <= input.len()`
            // and `w <= i + at`, as the invariant says.
            let p = unsafe { input.as_ptr().add(i + at) };
            if at > 47 {
                // Too near the window's end to see a sixteenth single unit end.
                if rest == u64::MAX >> at {
                    break;
                }
            } else if rest & 0x1_FFFF == 0x1_FFFF {
                // Seventeen leads in a row: sixteen single-unit values.
                unsafe { store16::<W>(&c, _mm_loadu_si128(p.cast()), out.add(w)) };
                (at, w) = (at + 16, w + 16);
                continue;
            } else if let Some((units, step)) = uniform(rest) {
                // Four values of one length: a predictable branch instead of
                // a lookup the next step would wait for.
                unsafe { store4::<W>(&c, &STEPS[step], _mm_loadu_si128(p.cast()), out.add(w)) };
                (at, w) = (at + units, w + 4);
                continue;
            }
            let e = usize::from(BY_MARKS[(rest >> 1 & 0xFFF) as usize]);
            let count = e >> 13;
            if count > 0 {
                let step = &STEPS[e & 0x1FF];
                unsafe { store4::<W>(&c, step, _mm_loadu_si128(p.cast()), out.add(w)) };
                (at, w) = (at + (e >> 9 & 15), w + count);
                continue;
            }
            // A sequence of five units or more: it ends at the next mark, which
            // must lie in this window.
            let len = (rest >> 1).trailing_zeros() as usize + 1;
            if at + len > 64 {
                if at == 0 {
                    return (i, w);
                }
                break;
            }
            let v = shape.value(&input[i + at..i + at + len]);
            // SAFETY: `w <= i + at < input.len()`.
            unsafe { out.add(w).write(W::from_u64(v)) };
            (at, w) = (at + len, w + 1);
        }
        i += at;
    }
    (i, w)
}

/// The units and the step when the marks after a lead say that four values
/// of `n` units follow, `n` 3 or 4 (units `0, n, …, 4n` are leads, and none
/// between them): Chinese text, emoji. Not for two units: Cyrillic words are
/// too short for four letters in a row to be the rule, and the branch would
/// be mispredicted (measured 25 % slower on Russian).
#[inline(always)]
fn uniform(rest: u64) -> Option<(usize, usize)> {
    const fn run(n: usize) -> (u64, u64, usize) {
        let marks = 1 | 1 << n | 1 << (2 * n) | 1 << (3 * n) | 1 << (4 * n);
        (marks, (1 << (4 * n + 1)) - 1, step_index(&[n as u8; 4], 4))
    }
    const RUNS: [(u64, u64, usize); 2] = [run(3), run(4)];
    let [three, four] = RUNS;
    if rest & three.1 == three.0 {
        Some((12, three.2))
    } else if rest & four.1 == four.0 {
        Some((16, four.2))
    } else {
        None
    }
}

struct Consts {
    first: __m128i,
    span: __m128i,
    bias: __m128i,
    ascii: __m128i,
}

/// A bit per unit of the 64 at `p`: set when it is no continuation unit.
///
/// # Safety
/// `p .. p + 64` must be readable.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
unsafe fn leads(c: &Consts, p: *const u8) -> u64 {
    let mut marks = 0u64;
    for k in 0..4 {
        // SAFETY: within the 64 bytes the caller vouches for.
        let x = unsafe { _mm_loadu_si128(p.add(16 * k).cast()) };
        let d = _mm_sub_epi8(x, c.first);
        let cont = _mm_cmpeq_epi8(_mm_min_epu8(d, c.span), d);
        marks |= u64::from(!(_mm_movemask_epi8(cont) as u16)) << (16 * k);
    }
    marks
}

/// Up to four values: gathered into lanes, weighed, less their `K`.
///
/// # Safety
/// `out .. out + 4` must be writable.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
unsafe fn store4<W: Word>(c: &Consts, step: &Step, x: __m128i, out: *mut W) {
    // SAFETY: `Step` is 16-aligned pairs of 16 bytes.
    let (gather, bias) =
        unsafe { (_mm_load_si128(step.gather.as_ptr().cast()), _mm_load_si128(step.bias.as_ptr().cast())) };
    let units = _mm_shuffle_epi8(x, gather);
    let pairs = _mm_maddubs_epi16(units, _mm_set1_epi16(0x4001));
    let raw = _mm_madd_epi16(pairs, _mm_set1_epi32(0x1000_0001));
    let v = _mm_sub_epi32(raw, _mm_shuffle_epi8(c.bias, bias));
    // SAFETY: the caller's guarantee.
    unsafe { store::<W>(v, out) }
}

/// Sixteen single-unit values, each less `K(1)`.
///
/// # Safety
/// `out .. out + 16` must be writable.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
unsafe fn store16<W: Word>(c: &Consts, x: __m128i, out: *mut W) {
    let quarters = [x, _mm_srli_si128::<4>(x), _mm_srli_si128::<8>(x), _mm_srli_si128::<12>(x)];
    for (k, q) in quarters.into_iter().enumerate() {
        let v = _mm_sub_epi32(_mm_cvtepu8_epi32(q), c.ascii);
        // SAFETY: within the caller's 16 words.
        unsafe { store::<W>(v, out.add(4 * k)) };
    }
}

/// Four 32-bit lanes as four words.
///
/// # Safety
/// `out .. out + 4` must be writable.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
unsafe fn store<W: Word>(v: __m128i, out: *mut W) {
    // SAFETY (both arms): four words of `W` are 16 or 32 writable bytes.
    if W::WIDE {
        unsafe {
            _mm_storeu_si128(out.cast(), _mm_cvtepu32_epi64(v));
            _mm_storeu_si128(out.cast::<__m128i>().add(1), _mm_cvtepu32_epi64(_mm_srli_si128::<8>(v)));
        }
    } else {
        unsafe { _mm_storeu_si128(out.cast(), v) };
    }
}
