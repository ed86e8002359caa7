//! The one-pass kernel into code units for 16-byte vectors on x86-64 (SSE4.1
//! and AVX2, the decoding kernel's two instantiations in `decode/x86.rs`):
//! the decoding kernel of `decode/kernel.rs` over a sink that writes each
//! step's values as the target's code units, in the registers they were
//! decoded in (`Lanes`).
//!
//! A step's four values are checked against the target's single-unit ranges
//! (and the pair's, with one) with unsigned minimums; values of one unit
//! each are packed to 16 bits or stored as they are; where a step holds a
//! pair, each lane is made as one unit or as the pair's two (high lowest)
//! and one byte shuffle (`to_units/lanes.rs`'s table, by the lanes that are
//! pairs) packs them. A step with a value the target writes neither way is
//! refused, which ends the kernel's run before it.

use core::arch::x86_64::*;

use super::lanes::{Target, PAIR_SHUFFLES};
use super::short_avx2::ShortAvx2;

type V = __m128i;
type V32 = __m128i;

/// The sink: the target's constants as vectors, and where to write.
pub(super) struct Lanes {
    pub(super) out: *mut u8,
    pub(super) written: usize,
    /// Each single-unit range as its low end and its width.
    single: [(V, V); 2],
    /// The pair's values (low end, width), bias, first units, low bits' mask
    /// and their count (a shift count vector).
    pair: Option<[V; 7]>,
    wide: bool,
    /// Each unit's bytes reversed, for a big-endian target.
    swap: Option<V>,
    /// `K(1)`, what a single-unit sequence's unit is worth more than its value.
    k1: u32,
    /// Whether every single-unit sequence's value (0–FF) is a single unit.
    bytes_single: bool,
    /// The window that decodes at every unit, made only where the machine
    /// has AVX2 (by [`Lanes::with_window`]).
    short: Option<ShortAvx2>,
}

impl Lanes {
    /// The sink for `target`, writing nothing yet.
    #[target_feature(enable = "ssse3,sse4.1")]
    pub(super) fn new(target: &Target) -> Lanes {
        let u = |x: u32| _mm_set1_epi32(x as i32);
        let range = |(lo, hi): (u32, u32)| (u(lo), u(hi.wrapping_sub(lo)));
        let swap: [u8; 16] = core::array::from_fn(|k| (k ^ (target.bytes - 1)) as u8);
        Lanes {
            out: core::ptr::null_mut(),
            written: 0,
            single: target.single.map(range),
            pair: target.pair.map(|p| {
                let (lo, span) = range((p.lo, p.hi));
                let count = _mm_cvtsi32_si128(i32::from(p.low_bits));
                [lo, span, u(p.bias), u(p.high), u(p.low), u((1 << p.low_bits) - 1), count]
            }),
            wide: target.bytes == 4,
            // SAFETY: 16 readable bytes.
            swap: target.big_endian.then(|| unsafe { _mm_loadu_si128(swap.as_ptr().cast()) }),
            k1: target.k1,
            bytes_single: target.bytes_single(),
            short: None,
        }
    }

    /// The sink with the AVX2 window of `short_avx2.rs` for `shape` into
    /// `target`, which the AVX2 instantiation of the kernel tries at each
    /// window before its steps.
    ///
    /// # Safety
    /// The machine must have AVX2, and the sink be given only to the AVX2
    /// kernel.
    pub(super) unsafe fn with_window(self, shape: &crate::Shape, target: &Target) -> Lanes {
        // SAFETY: the caller's guarantee.
        Lanes { short: Some(unsafe { ShortAvx2::new(shape, target) }), ..self }
    }

    /// The lanes of `v` in `lo..=lo + span`, as all-ones lanes.
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn within(v: V32, (lo, span): (V, V)) -> V32 {
        let d = _mm_sub_epi32(v, lo);
        _mm_cmpeq_epi32(_mm_min_epu32(d, span), d)
    }

    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn swapped(&self, v: V) -> V {
        self.swap.map_or(v, |s| _mm_shuffle_epi8(v, s))
    }

    /// Writes the first `count` lanes of `v`, all single units.
    ///
    /// # Safety
    /// `out + written` writable for 16 bytes.
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    unsafe fn singles(&mut self, v: V32, count: usize) {
        let at = self.out.wrapping_add(self.written);
        if self.wide {
            // SAFETY: the caller's 16 bytes.
            unsafe { _mm_storeu_si128(at.cast(), self.swapped(v)) };
            self.written += 4 * count;
        } else {
            // (Single units of 16 bits are at most FFFF: the pack keeps them.)
            // SAFETY: 8 of the caller's 16 bytes.
            unsafe { _mm_storel_epi64(at.cast(), self.swapped(_mm_packus_epi32(v, v))) };
            self.written += 2 * count;
        }
    }
}

#[cfg(all(test, feature = "std"))]
std::thread_local! {
    /// The windows the AVX2 window refused on this thread, for the tests
    /// that check it does the work.
    pub(super) static REFUSED: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

/// The sink for the decoding kernel's instantiation `$sink` (`sse41`, `avx2`).
macro_rules! sink {
    ($sink:ident, $features:literal) => {
        impl crate::decode::x86::$sink::Sink for Lanes {
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn four(&mut self, _: &crate::decode::x86::$sink::Consts, v: V32, count: usize) -> bool {
                let want = (1 << count) - 1;
                let single = _mm_or_si128(Lanes::within(v, self.single[0]), Lanes::within(v, self.single[1]));
                let single_bits = _mm_movemask_ps(_mm_castsi128_ps(single)) as u32 & want;
                if single_bits == want {
                    // SAFETY: the kernel leaves 16 units for the step: 64 bytes.
                    unsafe { self.singles(v, count) };
                    return true;
                }
                let Some([lo, span, bias, high, low, mask, shift]) = self.pair else { return false };
                let pairs = _mm_andnot_si128(single, Lanes::within(v, (lo, span)));
                let pair_bits = _mm_movemask_ps(_mm_castsi128_ps(pairs)) as u32 & want;
                if single_bits | pair_bits != want {
                    return false;
                }
                // Each pair lane as its high unit, and its low unit above it.
                let w = _mm_sub_epi32(v, bias);
                let first = _mm_add_epi32(high, _mm_srl_epi32(w, shift));
                let second = _mm_add_epi32(low, _mm_and_si128(w, mask));
                let joined = _mm_or_si128(first, _mm_slli_epi32::<16>(second));
                let lanes = _mm_blendv_epi8(v, joined, pairs);
                // SAFETY: a 16-byte row of the table.
                let shuffle = unsafe { _mm_loadu_si128(PAIR_SHUFFLES[pair_bits as usize].as_ptr().cast()) };
                let packed = self.swapped(_mm_shuffle_epi8(lanes, shuffle));
                // SAFETY: the kernel leaves 16 units for the step: 64 bytes.
                unsafe { _mm_storeu_si128(self.out.wrapping_add(self.written).cast(), packed) };
                self.written += 2 * (count + pair_bits.count_ones() as usize);
                true
            }

            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn sixteen(&mut self, _: &crate::decode::x86::$sink::Consts, x: V) -> bool {
                if !self.wide && self.bytes_single {
                    // Each unit less `K(1)` in a 16-bit lane: two stores of eight.
                    let k1 = _mm_set1_epi16(self.k1 as i16);
                    let zero = _mm_setzero_si128();
                    let halves = [_mm_unpacklo_epi8(x, zero), _mm_unpackhi_epi8(x, zero)];
                    for (h, units) in halves.into_iter().enumerate() {
                        let units = self.swapped(_mm_sub_epi16(units, k1));
                        // SAFETY: the kernel leaves 16 units for the step: 64
                        // bytes, of which these are 32.
                        unsafe { _mm_storeu_si128(self.out.wrapping_add(self.written + 16 * h).cast(), units) };
                    }
                    self.written += 32;
                    return true;
                }
                let k1 = _mm_set1_epi32(self.k1 as i32);
                let quarters = [x, _mm_srli_si128::<4>(x), _mm_srli_si128::<8>(x), _mm_srli_si128::<12>(x)];
                let values = quarters.map(|q| _mm_sub_epi32(_mm_cvtepu8_epi32(q), k1));
                if !self.bytes_single {
                    let all = values.iter().fold(_mm_set1_epi32(-1), |all, &v| {
                        let single = _mm_or_si128(Lanes::within(v, self.single[0]), Lanes::within(v, self.single[1]));
                        _mm_and_si128(all, single)
                    });
                    if _mm_movemask_ps(_mm_castsi128_ps(all)) != 15 {
                        return false;
                    }
                }
                for v in values {
                    // SAFETY: the kernel leaves 16 units for the step: 64 bytes,
                    // of which each quarter writes at most 16.
                    unsafe { self.singles(v, 4) };
                }
                true
            }

            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn one(&mut self, _: u64) -> bool {
                // Sequences of five units or more end the run.
                false
            }

            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn window(&mut self, p: *const u8, leads: u64, next_is_lead: bool) -> usize {
                let Some(short) = &self.short else { return 0 };
                // SAFETY: `short` is made only for the AVX2 kernel, on a
                // machine with AVX2 (`with_window`); `p .. p + 66` is
                // readable (the kernel's margin); the sink may write four
                // bytes per unit left, 80 at least: 320 bytes, of which the
                // window writes at most 288 (its contract).
                let done = unsafe { short.window(p, leads, next_is_lead, self.out.wrapping_add(self.written)) };
                let Some((took, wrote)) = done else {
                    #[cfg(all(test, feature = "std"))]
                    REFUSED.with(|n| n.set(n.get() + 1));
                    return 0;
                };
                self.written += wrote;
                took
            }
        }
    };
}

sink!(sse41, "ssse3,sse4.1");
sink!(avx2, "avx2");
