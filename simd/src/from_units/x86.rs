//! The kernel of `from_units/kernel.rs` for x86-64, instantiated twice: for
//! SSE4.1 (`sse41`) and for AVX2 (`avx2`: the same 16-byte lanes, in the
//! three-operand encoding, where the machine has it).

use core::arch::x86_64::*;

use super::lanes::{Plan, SHUFFLES};

/// The helpers `kernel.rs` needs, for `$features`.
macro_rules! helpers {
    ($features:literal) => {
        use super::*;

        type L = __m128i;
        type B = __m128i;

        /// A range test: low end and width in every lane.
        type Range = (L, L);

        /// A pair's units and values, as vectors.
        pub(crate) struct PairConsts {
            high: Range,
            low: Range,
            values: Range,
            bias: L,
            high_base: L,
            low_base: L,
            shift: __m128i,
        }

        /// The plan as vectors.
        pub(crate) struct Consts {
            bytes: usize,
            swap: Option<B>,
            single: [Range; 2],
            pair: Option<PairConsts>,
            allowed: [Range; 2],
            forms: Range,
            last: [L; 3],
            lead: [L; 4],
            continuation: L,
            /// `bytes_below` in every 16-bit lane, and `lead[0]`.
            below: Option<(B, B)>,
        }

        /// The plan's constants.
        #[target_feature(enable = $features)]
        pub(crate) fn consts(plan: &Plan) -> Consts {
            let range = |(lo, width): (u32, u32)| (splat(lo), splat(width));
            let swap: [u8; 16] = core::array::from_fn(|k| (k ^ (plan.bytes - 1)) as u8);
            Consts {
                bytes: plan.bytes,
                // SAFETY: 16 readable bytes.
                swap: plan.big_endian.then(|| unsafe { _mm_loadu_si128(swap.as_ptr().cast()) }),
                single: plan.single.map(range),
                pair: plan.pair.map(|p| PairConsts {
                    high: range(p.high),
                    low: range(p.low),
                    values: range(p.values),
                    bias: splat(p.bias),
                    high_base: splat(p.high_base),
                    low_base: splat(p.low_base),
                    shift: _mm_cvtsi32_si128(i32::from(p.low_bits)),
                }),
                allowed: plan.allowed.map(range),
                forms: range((plan.first, plan.top - plan.first)),
                last: plan.last.map(|l| splat(l)),
                lead: plan.lead.map(|l| splat(u32::from(l))),
                continuation: splat(u32::from(plan.continuation)),
                below: plan.bytes_below.map(|t| (_mm_set1_epi16(t as i16), _mm_set1_epi16(i16::from(plan.lead[0])))),
            }
        }

        /// Sixteen bytes at `p`, each unit's in the machine's order.
        ///
        /// # Safety
        /// `p .. p + 16` must be readable.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn load(c: &Consts, p: *const u8) -> B {
            // SAFETY: the caller's guarantee; the load is unaligned.
            let x = unsafe { _mm_loadu_si128(p.cast()) };
            c.swap.map_or(x, |s| _mm_shuffle_epi8(x, s))
        }

        #[target_feature(enable = $features)]
        #[inline]
        fn splat(x: u32) -> L {
            _mm_set1_epi32(x as i32)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn add(a: L, b: L) -> L {
            _mm_add_epi32(a, b)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn sub(a: L, b: L) -> L {
            _mm_sub_epi32(a, b)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn and(a: L, b: L) -> L {
            _mm_and_si128(a, b)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn or(a: L, b: L) -> L {
            _mm_or_si128(a, b)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn xor(a: L, b: L) -> L {
            _mm_xor_si128(a, b)
        }
        /// `a & !b`.
        #[target_feature(enable = $features)]
        #[inline]
        fn andnot(a: L, b: L) -> L {
            _mm_andnot_si128(b, a)
        }
        /// Unsigned `a > b`, as all-ones lanes.
        #[target_feature(enable = $features)]
        #[inline]
        fn gt(a: L, b: L) -> L {
            _mm_xor_si128(_mm_cmpeq_epi32(_mm_max_epu32(a, b), b), _mm_set1_epi32(-1))
        }
        /// `a` where `mask` is set, else `b`.
        #[target_feature(enable = $features)]
        #[inline]
        fn select(mask: L, a: L, b: L) -> L {
            _mm_blendv_epi8(b, a, mask)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn shl<const N: i32>(v: L) -> L {
            _mm_slli_epi32::<N>(v)
        }
        #[target_feature(enable = $features)]
        #[inline]
        fn shr<const N: i32>(v: L) -> L {
            _mm_srli_epi32::<N>(v)
        }
        /// A bit per lane of `mask` (lane `k` bit `k`).
        #[target_feature(enable = $features)]
        #[inline]
        fn bits(mask: L) -> u32 {
            _mm_movemask_ps(_mm_castsi128_ps(mask)) as u32
        }
        /// The lanes of `v` in the range, as all-ones lanes.
        #[target_feature(enable = $features)]
        #[inline]
        fn within(v: L, (lo, width): Range) -> L {
            let d = _mm_sub_epi32(v, lo);
            _mm_cmpeq_epi32(_mm_min_epu32(d, width), d)
        }
        /// A pair's value from its two units.
        #[target_feature(enable = $features)]
        #[inline]
        fn join(p: &PairConsts, high: L, low: L) -> L {
            let bits = _mm_or_si128(_mm_sll_epi32(sub(high, p.high_base), p.shift), sub(low, p.low_base));
            add(bits, p.bias)
        }
        /// The eight 16-bit units of `x` as two groups of 32-bit lanes.
        #[target_feature(enable = $features)]
        #[inline]
        fn halves(x: B) -> (L, L) {
            (_mm_cvtepu16_epi32(x), _mm_cvtepu16_epi32(_mm_srli_si128::<8>(x)))
        }
        /// Four 32-bit units as lanes.
        #[target_feature(enable = $features)]
        #[inline]
        fn lanes(x: B) -> L {
            x
        }
        /// Whether all sixteen 16-bit units of `x` and `y` are below `bytes_below`.
        #[target_feature(enable = $features)]
        #[inline]
        fn bytes16(c: &Consts, x: B, y: B) -> bool {
            let Some((t, _)) = c.below else { return false };
            let over = _mm_or_si128(_mm_subs_epu16(x, t), _mm_subs_epu16(y, t));
            _mm_testz_si128(over, over) == 1
        }
        /// Whether all sixteen 32-bit units of `x` are below `bytes_below`.
        #[target_feature(enable = $features)]
        #[inline]
        fn bytes32(c: &Consts, x: &[B; 4]) -> bool {
            let Some((t, _)) = c.below else { return false };
            // (Units of 32 bits below 10000 pack to 16 bits as they are.)
            let high = _mm_or_si128(_mm_or_si128(x[0], x[1]), _mm_or_si128(x[2], x[3]));
            let packed = [_mm_packus_epi32(x[0], x[1]), _mm_packus_epi32(x[2], x[3])];
            let over = _mm_or_si128(_mm_subs_epu16(packed[0], t), _mm_subs_epu16(packed[1], t));
            _mm_testz_si128(high, _mm_set1_epi32(0xFFFF_0000u32 as i32)) == 1 && _mm_testz_si128(over, over) == 1
        }
        /// Sixteen 16-bit units below `bytes_below` as their bytes.
        ///
        /// # Safety
        /// `out .. out + 16` must be writable.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn narrow16(c: &Consts, x: B, y: B, out: *mut u8) {
            let lead = c.below.map_or(_mm_setzero_si128(), |(_, l)| l);
            let byte = _mm_set1_epi16(0xFF);
            let (x, y) = (_mm_and_si128(_mm_add_epi16(x, lead), byte), _mm_and_si128(_mm_add_epi16(y, lead), byte));
            // SAFETY: the caller's guarantee.
            unsafe { _mm_storeu_si128(out.cast(), _mm_packus_epi16(x, y)) };
        }
        /// Sixteen 32-bit units below `bytes_below` as their bytes.
        ///
        /// # Safety
        /// `out .. out + 16` must be writable.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn narrow32(c: &Consts, x: &[B; 4], out: *mut u8) {
            let (x, y) = (_mm_packus_epi32(x[0], x[1]), _mm_packus_epi32(x[2], x[3]));
            // SAFETY: the caller's guarantee.
            unsafe { narrow16(c, x, y, out) };
        }
        /// The lanes' forms, packed by the shuffle `index`, at `out`.
        ///
        /// # Safety
        /// `out .. out + 16` must be writable.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn pack(bytes: L, index: usize, out: *mut u8) {
            // SAFETY: a 16-byte row of the table; the caller's guarantee.
            unsafe {
                let shuffle = _mm_loadu_si128(SHUFFLES[index].as_ptr().cast());
                _mm_storeu_si128(out.cast(), _mm_shuffle_epi8(bytes, shuffle));
            }
        }

        crate::from_units::kernel::from_units_kernel!($features);
    };
}

/// The kernel with SSSE3 and SSE4.1.
pub(super) mod sse41 {
    helpers!("ssse3,sse4.1");
}

/// The kernel with AVX2.
pub(super) mod avx2 {
    helpers!("avx2");
}
